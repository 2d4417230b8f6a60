// The client's entry: the page chrome, routing between the front page and a room.
import { carrySeats, joinRoom, roomInfo, roomRecord, roomReplay, savedSeat, savedSeats, uploadRecord, uploadedRecord, uploadedReplay } from "./api.js";
import { HotSeat, renderPass } from "./hotseat.js";
import { connectionNeeded, renderBoard } from "./board.js";
import { skipLink } from "./a11y.js";
import { h, replace } from "./dom.js";
import { FACTS } from "./facts.js";
import { renderFront } from "./front.js";
import { renderLobby } from "./lobby.js";
import { language, roomTitle, seatLabel, setLanguage, t } from "./i18n.js";
import { Replay, renderReplay, replayKey, uploadPanel } from "./replay.js";
import { topBar } from "./top.js";
import { isOffline, registerWorker, unreachable, watchConnection, whenOnline } from "./offline.js";

const main = document.getElementById("main");
let game = null; // the room being shown, if any
let replay = null; // the replay being shown, if any
let ui = {};

function navigate(path) {
  history.pushState(null, "", path);
  route();
}

function chrome() {
  topBar({
    parts: () => [h("span", { class: "tagline" }, t("app.tagline"))],
    redraw: () => route({ keep: true }),
    logo: { onclick: (e) => { e.preventDefault(); navigate("/"); } },
  });
}

/** Show what the address asks for; `keep` redraws the room without reconnecting. */
function route(options) {
  show(options);
  skipWords();
}

/** The skip link says where it goes: to the table during a game, else to the content. */
function skipWords() {
  skipLink(main.querySelector(".table") ? t("skip.table") : t("skip.content"));
}

function show({ keep = false } = {}) {
  const watch = location.pathname.match(/^\/r\/([A-Za-z0-9]{1,12})\/replay$/);
  const uploaded = location.pathname.match(/^\/replay\/([A-Za-z0-9]{1,20})$/);
  if (watch || uploaded || location.pathname === "/replay") {
    if (keep && replay) {
      draw();
      return;
    }
    stopGame();
    if (watch) openReplay(watch[1].toUpperCase());
    else if (uploaded) openUploaded(uploaded[1]);
    else openUpload();
    return;
  }
  const match = location.pathname.match(/^\/r\/([A-Za-z0-9]{1,12})$/);
  if (!match && location.pathname !== "/") {
    stopGame();
    showMissing();
    return;
  }
  if (!match) {
    stopGame();
    delete main.dataset.focus;
    document.title = "Skyjo";
    renderFront(main, navigate);
    return;
  }
  const code = match[1].toUpperCase();
  if (keep && game && game.code === code) {
    draw();
    return;
  }
  openRoom(code, new URLSearchParams(location.search).has("watch"));
}

/** An address where there is no page (the server answers it with this page, status 404):
 * said so in the page's language, with the way to the front page. */
function showMissing() {
  delete main.dataset.focus;
  document.title = `Skyjo · ${t("missing.title")}`;
  replace(main, h("section", { class: "panel", "data-key": "missing" },
    h("h1", {}, t("missing.title")),
    h("p", {}, t("missing.text", { path: location.pathname })),
    h("p", {}, h("a", { href: "/", "data-key": "missing-home",
      onclick: (e) => { e.preventDefault(); navigate("/"); } }, t("missing.home")))));
}

function stopGame() {
  if (game) game.stop();
  if (replay) replay.stop();
  game = null;
  replay = null;
}

/** A finished game of this server, watched step by step (`?step=N` is where it starts). */
async function openReplay(code) {
  const record = roomRecord(code); // asked for beside the replay: its decks show the face-down cards
  await fetchReplay(() => roomReplay(code), [h("a", { href: `/r/${code}` }, t("replay.toRoom")), " · "], record);
}

/** An uploaded record, by its stable link `/replay/ID` (`?step=N` too). */
async function openUploaded(id) {
  const record = uploadedRecord(id); // public to whoever has the link: its decks show the face-down cards
  await fetchReplay(() => uploadedReplay(id), [h("a", { href: "/replay" }, t("replay.uploadTitle")), " · "], record);
}

async function fetchReplay(load, links, record = null) {
  replace(main, h("p", { class: "notice" }, t("room.connecting")));
  let data;
  try {
    data = await load();
  } catch (failure) {
    if (unreachable(failure)) {
      offlinePage(t("offline.replay"));
      return;
    }
    replace(main, h("section", { class: "panel replay-refused" }, h("h1", { class: "sr-only" }, t("replay.badge")),
      h("p", { class: "error", role: "alert" }, failure.message),
      links, h("a", { href: "/" }, t("room.back"))));
    return;
  }
  const asked = new URLSearchParams(location.search);
  showReplay(data, Number(asked.get("step")) || 0, true, await record);
  if (asked.has("review")) replay.review.start(); // "Review the game" at a game's end
}

/** A replay, its address following the step shown (`?step=N`, and `&review` while its
 * review is open: a reload opens it again). */
function showReplay(data, start, linked, record = null) {
  ui = { navigate };
  const you = data.code ? savedSeat(data.code)?.seat ?? null : null; // this browser's seat in that game
  replay = new Replay(data, () => {
    const review = replay.review.open ? "&review" : "";
    if (linked) history.replaceState(null, "", `${location.pathname}?step=${replay.index}${review}`);
    draw();
  }, start, { record, you });
  draw();
}

/** The upload page: a record from this machine, checked and kept by the server, then
 * watched at its own stable address (`/replay/ID`), which a reload or a friend opens. */
function openUpload() {
  document.title = `Skyjo · ${t("replay.uploadTitle")}`;
  replace(main, uploadPanel((data, text) => {
    history.pushState(null, "", data.link);
    showReplay(data, 0, true, parsed(text));
  }, uploadRecord));
}

/** An uploaded record's text as JSON (the server has read it already), or null. */
function parsed(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

async function openRoom(code, watch) {
  stopGame();
  const saved = savedSeat(code);
  const hot = watch ? null : savedSeats(code);
  if (hot) {
    ui = roomUi(code);
    game = new HotSeat(code, hot, draw);
    draw();
    return;
  }
  if (watch || saved) {
    startGame(code, watch ? null : saved.token);
    return;
  }
  replace(main, h("p", { class: "notice" }, t("room.connecting")));
  try {
    const room = await roomInfo(code);
    if (!room.free_seats.length) {
      startGame(code, null);
      return;
    }
    // No placeholder name: a newcomer who types none is named by the server ("Player 3").
    const name = h("input", { id: "join-name", maxlength: FACTS.max_name, value: localStorage.getItem("skyjo:name") || "",
      "data-key": "join-name", autocomplete: "nickname" });
    const error = h("p", { class: "error", role: "alert", "data-key": "join-error" });
    replace(main, h("section", { class: "panel join-room" },
      h("h1", {}, roomTitle(room)),
      h("p", {}, t("room.joinPrompt")),
      h("h2", { id: "join-seats" }, t("room.atTable")),
      h("ul", { class: "join-seats", "aria-labelledby": "join-seats", "data-key": "join-seats" },
        room.seats.map((seat, i) => h("li", {}, seatLabel(seat, i),
          seat.bot ? h("span", { class: "badge" }, t("seat.bot", { level: t(`level.${seat.bot}`) })) : null))),
      h("label", { for: "join-name" }, t("front.name")), name,
      error,
      h("div", { class: "row" },
        h("button", { type: "button", class: "start", "data-key": "take-seat", onclick: async () => {
          try {
            const seat = await joinRoom(code, name.value.trim());
            if (name.value.trim()) localStorage.setItem("skyjo:name", name.value.trim());
            startGame(code, seat.token);
          } catch (failure) {
            error.textContent = failure.message;
          }
        } }, t("room.takeSeat")),
        h("button", { type: "button", onclick: () => startGame(code, null) }, t("front.watch")))));
  } catch (failure) {
    if (unreachable(failure)) {
      offlinePage(connectionNeeded(code, isOffline()));
      return;
    }
    replace(main, h("section", { class: "panel" }, h("h1", {}, t("room.noRoom", { code })),
      h("a", { href: "/" }, t("room.back"))));
  }
}

/** A page that needs the server, opened without a connection: said so (`text`, or a room's
 * whole notice), and opened again as soon as the connection is back (if the address is
 * still the same). */
function offlinePage(text) {
  const path = location.pathname + location.search;
  replace(main, text instanceof Node ? text : h("section", { class: "panel offline-page", "data-key": "offline-page" },
    h("p", {}, text), h("a", { href: "/" }, t("room.back"))));
  whenOnline(() => {
    if (location.pathname + location.search === path) route();
  });
}

/** What the board of room `code` may do beyond its game: "another game" (the host asks the
 * server for the table's next game; this page follows it once told: `draw`), joining the
 * next game with this browser's seats, going elsewhere. */
function roomUi(code) {
  const page = { navigate };
  page.again = () => {
    page.rematchAsked = true;
    game?.rematch();
  };
  page.follow = (next) => {
    carrySeats(code, next);
    navigate(`/r/${next}`);
  };
  return page;
}

function startGame(code, token) {
  // Imported lazily so that the front page loads the least.
  import("./game.js").then(({ Game }) => {
    ui = roomUi(code);
    game = new Game(code, token, draw);
    draw();
  });
}

function draw() {
  if (replay) {
    document.title = `Skyjo · ${t("replay.badge")} · ${replay.state.room.title}`;
    renderReplay(main, replay, ui);
    skipWords();
    return;
  }
  if (!game) return;
  const next = game.state?.room.rematch;
  if (next && ui.rematchAsked) {
    ui.follow(next.code); // the host asked here: on to the next game's lobby
    return;
  }
  if (game.state) document.title = `Skyjo · ${roomTitle(game.state.room, game.state.seats)}`;
  if (game.pending !== undefined && game.pending !== null) renderPass(main, game);
  else if (game.state?.room.lobby) renderLobby(main, game, ui);
  else renderBoard(main, game, ui);
  skipWords();
  tickTimer();
}

document.addEventListener("keydown", (event) => {
  if (replay && !event.target.closest("input, select, textarea")) {
    replayKey(replay, event);
    return;
  }
  if (!game?.state || game.pending != null || event.target.closest("input, select, textarea")) return;
  const shortcut = { d: "choice-draw", t: "choice-take", f: "choice-flip", n: "choice-next" }[event.key];
  if (shortcut) document.querySelector(`[data-key="${shortcut}"]`)?.click();
});

/** The turn timer's line counts down between messages (no redraw of the board). */
function tickTimer() {
  const line = document.querySelector("[data-key=timer]");
  if (!line || !game?.deadline) return;
  const left = Math.max(0, Math.ceil((game.deadline - performance.now()) / 1000));
  line.textContent = t("timer.left", { n: left });
  line.classList.toggle("urgent", left <= 5);
}
setInterval(tickTimer, 250);

window.addEventListener("popstate", () => route());
setLanguage(language());
chrome();
route();
registerWorker();
watchConnection(() => t("offline.now"), () => t("offline.back"));
