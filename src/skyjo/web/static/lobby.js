// The lobby of a friends' room: who has joined, the link, code and QR code to share,
// the rules; the host frees a taken seat, gives empty seats to bots or removes them, and
// starts the game.
import { announce } from "./a11y.js";
import { h, replace } from "./dom.js";
import { FACTS } from "./facts.js";
import { ruleWords } from "./variants.js";
import { joinNames, plural, roomTitle, seatLabel, seatName, t } from "./i18n.js";
import { rt } from "./rules-i18n.js";
import { serverErrorText } from "./text.js";

const LADDER = FACTS.bots; // the server's (facts.js)

/** Draw the lobby of `game` (its state says `room.lobby`) into `root`. */
export function renderLobby(root, game, ui) {
  const state = game.state;
  const room = state.room;
  root.dataset.number = String(state.number);
  const host = state.seats.find((seat) => seat.host);
  replace(root, h("div", { class: "lobby" },
    h("header", { class: "lobby-head" },
      h("h1", {}, roomTitle(room, state.seats)),
      h("p", { class: "rules" }, t("rules.summary", ruleWords(room.rules, t)),
        state.turn_seconds ? [" · ", t("lobby.timer", { n: state.turn_seconds })] : null,
        " · ", h("a", { href: `/rules?back=${room.code}`, "data-key": "rules-link" }, rt("rules.link"))),
      ["reconnecting", "offline"].includes(game.status) ? h("p", { class: "notice" }, t("room.reconnecting")) : null),
    invite(room, roomTitle(room, state.seats)),
    h("section", { class: "panel lobby-seats", "aria-labelledby": "lobby-seats-title" },
      h("h2", { id: "lobby-seats-title" }, t("lobby.seats", { n: state.seats.length })),
      h("ul", {}, state.seats.map((seat, i) => seatLine(game, state, seat, i)))),
    h("section", { class: "panel lobby-start" },
      game.error ? h("p", { class: "error" }, t("error", { message: serverErrorText(game.error) })) : null,
      state.host ? starter(game, state, ui) : h("p", { class: "lobby-wait", "data-key": "lobby-wait" },
        state.you === null ? t("lobby.watching", { name: host?.name ?? "?" }) : t("lobby.waitHost", { name: host?.name ?? "?" })))));
  tell(root, game, ui);
}

/** Through the page's one live region: a refusal, and who the table still waits for
 * whenever that changes (a friend joined), in the words the lobby shows. */
function tell(root, game, ui) {
  const said = [];
  if (game.error && game.error !== ui.toldError) said.push(t("error", { message: serverErrorText(game.error) }));
  ui.toldError = game.error;
  const waiting = root.querySelector("[data-key=lobby-empty], [data-key=lobby-start]")?.textContent ?? "";
  if (ui.toldWaiting !== undefined && waiting !== ui.toldWaiting) said.push(waiting);
  ui.toldWaiting = waiting;
  if (said.length) announce(said.join(" "));
}

/** The link, the code and the QR code to give the friends. */
function invite(room, title) {
  const link = `${location.origin}/r/${room.code}`;
  const copy = h("button", { type: "button", "data-key": "lobby-copy", onclick: () => {
    navigator.clipboard?.writeText(link).then(() => { copy.textContent = t("room.copied"); }, () => {});
  } }, t("room.copy"));
  return h("section", { class: "panel lobby-invite", "aria-labelledby": "lobby-invite-title" },
    h("h2", { id: "lobby-invite-title" }, t("lobby.invite")),
    h("div", { class: "lobby-share" },
      h("img", { class: "qr", src: `/api/rooms/${encodeURIComponent(room.code)}/qr.svg`, width: 148, height: 148,
        alt: t("lobby.qr", { link }), "data-key": "lobby-qr" }),
      h("div", { class: "lobby-share-text" },
        h("p", {}, t("lobby.share")),
        h("p", { class: "lobby-code" }, t("lobby.code"), " ", h("strong", { "data-key": "lobby-code" }, room.code)),
        h("input", { class: "link", readonly: true, value: link, "aria-label": t("lobby.link"), "data-key": "lobby-link" }),
        h("div", { class: "row" }, copy,
          navigator.share ? h("button", { type: "button", onclick: () => navigator.share({ title, url: link }).catch(() => {}) },
            t("lobby.shareButton")) : null))));
}

/** One seat: its name ("Seat 3, free" while nobody has taken it), who holds it, and the
 * host's controls. */
function seatLine(game, state, seat, i) {
  const status = seat.bot ? t("seat.bot", { level: t(`level.${seat.bot}`) })
    : !seat.claimed ? t("lobby.empty")
      : seat.connected ? t("lobby.here") : t("lobby.away");
  const tags = [
    i === state.you ? t("seat.you") : null,
    seat.host ? t("lobby.host") : null,
  ].filter(Boolean);
  return h("li", { class: `lobby-seat${seat.claimed || seat.bot ? "" : " empty"}`, "data-key": `lobby-seat-${i}` },
    h("span", { class: "lobby-name" }, seatLabel(seat, i), tags.map((tag) => h("span", { class: "badge" }, tag))),
    h("span", { class: "lobby-status" }, status),
    state.host && !seat.host ? hostTools(game, state, seat, i) : null);
}

function hostTools(game, state, seat, i) {
  const who = seat.human && !seat.claimed ? t("lobby.whoSeat", { n: i + 1 }) : t("lobby.who", { name: seatName(seat) });
  return h("span", { class: "host-tools" },
    h("select", { "data-key": `lobby-who-${i}`, "aria-label": who,
      onchange: (e) => game.setSeat(i, e.target.value || null) },
    h("option", { value: "", selected: !seat.bot }, t("lobby.friend")),
    LADDER.map((level) => h("option", { value: level, selected: seat.bot === level }, t(`level.${level}`)))),
    // a seat someone took (a stranger, say): free again for a friend, that person's token revoked
    seat.claimed && seat.human ? h("button", { type: "button", class: "remove", "data-key": `lobby-free-${i}`,
      "aria-label": t("lobby.freeWho", { name: seat.name }), onclick: () => game.remove(i) }, t("lobby.free")) : null,
    h("button", { type: "button", class: "remove", "data-key": `lobby-drop-${i}`, disabled: state.seats.length <= 2,
      "aria-label": t("lobby.dropWho", { name: seatLabel(seat, i) }), onclick: () => game.drop(i) }, t("lobby.drop")));
}

/** The host's start: at once when every seat is taken; else the empty seats go to bots or away. */
function starter(game, state, ui) {
  const empty = state.seats.map((seat, i) => i).filter((i) => state.seats[i].human && !state.seats[i].claimed);
  if (!empty.length) {
    return h("button", { type: "button", class: "start", "data-key": "lobby-start", onclick: () => game.start(null) },
      t("lobby.start"));
  }
  ui.emptyLevel = ui.emptyLevel || FACTS.default_bot;
  const names = joinNames(empty.map((i) => t("seat.number", { n: i + 1 })));
  const left = state.seats.length - empty.length;
  return [
    h("p", { class: "lobby-empty", "data-key": "lobby-empty" },
      plural("lobby.nobody", empty.length, { names })),
    h("div", { class: "lobby-choices" },
      h("label", { for: "lobby-level" }, t("lobby.botsLevel")),
      h("select", { id: "lobby-level", "data-key": "lobby-level", onchange: (e) => { ui.emptyLevel = e.target.value; } },
        LADDER.map((level) => h("option", { value: level, selected: level === ui.emptyLevel }, t(`level.${level}`)))),
      h("button", { type: "button", class: "start", "data-key": "lobby-start-bots", onclick: () => game.start(ui.emptyLevel) },
        t("lobby.startBots")),
      left >= 2 ? h("button", { type: "button", "data-key": "lobby-start-drop", onclick: () => game.start("drop") },
        plural("lobby.startDrop", left)) : null),
  ];
}
