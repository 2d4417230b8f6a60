// At the end of a game against bots (issue 56): the same table again with every bot one level
// easier or harder on the server's ladder (facts.js `bots`, weakest first). A new room, made
// as the front page makes one (POST /api/rooms, docs/web-protocol.md): the same seats, rules
// and title; each bot named by the server from its new level.
import { createRoom } from "./api.js";
import { h } from "./dom.js";
import { FACTS } from "./facts.js";
import { t } from "./i18n.js";

const LADDER = FACTS.bots;

/** Whether the viewer plays alone against bots: a seat of its own, every other seat a bot. */
export function againstBots(view) {
  return view.you !== null && view.you !== undefined
    && view.seats.every((seat, i) => i === view.you || Boolean(seat.bot));
}

/** The room request of this table with each bot `step` levels along the ladder (a bot at
 * its end stays there), or null when no bot would change. */
export function shiftedRoom(room, seats, step) {
  let changed = false;
  const asked = seats.map((seat) => {
    if (!seat.bot) return { name: seat.name };
    const at = LADDER.indexOf(seat.bot);
    const level = LADDER[Math.min(LADDER.length - 1, Math.max(0, at + step))] ?? seat.bot;
    changed ||= level !== seat.bot;
    return { bot: level };
  });
  if (!changed) return null;
  const request = { seats: asked, rules: { ...room.rules } };
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
    const request = shiftedRoom(view.state.room, view.seats, step);
    return request ? h("button", { type: "button", "data-key": key, onclick: () => start(request) }, t(words)) : null;
  };
  const offers = [offer(-1, "easier", "end.easier"), offer(1, "harder", "end.harder")].filter(Boolean);
  return offers.length ? [h("span", { class: "levels" }, offers), error] : null;
}
