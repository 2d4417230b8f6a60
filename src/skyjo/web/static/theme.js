// The colour scheme: the system's (prefers-color-scheme), or light or dark as chosen with the
// header's switch and remembered in localStorage. It is put on <html> as data-theme="light" or
// "dark" (style.css's colours follow it) as soon as this module runs: the pages' heads load it
// first, render-blocking where the browser knows how, and the entry modules import it too.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "skyjo:theme";
export const THEMES = ["system", "light", "dark"];
const systemDark = window.matchMedia("(prefers-color-scheme: dark)");

/** The scheme chosen: "system", "light" or "dark". */
export function theme() {
  const saved = localStorage.getItem(KEY);
  return THEMES.includes(saved) ? saved : "system";
}

/** The scheme shown: "light" or "dark". */
export function shownTheme() {
  const chosen = theme();
  if (chosen !== "system") return chosen;
  return systemDark.matches ? "dark" : "light";
}

/** Choose a scheme ("system" follows the system's), remember it and show it. */
export function setTheme(choice) {
  if (!THEMES.includes(choice)) return;
  if (choice === "system") localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, choice);
  applyTheme();
  for (const menu of document.querySelectorAll("select.theme-switch")) menu.value = choice;
}

function applyTheme() {
  document.documentElement.dataset.theme = shownTheme();
}

/** The header's switch: a menu of the three choices (`attrs`: its id, data-key...). */
export function themeSwitch(attrs = {}) {
  return h("select", { class: "theme-switch", "aria-label": t("theme"), ...attrs, onchange: (e) => setTheme(e.target.value) },
    THEMES.map((choice) => h("option", { value: choice, selected: choice === theme() }, t(`theme.${choice}`))));
}

systemDark.addEventListener("change", applyTheme);
// another tab's choice
window.addEventListener("storage", (event) => { if (event.key === KEY || event.key === null) applyTheme(); });
applyTheme();
