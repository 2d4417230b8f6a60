// The board of a room: every seat's grid, the piles, the legal choices, the log and scores.
import { h, replace } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { animate, motionMap } from "./motion.js";
import { describeEvents, explainRound, nameOf, winnersText } from "./text.js";

// Action ids of the engine (docs/web-protocol.md).
export const REVEAL = 0, DRAW = 12, TAKE_DISCARD = 13, SWAP = 14, FLIP = 26, NEXT_ROUND = 38;
const LADDER = ["random", "greedy", "basic", "expected", "search"];

/** Draw the room into `root`. `ui` keeps what only this page knows (flip mode, dismissed panels). */
export function renderBoard(root, game, ui) {
  const state = game.state;
  if (!state) {
    replace(root, h("p", { class: "notice" }, t("room.connecting")));
    return;
  }
  const view = viewOf(game, ui);
  root.dataset.number = String(state.number); // the step shown (tests wait on it)
  replace(
    root,
    header(game, view),
    h("div", { class: "layout" },
      h("section", { class: "table", "aria-label": "table" },
        status(game, view),
        others(view),
        centre(view),
        view.you === null ? null : mine(view)),
      h("aside", { class: "side" },
        gameOver(view), roundPanel(game, view), scores(view), log(game, view),
        chat(game, view), hostPanel(game, view))),
  );
}

/** What the board needs, computed once per render. */
function viewOf(game, ui) {
  const state = game.state;
  const obs = state.observation;
  const you = state.you;
  const mine = you !== null && state.seats[you] && !state.seats[you].bot;
  const legal = new Set(mine ? obs.legal_actions : []);
  if (!(obs.held !== null && obs.source === "deck" && legal.size)) ui.flip = false;
  return { game, ui, state, obs, you, legal, seats: state.seats, act: (a) => play(game, ui, a),
    motion: motionMap(game.motions) };
}

function play(game, ui, action) {
  ui.flip = false;
  game.move(action);
}

// --- the top ----------------------------------------------------------------------

function header(game, view) {
  const room = view.state.room;
  const link = `${location.origin}/r/${room.code}`;
  const rules = t("rules.summary", { target: room.rules.target_score, penalty: t(`penalty.${room.rules.ender_penalty}`) });
  if (view.ui.replay) {
    return h("header", { class: "room-head" },
      h("h1", {}, room.title, " ", h("span", { class: "badge replay-badge" }, t("replay.badge"))),
      h("p", { class: "rules" }, room.code ? [t("room.code", { code: room.code }), " · "] : null,
        rules, " · ", t("room.round", { n: view.obs.round + 1 })),
      view.ui.replay());
  }
  return h("header", { class: "room-head" },
    h("h1", {}, room.title),
    h("p", { class: "rules" },
      t("room.code", { code: room.code }), " · ", rules,
      " · ", t("room.round", { n: view.obs.round + 1 })),
    h("p", { class: "links" },
      h("input", { class: "link", readonly: true, value: link, "aria-label": t("room.copy"), "data-key": "link" }),
      h("button", { type: "button", "data-key": "copy", onclick: (e) => copy(link, e.target) }, t("room.copy")),
      h("a", { href: `/r/${room.code}?watch`, class: "watch-link" }, t("room.watchLink"))),
    game.status === "reconnecting" ? h("p", { class: "notice", role: "status" }, t("room.reconnecting")) : null);
}

function copy(text, button) {
  navigator.clipboard?.writeText(text).then(() => { button.textContent = t("room.copied"); }, () => {});
}

function status(game, view) {
  return h("div", { class: "status" },
    h("p", { class: "prompt", role: "status", "aria-live": "polite" }, prompt(view)),
    game.deadline ? h("p", { class: "timer", "data-key": "timer", "aria-live": "off" }) : null,
    game.error ? h("p", { class: "error", role: "alert" }, t("error", { message: errorText(game.error) })) : null,
    view.you === null && !view.ui.replay ? h("p", { class: "spectating" }, t("room.spectating")) : null);
}

/** The line that says whose turn it is and what to do. */
function prompt(view) {
  const { obs, legal, seats, you } = view;
  const name = nameOf(seats, obs.current_player, you);
  if (obs.phase === "game_over") {
    return view.state.winners?.length ? `${t("turn.over")}: ${winnersText(view.state.winners, seats, you)}` : t("turn.over");
  }
  if (obs.phase === "round_over") return legal.has(NEXT_ROUND) ? t("turn.nextRound") : t("turn.waitRound", { name });
  if (!legal.size) return obs.phase === "reveal" ? t("turn.revealOther", { name }) : t("turn.theirs", { name });
  if (obs.phase === "reveal") return `${t("turn.yours")}: ${t("turn.reveal")}`;
  if (obs.held === null) return `${t("turn.yours")}: ${t("turn.takeOrDraw")}`;
  if (view.ui.flip) return t("turn.flip");
  return t(obs.source === "discard" ? "turn.placeDiscard" : "turn.placeDrawn", { card: obs.held });
}

// --- grids ----------------------------------------------------------------------------

function others(view) {
  const seats = view.seats.map((_, seat) => seat).filter((seat) => seat !== view.you);
  return h("div", { class: view.you === null ? "others watching" : "others" },
    seats.map((seat) => seatPanel(view, seat, "small")));
}

function mine(view) {
  return h("div", { class: "mine" }, seatPanel(view, view.you, "large"));
}

function seatPanel(view, seat, size) {
  const { obs, seats, you } = view;
  const info = seats[seat];
  const turn = obs.current_player === seat && obs.phase !== "game_over";
  const shown = obs.grids[seat].flat().filter((c) => typeof c === "number").reduce((a, b) => a + b, 0);
  const badges = [
    info.bot ? t("seat.bot", { level: info.bot }) : null,
    info.human && !info.claimed ? t("seat.free") : null,
    info.human && info.claimed && !info.connected ? t("seat.away") : null,
  ].filter(Boolean);
  return h("article", { class: `seat ${size}${turn ? " turn" : ""}`, "aria-label": info.name },
    h("h2", {},
      h("span", { class: "name" }, info.name), seat === you ? ` ${t("seat.you")}` : "",
      badges.map((b) => h("span", { class: "badge" }, b))),
    grid(view, seat, size),
    h("p", { class: "tally" }, t("seat.shows", { n: shown }), " · ", t("seat.total", { n: obs.totals[seat] })));
}

function grid(view, seat, size) {
  const cells = view.obs.grids[seat];
  const owner = seat === view.you ? t("card.you") : t("card.of", { name: view.seats[seat].name });
  const buttons = [];
  cells.forEach((row, r) => row.forEach((value, c) => {
    const k = r * 4 + c;
    const action = seat === view.you ? gridAction(view, k, value) : null;
    const label = t("card.label", { owner, row: r + 1, col: c + 1, value: cardWords(value) });
    const shown = card(value, { label, action: action === null ? null : () => view.act(action), key: `cell-${seat}-${k}` });
    buttons.push(animate(shown, view.motion.cell(seat, k), view.motion.now));
  }));
  return h("div", { class: `grid ${size}` }, buttons);
}

/** The action a click on your card at k plays now, or null. */
function gridAction(view, k, value) {
  const { legal, obs, ui } = view;
  if (legal.has(REVEAL + k)) return REVEAL + k;
  if (obs.held === null) return null;
  if (ui.flip) return legal.has(FLIP + k) ? FLIP + k : null;
  return legal.has(SWAP + k) && value !== "x" ? SWAP + k : null;
}

function cardWords(value) {
  if (value === null) return t("card.down");
  if (value === "x") return t("card.cleared");
  return String(value);
}

/** A card: a button when clicking it plays a move, else a labelled picture. */
export function card(value, { label, action = null, key = undefined, extra = "" }) {
  const kind = value === null ? "down" : value === "x" ? "cleared" : band(value);
  const attrs = {
    class: `card ${kind}${action ? " playable" : ""}${extra}`,
    "aria-label": label,
    "data-key": key,
  };
  const face = value === null || value === "x" ? "" : String(value);
  if (action) return h("button", { ...attrs, type: "button", onclick: action }, face);
  return h("span", { ...attrs, role: "img" }, face);
}

function band(value) {
  if (value < 0) return "neg";
  if (value === 0) return "zero";
  if (value <= 4) return "low";
  if (value <= 8) return "mid";
  return "high";
}

// --- the piles and the choices --------------------------------------------------------------

function centre(view) {
  const { obs, legal, seats, you } = view;
  const top = obs.discard_pile.length ? obs.discard_pile[obs.discard_pile.length - 1] : null;
  const drawLabel = t("pile.draw", { n: obs.draw_pile_size });
  const discardLabel = top === null ? t("pile.empty") : t("pile.discard", { card: top });
  const holder = nameOf(seats, obs.current_player, you);
  const holding = obs.source !== null;
  return h("div", { class: "centre" },
    h("div", { class: "piles" },
      h("figure", {}, animate(card(null, { label: drawLabel, extra: " pile",
        action: legal.has(DRAW) ? () => view.act(DRAW) : null, key: "pile-draw" }), view.motion.pile("draw"), view.motion.now),
      h("figcaption", {}, drawLabel)),
      h("figure", {}, animate(card(top === null ? "x" : top, { label: discardLabel, extra: " pile",
        action: legal.has(TAKE_DISCARD) ? () => view.act(TAKE_DISCARD) : null, key: "pile-discard" }),
      view.motion.pile("discard"), view.motion.now),
      h("figcaption", {}, discardLabel)),
      holding ? h("figure", { class: "held" },
        card(obs.held, { label: obs.held === null ? t("pile.heldHidden", { name: holder }) : `${t("pile.held")}: ${obs.held}`, extra: " pile" }),
        h("figcaption", {}, obs.held === null ? t("pile.heldHidden", { name: holder }) : t("pile.held"))) : null),
    choices(view, top));
}

function choices(view, top) {
  const { legal, obs, ui } = view;
  const buttons = [];
  if (legal.has(TAKE_DISCARD)) buttons.push(button(t("act.take", { card: top }), () => view.act(TAKE_DISCARD), "take"));
  if (legal.has(DRAW)) buttons.push(button(t("act.draw"), () => view.act(DRAW), "draw"));
  const canFlip = [...legal].some((a) => a >= FLIP && a < NEXT_ROUND);
  if (canFlip && obs.held !== null) {
    buttons.push(ui.flip
      ? button(t("act.cancel"), () => { ui.flip = false; view.game.onChange(); }, "flip")
      : button(t("act.discard"), () => { ui.flip = true; view.game.onChange(); }, "flip"));
  }
  if (legal.has(NEXT_ROUND)) buttons.push(button(t("act.next"), () => view.act(NEXT_ROUND), "next"));
  return buttons.length ? h("div", { class: "choices" }, buttons) : null;
}

function button(label, onclick, key) {
  return h("button", { type: "button", class: "choice", onclick, "data-key": `choice-${key}` }, label);
}

// --- the side: round end, game end, scores, log, chat, host ------------------------------------

function roundPanel(game, view) {
  const summary = game.lastRound;
  if (!summary || view.ui.dismissed === summary.round) return null;
  const penalty = view.state.room.rules.ender_penalty;
  const over = view.obs.phase === "game_over"; // the last round: nothing to continue to
  return h("section", { class: "panel round-over", "aria-labelledby": "round-title" },
    h("h2", { id: "round-title" }, t("round.over", { n: summary.round })),
    h("p", { class: "explain" }, explainRound(summary, view.seats, view.you, penalty)),
    h("table", {}, h("tbody", {}, summary.scores.map((score, seat) => h("tr", {},
      h("th", { scope: "row" }, nameOf(view.seats, seat, view.you)),
      h("td", {}, summary.raw[seat] === score ? String(score) : `${summary.raw[seat]} → ${score}`),
      h("td", {}, t("seat.total", { n: totalAfter(view.state.rounds, summary.round, seat) })))))),
    over ? null : h("button", { type: "button", "data-key": "round-close",
      onclick: () => { view.ui.dismissed = summary.round; game.onChange(); } }, t("round.close")));
}

function totalAfter(rounds, number, seat) {
  return rounds.filter((r) => r.round <= number).reduce((sum, r) => sum + r.scores[seat], 0);
}

function gameOver(view) {
  if (!view.state.over || view.obs.phase !== "game_over") return null;
  const code = encodeURIComponent(view.state.room.code);
  return h("section", { class: "panel game-over", "aria-labelledby": "over-title" },
    h("h2", { id: "over-title" }, t("game.over")),
    h("p", { class: "winners" }, winnersText(view.state.winners, view.seats, view.you)),
    view.ui.replay ? null : h("button", { type: "button", class: "start", "data-key": "again",
      onclick: () => view.ui.again?.() }, t("game.again")),
    view.ui.replay ? null : h("p", { class: "row after" },
      h("a", { href: `/r/${code}/replay`, "data-key": "watch-replay",
        onclick: (e) => { if (view.ui.navigate) { e.preventDefault(); view.ui.navigate(`/r/${code}/replay`); } } },
      t("replay.watch")),
      h("a", { href: `/api/rooms/${code}/record`, download: `skyjo-${code}.json`, "data-key": "download" },
        t("replay.download"))));
}

function scores(view) {
  const rounds = view.state.rounds;
  return h("section", { class: "panel scores" },
    h("h2", {}, t("scores.title")),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, ""), rounds.map((r) => h("th", { scope: "col" }, t("scores.round", { n: r.round }))),
        h("th", { scope: "col" }, t("scores.total")))),
      h("tbody", {}, view.seats.map((seat, i) => h("tr", {},
        h("th", { scope: "row" }, nameOf(view.seats, i, view.you)),
        rounds.map((r) => h("td", {}, String(r.scores[i]))),
        h("td", { class: "total" }, String(view.obs.totals[i])))))));
}

function log(game, view) {
  const lines = describeEvents(game.events, view.seats, view.you).slice(-12);
  return h("section", { class: "panel log" },
    h("h2", {}, t("log.title")),
    h("ol", { "aria-live": "polite" }, lines.map((line) => h("li", {}, line))));
}

function chat(game, view) {
  if (view.you === null) return null;
  const input = h("input", { name: "chat", maxlength: 300, placeholder: t("chat.placeholder"),
    "aria-label": t("chat.placeholder"), "data-key": "chat-input", autocomplete: "off" });
  const form = h("form", { onsubmit: (event) => {
    event.preventDefault();
    if (input.value.trim()) game.say(input.value.trim());
    input.value = "";
  } }, input, h("button", { type: "submit" }, t("chat.send")));
  return h("section", { class: "panel chat" },
    h("h2", {}, t("chat.title")),
    h("ul", {}, game.chat.slice(-8).map((m) => h("li", {}, h("b", {}, m.name), ": ", m.text))),
    form);
}

function hostPanel(game, view) {
  if (!view.state.host || view.state.over) return null;
  const open = view.ui.hostOpen;
  return h("details", { class: "panel host", open, ontoggle: (e) => { view.ui.hostOpen = e.target.open; } },
    h("summary", {}, t("host.title")),
    view.seats.map((seat, i) => h("div", { class: "host-seat" },
      h("label", { for: `host-${i}` }, seat.name,
        seat.human && !seat.claimed ? h("span", { class: "badge" }, t("seat.free")) : null),
      h("span", { class: "host-tools" },
        h("select", { id: `host-${i}`, "data-key": `host-${i}`, onchange: (e) => game.setSeat(i, e.target.value || null) },
          h("option", { value: "", selected: seat.human }, t("host.human")),
          LADDER.map((level) => h("option", { value: level, selected: seat.bot === level }, t(`level.${level}`)))),
        seat.claimed && i !== view.you ? h("button", { type: "button", class: "remove", "data-key": `host-remove-${i}`,
          "aria-label": t("host.removeWho", { name: seat.name }), onclick: () => game.remove(i) }, t("host.remove")) : null))));
}
