// A first game that teaches (issue 56): a short tour of the game's ideas (the goal, turning
// up two, draw or take, three equal cards in a column vanish, ending the round and the ender's
// doubling: RULES.md 1-2.10 say them in full), shown over the table of this browser's first
// game as a player, skippable at every step and remembered as seen (localStorage
// `skyjo:tour`), and shown again from the Room panel. A modal <dialog>: Escape skips it, the
// focus stays inside it and goes back where it was when it closes.
import { h } from "./dom.js";
import { language, t } from "./i18n.js";

const SEEN = "skyjo:tour";
const STEPS = ["goal", "reveal", "turn", "columns", "ending"];

let shown = null; // the tour open now: {dialog, step, rules, back, language}

/** On a player's first game, the tour (once per page: `ui.toured`); then redrawn in the
 * page's language if it changed. */
export function firstGameTour(view) {
  if (shown) {
    if (shown.language !== language()) drawStep();
    return;
  }
  if (view.ui.replay || !view.seated || view.state.over || view.ui.toured) return;
  view.ui.toured = true;
  if (!localStorage.getItem(SEEN)) showTour(view.state.room.rules);
}

/** The Room panel's button that shows the tour again. */
export function tourButton(rules) {
  return h("button", { type: "button", "data-key": "tour-again", onclick: () => showTour(rules) }, t("tour.again"));
}

/** Open the tour at its first step, for a game of `rules` (its target and ender's penalty). */
export function showTour(rules) {
  if (shown) return;
  const dialog = h("dialog", { class: "tour", "aria-labelledby": "tour-title", "aria-describedby": "tour-text",
    "data-key": "tour" });
  dialog.addEventListener("close", finish); // "Skip", "Let's play" and Escape
  shown = { dialog, step: 0, rules, back: document.activeElement };
  document.body.append(dialog);
  drawStep();
  dialog.showModal();
  dialog.querySelector("[data-key=tour-next]")?.focus();
}

function go(by) {
  shown.step += by;
  drawStep();
}

/** The step shown: its count, title and words, and Back, Next (or Let's play), Skip; the
 * focus kept on the button of the same name (Next stays Next), else on the first one. */
function drawStep() {
  const { dialog, step, rules } = shown;
  shown.language = language();
  const focused = dialog.contains(document.activeElement) ? document.activeElement.dataset.key : null;
  const key = STEPS[step];
  const last = step === STEPS.length - 1;
  const words = { target: rules.target_score, penalty: t(`penalty.${rules.ender_penalty}`) };
  dialog.replaceChildren(
    h("p", { class: "tour-label" }, t("tour.label"), " · ", t("tour.step", { n: step + 1, total: STEPS.length })),
    h("div", { class: "tour-step", "aria-live": "polite" },
      h("h2", { id: "tour-title" }, t(`tour.${key}.title`)),
      h("p", { id: "tour-text" }, t(`tour.${key}`, words))),
    h("div", { class: "row tour-buttons" },
      step > 0 ? h("button", { type: "button", "data-key": "tour-back", onclick: () => go(-1) }, t("tour.back")) : null,
      last ? h("button", { type: "button", class: "start", "data-key": "tour-done", onclick: () => dialog.close() }, t("tour.done"))
        : h("button", { type: "button", class: "start", "data-key": "tour-next", onclick: () => go(1) }, t("tour.next")),
      last ? null : h("button", { type: "button", "data-key": "tour-skip", onclick: () => dialog.close() }, t("tour.skip"))));
  const again = focused && dialog.querySelector(`[data-key="${focused}"]`);
  (again || dialog.querySelector(last ? "[data-key=tour-done]" : "[data-key=tour-next]"))?.focus();
}

/** The tour closed (finished or skipped): seen, gone, the focus back where it was. */
function finish() {
  localStorage.setItem(SEEN, "seen");
  const { dialog, back } = shown;
  shown = null;
  dialog.remove();
  if (back?.isConnected) back.focus();
}
