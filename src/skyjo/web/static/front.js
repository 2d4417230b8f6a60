// The front page: play against bots in two clicks, join by code, the open games.
import { createRoom, listRooms } from "./api.js";
import { h, replace } from "./dom.js";
import { FACTS } from "./facts.js";
import { defaultRules, requestRules, variantInputs } from "./variants.js";
import { plural, roomTitle, seatLabel, t } from "./i18n.js";
import { st } from "./scorepad-i18n.js";
import { rt } from "./rules-i18n.js";
import { DEFAULT_SPEED, speedMenu } from "./pace.js";

// The levels, the defaults, the bounds and the limits are the server's (facts.js).
const LEVELS = FACTS.bots;

/** What the visitor chose so far (kept while the page lives). */
const choice = {
  opponents: 3,
  level: FACTS.default_bot,
  speed: DEFAULT_SPEED, // the bots' speed (pace.js)
  seats: [], // per opponent: a level, "friend" or "here" (hot-seat); empty: all at `level`
  names: [], // per opponent: the name of a hot-seat player
  timer: 0, // the turn timer in seconds, 0 for none
  rules: defaultRules(), // the variants' values (variants.js)
  listed: false,
  title: "",
  name: null, // the name typed so far (kept when the page redraws)
};

/** Draw the front page; `navigate(path)` opens a room. */
export function renderFront(root, navigate) {
  const draw = () => replace(root, h("h1", { class: "sr-only" }, t("front.heading")), solo(draw, navigate),
    h("div", { class: "front-side" }, join(navigate), openGames(navigate)));
  draw();
}

function solo(draw, navigate) {
  const name = h("input", { id: "your-name", maxlength: FACTS.max_name, value: choice.name ?? (localStorage.getItem("skyjo:name") || ""),
    oninput: (e) => { choice.name = e.target.value; },
    placeholder: t("front.player"),
    "data-key": "name", autocomplete: "nickname" });
  const error = h("p", { class: "error", role: "alert" });
  const start = async () => {
    localStorage.setItem("skyjo:name", name.value.trim());
    try {
      const room = await createRoom(config(name.value.trim() || t("front.player")));
      navigate(`/r/${room.code}`);
    } catch (failure) {
      error.textContent = failure.message;
    }
  };
  return h("section", { class: "panel solo", "aria-labelledby": "solo-title" },
    h("h2", { id: "solo-title" }, t("front.solo")),
    h("label", { for: "your-name" }, t("front.name")), name,
    h("fieldset", {}, h("legend", {}, t("front.opponents")),
      h("div", { class: "counts" }, opponentCounts().map((n) => h("button", {
        type: "button", class: "count", "aria-pressed": String(choice.opponents === n), "data-key": `count-${n}`,
        onclick: () => { choice.opponents = n; draw(); } }, String(n))))),
    h("label", { for: "level" }, t("front.level")),
    h("select", { id: "level", "data-key": "level", onchange: (e) => { choice.level = e.target.value; choice.seats = []; draw(); } },
      LEVELS.map((level) => h("option", { value: level, selected: level === choice.level }, t(`level.${level}`)))),
    speedMenu("speed", choice.speed, (speed) => { choice.speed = speed; }),
    h("button", { type: "button", class: "start", "data-key": "start", onclick: start }, t("front.start")),
    error,
    more(draw));
}

/** 1 to the most opponents a table has room for (the server's most players, but you). */
function opponentCounts() {
  return Array.from({ length: FACTS.players.max - 1 }, (_, i) => i + 1);
}

function more(draw) {
  const seats = [];
  for (let i = 0; i < choice.opponents; i++) {
    const value = choice.seats[i] || choice.level;
    seats.push(h("label", { class: "seat-choice" }, t("front.seat", { n: i + 2 }), " ",
      h("select", { "data-key": `seat-${i}`, onchange: (e) => { choice.seats[i] = e.target.value; draw(); } },
        h("option", { value: "friend", selected: value === "friend" }, t("front.friend")),
        h("option", { value: "here", selected: value === "here" }, t("front.here")),
        LEVELS.map((level) => h("option", { value: level, selected: value === level }, t(`level.${level}`))))));
    if (value === "here") {
      seats.push(h("input", { class: "seat-name", maxlength: FACTS.max_name, value: choice.names[i] || "", "data-key": `seat-name-${i}`,
        "aria-label": t("front.seatName", { n: i + 2 }), placeholder: t("front.seatName", { n: i + 2 }),
        oninput: (e) => { choice.names[i] = e.target.value; } }));
    }
  }
  return h("details", { class: "more", open: choice.seats.length > 0 || undefined },
    h("summary", {}, t("front.more")),
    seats,
    variantInputs(choice.rules, { label: (key) => t(`front.${key}`), word: t, onNumber: (v, text) => Number(text) || v.default }),
    h("label", {}, t("front.timer"), " ", h("select", { "data-key": "timer",
      onchange: (e) => { choice.timer = Number(e.target.value); } },
      [0, 15, 30, 60, 120].map((n) => h("option", { value: n, selected: n === choice.timer },
        n ? plural("front.seconds", n) : t("front.noTimer"))))),
    h("label", {}, h("input", { type: "checkbox", checked: choice.listed, "data-key": "listed",
      onchange: (e) => { choice.listed = e.target.checked; } }), " ", t("front.listed")),
    h("label", {}, t("front.title"), " ", h("input", { maxlength: FACTS.max_title, value: choice.title, "data-key": "title",
      oninput: (e) => { choice.title = e.target.value; } })));
}

/** The room request for the choices made. */
function config(name) {
  const seats = [{ name }];
  for (let i = 0; i < choice.opponents; i++) {
    const value = choice.seats[i] || choice.level;
    if (value === "here") seats.push({ name: (choice.names[i] || "").trim() || null, hot_seat: true });
    else seats.push(value === "friend" ? { bot: null } : { bot: value });
  }
  const request = { seats, rules: requestRules(choice.rules), listed: choice.listed };
  if (choice.timer) request.turn_seconds = choice.timer;
  if (choice.speed !== DEFAULT_SPEED) request.bot_speed = choice.speed;
  // no title typed: the server's default, which each page words in its own language
  if (choice.title.trim()) request.title = choice.title.trim();
  return request;
}

function join(navigate) {
  const code = h("input", { id: "code", maxlength: 6, autocapitalize: "characters", autocomplete: "off",
    "data-key": "code", placeholder: "K7QM2X" });
  const go = (watch) => {
    const value = code.value.trim().toUpperCase();
    if (value) navigate(`/r/${value}${watch ? "?watch" : ""}`);
  };
  return h("section", { class: "panel join", "aria-labelledby": "join-title" },
    h("h2", { id: "join-title" }, t("front.join")),
    h("label", { for: "code" }, t("front.code")), code,
    h("div", { class: "row" },
      h("button", { type: "button", onclick: () => go(false) }, t("front.joinButton")),
      h("button", { type: "button", onclick: () => go(true) }, t("front.watch"))),
    h("p", { class: "replay-link" }, h("a", { href: "/replay", "data-key": "upload-link",
      onclick: (e) => { e.preventDefault(); navigate("/replay"); } }, t("replay.uploadTitle"))),
    h("p", { class: "replay-link" }, h("a", { href: "/scorepad", "data-key": "scorepad-link" }, st("pad.link"))),
    h("p", { class: "replay-link" }, h("a", { href: "/rules", "data-key": "rules-link" }, rt("rules.link"))));
}

function openGames(navigate) {
  const list = h("ul", { class: "open" });
  listRooms().then(({ rooms }) => {
    replace(list, rooms.length ? rooms.map((room) => h("li", {},
      h("span", { class: "title" }, roomTitle(room)), " ",
      h("span", { class: "meta" }, plural("front.seats", room.free_seats.length, { free: room.free_seats.length, n: room.seats.length })), " ",
      h("span", { class: "who", "data-key": `open-seats-${room.code}` }, room.seats.map(seatLabel).join(" · ")), " ",
      room.free_seats.length ? h("button", { type: "button", onclick: () => navigate(`/r/${room.code}`) }, t("front.joinButton")) : null,
      h("button", { type: "button", onclick: () => navigate(`/r/${room.code}?watch`) }, t("front.watch"))))
      : h("li", {}, t("front.none")));
  }, (failure) => { if (failure.offline) replace(list, h("li", { class: "notice" }, t("offline.rooms"))); });
  return h("section", { class: "panel open-games", "aria-labelledby": "open-title" },
    h("h2", { id: "open-title" }, t("front.open")), list);
}
