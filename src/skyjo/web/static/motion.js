// Short animations of what a step did on the table: a card turned up, an exchange, a
// column cleared, a reshuffle. They are read from the step's visible events (nothing the
// viewer may not see) and only dress the board: the board always shows the state as it
// is, input is never held back, and style.css plays each one for at most MOTION_MS
// (none at all under prefers-reduced-motion).

/** How long a motion lasts at most, in milliseconds (style.css's keyframes are shorter). */
export const MOTION_MS = 400;

const COLS = 4;

/**
 * The motions of one step: `{at, kind, seat, cells}` for cards of a grid (kind "flip",
 * "exchange" or "clear"; cells are grid indices row * 4 + col) and `{at, kind, pile}` for
 * a pile ("land" on the discard pile, "shuffle" of the draw pile). `before` is the
 * observation before the step (for the cards a round's end turned up), if known.
 */
export function motionsOf(events, before = null, after = null, at = performance.now()) {
  const motions = [];
  const cell = (kind, seat, cells, card) => motions.push({ at, kind, seat, cells, card });
  const pile = (kind, name) => motions.push({ at, kind, pile: name });
  for (const event of events) {
    const k = Array.isArray(event.position) ? event.position[0] * COLS + event.position[1] : null;
    switch (event.kind) {
      case "revealed":
        if (k !== null) cell("flip", event.player, [k]);
        else if (before && after) cell("flip", event.player, turnedUp(before, after, event.player));
        break;
      case "flipped":
        cell("flip", event.player, [k]);
        break;
      case "exchanged":
        cell("exchange", event.player, [k]);
        pile("land", "discard");
        break;
      case "discarded":
        pile("land", "discard");
        break;
      case "column_cleared":
        cell("clear", event.player, [k, k + COLS, k + 2 * COLS], event.card);
        pile("land", "discard");
        break;
      case "reshuffled":
        pile("shuffle", "draw");
        break;
      default:
        break;
    }
  }
  return motions;
}

/** The cells of `seat` face down in `before` and face up in `after`. */
function turnedUp(before, after, seat) {
  const was = (before.grids[seat] || []).flat();
  const now = (after.grids[seat] || []).flat();
  return now.flatMap((value, k) => (was[k] === null && typeof value === "number" ? [k] : []));
}

/** The motions of `motions` still playing at `now`. */
export function playing(motions, now = performance.now()) {
  return (motions || []).filter((motion) => now - motion.at < MOTION_MS);
}

/**
 * Where each playing motion goes, for one render: `cell(seat, k)` and `pile(name)` give
 * the motion of that card (the latest one wins) or undefined.
 */
export function motionMap(motions, now = performance.now()) {
  const cells = new Map();
  const piles = new Map();
  for (const motion of playing(motions, now)) {
    if (motion.pile) piles.set(motion.pile, motion);
    else for (const k of motion.cells) cells.set(`${motion.seat}:${k}`, motion);
  }
  return { cell: (seat, k) => cells.get(`${seat}:${k}`), pile: (name) => piles.get(name), now };
}

/**
 * Put `motion` on the card element `element`: its class (and for a cleared card the
 * value that left, which fades), and a negative delay so that a board drawn again while
 * it plays (another message came) goes on where it was rather than starting over. The
 * delay is set through the CSSOM (the page's CSP allows no inline style attribute).
 */
export function animate(element, motion, now) {
  if (!motion) return element;
  element.classList.add(`anim-${motion.kind}`);
  if (motion.kind === "clear" && motion.card !== undefined) element.dataset.gone = String(motion.card);
  const elapsed = Math.max(0, now - motion.at);
  if (elapsed > 0) element.style.animationDelay = `-${Math.round(elapsed)}ms`;
  return element;
}
