// The scorepad's words, English and Spanish, in the language the rest of the client uses (i18n.js).
// The model's own sentences (a column's explanation, the ender's penalty) come from the server in
// English: in English they are shown as sent; in Spanish the explanations are written here from the
// same facts (cards, cleared, scores, doubled), never scored a second time. A refusal comes with its
// `kind` and `params` (docs/scorepad.md): `mistakeText` writes it from the "mistake.<kind>" strings,
// or shows the server's English message for a kind this page does not know. The server counts a
// grid's rows and columns from 0 (machine facts, as in a game's record); every sentence here
// counts them from 1, as people do: "row 1, column 1" is the top left card.
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
    "pad.share": "Share",
    "pad.share.read": "Read only",
    "pad.share.edit": "To edit",
    "pad.shareHelp": "Whoever opens a link sees this scoresheet: the first only reads it, the second lets them change it too (never delete it).",
    "pad.shareHelpRead": "Whoever opens this link reads this scoresheet, and cannot change it.",
    "pad.shareCopy": "Copy",
    "pad.shareCopied": "Copied",
    "pad.shareSelected": "Selected: copy it",
    "pad.readOnly": "Read only: this link shows the scoresheet; it cannot change it.",
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
    "pad.clearColumn": "{name}: column {col} was cleared",
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
    "pad.hint": "Type a total, or switch to 12 cards (x for a cleared column). Enter goes to the next player, and from the last to Save: check the round, then save it.",
    "pad.progress": "{written} of {size} cards",
    "pad.scoreAs": "{raw}",
    "pad.scored": "scores {score}",
    "pad.doubled": "×2",
    "pad.roundCol": "Round",
    "pad.roundsTitle": "Rounds",
    "pad.marks": "* ended the round · ×2 doubled · under each score, the running total",
    "pad.totalRow": "Total",
    "pad.toGoRow": "To go",
    "pad.wonRow": "Winner",
    "pad.sharedRow": "Shared win",
    "pad.wins": "{name} wins",
    "pad.shares": "{name} shares the win",
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
    // A refusal of the model (SheetError): its kind and params (docs/scorepad.md).
    "pad.inRound": "round {round}: {text}",
    "mistake.card_count": "{player}: {count} cards written, but a grid has {size} (or write one number, the round total)",
    "mistake.not_a_total": "{player}: {text} is not a round total: write a whole number",
    "mistake.not_a_card": "{player}: {text} is not a card: write a number from -2 to 12 or x",
    "mistake.entry_shape": "{player}'s entry must be a total or 12 cards, not {value}",
    "mistake.total_not_integer": "{player}'s total must be a whole number, not {value}",
    "mistake.total_out_of_range": "{player}'s total is {total}, but no grid scores that: a round's score goes from {min} to {max}",
    "mistake.cards_not_list": "{player}'s cards must be a list, not {value}",
    "mistake.row_not_list": "{player}'s cards: a row must be a list, not {value}",
    "mistake.card_out_of_range": "{player}'s cards: the card at row {row}, column {column} is {card}, but cards go from {min} to {max}",
    "mistake.card_not_number": "{player}'s cards: the card at row {row}, column {column} is {card}, not a number",
    "mistake.column_partly_cleared": "{player}'s cards: column {column} is partly cleared ({cleared} of its {size} cards written as cleared): a column is cleared all three cards at once",
    "mistake.grid_too_many": "{player}'s cards: the grid holds {count} cards of {value} but the deck has only {deck}",
    "mistake.grid_rows": "{player}'s cards: a grid has {rows} rows, not {count}",
    "mistake.row_length": "{player}'s cards: row {row} has {count} cards instead of {size}",
    "mistake.cards_refused": "{player}'s cards: {detail}",
    "mistake.rules_type": "rules must be Rules, not {value}",
    "mistake.not_an_object": "a scoresheet is a JSON object, not {type}",
    "mistake.not_a_scoresheet": "not a scoresheet: expected \"format\": \"{format}\", \"version\": {version}",
    "mistake.unknown_key": "unknown key {key} in the scoresheet",
    "mistake.rules_not_object": "rules must be an object",
    "mistake.rounds_not_list": "rounds must be a list",
    "mistake.nothing_to_undo": "there is nothing to undo",
    "mistake.change_shape": "a change is add, edit or delete, not {value}",
    "mistake.game_over": "the game is over (a total reached {target}): no round can be added",
    "mistake.round_shape": "a round is {\"ender\": name, \"entries\": {name: entry}}",
    "mistake.entries_shape": "the entries must map each player to a total or 12 cards",
    "mistake.not_a_player": "{name} is not a player of this sheet",
    "mistake.no_ender": "no ender is marked: mark who ended the round",
    "mistake.ender_not_player": "the ender {name} is not a player of this sheet",
    "mistake.ender_no_entry": "{player} ended the round but has no score entered",
    "mistake.no_entry": "{player} has no score entered",
    "mistake.scoring_refused": "{detail}",
    "mistake.round_too_many": "the cards entered hold {count} cards of {value}, but the deck has only {deck}",
    "mistake.players_not_list": "players must be a list of names, not {value}",
    "mistake.players_missing": "players must be a list of names",
    "mistake.player_count": "Skyjo takes {min} to {max} players, not {count}",
    "mistake.name_empty": "a seat's name must be a non-empty string, not {name}",
    "mistake.name_too_long": "a seat's name has at most {max} characters, not {length}",
    "mistake.name_surrogate": "the name {name} holds a lone surrogate: it is not text",
    "mistake.name_control": "the name {name} holds a control character",
    "mistake.players_refused": "{detail}",
    "mistake.name_repeated": "each player has their own name, but {names} is repeated",
    "mistake.name_invisible": "the name {name} holds an invisible or format character ({code})",
    "mistake.name_combining": "the name {name} holds a combining mark ({code}) with nothing to combine with",
    "mistake.title_not_text": "the title must be text, not {value}",
    "mistake.title_too_long": "the title has at most {max} characters, not {length}",
    "mistake.title_control": "the title {title} holds a control, format or invisible character or a lone surrogate",
    "mistake.target_not_integer": "target_score must be an integer, not {value}",
    "mistake.target_too_low": "target_score must be at least {min}, not {value}",
    "mistake.target_too_high": "target_score must be at most {max}, not {value}",
    "mistake.rules_shape": "rules must be an object, not {type}",
    "mistake.too_deep": "the file nests deeper than {max} levels",
    "mistake.sheets_rate": "too many scoresheets created from your address: at most {limit} an hour; try again in {retry_after} s",
    "mistake.read_only": "this link lets you read the scoresheet, not change it",
    "mistake.owner_only": "only the browser that made this scoresheet deletes it",
    "mistake.share_access": "a link lets its holder \"read\" or \"edit\" the scoresheet",
    "mistake.body_too_deep": "the request body nests deeper than {max} levels",
    "mistake.rules_unknown": "unknown rule {rules}",
    "mistake.penalty_unknown": "ender_penalty must be one of {choices}, not {value}",
    "mistake.rules_refused": "{detail}",
    "mistake.not_json": "not JSON: {detail}",
    "mistake.not_utf8": "the file is not UTF-8 text",
    "mistake.no_sheet": "{detail}",
    "mistake.conflict": "{detail}",
    "mistake.no_format": "a sheet is exported as json or csv, not {format}",
    "mistake.no_revision": "a change names the revision it was made on",
    "mistake.not_a_number": "{text} is not a {what}",
    "mistake.request_fields": "{what} is a JSON object of {keys}",
    "mistake.body_not_json": "the request body is not JSON",
    "mistake.too_large": "a request has at most {limit} bytes",
    "mistake.over_before_round": "with these rounds, the game is over after round {after}, but round {next} follows: delete the later rounds first",
    "mistake.change_ends_game": "with that change to round {changed}, the game is over after round {after}, but round {next} follows: delete the later rounds first",
    "mistake.no_such_round": "there is no round {number}: the sheet has rounds 1 to {count}",
    "mistake.no_round_yet": "there is no round {number}: the sheet has no round yet",
    "pad.skip": "Skip to the sheet",
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
    "pad.share": "Compartir",
    "pad.share.read": "Solo lectura",
    "pad.share.edit": "Para editar",
    "pad.shareHelp": "Quien abra un enlace verá esta hoja: el primero solo deja leerla, el segundo también cambiarla (nunca borrarla).",
    "pad.shareHelpRead": "Quien abra este enlace verá esta hoja, sin poder cambiarla.",
    "pad.shareCopy": "Copiar",
    "pad.shareCopied": "Copiado",
    "pad.shareSelected": "Seleccionado: cópialo",
    "pad.readOnly": "Solo lectura: este enlace muestra la hoja; no puede cambiarla.",
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
    "pad.clearColumn": "{name}: la columna {col} se eliminó",
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
    "pad.hint": "Escribe un total, o cambia a 12 cartas (x para una columna eliminada). Intro pasa al siguiente jugador, y desde el último a Guardar: revisa la ronda y guárdala.",
    "pad.progress": "{written} de {size} cartas",
    "pad.scoreAs": "{raw}",
    "pad.scored": "suma {score}",
    "pad.doubled": "×2",
    "pad.roundCol": "Ronda",
    "pad.roundsTitle": "Rondas",
    "pad.marks": "* cerró la ronda · ×2 doblado · bajo cada puntuación, el total acumulado",
    "pad.totalRow": "Total",
    "pad.toGoRow": "Faltan",
    "pad.wonRow": "Gana",
    "pad.sharedRow": "Empate",
    "pad.wins": "Gana {name}",
    "pad.shares": "{name} comparte la victoria",
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
    // Un rechazo del modelo (SheetError): su kind y sus params (docs/scorepad.md).
    "pad.inRound": "ronda {round}: {text}",
    "mistake.card_count": "{player}: hay {count} cartas escritas, pero una cuadrícula tiene {size} (o escribe un solo número, el total de la ronda)",
    "mistake.not_a_total": "{player}: {text} no es un total de ronda: escribe un número entero",
    "mistake.not_a_card": "{player}: {text} no es una carta: escribe un número de -2 a 12 o x",
    "mistake.entry_shape": "Lo apuntado para {player} debe ser un total o 12 cartas, no {value}",
    "mistake.total_not_integer": "El total de {player} debe ser un número entero, no {value}",
    "mistake.total_out_of_range": "El total de {player} es {total}, pero ninguna cuadrícula suma eso: los puntos de una ronda van de {min} a {max}",
    "mistake.cards_not_list": "Las cartas de {player} deben ser una lista, no {value}",
    "mistake.row_not_list": "Cartas de {player}: una fila debe ser una lista, no {value}",
    "mistake.card_out_of_range": "Cartas de {player}: la carta de la fila {row}, columna {column} es {card}, pero las cartas van de {min} a {max}",
    "mistake.card_not_number": "Cartas de {player}: la carta de la fila {row}, columna {column} es {card}, no un número",
    "mistake.column_partly_cleared": "Cartas de {player}: la columna {column} está eliminada solo en parte ({cleared} de sus {size} cartas escritas como eliminadas): una columna se elimina con sus tres cartas a la vez",
    "mistake.grid_too_many": "Cartas de {player}: la cuadrícula tiene {count} cartas de {value}, pero la baraja solo tiene {deck}",
    "mistake.grid_rows": "Cartas de {player}: una cuadrícula tiene {rows} filas, no {count}",
    "mistake.row_length": "Cartas de {player}: la fila {row} tiene {count} cartas en vez de {size}",
    "mistake.cards_refused": "Las cartas de {player} no valen: {detail}",
    "mistake.rules_type": "Las reglas no son válidas: {value}",
    "mistake.not_an_object": "Una hoja de puntos es un objeto JSON, no {type}",
    "mistake.not_a_scoresheet": "No es una hoja de puntos: se esperaba \"format\": \"{format}\", \"version\": {version}",
    "mistake.unknown_key": "La hoja de puntos tiene una clave desconocida: {key}",
    "mistake.rules_not_object": "Las reglas deben ser un objeto",
    "mistake.rounds_not_list": "Las rondas deben ser una lista",
    "mistake.nothing_to_undo": "No hay nada que deshacer",
    "mistake.change_shape": "Un cambio es añadir, cambiar o borrar, no {value}",
    "mistake.game_over": "La partida ha terminado (un total llegó a {target}): no se pueden añadir más rondas",
    "mistake.round_shape": "Una ronda es {\"ender\": nombre, \"entries\": {nombre: puntos}}",
    "mistake.entries_shape": "Lo apuntado debe dar a cada jugador un total o 12 cartas",
    "mistake.not_a_player": "{name} no juega en esta hoja",
    "mistake.no_ender": "No se ha marcado quién cerró: marca quién cerró la ronda",
    "mistake.ender_not_player": "Quien cerró, {name}, no juega en esta hoja",
    "mistake.ender_no_entry": "{player} cerró la ronda pero no tiene puntos apuntados",
    "mistake.no_entry": "{player} no tiene puntos apuntados",
    "mistake.scoring_refused": "Los puntos de la ronda no valen: {detail}",
    "mistake.round_too_many": "Las cartas apuntadas tienen {count} cartas de {value}, pero la baraja solo tiene {deck}",
    "mistake.players_not_list": "Los jugadores deben ser una lista de nombres, no {value}",
    "mistake.players_missing": "Los jugadores deben ser una lista de nombres",
    "mistake.player_count": "Al Skyjo juegan de {min} a {max} jugadores, no {count}",
    "mistake.name_empty": "El nombre de un jugador no puede estar vacío",
    "mistake.name_too_long": "Un nombre tiene como mucho {max} caracteres, no {length}",
    "mistake.name_surrogate": "El nombre {name} tiene un carácter suelto que no es texto",
    "mistake.name_control": "El nombre {name} tiene un carácter de control",
    "mistake.players_refused": "Los jugadores no valen: {detail}",
    "mistake.name_repeated": "Cada jugador tiene su propio nombre, pero se repite: {names}",
    "mistake.name_invisible": "El nombre {name} tiene un carácter invisible o de formato ({code})",
    "mistake.name_combining": "El nombre {name} tiene un acento suelto ({code}) sin letra a la que unirse",
    "mistake.title_not_text": "El título debe ser texto, no {value}",
    "mistake.title_too_long": "El título tiene como mucho {max} caracteres, no {length}",
    "mistake.title_control": "El título {title} tiene un carácter de control, de formato o invisible, o que no es texto",
    "mistake.target_not_integer": "El final de la partida debe ser un número entero, no {value}",
    "mistake.target_too_low": "El final de la partida debe ser al menos {min}, no {value}",
    "mistake.target_too_high": "El final de la partida debe ser como mucho {max}, no {value}",
    "mistake.rules_shape": "Las reglas son un objeto, no {type}",
    "mistake.too_deep": "El archivo anida más de {max} niveles",
    "mistake.sheets_rate": "Demasiadas hojas creadas desde tu dirección: como mucho {limit} por hora; vuelve a intentarlo en {retry_after} s",
    "mistake.read_only": "Este enlace te deja ver la hoja, no cambiarla",
    "mistake.owner_only": "Solo el navegador que creó esta hoja puede borrarla",
    "mistake.share_access": "Un enlace deja \"read\" (ver) o \"edit\" (cambiar) la hoja",
    "mistake.body_too_deep": "El cuerpo de la petición anida más de {max} niveles",
    "mistake.rules_unknown": "Regla desconocida: {rules}",
    "mistake.penalty_unknown": "El castigo de quien cierra debe ser uno de {choices}, no {value}",
    "mistake.rules_refused": "Las reglas no valen: {detail}",
    "mistake.not_json": "No es JSON: {detail}",
    "mistake.not_utf8": "El archivo no es texto UTF-8",
    "mistake.no_sheet": "Esa hoja de puntos no existe",
    "mistake.conflict": "Esta hoja se cambió en otro sitio: ábrela otra vez",
    "mistake.no_format": "Una hoja se exporta como json o csv, no {format}",
    "mistake.no_revision": "Un cambio dice sobre qué revisión se hizo",
    "mistake.not_a_number": "{text} no es un número válido",
    "mistake.request_fields": "La petición debe ser un objeto JSON con {keys}",
    "mistake.body_not_json": "La petición no es JSON",
    "mistake.too_large": "Una petición tiene como mucho {limit} bytes",
    "mistake.over_before_round": "Con estas rondas, la partida termina tras la ronda {after}, pero sigue la ronda {next}: borra antes las rondas siguientes",
    "mistake.change_ends_game": "Con ese cambio en la ronda {changed}, la partida termina tras la ronda {after}, pero sigue la ronda {next}: borra antes las rondas siguientes",
    "mistake.no_such_round": "No existe la ronda {number}: la hoja tiene las rondas 1 a {count}",
    "mistake.no_round_yet": "No existe la ronda {number}: la hoja aún no tiene rondas",
    "pad.skip": "Saltar a la hoja",
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

/** A value of a refusal's params as its sentence writes it (a list of names joined as words). */
function shown(value) {
  if (!Array.isArray(value)) return String(value);
  return language() === "es" ? joinNames(value) : value.join(", ");
}

/** `template` with every {name} filled from `params`, or null when one is missing. */
function filled(template, params) {
  let missing = false;
  const text = template.replace(/\{(\w+)\}/g, (_, name) => {
    if (params[name] === undefined || params[name] === null) missing = true;
    return missing ? "" : shown(params[name]);
  });
  return missing ? null : text;
}

/** A refusal's `params` with its row and column (0-based, from the server) counted from 1. */
function countedFromOne(params) {
  const counted = { ...params };
  for (const key of ["row", "column"]) {
    if (Number.isInteger(counted[key])) counted[key] += 1;
  }
  return counted;
}

/** A refusal of the server (`{kind, params, message}`: an API error, a preview's entry or round)
 * in the page's language; its English `message` for a kind (or a sentence) this page cannot write. */
export function mistakeText(error) {
  if (!error) return "";
  const fallback = error.message ?? "";
  const template = error.kind ? STRINGS[language()]?.[`mistake.${error.kind}`] : undefined;
  if (template === undefined) return fallback;
  const params = countedFromOne(error.params || {});
  const text = filled(template, params);
  if (text === null) return fallback;
  if (params.round === undefined || params.round === null) return text;
  return filled(STRINGS[language()]["pad.inRound"], { round: params.round, text }) ?? fallback;
}
