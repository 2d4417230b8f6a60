// One room's WebSocket: hello, the state, numbered updates (resync on a gap), reconnects.
import { motionsOf, playing } from "./motion.js";
import { BACK_MS } from "./offline.js";

const LOG_EVENTS = 80;
const FIRST_UNDOABLE = 12; // DRAW: the actions before it turn up a round's first cards

export class Game {
  /** Connect to room `code` with `token` (null: watch); `onChange` runs after every change. */
  constructor(code, token, onChange) {
    this.code = code;
    this.token = token;
    this.onChange = onChange;
    this.state = null; // the last `state` message, kept up to date by the updates
    this.events = []; // the latest events, oldest first (the board words them)
    this.fresh = []; // the events of the updates not drawn yet (the live region tells them)
    this.frame = null; // the animation frame that will draw the messages received, if asked
    this.motions = []; // the animations of the latest steps (motion.js)
    this.chat = [];
    this.error = null;
    // "connecting" (the first time), "open" (a state came on this connection), "reconnecting"
    // (the connection closed: tried again, sooner and sooner apart up to 10 s), "offline"
    // (the browser has no network: tried again when it comes back) or "unavailable" (the
    // server cannot save the game: `outage` says why; its next `state` says it is back).
    this.status = "connecting";
    this.outage = null;
    this.downFrom = null; // the status the last `state` ended (what "back" says)
    this.backAt = null; // when the connection came back after it was down (performance.now() ms)
    this.deadline = null; // when the turn timer plays the awaited move (performance.now() ms)
    this.retries = 0;
    this.stopped = false;
    this.online = () => this.reconnectNow(); // the connection is back: no need to wait
    this.offline = () => this.dropped();
    window.addEventListener("online", this.online);
    window.addEventListener("offline", this.offline);
    this.connect();
  }

  /** A new connection; the events of a connection given up (`dropped`) are ignored. */
  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(this.code)}`);
    this.socket = socket;
    const current = (handle) => (event) => { if (socket === this.socket) handle(event); };
    socket.addEventListener("open", current(() => this.send({ type: "hello", token: this.token })));
    socket.addEventListener("message", current((event) => this.receive(JSON.parse(event.data))));
    socket.addEventListener("close", current(() => this.closed()));
  }

  closed() {
    if (this.stopped) return;
    this.socket = null;
    this.status = navigator.onLine === false ? "offline" : "reconnecting";
    this.onChange();
    clearTimeout(this.retry);
    if (this.status === "offline") return; // the "online" event connects again
    const wait = Math.min(10000, 500 * 2 ** this.retries++);
    this.retry = setTimeout(() => this.connect(), wait);
  }

  /** The browser lost its network: the connection is down at once (a socket may notice
   * only much later), given up, and made again when the network is back. */
  dropped() {
    if (this.stopped || !this.socket) return;
    const socket = this.socket;
    this.socket = null;
    socket.close();
    this.closed();
  }

  reconnectNow() {
    if (this.stopped || (this.socket && this.socket.readyState <= WebSocket.OPEN)) return;
    clearTimeout(this.retry);
    this.connect();
  }

  stop() {
    this.stopped = true;
    window.removeEventListener("online", this.online);
    window.removeEventListener("offline", this.offline);
    cancelAnimationFrame(this.frame);
    clearTimeout(this.retry);
    clearTimeout(this.backTimer);
    this.socket?.close();
  }

  /** Send `message`; false when there is no connection to send it on. */
  send(message) {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  move(action) {
    this.error = null;
    this.undoable = action >= FIRST_UNDOABLE; // a reveal is not undone (undo.js)
    return this.send({ type: "move", action });
  }

  /** Undo this seat's last move and the bots' replies (a room of bots: undo.js); the server
   * answers with a fresh `state`. */
  undo() {
    this.error = null;
    this.undoing = true;
    return this.send({ type: "undo" });
  }

  /** The host sets the bots' speed ("slow", "normal" or "fast"): told to every connection. */
  setSpeed(speed) {
    this.send({ type: "bot_speed", speed });
  }

  /** At a round's end: this seat has seen the scores (the server deals the next round
   * once every connected human seat is ready). */
  ready() {
    this.error = null;
    return this.send({ type: "ready" });
  }

  say(text) {
    this.send({ type: "chat", text });
  }

  setSeat(seat, bot) {
    this.send({ type: "seat", seat, bot });
  }

  remove(seat) {
    this.send({ type: "remove", seat });
  }

  /** The host starts the game waiting in the lobby (`empty`: null, "drop" or a bot level). */
  start(empty) {
    this.error = null;
    this.send({ type: "start", empty });
  }

  /** Once the game is over, the host starts another game of the whole table (`rematch`): the
   * server answers the new room's code to every connection. */
  rematch() {
    this.error = null;
    this.send({ type: "rematch" });
  }

  /** In a game against bots: ask which move the Expected bot would play here (the answer,
   * `hint`, is kept for the step it was asked at: hint.js). */
  askHint() {
    this.error = null;
    this.send({ type: "hint" });
  }

  /** Whether this connection holds the host's rights. */
  get hosting() {
    return Boolean(this.state?.host);
  }

  /** The host removes a seat from the table, in the lobby. */
  drop(seat) {
    this.error = null;
    this.send({ type: "drop", seat });
  }

  timer(left) {
    this.deadline = left === null || left === undefined ? null : performance.now() + left * 1000;
  }

  receive(message) {
    const handler = {
      state: () => this.onState(message),
      update: () => this.onUpdate(message),
      seats: () => { if (this.state) this.state.seats = message.seats; },
      ready: () => this.onReady(message),
      bot_speed: () => { if (this.state) this.state.room = { ...this.state.room, bot_speed: message.speed }; },
      rematch: () => { if (this.state) this.state.room = { ...this.state.room, rematch: { code: message.code, by: message.by } }; },
      chat: () => { this.chat = [...this.chat.slice(-30), message]; },
      hint: () => { this.hint = message; },
      error: () => this.onError(message),
      unavailable: () => {
        this.status = "unavailable";
        this.outage = message.kind;
      },
    }[message.type];
    if (handler) handler();
    this.changed();
  }

  /** Draw what the messages changed, once per frame at most: a burst (bots playing one after
   * another at once) is drawn once, at its newest state, with `fresh` holding the whole
   * burst's events. A hidden page (no frames) draws each message as it comes. */
  changed() {
    const draw = () => {
      this.frame = null;
      this.onChange();
      this.fresh = [];
    };
    if (document.hidden) draw();
    else this.frame ??= requestAnimationFrame(draw);
  }

  onState(message) {
    this.state = { ready: [], waiting: [], ...message };
    if (["reconnecting", "offline", "unavailable"].includes(this.status)) {
      this.downFrom = this.status;
      this.outage = null;
      this.backAt = performance.now(); // said for BACK_MS, then drawn away
      clearTimeout(this.backTimer);
      this.backTimer = setTimeout(() => this.onChange(), BACK_MS);
    }
    this.status = "open";
    this.retries = 0;
    this.undone = Boolean(this.undoing); // the state that answers an undo (the live region says so)
    this.undoing = false;
    this.undoable = false; // one move back, not two; after a reconnection the server may not know it

    this.events = message.log.flatMap((entry) => entry.events).slice(-LOG_EVENTS);
    this.motions = []; // a snapshot: nothing to animate
    this.fresh = [];
    this.timer(message.timer_left);
  }

  onUpdate(message) {
    if (!this.state || message.number !== this.state.number + 1) {
      this.send({ type: "resync" }); // a step was missed
      return;
    }
    const state = this.state;
    this.motions = [...playing(this.motions), ...motionsOf(message.events, state.observation, message.observation)];
    state.number = message.number;
    state.observation = message.observation;
    if (message.observation.phase !== "round_over") {
      state.ready = [];
      state.waiting = [];
    }
    const events = message.timed_out ? [{ kind: "timed_out", player: message.seat }, ...message.events] : message.events;
    this.events = [...this.events, ...events].slice(-LOG_EVENTS);
    this.fresh = [...this.fresh, ...events];
    this.timer(message.timer_left);
    if (message.round) state.rounds = [...state.rounds, message.round];
    if (message.winners) {
      state.winners = message.winners;
      state.over = true;
    }
    if (message.stalled) state.stalled = message.stalled;
  }

  /** Who is ready for the next round, and who is awaited (both empty outside a round's end). */
  onReady(message) {
    if (!this.state) return;
    this.state.ready = message.ready;
    this.state.waiting = message.waiting;
  }

  onError(message) {
    this.undoing = false;
    if (message.code === "unavailable" && message.kind.startsWith("storage_")) {
      this.status = "unavailable"; // the banner says it: the move waits, as the room does
      this.outage = message.kind;
      return;
    }
    if (message.code === "bad_token" && this.token) {
      this.token = null; // the seat is not ours: watch instead
      this.send({ type: "hello", token: null });
      return;
    }
    if (message.code === "removed") {
      localStorage.removeItem(`skyjo:seat:${this.code}`);
      localStorage.removeItem(`skyjo:seats:${this.code}`);
      this.token = null; // the server closes the connection: come back as a spectator
    }
    this.error = message;
  }
}
