// The rules page (/rules): the rules people check at the table (docs/RULES.md, the project's single
// reference, worded in rules-i18n.js), with small pictures of cards drawn by the table's own card
// (board.js's `card`), so their colours and looks are the game's. Each picture is decorative
// (aria-hidden): its caption or the text beside it says what it shows. The page needs no server
// once the service worker has kept it (sw.js): it is read offline at the table.
import { card } from "./board.js";
import { h, replace } from "./dom.js";
import { FACTS } from "./facts.js";
import { defaultRules } from "./variants.js";
import { language, setLanguage, t } from "./i18n.js";
import { CLEARED_GRID, EXAMPLES, FAMILIES, clearedText, exampleText, rt } from "./rules-i18n.js";
import { topBar } from "./top.js";
import { registerWorker } from "./offline.js";

const main = document.getElementById("main");
const TARGET = defaultRules().target_score ?? 100;
const PLAYERS = FACTS.players ?? { min: 2, max: 8 };
/** The sections, in order: their anchor and their heading's key. */
const SECTIONS = [
  ["cards", "rules.cards.title"],
  ["deal", "rules.deal.title"],
  ["turn", "rules.turn.title"],
  ["columns", "rules.columns.title"],
  ["round-end", "rules.end.title"],
  ["game-end", "rules.game.title"],
];

function chrome() {
  topBar({ parts: () => [h("span", { class: "tagline" }, rt("rules.name"))], redraw: draw, skip: () => rt("rules.skip") });
}

/** A picture's cards: `rows` of values (null: face down, "x": cleared), as on the table. */
function grid(rows, extra = "") {
  return h("div", { class: `rules-grid${extra}` },
    rows.flat().map((value) => card(value, { label: value === null ? t("card.down") : String(value) })));
}

/** A figure whose picture is decorative: the caption says what it shows. */
function figure(picture, caption, key) {
  return h("figure", { class: "rules-figure", "data-key": key },
    h("div", { class: "rules-pic", "aria-hidden": "true" }, picture),
    h("figcaption", {}, caption));
}

function section(id, ...children) {
  const title = SECTIONS.find(([anchor]) => anchor === id)[1];
  return h("section", { id, class: "panel rules-section", "aria-labelledby": `${id}-title` },
    h("h2", { id: `${id}-title` }, rt(title)), children);
}

/** Where "back" goes: the room this page was opened from (`?back=CODE`: a room's lobby and
 * panel link here so, as the site sends no referrer), else the front page. */
function back() {
  const query = new URLSearchParams(location.search);
  const code = query.get("back") ?? "";
  const room = `/r/${code}${query.has("watch") ? "?watch" : ""}`; // a spectator goes back to watching
  return /^[A-Za-z0-9]{1,12}$/.test(code) ? h("a", { href: room, "data-key": "rules-back" }, rt("rules.backGame"))
    : h("a", { href: "/", "data-key": "rules-back" }, t("room.back"));
}

function cards() {
  return section("cards",
    h("p", {}, rt("rules.cards.deck", { min: PLAYERS.min, max: PLAYERS.max })),
    h("p", { id: "families-intro" }, rt("rules.cards.families")),
    h("ul", { class: "rules-families", "aria-labelledby": "families-intro", "data-key": "families" },
      FAMILIES.map((family) => h("li", { "data-family": family.name },
        h("span", { class: "rules-pic rules-row", "aria-hidden": "true" },
          family.values.map((value) => card(value, { label: String(value) }))),
        h("span", {}, rt(`rules.family.${family.name}`))))));
}

function deal() {
  const dealt = [[null, 7, null, null], [null, null, null, null], [null, null, 3, null]];
  return section("deal",
    h("ol", {}, h("li", {}, rt("rules.deal.grid")), h("li", {}, rt("rules.deal.piles")), h("li", {}, rt("rules.deal.two"))),
    figure(grid(dealt), rt("rules.deal.caption"), "deal-picture"),
    h("h3", {}, rt("rules.start.title")),
    h("ul", {}, h("li", {}, rt("rules.start.first")), h("li", {}, rt("rules.start.later"))),
    h("p", {}, rt("rules.start.order")));
}

function turn() {
  const move = (name) => h("li", {}, h("strong", {}, rt(`rules.turn.${name}Name`)), " ", rt(`rules.turn.${name}`));
  return section("turn",
    h("p", {}, rt("rules.turn.choose")),
    h("ul", { class: "rules-moves" }, move("take"), move("swap"), move("flip")),
    h("p", {}, rt("rules.turn.exchange")),
    figure(h("div", { class: "rules-row" }, card(null, { label: t("card.down"), extra: " pile" }),
      card(5, { label: "5", extra: " pile" })), rt("rules.turn.caption"), "piles-picture"),
    h("p", {}, rt("rules.turn.empty")));
}

function columns() {
  const { rows, column } = CLEARED_GRID;
  const after = rows.map((row) => row.map((value, col) => (col === column ? "x" : value)));
  return section("columns",
    h("p", {}, rt("rules.columns.rule")),
    h("p", {}, rt("rules.columns.any")),
    h("div", { class: "rules-figures" },
      figure(grid(rows, " rules-before"), rt("rules.columns.before", { value: rows[0][column] }), "column-before"),
      figure(grid(after), clearedText(), "column-after")));
}

function roundEnd() {
  return section("round-end",
    h("p", {}, rt("rules.end.ender")),
    h("p", {}, rt("rules.end.last")),
    h("p", {}, rt("rules.end.score")),
    h("h3", {}, rt("rules.double.title")),
    h("p", { class: "rules-key", "data-key": "double-rule" }, rt("rules.double.rule")),
    h("p", {}, rt("rules.double.safe")),
    h("p", { id: "examples-intro" }, rt("rules.double.examples")),
    h("ul", { "aria-labelledby": "examples-intro", "data-key": "examples" },
      EXAMPLES.map((example) => h("li", {}, exampleText(example)))),
    h("p", { class: "notice" }, rt("rules.double.variant")));
}

function gameEnd() {
  return section("game-end",
    h("p", {}, rt("rules.game.total")),
    h("p", { class: "rules-key" }, rt("rules.game.end", { target: TARGET })),
    h("p", { class: "rules-key" }, rt("rules.game.win")),
    h("p", { class: "notice" }, rt("rules.game.variant")));
}

function draw() {
  document.title = `Skyjo · ${rt("rules.name")}`;
  main.dataset.focus = "rules-title"; // the skip link lands on the page's heading
  replace(main, h("article", { class: "rules" },
    h("header", { class: "rules-head" },
      h("h1", { tabindex: "-1", "data-key": "rules-title" }, rt("rules.title")),
      h("p", {}, rt("rules.intro", { target: TARGET })),
      h("nav", { "aria-labelledby": "contents-title", class: "rules-contents" },
        h("p", { id: "contents-title" }, rt("rules.contents")),
        h("ul", {}, SECTIONS.map(([id, key]) => h("li", {}, h("a", { href: `#${id}` }, rt(key))))))),
    cards(), deal(), turn(), columns(), roundEnd(), gameEnd(),
    h("p", { class: "rules-back" }, back())));
}

setLanguage(language());
chrome();
draw();
registerWorker();
