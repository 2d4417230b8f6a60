// The board of a room: the whole table on one screen (every seat's grid, the piles, the
// prompt and the legal choices, the round's end), a bar on top, and the side panels
// (the room, the scores, the log, the chat, the host's seats): a column beside the
// table on a wide screen, a drawer over it on a phone. style.css lays it out.
import { announce } from "./a11y.js";
import { h, replace } from "./dom.js";
import { FACTS } from "./facts.js";
import { ruleWords } from "./variants.js";
import { LANGUAGES, joinNames, language, namedByLevel, plural, roomTitle, seatLabel, seatName, t } from "./i18n.js";
import { themeSwitch } from "./theme.js";
import { HELD, animate, fly, motionMap, places } from "./motion.js";
import { BACK_MS } from "./offline.js";
import { describeEvents, endLines, explainRound, nameOf, refusalText, spoken, winnersText } from "./text.js";
import { lastMoves, moveLine } from "./moves.js";
import { placeText, placesTable, reasonText, story } from "./ending.js";
import { levelButtons } from "./levels.js";
import { followHint, hintButton, hintLine, hintNews, outlineHint } from "./hint.js";
import { firstGameTour, tourButton } from "./tour.js";
import { keepNamesWhole } from "./fit.js";
import { rt } from "./rules-i18n.js";
import { undoButton, undoneWords } from "./undo.js";
import { askFirst, confirmPanel } from "./confirm.js";
import { turnAlert, unlockSound } from "./alerts.js";
import { playSettings } from "./prefs.js";
import { speedRow } from "./pace.js";

// Action ids of the engine (docs/web-protocol.md).
export const REVEAL = 0, DRAW = 12, TAKE_DISCARD = 13, SWAP = 14, FLIP = 26, NEXT_ROUND = 38;
const LADDER = FACTS.bots; // the server's (facts.js)
const LOG_LINES = 40;

/** Draw the room into `root`. `ui` keeps what only this page knows (flip mode, the open drawer). */
export function renderBoard(root, game, ui) {
  const state = game.state;
  if (!state) {
    // never "Connecting…" for ever: once a first try failed, the page says a game needs the connection
    replace(root, game.status === "connecting" ? h("p", { class: "notice" }, t("room.connecting"))
      : connectionNeeded(game.code, game.status === "offline"));
    return;
  }
  const view = viewOf(game, ui);
  const kept = scrolls(root);
  const had = root.contains(document.activeElement) ? document.activeElement.dataset?.key ?? "" : undefined;
  const end = ending(view); // a round's end: every grid alike, the summary in the piles' place
  const apart = view.you !== null && !end && !ui.replay; // your grid on its own, big enough to tap
  root.dataset.number = String(state.number); // the step shown (tests wait on it)
  const first = places(root, game.motions); // where the cards about to travel are now
  replace(
    root,
    h("div", {
      class: "board",
      "data-seats": view.seats.length, // style.css sizes the cards from these
      "data-others": view.seats.length - (apart ? 1 : 0),
      "data-you": view.you === null || ui.replay ? "none" : "seated", // a replay lays every grid alike
      "data-phase": view.obs.phase,
      "data-last": [...view.last.keys()].some((seat) => marked(view, seat)) || null, // the others' last moves' lines
      "data-end": end ? view.obs.phase : null,
      "data-down": view.down || null, // the connection's banner takes its lines from your grid
      onkeydown: (event) => { if (event.key === "Escape" && ui.drawer) closeDrawer(view); },
    },
    header(game, view),
    h("section", { class: "table", "aria-label": t("room.table") },
      status(game, view),
      others(view, apart),
      end ?? centre(view),
      apart ? mine(view) : null),
    side(game, view)),
    ui.after?.() ?? null, // what a page shows after the board (a replay's review), kept in the same redraw
  );
  restore(root, kept, ui);
  fly(root, game.motions, first, (value) => card(value, { label: "" }), view.motion.now);
  outlineHint(root, view);
  followHint(view);
  keepNamesWhole(root);
  if (view.down) holdMoves(root);
  if (ui.focus) {
    root.querySelector(`[data-key="${ui.focus}"]`)?.focus();
    ui.focus = null;
  } else {
    guideFocus(root, view, had);
  }
  tell(game, view);
  turnAlert(view);
  firstGameTour(view);
}

/** The control a keyboard user wants next (issue 30): your first card to turn up, the draw
 * pile when your turn begins, your grid once you hold a card (the face-down cards when
 * you chose to discard it), "next round" at a round's end, the game-over panel's first
 * control (the next game's when it is offered); null while others play. */
function focusTarget(view) {
  const { legal, obs, you, ui } = view;
  if (ui.replay) return null;
  if (obs.phase === "game_over") return view.state.over ? nextGameKey(view) : null;
  if (obs.phase === "round_over") return view.seated && !isReady(view, you) ? "choice-next" : null;
  if (!legal.size) return null;
  const cells = obs.grids[you].flat();
  const first = cells.findIndex((value, k) => gridAction(view, k, value) !== null);
  if (first >= 0) return `cell-${you}-${first}`;
  if (legal.has(DRAW)) return "pile-draw";
  return legal.has(TAKE_DISCARD) ? "pile-discard" : null;
}

/** Move the focus to the next sensible control when the move that had it took it away
 * (the focus fell to the page) or, with the focus on the table, when the target changed;
 * never out of the chat, a drawer or any other control the reader is on. With no next
 * control (others play now), the focus never falls to the page: it stays on the element
 * it was on (`had`, its data-key), the card you played, which the redraw made a picture
 * (focusable by script: tabindex -1), else on the table itself. */
function guideFocus(root, view, had) {
  const target = focusTarget(view);
  root.dataset.focus = target || "";
  const changed = target !== view.ui.focusTarget;
  view.ui.focusTarget = target;
  if (view.ui.drawer) return;
  const active = document.activeElement;
  const lost = !active || active === document.body || !active.isConnected;
  if (target && (lost || (changed && active.closest(".table")))) {
    root.querySelector(`[data-key="${target}"]`)?.focus();
    return;
  }
  if (!lost || had === undefined) return;
  const stay = (had && root.querySelector(`[data-key="${CSS.escape(had)}"]`)) || root.querySelector(".table");
  if (!stay) return;
  if (!stay.matches("button, input, select, textarea, a[href], [tabindex]")) stay.setAttribute("tabindex", "-1");
  stay.focus();
}

/** Tell a screen reader what changed, through the page's one live region: what the others
 * did (in brief), that your turn has come, a round's end with its doubling explained,
 * the game's end, a refusal; in a replay, the step's events. Once per step shown. */
function tell(game, view) {
  const { ui, state } = view;
  const said = [];
  if (game.error && game.error !== ui.toldError) said.push(t("error", { message: refusalText(game.error, view.seats, view.you) }));
  ui.toldError = game.error;
  if (game.status !== ui.toldStatus && !ui.replay) {
    if (view.down) said.push(connectionWords(game));
    else if (ui.toldStatus !== undefined && game.backAt) said.push(backWords(game));
  }
  ui.toldStatus = game.status;
  if (ui.refused && ui.refused !== ui.toldRefused) said.push(refusedWords(game));
  ui.toldRefused = ui.refused;
  const undone = undoneWords(game);
  if (undone) said.push(undone);
  if (state.number !== ui.told) {
    const first = ui.told === undefined;
    ui.told = state.number;
    said.push(...news(game, view, first && !ui.replay));
  }
  const hinted = hintNews(view);
  if (hinted) said.push(hinted);
  const next = state.room.rematch;
  if (next && next.code !== ui.toldRematch && !ui.replay) said.push(rematchBy(view, next)); // once
  ui.toldRematch = next?.code;
  if (said.length) announce(spoken(said));
}

/** The lines of one step: the others' events (the round's and the game's end told in
 * full instead), then the round's explanation, the winners, or your prompt. Another
 * player's turn is told once it is over, in one message: the events of a player who
 * still has the move (a card drawn and not placed yet, the first of the two opening
 * reveals) wait in `ui.turnSoFar` for the rest of the turn. A replay tells each step. */
function news(game, view, first) {
  const { state, seats, you, obs, ui } = view;
  const ends = new Set(["round_ended", "game_over"]);
  const fresh = first ? [] : (game.fresh || []).filter((event) => !ends.has(event.kind)
    && (ui.replay || event.player !== you || event.kind === "timed_out"));
  const others = [...(first ? [] : ui.turnSoFar || []), ...fresh];
  const held = ui.replay ? 0 : unfinished(others, obs);
  ui.turnSoFar = others.slice(others.length - held);
  const lines = describeEvents(others.slice(0, others.length - held), seats, you, { whole: true });
  const summary = state.rounds.at(-1);
  const over = obs.phase === "game_over" && state.over;
  if (over || obs.phase === "round_over") lines.push(...endLines(summary, state.winners || [], seats, you, over));
  else if (view.legal.size) lines.push(prompt(view));
  return lines;
}

/** The events of a turn still being played, the player to move's last ones (how many, at
 * the end of `events`): once the turn passes, or the round ends, none. */
function unfinished(events, obs) {
  if (["round_over", "game_over"].includes(obs.phase)) return 0;
  const playing = new Set(["revealed", "drew", "took_discard"]);
  let k = events.length;
  while (k > 0 && events[k - 1].player === obs.current_player && playing.has(events[k - 1].kind)) k--;
  return events.length - k;
}

/** What the board needs, computed once per render. */
function viewOf(game, ui) {
  const state = game.state;
  const obs = state.observation;
  const you = state.you;
  const mine = you !== null && state.seats[you] && !state.seats[you].bot;
  const legal = new Set(mine ? obs.legal_actions : []);
  if (!(obs.held !== null && obs.source === "deck" && legal.size)) ui.flip = false;
  const down = !ui.replay && game.status !== "open";
  if (!down) ui.refused = null;
  const view = { game, ui, state, obs, you, seated: Boolean(mine), legal, seats: state.seats, down,
    motion: motionMap(game.motions), last: lastMoves(game.events) };
  view.act = (a) => held(view) || askFirst(view, a) || play(game, ui, a);
  return view;
}

function play(game, ui, action) {
  ui.flip = false;
  game.move(action);
}

/** While the connection is down a move is not sent: a click on it (or its key) says so,
 * on the board and through the live region, and returns true. */
function held(view) {
  if (!view.down) return false;
  view.ui.refused = (view.ui.refused ?? 0) + 1; // each click is told
  view.game.onChange();
  return true;
}

/** The controls of moves while the connection is down: still focusable and clickable
 * (a click says why nothing happens: `held`), but marked unavailable and dimmed. */
function holdMoves(root) {
  for (const control of root.querySelectorAll(".table button.playable, .table .choice, [data-key=again]")) {
    control.setAttribute("aria-disabled", "true");
  }
}

/** The words of a connection that is down: the browser is offline, the server is gone, or
 * it cannot save the game (its disk full, its database busy or failing). */
function connectionWords(game) {
  if (game.status === "unavailable") return t(`net.${game.outage ?? "storage_failed"}`);
  return t(game.status === "offline" ? "net.offline" : "net.lost");
}

/** The words of a connection back up, or of a server that saves again. */
function backWords(game) {
  return t(game.downFrom === "unavailable" ? "net.storageBack" : "net.back");
}

/** The words of a move not sent while the connection is down (or not saved now). */
function refusedWords(game) {
  return t(game.status === "unavailable" ? "net.refusedStorage" : "net.refused");
}

/** The room `code`'s page before its first state, when it could not connect: a game needs
 * the connection (offline, or the server does not answer), it opens by itself once it
 * can; the scorepad works offline. main.js shows it too, for a room it could not look up. */
export function connectionNeeded(code, offline) {
  return h("section", { class: "panel offline-page", "data-key": "offline-page" },
    h("p", {}, t(offline ? "offline.room" : "net.unreachable", { code })),
    h("p", {}, h("a", { href: "/scorepad", "data-key": "offline-scorepad" }, t("offline.scorepad"))),
    h("p", {}, h("a", { href: "/" }, t("room.back"))));
}

/** The scroll positions of the board's scrolling parts, kept across a redraw. */
function scrolls(root) {
  return [...root.querySelectorAll("[data-scroll]")].map((el) => ({ key: el.dataset.scroll, top: el.scrollTop }));
}

/** Scroll the redrawn parts back (the log follows its newest line: `log`). */
function restore(root, kept, ui) {
  for (const { key, top } of kept) {
    const el = root.querySelector(`[data-scroll="${key}"]`);
    if (el && (key !== "log" || ui.logBack)) el.scrollTop = top;
  }
}

// --- the bar ------------------------------------------------------------------------

const TABS = ["scores", "log", "chat", "room"];

function header(game, view) {
  const room = view.state.room;
  const rules = t("rules.summary", ruleWords(room.rules, t));
  const home = (e) => {
    if (!view.ui.navigate) return;
    e.preventDefault();
    view.ui.navigate("/");
  };
  return h("header", { class: "room-head" },
    h("a", { href: "/", class: "logo", onclick: home, "aria-label": t("room.home") }, "Skyjo"),
    h("div", { class: "room-title" },
      h("h1", {}, roomTitle(room, view.seats), view.ui.replay ? [" ", h("span", { class: "badge replay-badge" }, t("replay.badge"))] : null),
      h("p", { class: "rules" }, t("room.round", { n: view.obs.round + 1 }),
        h("span", { class: "rules-more" }, room.code ? [" · ", t("room.code", { code: room.code })] : null, " · ", rules))),
    rulesLink(view),
    tabs(game, view),
    view.ui.replay ? view.ui.replay() : null);
}

/** The rules, in the bar on every screen: their page offers the way back to this room (the
 * site sends no referrer), a spectator's to watching it. */
function rulesLink(view) {
  return h("a", { class: "bar-rules", href: rulesHref(view), "data-key": "bar-rules" }, t("bar.rules"));
}

function rulesHref(view) {
  const room = view.state.room;
  return !view.ui.replay && room.code ? `/rules?back=${room.code}${view.you === null ? "&watch" : ""}` : "/rules";
}

/** On a phone, the buttons that open each side panel as a drawer over the table. */
function tabs(game, view) {
  const open = view.ui.drawer;
  const unread = unreadChat(game, view);
  return h("nav", { class: "tabs", "aria-label": t("tabs.label") },
    TABS.filter((tab) => tab !== "chat" || view.you !== null).map((tab) => h("button", {
      type: "button", class: "tab", "data-key": `tab-${tab}`, "aria-controls": "side",
      "aria-expanded": String(open === tab),
      onclick: () => (open === tab ? closeDrawer(view) : openDrawer(view, tab)),
    }, t(`tab.${tab}`), tab === "chat" && unread ? h("span", { class: "unread", "aria-label": plural("chat.unread", unread) },
      String(unread)) : null)));
}

function openDrawer(view, tab) {
  view.ui.drawer = tab;
  view.ui.focus = "drawer-close";
  view.game.onChange();
}

function closeDrawer(view) {
  const tab = view.ui.drawer;
  view.ui.drawer = null;
  view.ui.focus = tab ? `tab-${tab}` : null;
  view.game.onChange();
}

/** Where style.css shows the side panels in a column, always in view (its media query). */
const WIDE = "(min-width: 960px) and (min-height: 561px)";

/** Chat lines that came while the chat was not in view. */
function unreadChat(game, view) {
  const lines = game.chat || [];
  if (view.ui.drawer === "chat" || !lines.length || window.matchMedia?.(WIDE).matches) {
    view.ui.chatSeen = lines.at(-1);
    return 0;
  }
  return lines.length - 1 - lines.lastIndexOf(view.ui.chatSeen);
}

// --- the status line ------------------------------------------------------------------

function status(game, view) {
  return h("div", { class: "status" },
    connection(game, view),
    hintButton(view), h("p", { class: "prompt" }, prompt(view)), hintLine(view),
    undoButton(view, () => held(view)),
    view.down && view.ui.refused ? h("p", { class: "error", "data-key": "net-refused" }, refusedWords(game)) : null,
    game.deadline ? h("p", { class: "timer", "data-key": "timer", "aria-live": "off" }) : null,
    game.error ? h("p", { class: "error" }, t("error", { message: refusalText(game.error, view.seats, view.you) })) : null,
    view.you === null && !view.ui.replay ? h("p", { class: "spectating" }, t("room.spectating")) : null);
}

/** The connection's state on the table, above the prompt: down (offline, or lost and
 * reconnecting), then back for BACK_MS; nothing while it is up. */
function connection(game, view) {
  if (view.ui.replay) return null;
  const back = !view.down && game.backAt !== null && game.backAt !== undefined && performance.now() - game.backAt < BACK_MS;
  if (!view.down && !back) return null;
  return h("p", { class: "net-banner", "data-key": "net-banner", "data-state": view.down ? game.status : "back" },
    view.down ? connectionWords(game) : backWords(game));
}

/** The line that says whose turn it is and what to do. */
function prompt(view) {
  const { obs, legal, seats, you } = view;
  const name = nameOf(seats, obs.current_player, view.ui.replay ? null : you); // a replay's seats by name
  if (obs.phase === "game_over") {
    return view.state.winners?.length ? t("colon", { before: t("turn.over"), after: winnersText(view.state.winners, seats, you) }) : t("turn.over");
  }
  if (obs.phase === "round_over") {
    if (view.ui.replay) return t("turn.roundOver");
    if (view.seated && !isReady(view, you)) return t("turn.nextRound");
    const names = awaited(view);
    return names.length ? t("round.waiting", { names: joinNames(names) }) : t("turn.roundOver");
  }
  if (!legal.size) return obs.phase === "reveal" ? t("turn.revealOther", { name }) : t("turn.theirs", { name });
  if (view.down) return t(view.game.status === "unavailable" ? "net.yourTurnStorage" : "net.yourTurn");
  if (obs.phase === "reveal") {  // said once: the second card's prompt is its own
    const turnedUp = obs.grids[obs.current_player].flat().some((cell) => cell !== null && cell !== "x");
    return turnedUp ? t("turn.revealSecond") : t("colon", { before: t("turn.yours"), after: t("turn.reveal") });
  }
  if (obs.held === null) return t("colon", { before: t("turn.yours"), after: t("turn.takeOrDraw") });
  if (view.ui.flip) return t("turn.flip");
  return t(obs.source === "discard" ? "turn.placeDiscard" : "turn.placeDrawn", { card: obs.held });
}

function isReady(view, seat) {
  return (view.state.ready || []).includes(seat);
}

/** The names of the seats the next round waits for, the viewer's own left out. */
function awaited(view) {
  return (view.state.waiting || []).filter((seat) => seat !== view.you).map((seat) => nameOf(view.seats, seat, view.you));
}

// --- grids ----------------------------------------------------------------------------

/** The others' grids; with `apart` false, everyone's (yours first). */
function others(view, apart) {
  const seats = view.seats.map((_, seat) => seat).filter((seat) => seat !== view.you);
  if (!apart && view.you !== null) seats.unshift(view.you);
  return h("div", { class: view.you === null ? "others watching" : "others" },
    seats.map((seat) => seatPanel(view, seat, "small")));
}

function mine(view) {
  return h("div", { class: "mine" }, seatPanel(view, view.you, "large"));
}

function seatPanel(view, seat, size) {
  const { obs, seats, you } = view;
  const info = seats[seat];
  const turn = obs.current_player === seat && !["round_over", "game_over"].includes(obs.phase);
  const shown = obs.grids[seat].flat().filter((c) => typeof c === "number").reduce((a, b) => a + b, 0);
  const badges = [ // a bot's level, unless its name says it ("Greedy bot", "Bot glouton 2")
    info.bot && !namedByLevel(info) ? t("seat.bot", { level: t(`levelShort.${info.bot}`) }) : null,
    info.human && info.claimed && !info.connected ? t("seat.away") : null,
  ].filter(Boolean);
  const name = seatLabel(info, seat); // "Seat 3, free" while nobody has taken it
  return h("article", { class: `seat ${size}${turn ? " turn" : ""}`, "aria-label": name },
    h("h2", {},
      h("span", { class: "name" }, name), seat === you ? h("span", { class: "you" }, t("seat.you")) : null,
      badges.map((b) => h("span", { class: "badge" }, b))),
    grid(view, seat, size),
    h("p", { class: "tally" }, t("seat.shows", { n: shown }),
      h("span", { class: "more" }, " · ", t("seat.total", { n: obs.totals[seat] }))),
    lastLine(view, seat));
}

/** Whether the board marks the seat's last move (moves.js): another player's (you know your
 * own), or anyone's in a replay, during a round. */
function marked(view, seat) {
  return (seat !== view.you || Boolean(view.ui.replay)) && !["round_over", "game_over"].includes(view.obs.phase)
    && view.last.has(seat);
}

/** Under another player's grid, their last move in one line (moves.js). Not a live region:
 * the live region has told the move once already. */
function lastLine(view, seat) {
  if (!marked(view, seat)) return null;
  const line = moveLine(view.last.get(seat).events);
  return line ? h("p", { class: "last-line", "data-key": `last-${seat}` }, line) : null;
}

function grid(view, seat, size) {
  const owner = seat === view.you ? t("card.you") : t("card.of", { name: seatName(view.seats[seat]) });
  const changed = marked(view, seat) ? view.last.get(seat).position : null;
  const cards = view.obs.grids[seat].flatMap((row, r) => row.map((value, c) => {
    const last = changed !== null && changed[0] === r && changed[1] === c;
    return gridCard(view, seat, { owner, r, c, last }, value);
  }));
  return h("div", { class: `grid ${size}` }, cards);
}

/** The card at row `r`, column `c` of `seat`'s grid: yours a button when it is a move; the
 * last one its player changed ringed and tagged (`last`); in a replay, one face down at the
 * table shown with its value from the record (`obs.under`), framed as a back's. */
function gridCard(view, seat, { owner, r, c, last }, value) {
  const k = r * 4 + c;
  const action = seat === view.you ? gridAction(view, k, value) : null;
  const under = value === null ? view.obs.under?.[seat]?.[r]?.[c] : undefined;
  const peek = typeof under === "number";
  const words = t("card.label", { owner, row: r + 1, col: c + 1,
    value: peek ? t("card.peek", { value: under }) : cardWords(value) });
  const shown = card(peek ? under : value, { label: last ? t("last.card", { card: words }) : words,
    action: action === null ? null : () => view.act(action), key: `cell-${seat}-${k}`,
    extra: `${last ? " last-move" : ""}${peek ? " peek" : ""}` });
  if (last) shown.append(h("span", { class: "last-tag", "aria-hidden": "true" })); // a mark, not colour alone
  return animate(shown, view.motion.cell(seat, k), view.motion.now);
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

/** A card: a button when clicking it plays a move, else a labelled picture. A face's
 * value is its text, drawn large in the middle; style.css draws it small in two corners
 * too (from data-value), as on a real card. */
export function card(value, { label, action = null, key = undefined, extra = "" }) {
  const kind = value === null ? "down" : value === "x" ? "cleared" : band(value);
  const attrs = {
    class: `card ${kind}${action ? " playable" : ""}${extra}`,
    "aria-label": label,
    "data-key": key,
    "data-value": typeof value === "number" ? value : null,
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
  const drawLabel = plural("pile.draw", obs.draw_pile_size);
  const discardLabel = top === null ? t("pile.empty") : t("pile.discard", { card: top });
  const holder = nameOf(seats, obs.current_player, you);
  const holding = obs.source !== null;
  const heldLabel = obs.held === null ? t("pile.heldHidden", { name: holder }) : t("colon", { before: t("pile.held"), after: obs.held });
  return h("div", { class: "centre" },
    h("div", { class: "piles" },
      h("figure", { class: "draw" }, animate(card(null, { label: drawLabel, extra: " pile",
        action: legal.has(DRAW) ? () => view.act(DRAW) : null, key: "pile-draw" }), view.motion.pile("draw"), view.motion.now),
      h("figcaption", { "aria-hidden": "true" }, t("pile.drawShort", { n: obs.draw_pile_size }))),
      h("figure", { class: "discard" }, animate(card(top === null ? "x" : top, { label: discardLabel, extra: " pile",
        action: legal.has(TAKE_DISCARD) ? () => view.act(TAKE_DISCARD) : null, key: "pile-discard" }),
      view.motion.pile("discard"), view.motion.now),
      h("figcaption", { "aria-hidden": "true" }, t("pile.discardShort"))),
      holding ? h("figure", { class: "held" },
        card(obs.held, { label: heldLabel, extra: " pile", key: HELD }),
        h("figcaption", { "aria-hidden": "true" }, obs.held === null ? t("pile.heldShort", { name: holder }) : t("pile.held"))) : null),
    confirmPanel(view) ?? choices(view, top));
}

function choices(view, top) {
  const { legal, obs, ui } = view;
  const buttons = [];
  if (legal.has(TAKE_DISCARD)) buttons.push(button(t("act.take", { card: top }), () => view.act(TAKE_DISCARD), "take"));
  if (legal.has(DRAW)) buttons.push(button(t("act.draw"), () => view.act(DRAW), "draw"));
  const canFlip = [...legal].some((a) => a >= FLIP && a < NEXT_ROUND);
  if (canFlip && obs.held !== null) {
    buttons.push(ui.flip
      ? button(t("act.cancel"), () => { if (!held(view)) { ui.flip = false; view.game.onChange(); } }, "flip")
      : button(t("act.discard"), () => { if (!held(view)) { ui.flip = true; view.game.onChange(); } }, "flip"));
  }
  return buttons.length ? h("div", { class: "choices" }, buttons) : null;
}

function button(label, onclick, key) {
  return h("button", { type: "button", class: "choice", onclick, "data-key": `choice-${key}` }, label);
}

// --- the round's end and the game's end, on the table ---------------------------------------

/** At a round's end (or the game's), its summary takes the piles' place; else null. */
function ending(view) {
  const phase = view.obs.phase;
  if (phase === "game_over" && view.state.over) return gameOver(view);
  if (phase !== "round_over") return null;
  const summary = view.state.rounds.at(-1);
  if (!summary) return null;
  return h("section", { class: "panel round-over", "aria-labelledby": "round-title" },
    h("h2", { id: "round-title" }, t("round.over", { n: summary.round })),
    h("p", { class: "explain" }, explainRound(summary, view.seats, view.you)),
    roundTable(view, summary),
    readiness(view));
}

/** "Next round" for a seated player not ready yet, and who the next round waits for. */
function readiness(view) {
  if (view.ui.replay) return null;
  const names = awaited(view);
  const mineToSay = view.seated && !isReady(view, view.you);
  return h("div", { class: "ready-row" },
    mineToSay ? button(t("act.next"), () => { if (!held(view)) view.game.ready(); }, "next") : null,
    names.length ? h("p", { class: "waiting", "data-key": "waiting" }, t("round.waiting", { names: joinNames(names) })) : null);
}

/** Each seat's cards, score and total after the round `summary`. */
function roundTable(view, summary) {
  const ready = new Set(view.state.ready || []);
  const waiting = new Set(view.state.waiting || []);
  return h("div", { class: "round-scores", "data-scroll": "round" },
    h("table", {},
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, h("span", { class: "sr-only" }, t("round.player"))),
        h("th", { scope: "col" }, t("round.cards")),
        h("th", { scope: "col" }, t("round.score")),
        h("th", { scope: "col" }, t("scores.total")))),
      h("tbody", {}, summary.scores.map((score, seat) => h("tr", { class: seat === summary.ender ? "ender" : null },
        h("th", { scope: "row" }, h("span", { class: "who" }, nameOf(view.seats, seat, view.you)),
          h("span", { class: "tags" },
            seat === summary.ender ? h("span", { class: "tag ender" }, t("round.ender")) : null,
            ready.has(seat) ? h("span", { class: "tag ready" }, `✓ ${t("round.isReady")}`) : null,
            waiting.has(seat) ? h("span", { class: "tag not-ready" }, t("round.isWaiting")) : null)),
        h("td", {}, String(summary.raw[seat])),
        h("td", { class: summary.raw[seat] === score ? null : "doubled" }, String(score)),
        h("td", { class: "total" }, String(totalAfter(view.state.rounds, summary.round, seat))))))));
}

function totalAfter(rounds, number, seat) {
  return rounds.filter((r) => r.round <= number).reduce((sum, r) => sum + r.scores[seat], 0);
}

function gameOver(view) {
  const code = encodeURIComponent(view.state.room.code);
  const summary = view.state.rounds.at(-1);
  const reason = reasonText(view.obs.totals, view.state.room.rules.target_score, view.seats, view.you);
  return h("section", { class: "panel game-over", "aria-labelledby": "over-title", "data-scroll": "game-over" },
    h("h2", { id: "over-title" }, t("game.over")),
    h("p", { class: "headline" }, h("span", { class: "winners" }, winnersText(view.state.winners || [], view.seats, view.you)),
      view.ui.replay || view.you === null ? null : [" ", h("span", { class: "your-place", "data-key": "your-place" }, placeText(view))]),
    reason ? h("p", { class: "reason", "data-key": "end-reason" }, reason) : null,
    placesTable(view),
    summary ? h("p", { class: "explain" }, t("colon", { before: t("round.over", { n: summary.round }),
      after: explainRound(summary, view.seats, view.you) })) : null,
    view.ui.replay ? null : h("div", { class: "after" },
      nextGame(view),
      offered(view) ? null : levelButtons(view, held),
      h("p", { class: "row" },
        h("a", { href: `/r/${code}/replay`, "data-key": "watch-replay",
          onclick: (e) => { if (view.ui.navigate) { e.preventDefault(); view.ui.navigate(`/r/${code}/replay`); } } },
        t("replay.watch")),
        h("a", { href: `/r/${code}/replay?review`, "data-key": "review-game",
          onclick: (e) => { if (view.ui.navigate) { e.preventDefault(); view.ui.navigate(`/r/${code}/replay?review`); } } },
        t("review.start")),
        h("a", { href: `/api/rooms/${code}/record`, download: `skyjo-${code}.json`, "data-key": "download" },
          t("replay.download")))),
    story(view));
}

/** Whether the viewer is offered the table's next game: it has been started, and this is
 * not the page whose host asked for it (that one follows it at once). */
function offered(view) {
  return Boolean(view.state.room.rematch) && !view.ui.rematchAsked;
}

/** Who started the next game, as the offer says it. */
function rematchBy(view, next) {
  if (next.by === null || next.by === undefined || !view.seats[next.by]) return t("rematch.byHost");
  if (next.by === view.you) return t("rematch.byYou");
  return t("rematch.by", { name: view.seats[next.by].name });
}

/** The game-over panel's control for the next game (the one `focusTarget` names). */
function nextGameKey(view) {
  if (offered(view)) return view.you !== null || view.game.hosting ? "rematch-join" : "rematch-watch";
  return view.game.hosting ? "again" : "watch-replay";
}

/** Another game of this table. The host's "Another game" asks the server for it; once it
 * is started everyone is offered it in place: a seated player (or the host) keeps their seat
 * in one click, a spectator watches it. Before that, a seated friend is told it will come here. */
function nextGame(view) {
  const next = view.state.room.rematch;
  if (offered(view)) {
    const mine = view.you !== null || view.game.hosting;
    const watch = `/r/${encodeURIComponent(next.code)}?watch`;
    return [
      h("p", { class: "rematch-by", "data-key": "rematch-by" }, rematchBy(view, next)),
      mine ? h("button", { type: "button", class: "start", "data-key": "rematch-join", onclick: () => view.ui.follow?.(next.code) },
        t("rematch.join"))
        : h("a", { href: watch, class: "start", "data-key": "rematch-watch",
          onclick: (e) => { if (view.ui.navigate) { e.preventDefault(); view.ui.navigate(watch); } } }, t("rematch.watch")),
    ];
  }
  if (view.game.hosting) {
    return h("button", { type: "button", class: "start", "data-key": "again", onclick: () => held(view) || view.ui.again?.() }, t("game.again"));
  }
  const host = view.seats.find((seat) => seat.host);
  return view.you !== null && host ? h("p", { class: "rematch-wait", "data-key": "rematch-wait" }, t("rematch.wait", { name: host.name })) : null;
}

// --- the side: the room, scores, log, chat, host ---------------------------------------------

function side(game, view) {
  const open = view.ui.drawer;
  return h("aside", { class: "side", id: "side", "data-open": open || null, "data-scroll": "side",
    "aria-label": open ? t(`tab.${open}`) : t("side.label") },
  h("div", { class: "drawer-head" },
    h("button", { type: "button", class: "drawer-close", "data-key": "drawer-close", title: t("drawer.close"),
      onclick: () => closeDrawer(view) }, h("span", { "aria-hidden": "true" }, "✕ "), t("drawer.closeShort"))),
  roomPanel(view), scores(view), log(game, view), chat(game, view), hostPanel(game, view));
}

function roomPanel(view) {
  const room = view.state.room;
  const rules = t("rules.summary", ruleWords(room.rules, t));
  const live = !view.ui.replay && room.code;
  const link = live ? `${location.origin}/r/${room.code}` : null;
  const languages = h("select", { "data-key": "room-language", "aria-label": t("language"), onchange: (e) => {
    // the page's own language menu (main.js) switches and redraws everything
    const menu = document.getElementById("language");
    if (!menu) return;
    menu.value = e.target.value;
    menu.dispatchEvent(new Event("change"));
  } }, Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === language() }, name)));
  return h("section", { class: "panel room-info", "data-tab": "room", "aria-labelledby": "room-info-title" },
    h("h2", { id: "room-info-title" }, roomTitle(room, view.seats)),
    h("p", { class: "rules" }, room.code ? [t("room.code", { code: room.code }), " · "] : null, rules,
      " · ", t("room.round", { n: view.obs.round + 1 })),
    live ? h("p", { class: "links" },
      h("input", { class: "link", readonly: true, value: link, "aria-label": t("room.invite"), "data-key": "link" }),
      h("button", { type: "button", "data-key": "copy", onclick: (e) => copy(link, e.target) }, t("room.copy")),
      h("a", { href: `/r/${room.code}?watch`, class: "watch-link" }, t("room.watchLink"))) : null,
    h("p", { class: "language-row" }, h("label", {}, t("language"), " ", languages), " ",
      themeSwitch({ "data-key": "room-theme" })),
    speedRow(view.game, view),
    live && view.seated ? playSettings(unlockSound) : null,
    h("p", { class: "rules-link-row" }, h("a", { href: rulesHref(view), "data-key": "rules-link" }, rt("rules.link")),
      view.seated ? [" ", tourButton(room.rules)] : null),
    h("p", { class: "home-row" }, h("a", { href: "/", "data-key": "home", onclick: (e) => {
      if (!view.ui.navigate) return;
      e.preventDefault();
      view.ui.navigate("/");
    } }, t("room.back"))));
}

function copy(text, button) {
  navigator.clipboard?.writeText(text).then(() => { button.textContent = t("room.copied"); }, () => {});
}

function scores(view) {
  const rounds = view.state.rounds;
  return h("section", { class: "panel scores", "data-tab": "scores", "aria-labelledby": "scores-title" },
    h("h2", { id: "scores-title" }, t("scores.title")),
    h("div", { class: "scores-scroll" }, h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, ""), rounds.map((r) => h("th", { scope: "col" }, t("scores.round", { n: r.round }))),
        h("th", { scope: "col" }, t("scores.total")))),
      h("tbody", {}, view.seats.map((seat, i) => h("tr", {},
        h("th", { scope: "row" }, nameOf(view.seats, i, view.you)),
        rounds.map((r) => h("td", {}, String(r.scores[i]))),
        h("td", { class: "total" }, String(view.obs.totals[i]))))))));
}

/** What happened, newest last: the list shows its newest line (also once it is shown or
 * resized: a drawer opened, a phone turned) unless its reader scrolled back. */
function log(game, view) {
  const ui = view.ui;
  const lines = describeEvents(game.events, view.seats, view.you).slice(-LOG_LINES);
  const list = h("ol", { "data-scroll": "log", tabindex: "0", "aria-labelledby": "log-title",
    onscroll: () => { ui.logBack = list.scrollTop + list.clientHeight < list.scrollHeight - 4; } },
  lines.map((line) => h("li", {}, line)));
  ui.logWatch?.disconnect();
  if (typeof ResizeObserver === "function") {
    ui.logWatch = new ResizeObserver(() => { if (!ui.logBack) list.scrollTop = list.scrollHeight; });
    ui.logWatch.observe(list);
  }
  return h("section", { class: "panel log", "data-tab": "log", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, t("log.title")), list);
}

function chat(game, view) {
  if (view.you === null) return null;
  const input = h("input", { name: "chat", maxlength: FACTS.max_chat, placeholder: t("chat.placeholder"), value: view.ui.chatDraft || "",
    "aria-label": t("chat.placeholder"), "data-key": "chat-input", autocomplete: "off",
    oninput: (e) => { view.ui.chatDraft = e.target.value; } });
  const form = h("form", { onsubmit: (event) => {
    event.preventDefault();
    if (input.value.trim()) game.say(input.value.trim());
    input.value = "";
    view.ui.chatDraft = "";
  } }, input, h("button", { type: "submit" }, t("chat.send")));
  return h("section", { class: "panel chat", "data-tab": "chat", "aria-labelledby": "chat-title" },
    h("h2", { id: "chat-title" }, t("chat.title")),
    h("ul", {}, game.chat.slice(-8).map((m) => h("li", {}, h("b", {}, m.name), t("colon", { before: "", after: "" }), m.text))),
    form);
}

function hostPanel(game, view) {
  if (!view.state.host || view.state.over) return null;
  const open = view.ui.hostOpen;
  return h("details", { class: "panel host", "data-tab": "room", open, ontoggle: (e) => { view.ui.hostOpen = e.target.open; } },
    h("summary", {}, t("host.title")),
    view.seats.map((seat, i) => h("div", { class: "host-seat" },
      h("label", { for: `host-${i}` }, seatLabel(seat, i)),
      h("span", { class: "host-tools" },
        h("select", { id: `host-${i}`, "data-key": `host-${i}`, onchange: (e) => game.setSeat(i, e.target.value || null) },
          h("option", { value: "", selected: seat.human }, t("host.human")),
          LADDER.map((level) => h("option", { value: level, selected: seat.bot === level }, t(`level.${level}`)))),
        seat.claimed && i !== view.you ? h("button", { type: "button", class: "remove", "data-key": `host-remove-${i}`,
          "aria-label": t("host.removeWho", { name: seat.name }), onclick: () => game.remove(i) }, t("host.remove")) : null))));
}
