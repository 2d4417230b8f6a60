// The app offline: the service worker registered (sw.js keeps the pages and their files), and a
// status line under the top bar that says when the connection is gone and when it is back
// (a screen reader hears each change through the page's one live region, a11y.js).
import { announce } from "./a11y.js";

/** Register the service worker, where the browser has them (a secure context: https, or
 * localhost). Without one the app works as before, online. */
export function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("/sw.js").catch((failure) => console.warn("no service worker:", failure));
}

/** How long a page says its connection is back (a room's board), in milliseconds. */
export const BACK_MS = 4000;

let line = null;

/** The status line (made once, after the top bar: outside what the pages redraw). */
function statusLine() {
  if (!line) {
    line = document.createElement("p");
    line.id = "net-status";
    line.className = "net-status";
    line.dataset.key = "net-status";
    (document.getElementById("top") ?? document.body.firstElementChild).after(line);
  }
  return line;
}

/** Say `text` on the status line (empty: hide it); `state` is "offline", "pending" or "back".
 * The live region says it too, unless the line is hidden: a room's board says its
 * connection's state in its own words (board.js), and one message is enough. */
export function say(text, state = "") {
  const status = statusLine();
  status.dataset.state = text ? state : "";
  if (status.textContent !== text) {
    status.textContent = text;
    if (status.checkVisibility?.() ?? true) announce(text);
  }
}

/** Whether the browser knows it has no connection. */
export const isOffline = () => navigator.onLine === false;

/** Whether `failure` (a fetch's, or api.js's) means the server could not be reached. */
export const unreachable = (failure) => Boolean(failure?.offline) || failure instanceof TypeError;

/** The wait before trying a server that did not answer although the browser was online: it
 * doubles with each try in a row (2 s up to a minute) and starts again at an "online". */
let retryDelay = 2000;

/** Run `action` once, when the connection comes back: at the browser's "online", or, when the
 * browser says it is online already (the server was down, or the "online" came before the
 * network did), after a wait that grows with each try. */
export function whenOnline(action) {
  let timer = null;
  const run = (event) => {
    window.removeEventListener("online", run);
    clearTimeout(timer);
    if (event?.type === "online") retryDelay = 2000;
    action();
  };
  window.addEventListener("online", run);
  if (!isOffline()) {
    timer = setTimeout(run, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 60000);
  }
}

/** Keep the status line up to date: `offline()` says the connection is gone, `back()` that it
 * is back (said for a few seconds). Both are functions: their text is in the page's language
 * at the time. */
export function watchConnection(offline, back) {
  let hide = null;
  const update = (event) => {
    clearTimeout(hide);
    if (isOffline()) {
      say(offline(), "offline");
    } else if (event?.type === "online") {
      say(back(), "back");
      hide = setTimeout(() => say(""), 5000);
    }
  };
  window.addEventListener("offline", update);
  window.addEventListener("online", update);
  update();
}
