// Short animations of what a step did on the table: a card turned up, a column cleared, a
// reshuffle (style.css's keyframes on the card), and a card travelling (drawn from a pile
// to the hand, placed from the hand in a grid, the card it replaced or the card discarded
// onto the discard pile: a copy of the card, flown FLIP-style with the Web Animations API).
// They are read from the step's visible events (nothing the viewer may not see) and only
// dress the board: the board always shows the state as it is, input and the focus are
// never held back (a travelling copy takes no click), each lasts at most MOTION_MS, and
// none plays under prefers-reduced-motion.

/** How long a motion lasts at most, in milliseconds (style.css's keyframes are shorter). */
export const MOTION_MS = 400;
/** How long a card travels, in milliseconds. */
export const TRAVEL_MS = 260;
/** Where the card in hand is drawn (board.js's data-key of it). */
export const HELD = "pile-held";

const COLS = 4;

/**
 * The motions of one step: `{at, kind, seat, cells}` for cards of a grid (kind "flip" or
 * "clear"; cells are grid indices row * 4 + col), `{at, kind, pile}` for a pile ("land"
 * on the discard pile, "shuffle" of the draw pile) and `{at, kind: "travel", from, to}`
 * for a card that moves from one place to another (data-keys of board.js: the first of
 * `from` that was on the board before is where it leaves from; `card` its value, when
 * the events tell it). `before` is the
 * observation before the step (for the cards a round's end turned up, and the pile a card
 * in hand came from), if known.
 */
export function motionsOf(events, before = null, after = null, at = performance.now()) {
  const motions = [];
  const cell = (kind, seat, cells, card) => motions.push({ at, kind, seat, cells, card });
  const pile = (kind, name) => motions.push({ at, kind, pile: name });
  const travel = (from, to, card) => motions.push({ at, kind: "travel", from, to, card });
  // the card in hand leaves from the hand, or (never drawn there: drawn and placed within
  // one frame) from the pile it was taken from
  let source = before?.source === "discard" ? "pile-discard" : "pile-draw";
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
      case "drew":
      case "took_discard":
        source = event.kind === "drew" ? "pile-draw" : "pile-discard";
        travel([source], HELD);
        break;
      case "exchanged":
        travel([HELD, source], `cell-${event.player}-${k}`, event.card);
        travel([`cell-${event.player}-${k}`], "pile-discard", event.cards?.[0]);
        break;
      case "discarded":
        travel([HELD, source], "pile-discard", event.card);
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
    else if (motion.cells) for (const k of motion.cells) cells.set(`${motion.seat}:${k}`, motion);
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

/** Whether the viewer asked for no motion (the system's setting). */
function still() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/**
 * Where the cards that are about to travel are now, before the board is drawn again: the
 * box of each element of `root` whose data-key a travel of `motions` not flown yet leaves
 * from (FLIP's "first"). Empty when nothing will travel (nothing is measured then).
 */
export function places(root, motions) {
  const boxes = new Map();
  if (still() || document.hidden) return boxes;
  for (const motion of motions || []) {
    if (motion.kind !== "travel" || motion.flown !== undefined) continue;
    for (const key of motion.from) {
      const element = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
      if (element && !boxes.has(key)) boxes.set(key, element.getBoundingClientRect());
    }
  }
  return boxes;
}

/**
 * Fly the travels of `motions` on the board just drawn in `root`: for each one not flown
 * yet, a copy of the card where it lands (`to`), which takes no click nor focus, goes
 * from where it left (`first`, from `places`) to there, and the card itself stays
 * invisible meanwhile (it is in place already, so a click or a key reaches it at once).
 * A travel still under way when the board is drawn again keeps its card invisible until
 * it lands (`flown` true); one that could not fly is never tried again (`flown` false).
 * A card placed where its column was then cleared flies as itself (`face(value)` draws
 * it), onto the cleared place, which stays in view (its own animation plays there).
 * Nothing under prefers-reduced-motion.
 */
export function fly(root, motions, first, face, now = performance.now()) {
  if (still()) return;
  let drawn = false; // a card came into a hand since the board before: the hand there held another
  for (const motion of motions || []) {
    if (motion.kind !== "travel") continue;
    const left = TRAVEL_MS - (now - motion.at);
    if (left <= 0 || motion.flown === false) continue;
    const target = root.querySelector(`[data-key="${CSS.escape(motion.to)}"]`);
    if (motion.flown) {
      if (target && !target.classList.contains("cleared")) hide(target, left);
      continue;
    }
    // a travel flies in the first board that shows its step, or never (its card was
    // placed again before a frame showed it: drawn and played within one frame)
    const key = motion.from.find((place) => first.has(place) && !(place === HELD && drawn));
    if (motion.to === HELD) drawn = true;
    motion.flown = Boolean(target && key !== undefined);
    if (!motion.flown) continue;
    const gone = target.classList.contains("cleared");
    if (gone && typeof motion.card !== "number") continue;
    launch(target, gone ? face(motion.card) : target, first.get(key), key, motion.to, left);
    if (!gone) hide(target, left);
  }
}

/** The classes of a card's look (board.js), the only ones a travelling copy takes. */
const FACES = ["down", "neg", "zero", "low", "mid", "high"];

/** Keep `target` invisible for `duration` ms while its copy flies; once: a board drawn again
 * may keep the same element, still hidden by the travel's first frame. */
function hide(target, duration) {
  if (target.getAnimations().some((animation) => animation.id === "travel-hidden")) return;
  target.animate({ opacity: [0, 0] }, { duration, id: "travel-hidden" });
}

/** A copy of the card `shown` flown from the box `from` (of data-key `key`) onto `target`
 * (data-key `to`), for `duration` ms. */
function launch(target, shown, from, key, to, duration) {
  const box = target.getBoundingClientRect();
  if (!box.width || !from.width) return;
  const ghost = document.createElement("span");
  const look = [...shown.classList].filter((name) => FACES.includes(name));
  ghost.className = ["card", "ghost", ...look].join(" ");
  ghost.textContent = shown.textContent;
  if (shown.dataset.value !== undefined) ghost.dataset.value = shown.dataset.value;
  ghost.dataset.from = key;
  ghost.dataset.to = to;
  ghost.setAttribute("aria-hidden", "true");
  // the CSSOM, not a style attribute (the page's CSP allows none); --card sizes the copy
  ghost.style.setProperty("--card", `${box.width}px`);
  ghost.style.left = `${box.left}px`;
  ghost.style.top = `${box.top}px`;
  document.body.append(ghost);
  const dx = from.left - box.left;
  const dy = from.top - box.top;
  const scale = from.width / box.width;
  const flight = ghost.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: "none" }],
    { duration, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)", id: "travel" },
  );
  const land = () => ghost.remove();
  flight.addEventListener("finish", land);
  flight.addEventListener("cancel", land);
}
