// What each seat did last (issue 56): its latest whole turn of the round, read from the events
// the page already holds, the card it changed (marked on the board until the seat's next turn
// is over) and the turn in one short line without the name ("Took the 3 from the discard,
// swapped it for the 10"), written under each opponent's grid. The live region tells each turn
// once (board.js, `tell`); this is only on the board, never spoken on its own.
import { aCard, joinNames, t } from "./i18n.js";

/** The kinds that begin a turn, and those that finish one (RULES.md 2.3-2.5). */
const STARTS = new Set(["drew", "took_discard"]);
const PLACES = new Set(["exchanged", "flipped"]);

/**
 * Each seat's last finished turn of the current round, from `events` (oldest first): a Map
 * seat -> `{events, position}`, `position` [row, column] of the card the turn changed (for a
 * turn that cleared a column, the card it placed there). A turn still being played (a card
 * drawn, not placed yet) leaves the seat's previous turn shown. A new deal starts afresh.
 */
export function lastMoves(events) {
  const done = new Map();
  const playing = new Map(); // seat -> the events of its turn so far
  for (const event of events) {
    if (event.kind === "dealt") {
      done.clear();
      playing.clear();
      continue;
    }
    const seat = event.player;
    if (!Number.isInteger(seat)) continue;
    if (event.kind === "revealed" && event.position) {
      opening(done, seat, event);
    } else if (STARTS.has(event.kind)) {
      playing.set(seat, [event]);
    } else if (playing.has(seat) && (PLACES.has(event.kind) || event.kind === "discarded")) {
      playing.get(seat).push(event);
      if (PLACES.has(event.kind)) {
        done.set(seat, { events: playing.get(seat), position: event.position });
        playing.delete(seat);
      }
    } else if (done.has(seat) && ["column_cleared", "final_turns"].includes(event.kind)) {
      done.get(seat).events.push(event); // what the placed card did: part of the same turn
    }
  }
  return done;
}

/** An opening reveal: with the seat's other one, one move (RULES.md 2.2). */
function opening(done, seat, event) {
  const before = done.get(seat);
  const pair = before && before.events.length === 1 && before.events[0].kind === "revealed";
  done.set(seat, { events: pair ? [...before.events, event] : [event], position: event.position });
}

/** A seat's last move in one line, without its name (`lastMoves`' `events`), or "". */
export function moveLine(events) {
  const [first, second, third] = events;
  let line = "";
  if (first?.kind === "revealed") {
    line = t("last.revealed", { cards: joinNames(events.filter((e) => e.kind === "revealed").map((e) => aCard(e.card))) });
  } else if (first?.kind === "took_discard" && second?.kind === "exchanged") {
    line = t("last.tookSwap", { card: second.card, old: second.cards[0] });
  } else if (first?.kind === "drew" && second?.kind === "exchanged") {
    line = t("last.drewSwap", { card: aCard(second.card), old: second.cards[0] });
  } else if (first?.kind === "drew" && second?.kind === "discarded" && third?.kind === "flipped") {
    line = t("last.drewFlip", { card: aCard(second.card), flipped: aCard(third.card) });
  }
  if (!line) return "";
  if (events.some((e) => e.kind === "column_cleared")) line = t("last.cleared", { move: line });
  if (events.some((e) => e.kind === "final_turns")) line = t("last.final", { move: line });
  return line;
}
