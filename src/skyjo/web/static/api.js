// The HTTP side of the server, and the seat tokens this browser keeps.
import { t } from "./i18n.js";
import { serverErrorText } from "./text.js";

async function call(method, path, body, raw = false) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined || raw ? body : JSON.stringify(body),
    });
  } catch {
    throw Object.assign(new Error(t("offline.needed")), { offline: true }); // no connection to the server
  }
  const data = await response.json();
  if (!response.ok) {
    // the refusal's code and status too, for a page that acts on them (a review's "busy")
    throw Object.assign(new Error(serverErrorText(data.error) || response.statusText),
      { code: data.error?.code, status: response.status });
  }
  return data;
}

/** Create a room; remember its token (and those of its hot seats, played on this device). */
export async function createRoom(config) {
  const room = await call("POST", "/api/rooms", config);
  saveSeat(room.code, room);
  if (room.seats) localStorage.setItem(`skyjo:seats:${room.code}`, JSON.stringify(room.seats));
  return room;
}

/** Claim a free seat of a room, under the name `name` (the seat's own name if empty). */
export async function joinRoom(code, name = "") {
  const room = await call("POST", `/api/rooms/${encodeURIComponent(code)}/join`, name ? { name } : {});
  saveSeat(room.code, room);
  return room;
}

export const roomInfo = (code) => call("GET", `/api/rooms/${encodeURIComponent(code)}`);
export const listRooms = () => call("GET", "/api/rooms");
/** A finished game's frames (refused while it is played). */
export const roomReplay = (code) => call("GET", `/api/rooms/${encodeURIComponent(code)}/replay`);
/** A finished game's record (RULES.md 5: every round's deck), for a replay to show the cards
 * that were face down at the table; null when it cannot be had. */
export const roomRecord = (code) => call("GET", `/api/rooms/${encodeURIComponent(code)}/record`).catch(() => null);
/** Upload a record file's text: the server checks and keeps it, and answers its frames,
 * `id` and `link` (the replay's stable address). */
export const uploadRecord = (text) => call("POST", "/api/replays", text, true);
/** The frames of an uploaded record, by its id. */
export const uploadedReplay = (id) => call("GET", `/api/replays/${encodeURIComponent(id)}`);
/** An uploaded record as kept (its decks show a replay's face-down cards), or null. */
export const uploadedRecord = (id) => call("GET", `/api/replays/${encodeURIComponent(id)}/record`).catch(() => null);
/** A finished game's review (`path`: its room's or its upload's, `/api/…/review`): asked for
 * (POST: the server starts it unless it has it) or looked up (GET). Either answers
 * `{status: "done", review}` once it is made, else `{status: "queued" | "running", done, total}`. */
export const askReview = (path) => call("POST", path);
export const reviewOf = (path) => call("GET", path);
/** A new room that plays on from frame `step` of a finished game (`path`: its room's or
 * its upload's, `/api/…/practice`), this browser the seat to act there; its token kept. */
export async function playOnFrom(path, step) {
  const room = await call("POST", path, { step });
  saveSeat(room.code, room);
  return room;
}

/** The token this browser holds for a room, if any. */
export function savedSeat(code) {
  try {
    return JSON.parse(localStorage.getItem(`skyjo:seat:${code}`));
  } catch {
    return null;
  }
}

/** The seats this device plays in a room (hot-seat): [{seat, token}], or null. */
export function savedSeats(code) {
  try {
    const seats = JSON.parse(localStorage.getItem(`skyjo:seats:${code}`));
    return Array.isArray(seats) && seats.length > 1 ? seats : null;
  } catch {
    return null;
  }
}

export function saveSeat(code, room) {
  localStorage.setItem(`skyjo:seat:${code}`, JSON.stringify({ token: room.token, seat: room.seat }));
}

export function forgetSeat(code) {
  localStorage.removeItem(`skyjo:seat:${code}`);
}

/** Keep this browser's seat (and its hot seats) in the table's next game, room `to`: the
 * server gave it the same tokens as room `from` (docs/web-protocol.md, `rematch`). */
export function carrySeats(from, to) {
  for (const kind of ["seat", "seats"]) {
    const held = localStorage.getItem(`skyjo:${kind}:${from}`);
    if (held !== null) localStorage.setItem(`skyjo:${kind}:${to}`, held);
  }
}
