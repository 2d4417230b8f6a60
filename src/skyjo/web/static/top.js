// The top bar (#top) every page shares: the logo, the page's own words, the language and the
// colours. One module, so that the game's, the scorepad's and the rules' pages draw it alike.

import { skipLink } from "./a11y.js";
import { h, replace } from "./dom.js";
import { LANGUAGES, language, setLanguage, t } from "./i18n.js";
import { themeSwitch } from "./theme.js";

/** Draw the top bar: the logo (a link to the front page, `logo` its extra attributes), then
 * `parts()` (the page's own elements), the language select and the theme switch; the skip
 * link worded `skip()` where the page gives it. Another language chosen draws the bar again
 * in it (`parts` and `skip` are read again), then the page (`redraw`). */
export function topBar({ parts, redraw, skip = null, logo = {} }) {
  const select = h("select", { id: "language", "aria-label": t("language"), onchange: (e) => {
    setLanguage(e.target.value);
    topBar({ parts, redraw, skip, logo });
    redraw();
  } }, Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === language() }, name)));
  replace(document.getElementById("top"),
    h("a", { href: "/", class: "logo", ...logo }, "Skyjo"), ...parts(),
    select, themeSwitch({ id: "theme", "data-key": "theme" }));
  if (skip) skipLink(skip());
}
