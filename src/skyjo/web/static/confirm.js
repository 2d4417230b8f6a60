// The exchange's confirmation: an exchange that would throw away one of your face-up cards
// lower than the card you hold (a likely mis-tap: RULES.md 2.5, an exchanged card goes to
// the discard pile) is asked about first, in place of the choices; prefs.js turns it off.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { pref } from "./prefs.js";

const SWAP = 14, FLIP = 26; // action ids (docs/web-protocol.md): an exchange at 0-11

/** The face-up card `action` would throw away for the held one when it is lower, else null. */
function thrownLower(view, action) {
  const { obs, you } = view;
  if (action < SWAP || action >= FLIP || typeof obs.held !== "number") return null;
  const value = obs.grids[you].flat()[action - SWAP];
  return typeof value === "number" && value < obs.held ? value : null;
}

/** Ask before `action` when it throws away a lower face-up card (and the setting is on):
 * true when asked (the move waits for the answer). */
export function askFirst(view, action) {
  const { ui } = view;
  if (ui.confirm === action || !pref("confirmLow") || thrownLower(view, action) === null) return false;
  ui.confirm = action;
  ui.confirmAt = view.state.number; // the question holds for this step only
  ui.focus = "confirm-no";
  view.game.onChange();
  return true;
}

/** The question, with "Keep my N" (first: nothing is played) and "Exchange" (plays it), or
 * null when none is asked; Escape keeps the card too, the focus back on it. */
export function confirmPanel(view) {
  const { ui } = view;
  const action = ui.confirm;
  const low = action === null || action === undefined || ui.confirmAt !== view.state.number
    ? null : thrownLower(view, action);
  if (low === null) {
    ui.confirm = null;
    return null;
  }
  const keep = () => {
    ui.confirm = null;
    ui.focus = `cell-${view.you}-${action - SWAP}`;
    view.game.onChange();
  };
  return h("div", { class: "confirm", role: "group", "aria-labelledby": "confirm-ask", "data-key": "confirm",
    onkeydown: (e) => { if (e.key === "Escape") { e.stopPropagation(); keep(); } } },
  h("p", { id: "confirm-ask" }, t("confirm.ask", { low, held: view.obs.held })),
  h("div", { class: "confirm-buttons" },
    h("button", { type: "button", class: "choice", "data-key": "confirm-no", onclick: keep }, t("confirm.no", { low })),
    h("button", { type: "button", class: "choice", "data-key": "confirm-yes", onclick: () => view.act(action) }, t("confirm.yes"))));
}
