// This browser's play settings, kept in localStorage (not with the room): the turn alert's
// sound and vibration (off until chosen) and the exchange's confirmation (on until turned
// off). The room panel shows them (`playSettings`); alerts.js and confirm.js read them.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Each setting, its localStorage key and its value when nothing is kept. */
const SETTINGS = {
  alertSound: ["skyjo:alert-sound", false],
  alertVibrate: ["skyjo:alert-vibrate", false],
  confirmLow: ["skyjo:confirm-low", true],
};

/** The setting `name` as this browser keeps it (its default when none is kept). */
export function pref(name) {
  const [key, fallback] = SETTINGS[name];
  const kept = localStorage.getItem(key);
  return kept === null ? fallback : kept === "1";
}

export function setPref(name, on) {
  localStorage.setItem(SETTINGS[name][0], on ? "1" : "0");
}

/** Whether this device vibrates for a page (vibration is never offered where it does not). */
export function canVibrate() {
  return typeof navigator.vibrate === "function";
}

/** A checkbox of the setting `name`; `chosen(on)` runs after it is kept (a click: a user's
 * gesture, which a page's sound needs). */
function toggle(name, words, chosen = () => {}) {
  const id = `pref-${name}`;
  return h("label", { class: "pref", for: id },
    h("input", { type: "checkbox", id, "data-key": id, checked: pref(name),
      onchange: (e) => { setPref(name, e.target.checked); chosen(e.target.checked); } }), " ", words);
}

/** The room panel's play settings: the turn alert (sound; vibration where the device has
 * it) and the exchange's confirmation. `unlock` readies the sound on the click that turns it on. */
export function playSettings(unlock) {
  return h("div", { class: "play-settings" },
    h("fieldset", { class: "turn-alert" },
      h("legend", {}, t("alert.title")),
      toggle("alertSound", t("alert.sound"), (on) => { if (on) unlock(); }),
      canVibrate() ? toggle("alertVibrate", t("alert.vibrate")) : null,
      h("p", { class: "note" }, t("alert.note"))),
    toggle("confirmLow", t("confirm.setting")));
}
