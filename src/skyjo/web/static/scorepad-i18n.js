// The scorepad's words, English and Spanish, in the language the rest of the client uses (i18n.js).
// The model's own sentences (a column's explanation, the ender's penalty, a refusal) come from the
// server in English: in English they are shown as sent; in Spanish the explanations are written here
// from the same facts (cards, cleared, scores, doubled), never scored a second time.
import { joinNames, language } from "./i18n.js";

const STRINGS = {
  en: {
    "pad.name": "Scorepad",
    "pad.tagline": "The scoresheet for a game with the real cards: every rule applied and explained.",
    "pad.link": "Scorepad: keep score of a game with the real cards",
    "pad.new": "A new scoresheet",
    "pad.title": "Title",
    "pad.titlePlaceholder": "Friday night",
    "pad.players": "Players (2 to 8)",
    "pad.player": "Player {n}",
    "pad.addPlayer": "Another player",
    "pad.target": "Game ends at",
    "pad.penalty": "Ender's penalty",
    "pad.create": "Create",
    "pad.import": "Import a scoresheet",
    "pad.importHelp": "A .json file exported from a scoresheet (here or by skyjo scorepad --export).",
    "pad.importFile": "Scoresheet file",
    "pad.list": "Scoresheets",
    "pad.none": "No scoresheet yet.",
    "pad.rounds": "{n} rounds",
    "pad.oneRound": "1 round",
    "pad.over": "game over",
    "pad.open": "Open",
    "pad.rename": "Rename",
    "pad.save": "Save",
    "pad.cancel": "Cancel",
    "pad.delete": "Delete",
    "pad.keep": "Keep it",
    "pad.deleteSheet": "Delete “{title}” and its rounds for good?",
    "pad.untitled": "Untitled",
    "pad.csv": "CSV",
    "pad.json": "JSON",
    "pad.export": "Export",
    "pad.all": "All scoresheets",
    "pad.noSheet": "There is no scoresheet {id}.",
    "pad.rules": "Game ends at {target} · ender {penalty}",
    "pad.undo": "Undo the last change",
    "pad.conflict": "This scoresheet was changed elsewhere: it has been reloaded. Check the round and save again.",
    "pad.round": "Round {n}",
    "pad.newRound": "Round {n}",
    "pad.editRound": "Editing round {n}",
    "pad.total": "Total",
    "pad.cards": "12 cards",
    "pad.entryMode": "How {name}'s score is entered",
    "pad.totalOf": "{name}'s round total",
    "pad.cardOf": "{name}: row {row}, column {col}",
    "pad.clearColumn": "Column {col} was cleared",
    "pad.cleared": "cleared",
    "pad.ender": "ended the round",
    "pad.enderOf": "{name} ended the round",
    "pad.saveRound": "Save round {n}",
    "pad.saveEdit": "Save the changes to round {n}",
    "pad.cancelEdit": "Cancel the edit",
    "pad.keypad": "Keypad",
    "pad.next": "Next",
    "pad.backspace": "Delete a character",
    "pad.minus": "Minus",
    "pad.hint": "Type a total, or switch to 12 cards (x for a cleared column). Enter goes to the next player.",
    "pad.scoreAs": "{raw}",
    "pad.scored": "scores {score}",
    "pad.doubled": "×2",
    "pad.roundCol": "Round",
    "pad.roundsTitle": "Rounds",
    "pad.marks": "* ended the round · ×2 doubled · under each score, the running total",
    "pad.totalRow": "Total",
    "pad.toGoRow": "To go",
    "pad.edit": "Edit",
    "pad.deleteRound": "Delete round {n}? The later rounds move up one.",
    "pad.explain": "Round {n} explained",
    "pad.raw": "{name}: {raw}",
    "pad.rawDoubled": "{name}: {raw}, doubled to {score}",
    "pad.gridTotal": "grid total {total}",
    "pad.leader": "Leader: {names} with {total}",
    "pad.leaders": "Leaders: {names} with {total}",
    "pad.toGo": "{name}: {n} to go",
    "pad.reached": "{name}: reached the target",
    "pad.start": "Enter the first round: each player's total or 12 cards, and who ended it.",
    "pad.over.one": "Game over: {names} wins with {total}!",
    "pad.over.many": "Game over: {names} share the win with {total}!",
    "pad.chart": "Totals over the rounds",
    "pad.chartLabel": "A line chart of each player's total after each round, with the target at {target}",
    "pad.target.line": "target {target}",
    "pad.saved": "Round {n} saved.",
    "pad.refused": "Not saved: {message}",
    "pad.loading": "Loading…",
    "penalty.positive": "doubled if above 0 and not the lowest",
    "penalty.always": "doubled whenever not the lowest",
    "penalty.none": "never doubled",
  },
  es: {
    "pad.name": "Hoja de puntos",
    "pad.tagline": "La hoja de puntos para jugar con las cartas de verdad: cada regla aplicada y explicada.",
    "pad.link": "Hoja de puntos: apunta una partida con las cartas de verdad",
    "pad.new": "Una hoja nueva",
    "pad.title": "Título",
    "pad.titlePlaceholder": "Viernes por la noche",
    "pad.players": "Jugadores (de 2 a 8)",
    "pad.player": "Jugador {n}",
    "pad.addPlayer": "Otro jugador",
    "pad.target": "La partida acaba en",
    "pad.penalty": "Castigo de quien cierra",
    "pad.create": "Crear",
    "pad.import": "Importar una hoja",
    "pad.importHelp": "Un archivo .json exportado de una hoja (aquí o con skyjo scorepad --export).",
    "pad.importFile": "Archivo de la hoja",
    "pad.list": "Hojas de puntos",
    "pad.none": "Todavía no hay ninguna hoja.",
    "pad.rounds": "{n} rondas",
    "pad.oneRound": "1 ronda",
    "pad.over": "terminada",
    "pad.open": "Abrir",
    "pad.rename": "Renombrar",
    "pad.save": "Guardar",
    "pad.cancel": "Cancelar",
    "pad.delete": "Borrar",
    "pad.keep": "No borrar",
    "pad.deleteSheet": "¿Borrar «{title}» y sus rondas para siempre?",
    "pad.untitled": "Sin título",
    "pad.csv": "CSV",
    "pad.json": "JSON",
    "pad.export": "Exportar",
    "pad.all": "Todas las hojas",
    "pad.noSheet": "No existe la hoja {id}.",
    "pad.rules": "Se acaba al llegar a {target} · quien cierra {penalty}",
    "pad.undo": "Deshacer el último cambio",
    "pad.conflict": "Esta hoja se cambió en otro sitio: se ha vuelto a cargar. Revisa la ronda y guarda otra vez.",
    "pad.round": "Ronda {n}",
    "pad.newRound": "Ronda {n}",
    "pad.editRound": "Cambiando la ronda {n}",
    "pad.total": "Total",
    "pad.cards": "12 cartas",
    "pad.entryMode": "Cómo se apuntan los puntos de {name}",
    "pad.totalOf": "Total de la ronda de {name}",
    "pad.cardOf": "{name}: fila {row}, columna {col}",
    "pad.clearColumn": "La columna {col} se eliminó",
    "pad.cleared": "eliminada",
    "pad.ender": "cerró la ronda",
    "pad.enderOf": "{name} cerró la ronda",
    "pad.saveRound": "Guardar la ronda {n}",
    "pad.saveEdit": "Guardar los cambios de la ronda {n}",
    "pad.cancelEdit": "Cancelar el cambio",
    "pad.keypad": "Teclado",
    "pad.next": "Siguiente",
    "pad.backspace": "Borrar un carácter",
    "pad.minus": "Menos",
    "pad.hint": "Escribe un total, o cambia a 12 cartas (x para una columna eliminada). Intro pasa al siguiente jugador.",
    "pad.scoreAs": "{raw}",
    "pad.scored": "suma {score}",
    "pad.doubled": "×2",
    "pad.roundCol": "Ronda",
    "pad.roundsTitle": "Rondas",
    "pad.marks": "* cerró la ronda · ×2 doblado · bajo cada puntuación, el total acumulado",
    "pad.totalRow": "Total",
    "pad.toGoRow": "Faltan",
    "pad.edit": "Cambiar",
    "pad.deleteRound": "¿Borrar la ronda {n}? Las siguientes suben un puesto.",
    "pad.explain": "La ronda {n}, explicada",
    "pad.raw": "{name}: {raw}",
    "pad.rawDoubled": "{name}: {raw}, doblado a {score}",
    "pad.gridTotal": "total de la cuadrícula {total}",
    "pad.leader": "Va primero: {names} con {total}",
    "pad.leaders": "Van primeros: {names} con {total}",
    "pad.toGo": "{name}: faltan {n}",
    "pad.reached": "{name}: llegó al límite",
    "pad.start": "Apunta la primera ronda: el total o las 12 cartas de cada jugador, y quién cerró.",
    "pad.over.one": "Fin de la partida: ¡gana {names} con {total}!",
    "pad.over.many": "Fin de la partida: ¡{names} comparten la victoria con {total}!",
    "pad.chart": "Los totales ronda a ronda",
    "pad.chartLabel": "Un gráfico de líneas con el total de cada jugador tras cada ronda, y el límite en {target}",
    "pad.target.line": "límite {target}",
    "pad.saved": "Ronda {n} guardada.",
    "pad.refused": "No se guardó: {message}",
    "pad.loading": "Cargando…",
    "penalty.positive": "dobla si pasa de 0 y no es el más bajo",
    "penalty.always": "dobla siempre que no sea el más bajo",
    "penalty.none": "nunca dobla",
  },
};

/** The scorepad's string `key` in the current language, with {name} placeholders filled. */
export function st(key, params = {}) {
  const text = STRINGS[language()]?.[key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

export { joinNames };

/** A scored column (`score_grid(...).to_dict()`'s) in words: the model's in English. */
export function columnText(column) {
  if (language() !== "es") return column.explanation;
  const values = column.cards.filter((card) => card !== null);
  if (!values.length) return "eliminada antes: 0";
  if (column.cleared) return `tres ${values[0]}, eliminada: 0`;
  return `${values.join(" + ")} = ${column.score}`;
}

/** A whole grid in words: each column, then the total. */
export function gridText(grid) {
  return `${grid.columns.map(columnText).join("; ")}: ${grid.total}`;
}

/** The ender's penalty in words: `score_round`'s reason in English; in Spanish the same facts. */
export function reasonText(round, penalty) {
  if (language() !== "es") return round.reason;
  const raw = round.raw;
  const ender = round.ender;
  const ended = `${ender} cerró con ${raw[ender]}`;
  if (penalty === "none") return `${ended}: con la variante «nunca» no se dobla`;
  if (penalty === "positive" && raw[ender] <= 0) return `${ended}: 0 o menos nunca se dobla`;
  const others = Object.keys(raw).filter((name) => name !== ender);
  if (round.doubled) {
    const low = Math.min(...others.map((name) => raw[name]));
    const rival = others.find((name) => raw[name] === low);
    return `${ended} y ${rival} tiene ${low}, que no es más: se dobla a ${round.scores[ender]}`;
  }
  return `${ended}, la puntuación más baja: no se dobla`;
}
