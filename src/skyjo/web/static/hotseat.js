// Hot-seat: several humans on one device. One connection per seat (each hears only
// what its seat may see); the board shown is one seat's, and between two of them a
// "pass the device" screen hides everything until the next player says it is them.
import { h, replace } from "./dom.js";
import { Game } from "./game.js";
import { roomTitle, t } from "./i18n.js";

export class HotSeat {
  /** `seats` is [{seat, token}], the host's seat first; `onChange` redraws. */
  constructor(code, seats, onChange) {
    this.code = code;
    this.onChange = onChange;
    this.games = new Map();
    this.active = seats[0].seat; // the seat whose board is shown
    this.pending = null; // the seat the device is being passed to
    for (const { seat, token } of seats) this.games.set(seat, new Game(code, token, () => this.changed()));
  }

  get game() {
    return this.games.get(this.active);
  }

  get state() { return this.game.state; }
  get events() { return this.game.events; }
  get fresh() { return this.game.fresh; }
  get motions() { return this.game.motions; }
  get chat() { return this.game.chat; }
  get error() { return this.game.error; }
  get status() { return this.game.status; }
  get backAt() { return this.game.backAt; }
  get deadline() { return this.game.deadline; }

  /** The newest view any of the device's seats has. */
  latest() {
    let best = null;
    for (const game of this.games.values()) {
      if (game.state && (!best || game.state.number > best.state.number)) best = game;
    }
    return best;
  }

  /** The device's seat to move now, if any (none at a round's end: every card is face up
   * and the device says "next round" for all its seats at once). */
  toMove() {
    const latest = this.latest();
    if (!latest) return null;
    if (latest.state.room.lobby) return null; // nobody moves before the host starts
    const obs = latest.state.observation;
    const seat = obs.current_player;
    if (["round_over", "game_over"].includes(obs.phase) || latest.state.over || !this.games.has(seat)) return null;
    return latest.state.seats[seat]?.bot ? null : seat;
  }

  changed() {
    const seat = this.toMove();
    this.pending = seat !== null && seat !== this.active ? seat : null;
    this.onChange();
  }

  /** The next player says it is them: show their board. */
  confirm() {
    if (this.pending === null) return;
    this.active = this.pending;
    this.pending = null;
    this.onChange();
  }

  move(action) { this.game.move(action); }
  /** Every seat of the device has seen the round's scores. */
  ready() {
    for (const game of this.games.values()) game.ready();
  }

  say(text) { this.game.say(text); }
  setSeat(seat, bot) { this.game.setSeat(seat, bot); }
  remove(seat) { this.game.remove(seat); }
  start(empty) { this.game.start(empty); }
  /** The host's connection (the seat the host's token holds), whichever board is shown. */
  get host() { return [...this.games.values()].find((game) => game.hosting) ?? null; }
  get hosting() { return this.host !== null; }
  rematch() { this.host?.rematch(); }
  drop(seat) { this.game.drop(seat); }

  stop() {
    for (const game of this.games.values()) game.stop();
  }
}

/** The screen between two players of the device: a name and a button, no card at all. */
export function renderPass(root, hot) {
  const latest = hot.latest();
  const name = latest.state.seats[hot.pending]?.name ?? "?";
  root.dataset.number = String(latest.state.number);
  const ready = h("button", { type: "button", class: "start", "data-key": "hot-ready", onclick: () => hot.confirm() },
    t("hot.ready", { name }));
  replace(root, h("section", { class: "panel pass", role: "dialog", "aria-modal": "true", "aria-labelledby": "pass-title" },
    h("p", { class: "pass-room" }, roomTitle(latest.state.room, latest.state.seats)),
    h("h1", { id: "pass-title" }, t("hot.pass", { name })),
    h("p", {}, t("hot.passHelp", { name })),
    ready));
  ready.focus();
}
