// Keyboard and screen-reader helpers of every page: the one live region and the skip link.
// Both live in the page's HTML, outside what the pages redraw, so they are never replaced.

/** Say `text` through the page's one live region (`#announce`, polite): its text is
 * updated in place, the element never replaced, so screen readers speak every change.
 * The same sentence twice is still news: a no-break space at its end makes it differ. */
export function announce(text) {
  const region = document.getElementById("announce");
  if (!region || !text) return;
  region.textContent = region.textContent === text ? `${text}\u00a0` : text;
}

/** Give the skip link (`#skip`, the page's first control) its words. Activated, it moves
 * the focus to the element that `#main` names in `data-focus` (the control the page
 * would focus next), else to the table or the page's first field, else to `#main`. */
export function skipLink(words) {
  const link = document.getElementById("skip");
  if (!link) return;
  link.textContent = words;
  if (link.dataset.wired) return;
  link.dataset.wired = "1";
  link.addEventListener("click", (event) => {
    event.preventDefault();
    const main = document.getElementById("main");
    const named = main.dataset.focus ? main.querySelector(`[data-key="${CSS.escape(main.dataset.focus)}"]`) : null;
    const target = named || main.querySelector(".table") || main.querySelector("input, select, textarea, button") || main;
    if (!target.matches("input, select, textarea, button, a[href], [tabindex]")) target.setAttribute("tabindex", "-1");
    target.focus();
  });
}
