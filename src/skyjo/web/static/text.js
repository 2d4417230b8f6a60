// Words for what happened: a line per event, and the round's end explained.
import { aCard, joinNames, t } from "./i18n.js";

/** A grid position ([row, column] from 0, as RULES.md writes it) in the cards' own words:
 * "row 2, column 3", as the cards' labels count them (from 1). */
export function where(position) {
  return t("where", { row: position[0] + 1, col: position[1] + 1 });
}

/** The seat's name, or "You" for the viewer's own seat. */
export function nameOf(seats, seat, you) {
  if (seat === you && you !== null) return t("you");
  return seats[seat]?.name ?? "?";
}

/** The sentence `key`, or its second-person form (`keyYou`: "You drew", "Robaste")
 * when `seat` is the viewer's own. */
function about(key, seat, you, params) {
  return t(seat === you && you !== null ? `${key}You` : key, params);
}

/** The lines that tell one step's events (a discard and its flip make one line). */
export function describeEvents(events, seats, you) {
  const lines = [];
  let discarded = null;
  for (const event of events) {
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
        lines.push(t("ev.reshuffled", { n: event.count }));
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

/** Why the ender scored what they did, in words: "Cleo ended with 14 but Ana had 9: 28". */
export function explainRound(summary, seats, you, penalty) {
  const ender = nameOf(seats, summary.ender, you);
  const raw = summary.raw[summary.ender];
  const score = summary.scores[summary.ender];
  const said = (key, params) => about(key, summary.ender, you, params);
  if (summary.doubled) {
    let rival = null;
    summary.raw.forEach((value, seat) => {
      if (seat !== summary.ender && (rival === null || value < summary.raw[rival])) rival = seat;
    });
    const params = { ender, raw, rival: nameOf(seats, rival, you), other: summary.raw[rival], score };
    return rival === you && you !== null ? t("round.doubledRivalYou", params) : said("round.doubled", params);
  }
  if (penalty === "none") return said("round.noPenalty", { ender, raw });
  if (penalty === "positive" && raw <= 0) return said("round.notPositive", { ender, raw });
  return said("round.lowest", { ender, raw });
}

/** "Ana wins!", "You win!" or "Ana and Ben share the win!" */
export function winnersText(winners, seats, you) {
  if (winners.length === 1 && winners[0] === you && you !== null) return t("game.youWin");
  const names = winners.map((seat) => nameOf(seats, seat, you));
  return t(names.length === 1 ? "game.winner" : "game.winners", { names: joinNames(names) });
}
