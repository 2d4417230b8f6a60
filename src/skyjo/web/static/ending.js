// A finished game's end, told (issue 56): the places (ties share one), why the game stopped
// (whose total reached the target: RULES.md 3), the running totals round by round (a chart,
// chart.js, and a table for screen readers), and a few numbers per player. Everything comes
// from the rounds the page holds (each round's scores, ender and doubling: the server's
// summaries) but the columns cleared and the points left in 9–12s, counted from the game's
// frames: a replay's own, or for a room its replay, asked for once the game is over
// (docs/web-protocol.md, "Replays"). Your place is said in a sentence; a game against bots
// offers the same table with easier or harder bots (levels.js).
import { roomReplay } from "./api.js";
import { legend, totalsChart } from "./chart.js";
import { h } from "./dom.js";
import { joinNames, language, t } from "./i18n.js";
import { nameOf } from "./text.js";

/** Each seat's place by its total (`totals`), best first: `{seat, total, place}`, seats with
 * equal totals sharing the better place (1, 1, 3: RULES.md 3, no tie-break). */
export function places(totals) {
  return totals.map((total, seat) => ({ seat, total, place: 1 + totals.filter((other) => other < total).length }))
    .sort((a, b) => a.place - b.place || a.seat - b.seat);
}

/** A place in words: "1st", "2.º", "1er", "1." (the language's ordinal form, CLDR's). */
export function ordinal(n) {
  return t(`end.place.${new Intl.PluralRules(language(), { type: "ordinal" }).select(n)}`, { n });
}

/** Each seat's total after every round (0 before the first), from the rounds' scores. */
export function runningTotals(rounds, seats) {
  return Array.from({ length: seats }, (_, seat) => rounds.reduce(
    (sums, round) => [...sums, sums.at(-1) + round.scores[seat]], [0]));
}

/**
 * Per seat, the game's numbers: rounds won (the round's lowest score, shared), rounds ended,
 * times the ender's score was doubled (RULES.md 2.10), the best round's score, and, from the
 * game's `frames` when they are known (else null), columns cleared (their events) and the
 * points left in 9–12s (the cards of 9 to 12 in each round's final grid, all face up).
 */
export function statistics(rounds, seats, frames) {
  const cleared = frames ? frames.flatMap((f) => f.events).filter((e) => e.kind === "column_cleared") : null;
  const high = frames ? highPoints(frames, seats) : null;
  return Array.from({ length: seats }, (_, seat) => ({
    won: rounds.filter((r) => r.scores[seat] === Math.min(...r.scores)).length,
    ended: rounds.filter((r) => r.ender === seat).length,
    doubled: rounds.filter((r) => r.ender === seat && r.doubled).length,
    bestRound: rounds.length ? Math.min(...rounds.map((r) => r.scores[seat])) : null,
    columns: cleared ? cleared.filter((e) => e.player === seat).length : null,
    high: high ? high[seat] : null,
  }));
}

/** Per seat, the points of its 9s to 12s left in the grid at every round's end (the
 * frames at a round's end show every card; a cleared one is "x"). */
export function highPoints(frames, seats) {
  const ends = new Map(); // round -> its final grids
  for (const { observation: obs } of frames) {
    if (obs.phase === "round_over" || obs.phase === "game_over") ends.set(obs.round, obs.grids);
  }
  const high = (value) => (typeof value === "number" && value >= 9 ? value : 0);
  return Array.from({ length: seats }, (_, seat) => [...ends.values()]
    .reduce((sum, grids) => sum + grids[seat].flat().reduce((points, value) => points + high(value), 0), 0));
}

/** Your place in a sentence ("You finished 2nd of 4"; a tie says with whom); null for a
 * spectator. */
export function placeText(view) {
  if (view.you === null || view.you === undefined) return null;
  const ranked = places(view.obs.totals);
  const mine = ranked.find((entry) => entry.seat === view.you);
  const tied = ranked.filter((entry) => entry.place === mine.place && entry.seat !== view.you)
    .map((entry) => nameOf(view.seats, entry.seat, view.you));
  const words = { place: ordinal(mine.place), n: ranked.length };
  return tied.length ? t("end.youTied", { ...words, names: joinNames(tied) }) : t("end.you", words);
}

/** Why the game stopped: the seats whose total reached the target, with their totals. */
export function reasonText(totals, target, seats, you) {
  const who = totals.map((total, seat) => ({ total, seat })).filter((entry) => entry.total >= target)
    .map((entry) => t("end.who", { name: nameOf(seats, entry.seat, you), total: entry.total }));
  return who.length ? t("end.reason", { target, who: joinNames(who) }) : "";
}

/** The places, best first: a table of place, player and total. */
export function placesTable(view) {
  const totals = view.obs.totals;
  return h("table", { class: "places", "data-key": "places" },
    h("caption", { class: "sr-only" }, t("end.places")),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("end.place")),
      h("th", { scope: "col" }, t("round.player")),
      h("th", { scope: "col" }, t("scores.total")))),
    h("tbody", {}, places(totals).map(({ seat, total, place }) => h("tr", { class: place === 1 ? "first" : null },
      h("td", { class: "place" }, ordinal(place)),
      h("th", { scope: "row" }, nameOf(view.seats, seat, view.you)),
      h("td", { class: "total" }, String(total))))));
}

/** The story of the game under its end: the totals' chart (and its table) and the numbers. */
export function story(view) {
  const rounds = view.state.rounds;
  if (!rounds.length) return null;
  const names = view.seats.map((_, seat) => nameOf(view.seats, seat, view.you));
  return h("div", { class: "game-story", "data-key": "game-story" },
    chartSection(view, rounds, names),
    statsSection(view, rounds, names));
}

function chartSection(view, rounds, names) {
  const target = view.state.room.rules.target_score;
  const series = runningTotals(rounds, names.length);
  const width = Math.round(Math.min(480, Math.max(240, innerWidth - 64))); // about the panel's width: its text stays 12 px
  const chart = totalsChart({ names, series, target, width,
    words: { title: t("end.chart"), label: t("end.chartLabel", { target }), targetLine: t("end.targetLine", { target }) } });
  chart.dataset.key = "end-chart";
  return h("section", { class: "end-chart", "aria-labelledby": "end-chart-title" },
    h("h3", { id: "end-chart-title" }, t("end.chart")), chart,
    legend(names, series.map((values) => values.at(-1))),
    h("table", { class: "sr-only", "data-key": "end-chart-table" },
      h("caption", {}, t("end.chartTable")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("round.player")),
        rounds.map((r) => h("th", { scope: "col" }, t("room.round", { n: r.round }))))),
      h("tbody", {}, names.map((name, seat) => h("tr", {}, h("th", { scope: "row" }, name),
        series[seat].slice(1).map((total) => h("td", {}, String(total))))))));
}

const STATS = ["won", "ended", "doubled", "columns", "high", "bestRound"];

function statsSection(view, rounds, names) {
  const numbers = statistics(rounds, names.length, allFrames(view));
  const cell = (value) => (value === null ? "–" : String(value));
  return h("section", { class: "end-stats", "aria-labelledby": "end-stats-title" },
    h("h3", { id: "end-stats-title" }, t("end.stats")),
    // a row a statistic and a column a player, so that two to four players fit a phone's
    // width; it scrolls sideways beyond (focusable, so that the keyboard scrolls it too)
    h("div", { class: "end-stats-scroll", tabindex: "0", role: "region", "aria-labelledby": "end-stats-title" },
      h("table", { "data-key": "end-stats" },
      h("thead", {}, h("tr", {}, h("td", {}),
        names.map((name) => h("th", { scope: "col" }, name)))),
      h("tbody", {}, STATS.map((key) => h("tr", {}, h("th", { scope: "row" }, t(`end.stat.${key}`)),
        names.map((_, seat) => h("td", { "data-stat": key, "data-seat": seat }, cell(numbers[seat][key])))))))));
}

/** Every frame of the game, oldest first: a replay's own, or a finished room's replay's,
 * asked for once (the page is drawn again when it comes); null until it is known. */
function allFrames(view) {
  const frames = view.game.data?.frames;
  if (frames) return frames;
  const ui = view.ui;
  const code = view.state.room.code;
  if (!code || !view.state.over) return null;
  if (ui.finalGame?.code !== code) {
    ui.finalGame = { code, frames: null };
    roomReplay(code).then((data) => {
      if (ui.finalGame?.code !== code) return;
      ui.finalGame.frames = data.frames;
      view.game.onChange();
    }, () => {}); // no replay (the connection is gone): its columns stay "–"
  }
  return ui.finalGame.frames;
}
