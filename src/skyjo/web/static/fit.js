// Seats' names read whole (issue 56): a name its seat's box cuts (a level's long word among
// eight seats: "Bot Erwartungswert 2", three bots on a 320 px phone: "Bot codicioso") is
// drawn smaller, step by step, down to MIN of its size; the others keep theirs. Measured
// after each drawing of the board, and again when the window changes size.
const MIN = 0.62;
const STEP = 0.06;

/** Shrink each `.seat .name` under `root` that its box cuts, until it fits (or MIN). */
export function fitNames(root) {
  const names = [...root.querySelectorAll(".seat .name")];
  for (const name of names) name.style.fontSize = "";
  for (const name of names) {
    let scale = 1;
    while (name.scrollWidth > name.clientWidth + 0.5 && scale - STEP >= MIN) {
      scale -= STEP;
      name.style.fontSize = `${scale.toFixed(2)}em`;
    }
  }
}

let watched = null;

/** Fit the names of `root` now and whenever the window is resized (one listener a page). */
export function keepNamesWhole(root) {
  fitNames(root);
  if (watched === root) return;
  watched = root;
  addEventListener("resize", () => fitNames(root));
}
