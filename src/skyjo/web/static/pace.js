// The bots' speed (docs/web-protocol.md, "Bots, pace and absent players"): chosen on the
// front page for a new room, changed by the host in the room panel, shown to the others.
import { h } from "./dom.js";
import { FACTS } from "./facts.js";
import { t } from "./i18n.js";

// The paces, slowest first, and a room's own when none is said: the server's (facts.js).
export const SPEEDS = FACTS.bot_speeds;
export const DEFAULT_SPEED = FACTS.default_bot_speed;

/** A labelled menu of the speeds, `speed` chosen; `chosen(speed)` runs on a change. */
export function speedMenu(id, speed, chosen) {
  return [
    h("label", { for: id }, t("speed.label")),
    h("select", { id, "data-key": id, onchange: (e) => chosen(e.target.value) },
      SPEEDS.map((s) => h("option", { value: s, selected: s === speed }, t(`speed.${s}`)))),
  ];
}

/** The room panel's line of the bots' speed: the host's menu, else the speed in words;
 * nothing at a table with no bot. */
export function speedRow(game, view) {
  if (view.ui.replay || !view.seats.some((seat) => seat.bot)) return null;
  const speed = view.state.room.bot_speed || DEFAULT_SPEED;
  if (!game.hosting) return h("p", { class: "speed-row", "data-key": "speed-is" }, t("speed.is", { speed: t(`speed.${speed}`) }));
  return h("p", { class: "speed-row" }, speedMenu("room-speed", speed, (chosen) => game.setSpeed(chosen)));
}
