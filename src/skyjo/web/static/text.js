// Words for what happened: a line per event, and the round's end explained.
import { aCard, joinNames, t } from "./i18n.js";

/** "[1, 2]": a grid position as RULES.md writes it (row, column from 0). */
export function where(position) {
  return `[${position[0]}, ${position[1]}]`;
}

/** The seat's name, or "You" for the viewer's own seat. */
export function nameOf(seats, seat, you) {
  if (seat === you && you !== null) return t("you");
  return seats[seat]?.name ?? "?";
}

/** The lines that tell one step's events (a discard and its flip make one line). */
export function describeEvents(events, seats, you) {
  const lines = [];
  let discarded = null;
  for (const event of events) {
    const name = nameOf(seats, event.player, you);
    switch (event.kind) {
      case "revealed":
        lines.push(event.position
          ? t("ev.revealed", { name, card: aCard(event.card), where: where(event.position) })
          : t("ev.revealedEnd", { name, cards: (event.cards || []).join(", ") }));
        break;
      case "drew":
        lines.push(event.card === undefined ? t("ev.drew", { name }) : t("ev.drewCard", { name, card: aCard(event.card) }));
        break;
      case "took_discard":
        lines.push(t("ev.took", { name, card: event.card }));
        break;
      case "exchanged":
        lines.push(t("ev.exchanged", { name, card: event.card, where: where(event.position), old: event.cards[0] }));
        break;
      case "discarded":
        discarded = event.card;
        break;
      case "flipped":
        lines.push(t("ev.flipped", { name, card: discarded, flipped: aCard(event.card), where: where(event.position) }));
        break;
      case "column_cleared":
        lines.push(t("ev.cleared", { name, card: event.card }));
        break;
      case "reshuffled":
        lines.push(t("ev.reshuffled", { n: event.count }));
        break;
      case "timed_out":
        lines.push(t("ev.timedOut", { name }));
        break;
      case "final_turns":
        lines.push(t("ev.final", { name }));
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
  if (summary.doubled) {
    let rival = null;
    summary.raw.forEach((value, seat) => {
      if (seat !== summary.ender && (rival === null || value < summary.raw[rival])) rival = seat;
    });
    return t("round.doubled", { ender, raw, rival: nameOf(seats, rival, you), other: summary.raw[rival], score });
  }
  if (penalty === "none") return t("round.noPenalty", { ender, raw });
  if (penalty === "positive" && raw <= 0) return t("round.notPositive", { ender, raw });
  return t("round.lowest", { ender, raw });
}

/** "Ana wins!", "You win!" or "Ana and Ben share the win!" */
export function winnersText(winners, seats, you) {
  if (winners.length === 1 && winners[0] === you && you !== null) return t("game.youWin");
  const names = winners.map((seat) => nameOf(seats, seat, you));
  return t(names.length === 1 ? "game.winner" : "game.winners", { names: joinNames(names) });
}
