// Words for what happened: a line per event, and the round's end explained.
import { aCard, errorSentence, errorText, joinNames, plural, seatName, t } from "./i18n.js";

/** A grid position ([row, column] from 0, as RULES.md writes it) in the cards' own words:
 * "row 2, column 3", as the cards' labels count them (from 1). */
export function where(position) {
  return t("where", { row: position[0] + 1, col: position[1] + 1 });
}

/** Action ids of the engine (docs/web-protocol.md): the first of each run of 12, one per card. */
const REVEAL = 0, DRAW = 12, TAKE_DISCARD = 13, SWAP = 14, FLIP = 26, NEXT_ROUND = 38, CARDS = 12, COLS = 4;
export const ACTIONS = { REVEAL, DRAW, TAKE_DISCARD, SWAP, FLIP, NEXT_ROUND, CARDS };

/** An action id in words, as a verb after "must…, not" / "cannot": "draw a card", "exchange
 * the card at row 2, column 3"; an id the engine does not have, as its number. */
export function actionWords(action) {
  const at = (first) => ({ where: where([Math.floor((action - first) / COLS), (action - first) % COLS]) });
  const within = (first) => Number.isInteger(action) && action >= first && action < first + CARDS;
  if (action === DRAW) return t("action.draw");
  if (action === TAKE_DISCARD) return t("action.take");
  if (action === NEXT_ROUND) return t("action.next");
  if (within(REVEAL)) return t("action.reveal", at(REVEAL));
  if (within(SWAP)) return t("action.exchange", at(SWAP));
  if (within(FLIP)) return t("action.flip", at(FLIP));
  return String(action);
}

/** A refusal of the server in the page's words (`serverErrorText`): an illegal move's seat by its
 * player's name (the second person when it is the viewer's: "You must…"), its position as
 * the cards' labels say it ("row 1, column 3") and its action by name. */
export function refusalText(error, seats, you) {
  if (!error) return "";
  const param = (name, value) => {
    if (name === "seat" && Number.isInteger(value)) return nameOf(seats, value, null);
    if (name === "position" && Array.isArray(value)) return where(value);
    if (name === "action" && error.code === "illegal") return actionWords(value);
    return String(value);
  };
  const seat = error.params?.seat;
  return serverErrorText(error, { param, you: you !== null && you !== undefined && seat === you });
}

/** The words of the server's enumerations in a game record's refusals: a JSON value's type
 * (skyjo.record's `_kind`), what follows unfinished reveals, where an unfinished round stands. */
const JSON_TYPES = { null: "jsonType.null", "a boolean": "jsonType.boolean", "a number": "jsonType.number",
  "a string": "jsonType.string", "a list": "jsonType.list" };
const FOLLOWED_BY = { turns: "followedBy.turns", round: "followedBy.round" };
const PHASES = { reveal: "recordPhase.reveal", turns: "recordPhase.turns", final_turns: "recordPhase.final_turns" };

/** Where in a game record something went wrong (the `where` of a `bad_record` refusal:
 * `{round, turn, player}`, and a JSON error's line and column) in the page's words:
 * "round 2, turn 7 (Ben)", "round 1, reveals (Ana)", "line 3, column 5"; "" for the record as a whole. */
export function recordPlace(at, params = {}) {
  const parts = [];
  if (Number.isInteger(at?.round)) parts.push(t("place.round", { round: at.round }));
  if (at?.turn === "reveals") parts.push(t("place.reveals"));
  else if (Number.isInteger(at?.turn)) parts.push(t("place.turn", { turn: at.turn }));
  if (Number.isInteger(params.line) && Number.isInteger(params.column)) {
    parts.push(t("place.line", { line: params.line, column: params.column }));
  }
  const place = parts.join(", ");
  if (typeof at?.player !== "string") return place;
  return place ? t("place.player", { place, player: at.player }) : at.player;
}

/** A game record the server refused (`bad_record`: the record's own kind and params, and
 * `where` in it), in the page's words: "Not a game record: round 1, reveals (A): A turns up
 * the card at row 1, column 1 twice"; the server's English `message` when the page has no
 * sentence for it (`recordReason`). */
export function recordErrorText(error) {
  const reason = recordReason(error);
  return reason === undefined ? error.message ?? "" : t("kind.bad_record", { detail: reason });
}

/** Why a game record is refused (`{kind, params, where}`), with its place: "round 1, reveals
 * (A): A turns up the card at row 1, column 1 twice". The sentence is the record's own
 * ("record.<kind>"), else the engine's for an illegal move ("illegal.<kind>": its seat is the
 * player to act, whom `where` names) or the rules' and names' ("kind.<kind>"); positions as
 * the cards' labels say them, actions by name, lists joined. Undefined when there is none. */
function recordReason(error) {
  const params = error.params || {};
  const named = "ender" in params && params.ender === null ? { ...params, ender: t("recordNobody") } : params;
  const param = (name, value, key) => {
    const move = key.startsWith("illegal.");
    if (name === "seat" && move && Number.isInteger(value) && typeof error.where?.player === "string") {
      return error.where.player;
    }
    if (name === "action" && move) return actionWords(value);
    if (name === "position" && Array.isArray(value) && value.length === 2) return where(value);
    if (name === "type" && JSON_TYPES[value]) return t(JSON_TYPES[value]);
    if (name === "followed_by" && FOLLOWED_BY[value]) return t(FOLLOWED_BY[value]);
    if (name === "phase" && key === "record.round_unfinished" && PHASES[value]) return t(PHASES[value]);
    if (Array.isArray(value)) return value.join(", ");
    if (value && typeof value === "object") {
      return Object.entries(value).map(([who, total]) => `${who} ${total}`).join(", ");
    }
    return String(value);
  };
  const reason = errorSentence({ ...error, params: named }, { param, prefixes: ["record", "illegal", "kind"] });
  if (reason === undefined) return undefined;
  const place = recordPlace(error.where, params);
  return place ? t("place.said", { place, reason }) : reason;
}

/** A refusal whose `detail` is another refusal's English sentence (`room_unreadable`), with
 * that `detail` in the page's words when the server gave its `cause` (`{kind, params}`, and
 * `where` for a game record's) and the page has a sentence for it. */
function withCause(error) {
  const cause = error?.cause;
  if (!cause?.kind || !("detail" in (error.params || {}))) return error;
  const detail = cause.where ? recordReason(cause) : errorSentence(cause);
  return detail === undefined ? error : { ...error, params: { ...error.params, detail } };
}

/** A refusal of the server (an HTTP error's `error`, or an `error` message) in the page's
 * words: a game record's (`bad_record` with `where`) by `recordErrorText`, any other by
 * `errorText` (`words` as it takes them), its `cause` written as its `detail`. */
export function serverErrorText(error, words = {}) {
  if (error?.code === "bad_record" && error.where) return recordErrorText(error);
  return errorText(withCause(error), words);
}

/** The seat's name, or "You" for the viewer's own seat. */
export function nameOf(seats, seat, you) {
  if (seat === you && you !== null) return t("you");
  return seats[seat] ? seatName(seats[seat]) ?? "?" : "?";
}

/** The sentence `key`, or its second-person form (`keyYou`: "You drew", "Robaste")
 * when `seat` is the viewer's own. */
function about(key, seat, you, params) {
  return t(seat === you && you !== null ? `${key}You` : key, params);
}

/** One line for another player's whole move, when `events` from `i` on are one: a card
 * drawn (or the discard taken) and then placed, "Ben drew a 7 and put it at row 2,
 * column 3, discarding the 9"; else null. The viewer's own moves keep a line per step. */
function wholeMove(events, i, seats, you) {
  const [first, second, third] = events.slice(i, i + 3);
  const mine = (event) => event?.player === first.player;
  if (first.player === you || !["drew", "took_discard"].includes(first.kind) || !mine(second)) return null;
  const name = nameOf(seats, first.player, you);
  if (second.kind === "exchanged") {
    const put = { name, where: where(second.position), old: second.cards[0] };
    return first.kind === "drew"
      ? { line: t("ev.drewPut", { ...put, card: aCard(second.card) }), used: 2 }
      : { line: t("ev.tookPut", { ...put, card: second.card }), used: 2 };
  }
  if (first.kind === "drew" && second.kind === "discarded" && third?.kind === "flipped" && mine(third)) {
    const line = t("ev.drewFlipped", { name, card: aCard(second.card), flipped: aCard(third.card), where: where(third.position) });
    return { line, used: 3 };
  }
  return null;
}

/** The lines that tell one step's events (a discard and its flip make one line); with
 * `whole`, another player's draw (or take) and its placement make one line too (the
 * live region's: one sentence a turn). */
export function describeEvents(events, seats, you, { whole = false } = {}) {
  const lines = [];
  let discarded = null;
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    const merged = whole ? wholeMove(events, i, seats, you) : null;
    if (merged) {
      lines.push(merged.line);
      i += merged.used - 1;
      continue;
    }
    const name = nameOf(seats, event.player, you);
    const say = (key, params) => about(key, event.player, you, params);
    switch (event.kind) {
      case "revealed":
        lines.push(event.position
          ? say("ev.revealed", { name, card: aCard(event.card), where: where(event.position) })
          : say("ev.revealedEnd", { name, cards: (event.cards || []).join(", ") }));
        break;
      case "drew":
        lines.push(event.card === undefined ? say("ev.drew", { name }) : say("ev.drewCard", { name, card: aCard(event.card) }));
        break;
      case "took_discard":
        lines.push(say("ev.took", { name, card: event.card }));
        break;
      case "exchanged":
        lines.push(say("ev.exchanged", { name, card: event.card, where: where(event.position), old: event.cards[0] }));
        break;
      case "discarded":
        discarded = event.card;
        break;
      case "flipped":
        lines.push(say("ev.flipped", { name, card: discarded, flipped: aCard(event.card), where: where(event.position) }));
        break;
      case "column_cleared":
        lines.push(say("ev.cleared", { name, card: event.card }));
        break;
      case "reshuffled":
        lines.push(plural("ev.reshuffled", event.count));
        break;
      case "timed_out":
        lines.push(say("ev.timedOut", { name }));
        break;
      case "final_turns":
        lines.push(say("ev.final", { name }));
        break;
      case "dealt":
        lines.push(t("ev.dealt"));
        break;
      case "round_ended":
        lines.push(t("ev.roundEnded"));
        break;
      case "game_over":
        lines.push(t("ev.gameOver"));
        break;
      default:
        break;
    }
  }
  return lines;
}

/** The sentence of each kind of the server's facts of a round's end (skyjo.scoring.round_facts). */
const ROUND_KEYS = { no_penalty: "round.noPenalty", not_positive: "round.notPositive", lowest: "round.lowest" };

/**
 * Why the ender scored what they did, in words: "Cleo ended with 14 but Ana had 9: 28".
 * The server says why (`summary.explain`: its kind, the seats and the numbers); this only
 * words it, for the viewer `you`.
 */
export function explainRound(summary, seats, you) {
  const facts = summary.explain;
  const ender = nameOf(seats, facts.ender, you);
  const said = (key, params) => about(key, facts.ender, you, params);
  if (facts.kind === "doubled") {
    const params = { ender, raw: facts.raw, rival: nameOf(seats, facts.rival, you), other: facts.other, score: facts.score };
    return facts.rival === you && you !== null ? t("round.doubledRivalYou", params) : said("round.doubled", params);
  }
  return said(ROUND_KEYS[facts.kind], { ender, raw: facts.raw });
}

/** The lines that tell a round's end: the round explained, then, when the game is over,
 * its winners, each after its heading as the page's language writes a colon ("Round 2
 * over: …", "Manche 2 terminée\u00a0: …"). `summary` may be missing (no round scored). */
export function endLines(summary, winners, seats, you, over) {
  const lines = [];
  if (summary) lines.push(t("colon", { before: t("round.over", { n: summary.round }), after: explainRound(summary, seats, you) }));
  if (over) lines.push(t("colon", { before: t("game.over"), after: winnersText(winners, seats, you) }));
  return lines;
}

/** Lines said at once through the live region, as one text: each keeps the mark it ends
 * with ("!", "?", ".", "…"; the "\u00a0!" of French, the "¡…!" of Spanish) and one without
 * any gets a full stop. */
export function spoken(lines) {
  return lines.map((line) => (/[.!?…]$/.test(line) ? line : `${line}.`)).join(" ");
}

/** "Ana wins!", "You win!" or "Ana and Ben share the win!" */
export function winnersText(winners, seats, you) {
  if (winners.length === 1 && winners[0] === you && you !== null) return t("game.youWin");
  const names = winners.map((seat) => nameOf(seats, seat, you));
  return t(names.length === 1 ? "game.winner" : "game.winners", { names: joinNames(names) });
}
