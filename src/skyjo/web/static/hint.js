// A hint in a game against bots (issue 56): "what would the Expected bot play?". Asked by a
// button beside the prompt, answered by the server (`hint`, docs/web-protocol.md) for the
// step shown: the move in words under the prompt (told once through the live region) and
// the controls that play it outlined on the table. Never offered with another person at the
// table (the server refuses it there too).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { againstBots } from "./levels.js";
import { ACTIONS, actionWords } from "./text.js";

/** Whether the viewer may ask for a hint now: its own turn, alone against bots, connected. */
function offered(view) {
  return !view.ui.replay && !view.down && view.seated && view.legal.size > 0
    && !view.legal.has(ACTIONS.NEXT_ROUND) && againstBots(view);
}

/** The hint the server gave for the step shown, or null. */
function current(view) {
  const hint = view.game.hint;
  return hint && hint.number === view.state.number ? hint : null;
}

/** The "Hint" button (floated beside the prompt: before it in the page), until answered: at
 * a turn's start (or a reveal), where the prompt is short. A turn begun with a hint has its
 * next step's hint asked for by itself (a card drawn: where to put it), `followHint`. */
export function hintButton(view) {
  if (!offered(view) || current(view) || view.obs.held !== null) return null;
  return h("button", { type: "button", class: "hint-ask", "data-key": "hint", title: t("hint.title"),
    onclick: () => ask(view) }, t("hint.ask"));
}

function ask(view) {
  view.ui.hintAsked = view.state.number;
  view.game.askHint();
}

/** In a turn begun with a hint, ask for the next step's (once a step), a card in hand. */
export function followHint(view) {
  const asked = view.ui.hintAsked;
  if (asked === undefined || !offered(view) || view.obs.held === null || current(view)) return;
  if (asked < view.state.number && asked >= view.state.number - 1) ask(view);
}

/** Once answered, the hinted move in words, under the prompt. */
export function hintLine(view) {
  const hint = offered(view) ? current(view) : null;
  return hint ? h("p", { class: "hint-line", "data-key": "hint-line" }, hintWords(hint)) : null;
}

function hintWords(hint) {
  return t("hint.said", { move: actionWords(hint.action) });
}

/** The hint's words for the live region, once per hint; null otherwise. */
export function hintNews(view) {
  const hint = offered(view) ? current(view) : null;
  if (!hint || view.ui.toldHint === hint) return null;
  view.ui.toldHint = hint;
  return hintWords(hint);
}

/** Outline on the table the controls that play the hinted move. */
export function outlineHint(root, view) {
  const hint = offered(view) ? current(view) : null;
  if (!hint) return;
  for (const key of hintKeys(hint.action, view.you, view.ui.flip)) {
    root.querySelector(`[data-key="${key}"]`)?.classList.add("hinted");
  }
}

/** The data-keys of the controls that play `action` for seat `you` (`flip`: a drawn card is
 * being discarded already): a pile and its button, or your card (after "discard it"). */
export function hintKeys(action, you, flip) {
  const { REVEAL, DRAW, TAKE_DISCARD, SWAP, FLIP, CARDS } = ACTIONS;
  if (action === DRAW) return ["pile-draw", "choice-draw"];
  if (action === TAKE_DISCARD) return ["pile-discard", "choice-take"];
  const first = [REVEAL, SWAP, FLIP].find((start) => action >= start && action < start + CARDS);
  if (first === undefined) return [];
  const cell = `cell-${you}-${action - first}`;
  return first === FLIP && !flip ? ["choice-flip", cell] : [cell];
}
