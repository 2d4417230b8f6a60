// Undo against bots (docs/web-protocol.md, "Undo against bots"): beside the prompt, a
// button that takes back your last move and the bots' replies, in a room where every other
// seat is a bot's. The server keeps the move; the page offers it once you have made one
// (not a round's first reveals) until it is undone, the game ends or the page reconnects.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { againstBots } from "./levels.js";

/** The "Undo my move" button, or null where there is nothing to undo. `hold` says whether
 * the connection is down (the board's: it says so instead of sending). */
export function undoButton(view, hold) {
  const { game, obs } = view;
  if (view.ui.replay || !againstBots(view) || !game.undoable || ["game_over"].includes(obs.phase)) return null;
  return h("button", { type: "button", class: "choice undo", "data-key": "undo",
    onclick: () => { if (!hold()) game.undo(); } },
  h("span", { "aria-hidden": "true" }, "↶ "), h("span", { class: "undo-words" }, t("undo.button")));
}

/** What the live region says once an undo came back (once). */
export function undoneWords(game) {
  if (!game.undone) return null;
  game.undone = false;
  return t("undo.done");
}
