// A finished game (or an uploaded record) watched move by move: step, play, pause, jump to a
// round; and its review (review.js), the better move of a costly decision marked on the board.
import { renderBoard } from "./board.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { motionsOf } from "./motion.js";
import { Review, costly, guessing, labelWords, moveWords, reviewPanel } from "./review.js";
import { nameOf } from "./text.js";

const LOG_FRAMES = 40; // how many past frames the log words
const CARDS = 12, DRAW = 12, TAKE_DISCARD = 13; // action ids (docs/web-protocol.md): reveals are 0-11
const PACE = 700; // milliseconds between frames while playing

export class Replay {
  /**
   * `data` is the server's replay (`frames`, `rounds`, `players`, `rules`, and for a
   * room `code`, `title`, `seats`); `onChange` redraws; `start` the first frame shown;
   * `record` the game's record, whose decks show the cards face down at the table (`under`),
   * `you` this browser's seat in the game (said "you", its turns followed first).
   */
  constructor(data, onChange, start = 0, { record = null, you = null } = {}) {
    this.data = data;
    this.onChange = onChange;
    this.index = Math.max(0, Math.min(start, data.frames.length - 1));
    this.playing = false;
    this.timer = null;
    this.status = "open";
    this.error = null;
    this.chat = [];
    this.motions = []; // the animations of the step just shown (one step on only)
    const seats = data.seats || data.players.map((name) => ({ name, bot: null }));
    this.seats = seats.map((seat) => ({ name: seat.name, bot: seat.bot, human: !seat.bot, claimed: true, connected: true, host: Boolean(seat.host) }));
    this.review = new Review(this);
    this.you = Number.isInteger(you) && you < this.seats.length ? you : null;
    this.follow = this.you ?? 0; // the seat whose turns "previous/next turn" jump to
    this.deals = dealsOf(record, this.seats.length);
  }

  get last() {
    return this.data.frames.length - 1;
  }

  get frame() {
    return this.data.frames[this.index];
  }

  /** The state message the board draws, for the frame shown. */
  get state() {
    const obs = { ...this.frame.observation, legal_actions: [], under: this.deals?.[this.frame.observation.round] ?? null };
    const over = obs.phase === "game_over";
    return {
      number: this.frame.number,
      room: { code: this.data.code || null, title: this.data.title || t("replay.uploaded"), default_title: Boolean(this.data.default_title), rules: this.data.rules },
      you: this.you,
      host: false,
      seats: this.seats,
      observation: obs,
      rounds: obs.results.map((result, i) => ({ round: i + 1, ...result, explain: this.data.explained[i] })),
      over,
      stalled: null,
      winners: over ? this.data.winners : [],
    };
  }

  get events() {
    return this.data.frames.slice(Math.max(0, this.index - LOG_FRAMES), this.index + 1).flatMap((f) => f.events);
  }

  /** The events of the step shown (the live region tells them). */
  get fresh() {
    return this.frame.events;
  }

  /** The round (from 1) the frame shown belongs to. */
  get round() {
    return this.frame.observation.round + 1;
  }

  go(index) {
    const from = this.index;
    this.index = Math.max(0, Math.min(this.last, index));
    const frame = this.data.frames[this.index];
    this.motions = this.index === from + 1
      ? motionsOf(frame.events, this.data.frames[from].observation, frame.observation) : [];
    if (this.index === this.last) this.pause();
    this.onChange();
  }

  /** The frames where the followed seat's turns begin (the table as it was theirs to play):
   * the frame before each of their first moves of a turn (a reveal, a draw, the discard taken). */
  get turns() {
    const frames = this.data.frames;
    const reveal = (f) => Number.isInteger(f?.action) && f.action < CARDS;
    const begins = (f, i) => f.seat === this.follow && (f.action === DRAW || f.action === TAKE_DISCARD
      || (reveal(f) && !(reveal(frames[i - 1]) && frames[i - 1].seat === this.follow))); // the opening's two: one turn
    return frames.flatMap((f, i) => (i > 0 && begins(f, i) ? [i - 1] : []));
  }

  /** Go to the followed seat's previous (`by` -1) or next (+1) turn, if there is one. */
  turn(by) {
    const turns = this.turns;
    const found = by < 0 ? turns.filter((i) => i < this.index).at(-1) : turns.find((i) => i > this.index);
    this.pause();
    if (found !== undefined) this.go(found);
  }

  play() {
    if (this.index === this.last) this.index = 0;
    this.playing = true;
    this.tick();
    this.onChange();
  }

  tick() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (!this.playing) return;
      this.go(this.index + 1);
      if (this.playing) this.tick();
    }, PACE);
  }

  pause() {
    this.playing = false;
    clearTimeout(this.timer);
  }

  stop() {
    this.pause();
    this.review.stop();
  }

  /** Draw the frame shown again (the review's news), its cards' travel not played again. */
  redraw() {
    this.motions = [];
    this.onChange();
  }

  // The board's calls that a replay ignores: nobody moves, chats or manages seats.
  move() {}
  ready() {}
  say() {}
  setSeat() {}
}

/** Each round's deal from a game record (RULES.md 5: seat i gets `deck[12i : 12i+12]`, row by
 * row): `[round][seat][row][column]`, the value of every card at its place before any move. A
 * card face down in a frame never moved since (a card placed is face up), so this is its value.
 * Null without a record, or for a round whose deck the record does not give. */
export function dealsOf(record, seats) {
  if (!Array.isArray(record?.rounds)) return null;
  return record.rounds.map((round) => (Array.isArray(round?.deck) && round.deck.length >= seats * CARDS
    ? Array.from({ length: seats }, (_, seat) => [0, 1, 2].map((row) => round.deck.slice(seat * CARDS + row * 4, seat * CARDS + row * 4 + 4)))
    : null));
}

/** The controls above a replay's board. */
export function controls(replay) {
  const { index, last } = replay;
  const rounds = replay.data.rounds;
  const code = replay.data.code;
  return h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
    h("div", { class: "replay-buttons" },
      step("first", "«", index === 0, () => replay.go(0)),
      step("back", "◀", index === 0, () => { replay.pause(); replay.go(index - 1); }),
      replay.playing
        ? h("button", { type: "button", class: "replay-play", "data-key": "replay-play", onclick: () => { replay.pause(); replay.onChange(); } },
          h("span", { "aria-hidden": "true" }, "❚❚ "), t("replay.pause"))
        : h("button", { type: "button", class: "replay-play", "data-key": "replay-play", onclick: () => replay.play() },
          h("span", { "aria-hidden": "true" }, "▶ "), t("replay.play")),
      step("next", "▶", index === last, () => { replay.pause(); replay.go(index + 1); }),
      step("last", "»", index === last, () => { replay.pause(); replay.go(last); })),
    h("div", { class: "replay-where" },
      h("input", { type: "range", min: 0, max: last, value: index, "data-key": "replay-slider", "aria-label": t("replay.step"),
        list: replay.review.data ? "review-ticks" : null,
        onchange: (e) => { replay.pause(); replay.go(Number(e.target.value)); } }),
      ticks(replay),
      h("span", { class: "replay-step" }, t("replay.at", { n: index, total: last })),
      rating(replay),
      h("label", { class: "replay-round" }, t("replay.jump"), " ",
        h("select", { "data-key": "replay-round", onchange: (e) => { replay.pause(); replay.go(rounds[Number(e.target.value)]); } },
          rounds.map((start, i) => h("option", { value: i, selected: replay.round === i + 1 }, t("room.round", { n: i + 1 })))))),
    turnControls(replay),
    reviewToggle(replay.review),
    betterMove(replay),
    code ? h("a", { class: "download", href: `/api/rooms/${encodeURIComponent(code)}/record`, download: `skyjo-${code}.json`,
      "data-key": "replay-download" }, t("replay.download")) : null,
    replay.data.link ? share(`${location.origin}${replay.data.link}`) : null);
}

/** The turns of one player: whose (a menu, this browser's seat first chosen), and buttons to
 * their previous and next turn (also Page Up and Page Down). */
function turnControls(replay) {
  const turns = replay.turns;
  const name = nameOf(replay.seats, replay.follow, replay.you);
  const jump = (which, by, arrow, disabled) => h("button", { type: "button", "data-key": `replay-${which}-turn`, disabled,
    title: t(`replay.${which}TurnOf`, { name }), onclick: () => replay.turn(by) },
  by < 0 ? [h("span", { "aria-hidden": "true" }, arrow), " ", t(`replay.${which}Turn`)]
    : [t(`replay.${which}Turn`), " ", h("span", { "aria-hidden": "true" }, arrow)]);
  return h("div", { class: "replay-turns", role: "group", "aria-label": t("colon", { before: t("replay.turnsOf"), after: name }) },
    h("label", {}, h("span", { class: "turns-word" }, t("replay.turnsOf"), " "),
      h("select", { "data-key": "replay-follow", onchange: (e) => { replay.follow = Number(e.target.value); replay.onChange(); } },
        replay.seats.map((_, seat) => h("option", { value: seat, selected: seat === replay.follow }, nameOf(replay.seats, seat, replay.you))))),
    jump("prev", -1, "‹", !turns.some((i) => i < replay.index)),
    jump("next", 1, "›", !turns.some((i) => i > replay.index)));
}

/** A step button: its arrow (hidden from screen readers) and a short word, so that its name
 * is what it shows; the longer sentence as its tooltip. */
function step(which, arrow, disabled, onclick) {
  const icon = h("span", { "aria-hidden": "true" }, arrow);
  const word = t(`replay.${which}Short`);
  const forward = which === "next" || which === "last";
  return h("button", { type: "button", "data-key": `replay-${which}`, title: t(`replay.${which}`), disabled, onclick },
    forward ? [word, " ", icon] : [icon, " ", word]);
}

/** The button that asks for the game's review (review.js), then shows or hides its panel. */
function reviewToggle(review) {
  const key = review.open ? "review.hide" : review.status === "idle" || review.status === "failed" ? "review.start" : "review.show";
  return h("button", { type: "button", class: "review-toggle", "data-key": "review-toggle", "aria-expanded": String(review.open),
    onclick: () => (review.open ? review.hide() : review.start()) }, t(key));
}

/** The costly decisions' frames, as ticks under the slider. */
function ticks(replay) {
  const data = replay.review.data;
  if (!data) return null;
  return h("datalist", { id: "review-ticks" }, data.costly.map((d) => h("option", { value: d.step - 1 })));
}

/** Beside the move's number, the rating of the decision made at the table shown: "Ana: mistake". */
function rating(replay) {
  const decision = replay.review.at(replay.index);
  if (!decision) return null;
  return h("span", { class: `replay-rating ${decision.label}`, "data-key": "replay-rating" },
    t("colon", { before: nameOf(replay.seats, decision.seat, null), after: labelWords(decision.label) }));
}

/** At a costly decision's table: the move played and the better one, in words, each after
 * a key of the mark its card has on the board (`markMoves`). */
function betterMove(replay) {
  const decision = replay.review.at(replay.index);
  if (!costly(decision) || guessing(replay.review, decision)) return null;
  return h("p", { class: "review-note", "data-key": "review-note" },
    h("span", { class: "played" }, h("span", { class: "key", "aria-hidden": "true" }),
      t("colon", { before: t("review.played"), after: moveWords(decision.move) })), " ",
    h("span", { class: "better" }, h("span", { class: "key", "aria-hidden": "true" }),
      t("colon", { before: t("review.better"), after: moveWords(decision.best) })));
}

/** On the board, at a costly decision's table, the card (or pile) of the better move and
 * that of the move played, each with a mark of its own and said in its name. */
function markMoves(root, replay) {
  const decision = replay.review.at(replay.index);
  if (!costly(decision) || guessing(replay.review, decision)) return;
  mark(root, keyOf(decision.move, decision.seat), "played");
  mark(root, keyOf(decision.best, decision.seat), "better");
}


/** The board's data-key of a move's card (the seat's grid) or pile. */
function keyOf(move, seat) {
  if (move.take) return move.take === "deck" ? "pile-draw" : "pile-discard";
  const [row, col] = Object.values(move)[0];
  return `cell-${seat}-${row * 4 + col}`;
}

function mark(root, key, kind) {
  const card = root.querySelector(`.table [data-key="${key}"]`);
  if (!card) return;
  card.classList.add(`review-${kind}`);
  card.setAttribute("aria-label", `${card.getAttribute("aria-label")} (${t(`review.${kind}Card`)})`);
}

/** An uploaded record's stable link, to copy and send. */
function share(link) {
  return h("p", { class: "replay-share" },
    h("input", { class: "link", readonly: true, value: link, "aria-label": t("replay.share"), "data-key": "replay-link" }),
    h("button", { type: "button", "data-key": "replay-copy", onclick: (e) => {
      navigator.clipboard?.writeText(link).then(() => { e.target.textContent = t("room.copied"); }, () => {});
    } }, t("replay.copy")));
}

/** Draw a replay into `root`. */
export function renderReplay(root, replay, ui) {
  ui.replay = () => controls(replay);
  ui.after = () => reviewPanel(replay.review);
  ui.focus = replay.review.takeFocus() ?? ui.focus;
  renderBoard(root, replay, ui);
  markMoves(root, replay);
}

/** The keys of a replay: arrows step, Home/End jump, space plays or pauses. */
export function replayKey(replay, event) {
  const actions = {
    ArrowLeft: () => { replay.pause(); replay.go(replay.index - 1); },
    ArrowRight: () => { replay.pause(); replay.go(replay.index + 1); },
    Home: () => { replay.pause(); replay.go(0); },
    End: () => { replay.pause(); replay.go(replay.last); },
    PageUp: () => replay.turn(-1),
    PageDown: () => replay.turn(1),
    " ": () => (replay.playing ? (replay.pause(), replay.onChange()) : replay.play()),
  };
  const action = actions[event.key];
  if (!action || (event.key === " " && event.target.closest("button, a"))) return; // a button's own key
  event.preventDefault();
  action();
}

/** The upload page: choose a record file, see it replayed or the reason it is refused. */
export function uploadPanel(onReplay, upload) {
  const error = h("p", { class: "error", role: "alert", "data-key": "upload-error" });
  const input = h("input", { type: "file", id: "record-file", accept: ".json,application/json", "data-key": "record-file",
    onchange: async () => {
      const file = input.files[0];
      if (!file) return;
      error.textContent = "";
      try {
        const text = await file.text();
        onReplay(await upload(text), text);
      } catch (failure) {
        error.textContent = failure.message;
      }
    } });
  return h("section", { class: "panel upload", "aria-labelledby": "upload-title" },
    h("h1", { id: "upload-title" }, t("replay.uploadTitle")),
    h("p", {}, t("replay.uploadHelp")),
    h("label", { for: "record-file" }, t("replay.choose")), input, error);
}
