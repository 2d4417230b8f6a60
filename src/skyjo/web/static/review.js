// The coach: a finished game's review, every decision rated by the server (`skyjo review
// --json`, docs/RULES.md 6), asked for from the game's replay and shown beside it: each
// player's accuracy, points lost and luck; everyone's chance to win across the game; the
// costliest decisions, each a jump to the table it was decided at, where replay.js marks
// the better move. A reason is worded here from its kind and params (`why`), in the page's
// language.
import { announce } from "./a11y.js";
import { askReview, playOnFrom, reviewOf } from "./api.js";
import { h } from "./dom.js";
import { language, plural, t } from "./i18n.js";
import { nameOf, where } from "./text.js";

const POLL = 1000; // milliseconds between two looks at a review being made
const UNKNOWN = 5; // looks that find no review (another of the server's processes) before asking again
const SHOWN = 10; // the costliest decisions listed before "Show all"
const COSTLY = new Set(["inaccuracy", "mistake", "blunder"]);
const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" }; // chess's signs
const COLUMNS = { inaccuracy: "review.inaccuracies", mistake: "review.mistakes", blunder: "review.blunders" };
const SVG = "http://www.w3.org/2000/svg";
const CHART = { width: 400, height: 160, left: 44, right: 6, top: 8, bottom: 8 }; // its font is 12 of these units

/** The review of a replay's game: asked for, followed while the server makes it, shown. */
export class Review {
  constructor(replay) {
    this.replay = replay;
    this.status = "idle"; // then "asking", "queued", "running", "done" or "failed"
    this.done = 0;
    this.total = 0;
    this.data = null; // the review, with its decisions by frame (`at`) and the costliest
    this.error = null;
    this.open = false; // the panel shown
    this.all = false; // every costly decision listed, not only the costliest
    this.focus = null; // the data-key the next drawing focuses
    this.timer = null;
    this.stopped = false;
    this.told = 0; // the last quarter of the progress told
    this.unknown = 0; // looks in a row that found no review
    this.trying = null; // the step of the decision being tried again (replay.js), if any
    this.tried = null; // the index of the move picked there, if one was
    this.practiceError = null; // why a room to play on from there was refused
  }

  /** Where the server keeps it: the room's game, or the uploaded record's. */
  get path() {
    const { code, id } = this.replay.data;
    return code ? `/api/rooms/${encodeURIComponent(code)}/review` : `/api/replays/${encodeURIComponent(id)}/review`;
  }

  get busy() {
    return ["asking", "queued", "running"].includes(this.status);
  }

  /** Open the panel, asking for the review unless it is made or being made. */
  start() {
    this.open = true;
    if (this.status === "done") this.focus = "review-title";
    if (this.status === "done" || this.busy) {
      this.replay.redraw();
      return;
    }
    this.status = "asking";
    this.error = null;
    this.told = 0;
    this.focus = "review-title";
    this.replay.redraw();
    this.look(askReview);
  }

  hide() {
    this.open = false;
    this.focus = "review-toggle";
    this.replay.redraw();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  async look(ask) {
    let answer;
    try {
      answer = await ask(this.path);
    } catch (failure) {
      if (!this.stopped) this.missed(ask, failure);
      return;
    }
    this.unknown = 0;
    if (!this.stopped) this.take(answer);
  }

  /** A look that failed. One that found no review (`no_review`: the server has several
   * processes, and this one was not asked) looks again, and asks again after UNKNOWN. */
  missed(ask, failure) {
    if (ask !== reviewOf || failure.code !== "no_review") {
      this.fail(failure);
      return;
    }
    this.unknown += 1;
    this.timer = setTimeout(() => this.look(this.unknown % UNKNOWN ? reviewOf : askReview), POLL);
  }

  /** The server's answer: the review, or how far it is (shown, then asked again). */
  take(answer) {
    if (answer.status === "done") {
      this.ready(answer.review);
      return;
    }
    const changed = answer.status !== this.status;
    Object.assign(this, { status: answer.status, done: answer.done, total: answer.total });
    if (changed) this.replay.redraw();
    else progressShown(this);
    tellProgress(this);
    this.timer = setTimeout(() => this.look(reviewOf), POLL);
  }

  ready(review) {
    this.data = indexed(review);
    this.status = "done";
    if (this.open) this.focus = "review-title";
    this.replay.redraw();
    announce(t("review.ready"));
  }

  fail(failure) {
    this.status = "failed";
    this.error = failure.message; // said by its alert
    this.replay.redraw();
  }

  /** The rated decision made at frame `index` (the table its player decided at), if any. */
  at(index) {
    return this.data?.at.get(index) ?? null;
  }

  /** The data-key to focus now, once. */
  takeFocus() {
    const key = this.focus;
    this.focus = null;
    return key;
  }
}

/** The review with its decisions by the frame they were decided at (a decision's `step`
 * is the frame right after it) and its costly ones, the costliest first. */
function indexed(review) {
  const costly = review.decisions.filter((d) => COSTLY.has(d.label)).sort((a, b) => b.loss - a.loss || a.step - b.step);
  return { ...review, at: new Map(review.decisions.map((d) => [d.step - 1, d])), costly };
}

/** Whether the player is trying decision `d` again and has not picked a move yet: the
 * better move stays unsaid (no note, no marks) until then. */
export function guessing(review, d) {
  return review.trying === d.step && review.tried === null;
}

/** Whether a decision is costly (an inaccuracy, a mistake or a blunder). */
export function costly(decision) {
  return Boolean(decision) && COSTLY.has(decision.label);
}

// --- words -------------------------------------------------------------------------------

function number(value, digits, sign = false) {
  return new Intl.NumberFormat(language(), { minimumFractionDigits: digits, maximumFractionDigits: digits,
    signDisplay: sign ? "exceptZero" : "auto" }).format(value);
}

function percent(chance) {
  return new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 0 }).format(chance);
}

/** A label in words: "mistake", "error", "erreur", "Fehler". */
export function labelWords(label) {
  return t(`review.label.${label}`);
}

/** A move of the record's notation in words: "exchange the card at row 1, column 3". */
export function moveWords(move) {
  if (move.take) return t(move.take === "deck" ? "review.move.deck" : "review.move.discard");
  const [kind, position] = Object.entries(move)[0];
  return t(`review.move.${kind}`, { where: where(position) });
}

const NUMBERS = new Set(["points", "better", "chosen", "mean"]); // a reason's params shown as numbers

/** Why a decision was rated so, in the page's language: its reason's kind and params
 * (`why`, skyjo.analysis.reasons), and whether its playout check saw it within the noise;
 * a reason of a kind this page does not know, in the server's English. */
export function reasonWords(decision) {
  const why = decision.why;
  if (!why || !hasReason(why.kind)) return decision.reason;
  const params = {};
  for (const [name, value] of Object.entries(why.params)) {
    if (NUMBERS.has(name)) params[name] = number(value, 1);
    else if (name === "position") params[name] = where(value);
    else if (name.endsWith("_move")) params[name] = moveWords(value);
    else params[name] = value === null ? "" : String(value);
  }
  const check = decision.check;
  const noisy = check && check.interval[0] <= 0;
  const noise = noisy ? t("reason.noise", { low: number(check.interval[0], 1, true), high: number(check.interval[1], 1, true) }) : "";
  return t(`reason.${why.kind}`, params) + noise;
}

function hasReason(kind) {
  return t(`reason.${kind}`) !== `reason.${kind}`;
}

/** Where a decision was made: "Round 2, turn 5", or "Round 1, first cards". */
function when(decision) {
  const round = decision.round + 1;
  return decision.turn === null ? t("review.reveal", { round }) : t("review.turn", { round, turn: decision.turn + 1 });
}

/** "Round 2, turn 5 · Ana · mistake (2.3 points)". */
function momentWords(decision, seats) {
  const points = plural("review.points", decision.loss, { n: number(decision.loss, 1) });
  return `${when(decision)} · ${nameOf(seats, decision.seat, null)} · ${labelWords(decision.label)} (${points})`;
}

function progressWords(review) {
  if (review.status === "asking") return t("review.asking");
  if (review.status === "queued" || !review.total) return t("review.queued");
  return t("review.progress", { done: review.done, total: review.total });
}

// --- the panel -----------------------------------------------------------------------------

/** The review's panel, below the board (a phone) or beside it; null while it is closed. */
export function reviewPanel(review) {
  if (!review.open) return null;
  return h("section", { class: "panel review", "aria-labelledby": "review-title", "data-scroll": "review", "data-key": "review" },
    h("div", { class: "review-head" },
      h("h2", { id: "review-title", tabindex: "-1", "data-key": "review-title" }, t("review.title")),
      h("button", { type: "button", class: "review-hide", "data-key": "review-hide", onclick: () => review.hide() },
        t("review.hide"))),
    review.status === "done" ? made(review) : pending(review));
}

/** The review being made (a bar and its words), or why it was not. */
function pending(review) {
  if (review.status === "failed") {
    return [h("p", { class: "error", role: "alert", "data-key": "review-error" }, review.error),
      h("button", { type: "button", "data-key": "review-retry", onclick: () => { review.status = "idle"; review.start(); } },
        t("review.retry"))];
  }
  const running = review.status === "running" && review.total > 0;
  return h("div", { class: "review-progress" },
    h("progress", { "data-key": "review-progress", max: running ? review.total : null, value: running ? review.done : null,
      "aria-labelledby": "review-progress-text" }),
    h("p", { id: "review-progress-text", class: "review-progress-text" }, progressWords(review)));
}

/** A poll's news, in place: the bar and its words (the panel is drawn once per status). */
function progressShown(review) {
  const bar = document.querySelector("[data-key=review-progress]");
  if (!bar) return;
  if (review.total > 0) {
    bar.max = review.total;
    bar.value = review.done;
  }
  document.getElementById("review-progress-text").textContent = progressWords(review);
}

/** A screen reader hears the progress through the page's live region (polite) once a
 * quarter: the words on screen change each second. */
function tellProgress(review) {
  const quarter = review.total ? Math.floor((4 * review.done) / review.total) : 0;
  if (quarter <= review.told || quarter >= 4) return;
  review.told = quarter;
  announce(t("review.progressSaid", { percent: percent(quarter / 4) }));
}

function made(review) {
  const seats = review.replay.seats;
  return [
    tryAgain(review),
    players(review.data, seats),
    h("p", { class: "review-help" }, t("review.help")),
    h("h3", {}, t("review.chart")),
    chart(review),
    legend(review.data, seats),
    chanceTable(review, seats),
    h("h3", { id: "review-moments-title" }, t("review.moments")),
    ...moments(review, seats),
  ];
}

/** Each player's accuracy, points lost per decision, costly decisions and luck. */
function players(data, seats) {
  const head = (key, mark) => h("th", { scope: "col", title: mark ? t(key) : null },
    mark ? [h("span", { "aria-hidden": "true" }, mark), h("span", { class: "sr-only" }, t(key))] : t(key));
  const hidden = (key) => h("th", { scope: "col" }, h("span", { class: "sr-only" }, t(key))); // the names say it
  return h("div", { class: "review-scroll" }, h("table", { class: "review-players", "data-key": "review-players" },
    h("thead", {}, h("tr", {},
      hidden("review.player"), head("review.accuracy"), head("review.lost"),
      Object.entries(MARKS).map(([label, mark]) => head(COLUMNS[label], mark)),
      head("review.luck"))),
    h("tbody", {}, data.players.map((p) => h("tr", {},
      h("th", { scope: "row" }, h("span", { class: "who" }, swatch(p.seat), nameOf(seats, p.seat, null))),
      h("td", {}, number(p.accuracy, 1)),
      h("td", {}, number(p.points_lost, 2)),
      Object.keys(MARKS).map((label) => h("td", { class: p.labels[label] ? `times ${label}` : "times" }, String(p.labels[label]))),
      h("td", { class: p.luck < 0 ? "luck bad" : "luck" }, number(p.luck, 1, true)))))));
}

function swatch(seat) {
  return h("span", { class: `swatch seat-${seat % 8}`, "aria-hidden": "true" });
}

function legend(data, seats) {
  return h("ul", { class: "review-legend", "aria-hidden": "true" },
    data.players.map((p) => h("li", {}, swatch(p.seat), nameOf(seats, p.seat, null))));
}

// --- the chart of the chances to win ----------------------------------------------------------

function svg(tag, attrs = {}, text = null) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  if (text !== null) element.textContent = text;
  return element;
}

/** Each seat's chance to win (the value's, before each of its decisions: `standing`) move
 * by move, ending at the game's outcome; the rounds' starts as light lines, the move shown
 * as a line too. A click jumps the replay there (the slider and the list do by keyboard). */
function chart(review) {
  const { replay, data } = review;
  const { width, height, left, right, top, bottom } = CHART;
  const last = Math.max(1, replay.last);
  const x = (frame) => left + (frame / last) * (width - left - right);
  const y = (chance) => top + (1 - chance) * (height - top - bottom);
  const names = data.players.map((p) => nameOf(replay.seats, p.seat, null));
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "review-chart", role: "img", "data-key": "review-chart",
    "aria-label": t("review.chartLabel", { names: names.join(", ") }) });
  for (const chance of [0, 0.5, 1]) {
    root.append(svg("line", { x1: left, x2: width - right, y1: y(chance), y2: y(chance), class: "grid-line" }));
    root.append(svg("text", { x: left - 5, y: y(chance) + 4, class: "axis", "text-anchor": "end" }, percent(chance)));
  }
  for (const start of replay.data.rounds.slice(1)) {
    root.append(svg("line", { x1: x(start), x2: x(start), y1: top, y2: height - bottom, class: "round-line" }));
  }
  for (const [seat, points] of series(review)) {
    root.append(svg("polyline", { points: points.map(([frame, chance]) => `${x(frame).toFixed(1)},${y(chance).toFixed(1)}`).join(" "),
      class: `series seat-${seat % 8}`, "data-seat": seat }));
  }
  for (const d of data.costly.filter((c) => c.label !== "inaccuracy")) {
    root.append(svg("circle", { cx: x(d.step - 1), cy: y(d.standing[d.seat]), r: d.label === "blunder" ? 4.5 : 3.5,
      class: `mark seat-${d.seat % 8} ${d.label}` }));
  }
  root.append(svg("line", { x1: x(replay.index), x2: x(replay.index), y1: top, y2: height - bottom, class: "now-line" }));
  root.addEventListener("click", (event) => {
    const box = root.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * width;
    replay.pause();
    replay.go(Math.round(((at - left) / (width - left - right)) * last));
  });
  return root;
}

/** Each reviewed seat's points (frame, chance): before each decision, then the outcome. */
function series(review) {
  const { replay, data } = review;
  const winners = replay.data.winners || [];
  return data.players.map(({ seat }) => {
    const points = data.decisions.map((d) => [d.step - 1, d.standing[seat]]);
    if (winners.length) points.push([replay.last, winners.includes(seat) ? 1 / winners.length : 0]);
    return [seat, points];
  });
}

/** The chart for a screen reader: each player's chance at the start of each round. */
function chanceTable(review, seats) {
  const { data } = review;
  const starts = [...new Set(data.decisions.map((d) => d.round))].map((round) => data.decisions.find((d) => d.round === round));
  return h("div", { class: "sr-only" }, h("table", { "data-key": "review-chances" }, // (a table ignores a 1 px width)
    h("caption", {}, t("review.chartTable")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("review.player")),
      starts.map((d) => h("th", { scope: "col" }, t("room.round", { n: d.round + 1 }))))),
    h("tbody", {}, data.players.map((p) => h("tr", {},
      h("th", { scope: "row" }, nameOf(seats, p.seat, null)),
      starts.map((d) => h("td", {}, percent(d.standing[p.seat]))))))));
}

/** At a costly decision's table, "Try it again": every legal move of the decision as a
 * button (in the board's order, not the review's: that would tell the answer); the one
 * picked says what it is worth (the review's value of each move) against the best. In
 * the panel (the replay's controls keep their size). */
function tryAgain(review) {
  const replay = review.replay;
  const decision = review.at(replay.index);
  if (!costly(decision)) return null;
  if (review.trying !== decision.step) {
    const start = () => Object.assign(review, { trying: decision.step, tried: null, focus: "review-try-title" }).replay.redraw();
    return h("p", { class: "review-try-offer" }, momentWords(decision, replay.seats), " ",
      h("button", { type: "button", class: "review-try", "data-key": "review-try", onclick: start }, t("review.try")));
  }
  const options = [...decision.options].sort((a, b) => order(a.move) - order(b.move));
  const picked = review.tried === null ? null : options[review.tried];
  return h("div", { class: "review-trying", role: "group", "aria-labelledby": "review-try-title", "data-key": "review-trying" },
    h("p", { id: "review-try-title", tabindex: "-1", "data-key": "review-try-title" },
      t("review.tryHelp", { name: nameOf(replay.seats, decision.seat, null) })),
    h("div", { class: "review-options" }, options.map((option, i) => h("button", { type: "button",
      "data-key": `review-option-${i}`, "aria-pressed": String(review.tried === i), onclick: () => {
        Object.assign(review, { tried: i, focus: `review-option-${i}` }).replay.redraw();
        announce(verdict(options[i], options));
      } }, capital(moveWords(option.move))))),
    picked ? h("p", { class: `review-verdict ${picked.label}`, "data-key": "review-verdict" }, verdict(picked, options)) : null,
    h("div", { class: "review-try-end" },
      h("button", { type: "button", class: "start", "data-key": "review-play-on", onclick: () => playOn(review, decision) },
        t("review.playOn")),
      h("button", { type: "button", "data-key": "review-try-done",
        onclick: () => Object.assign(review, { trying: null, tried: null, focus: "review-try" }).replay.redraw() },
      t("review.tryDone"))),
    review.practiceError ? h("p", { class: "error", role: "alert", "data-key": "review-play-on-error" }, review.practiceError) : null);
}

/** A new room from this decision's table, against bots (the unseen cards dealt afresh by
 * the server), this browser its player: opened at once. */
async function playOn(review, decision) {
  review.practiceError = null;
  try {
    const room = await playOnFrom(review.path.replace(/\/review$/, "/practice"), decision.step - 1);
    window.location.assign(`/r/${encodeURIComponent(room.code)}`);
  } catch (failure) {
    review.practiceError = failure.message;
    review.replay.redraw();
  }
}

/** A move's place in the board's order: the deck, the discard, then each position. */
function order(move) {
  if (move.take) return move.take === "deck" ? 0 : 1;
  const [kind, [row, col]] = Object.entries(move)[0];
  return 2 + row * 4 + col + (kind === "flip" ? 12 : 0);
}

/** "Exchange the card at row 2, column 3: 14.2 points expected, good (the best: 13.8)". */
function verdict(option, options) {
  const best = Math.min(...options.map((o) => o.points));
  return t("review.verdict", { move: capital(moveWords(option.move)),
    points: plural("review.points", option.points, { n: number(option.points, 1) }),
    label: labelWords(option.label), best: number(best, 1) });
}

function capital(text) {
  return text.charAt(0).toLocaleUpperCase(language()) + text.slice(1);
}

// --- the costliest decisions ----------------------------------------------------------------

/** The costly decisions, the costliest first (SHOWN of them until "Show all"): each a
 * button to the table it was decided at, its reason below. */
function moments(review, seats) {
  const { costly: all } = review.data;
  if (!all.length) return [h("p", { class: "review-none" }, t("review.none"))];
  const shown = review.all ? all : all.slice(0, SHOWN);
  const index = review.replay.index;
  return [
    h("ol", { class: "review-moments", "aria-labelledby": "review-moments-title" }, shown.map((d) => h("li", { class: d.label },
      h("button", { type: "button", class: "review-moment", "data-key": `review-at-${d.step}`,
        "aria-current": d.step - 1 === index ? "step" : null, onclick: () => jump(review, d) },
      h("span", { class: "mark", "aria-hidden": "true" }, MARKS[d.label]), " ", momentWords(d, seats)),
      h("p", { class: "reason" }, reasonWords(d))))),
    all.length > SHOWN ? h("button", { type: "button", class: "review-more", "data-key": "review-more", "aria-expanded": String(review.all),
      onclick: () => { review.all = !review.all; review.replay.redraw(); } },
    review.all ? t("review.fewer") : t("review.more", { n: all.length })) : null,
  ];
}

/** To the table decision `d` was made at; on a phone (the board above the panel, out of
 * view) the board scrolls back into view, the focus staying on the decision's button. */
function jump(review, d) {
  review.replay.pause();
  review.replay.go(d.step - 1);
  const board = document.querySelector("#main > .board");
  if (board && board.getBoundingClientRect().bottom < window.innerHeight / 3) {
    const still = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    board.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
  }
}
