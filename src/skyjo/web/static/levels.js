// At the end of a game against bots (issue 56): the same table again with every bot one level
// easier or harder on the server's ladder (facts.js `bots`, weakest first). A new room, made
// as the front page makes one (POST /api/rooms, docs/web-protocol.md): the same seats, rules,
// turn timer, bots' speed, title and listing; each bot named by the server from its new level.
import { createRoom } from "./api.js";
import { h } from "./dom.js";
import { FACTS } from "./facts.js";
import { t } from "./i18n.js";

const LADDER = FACTS.bots;

/** Whether the viewer plays alone against bots: a seat of its own, every other seat a bot's
 * (the server's rule, `Match.against_bots`: a friend's seat, taken or free, is a person's).
 * The hint, the undo and the Easier/Harder bots are offered only then. */
export function againstBots(view) {
  return view.you !== null && view.you !== undefined
    && view.seats.every((seat, i) => i === view.you || Boolean(seat.bot));
}

/** The room request of the table of `state` (a room's `state` message) with each bot `step`
 * levels along `ladder` (a bot at its end stays there), or null when no bot would change.
 * Everything else carries over (docs/web-protocol.md, `POST /api/rooms`): the seats in
 * their order (the host's by name), the rules, the turn timer, the bots' speed, the title
 * (unless the server's own) and the listing. */
export function shiftedRoom(state, step, ladder = LADDER) {
  let changed = false;
  const asked = state.seats.map((seat) => {
    if (!seat.bot) return { name: seat.name };
    const at = ladder.indexOf(seat.bot);
    const level = ladder[Math.min(ladder.length - 1, Math.max(0, at + step))] ?? seat.bot;
    changed ||= level !== seat.bot;
    return { bot: level };
  });
  if (!changed) return null;
  const { room } = state;
  const request = { seats: asked, rules: { ...room.rules }, listed: Boolean(room.listed) };
  if (state.turn_seconds) request.turn_seconds = state.turn_seconds;
  if (room.bot_speed) request.bot_speed = room.bot_speed;
  if (!room.default_title) request.title = room.title;
  return request;
}

/** "Easier bots" and "Harder bots" for the host of a finished game against bots (each only
 * when some bot can move that way); `held` says why nothing is sent while the connection is
 * down; a refusal is shown under them. */
export function levelButtons(view, held) {
  if (!view.game.hosting || !againstBots(view) || view.ui.replay) return null;
  const error = h("p", { class: "error", role: "alert", "data-key": "levels-error" });
  const start = async (request) => {
    if (held(view)) return;
    try {
      const room = await createRoom(request);
      view.ui.navigate?.(`/r/${room.code}`);
    } catch (failure) {
      error.textContent = failure.message;
    }
  };
  const offer = (step, key, words) => {
    const request = shiftedRoom(view.state, step);
    return request ? h("button", { type: "button", "data-key": key, onclick: () => start(request) }, t(words)) : null;
  };
  const offers = [offer(-1, "easier", "end.easier"), offer(1, "harder", "end.harder")].filter(Boolean);
  return offers.length ? [h("span", { class: "levels" }, offers), error] : null;
}
