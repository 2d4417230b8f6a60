// The scorepad page: scoresheets of games played with the real cards (docs/scorepad.md).
// Every number comes from the server's model (skyjo.scorepad, scored by skyjo.scoring): the page
// sends what is typed and shows what comes back. Every text goes in with textContent (dom.js).
// A sheet is the browser's that made it: the page keeps the browser's token (localStorage, issued
// with its first sheet) and sends it with every request, and keeps the key of each link it opened
// (`/scorepad/ID#key=...`: read only, or to edit) for that sheet.
import { announce } from "./a11y.js";
import { legend, totalsChart } from "./chart.js";
import { h, replace } from "./dom.js";
import { FACTS } from "./facts.js";
import { defaultRules, requestRules, ruleWords, variantInputs } from "./variants.js";
import { joinNames, language, setLanguage } from "./i18n.js";
import { topBar } from "./top.js";
import { columnText, gridText, mistakeText, reasonText, st, stn } from "./scorepad-i18n.js";
import { isOffline, registerWorker, say } from "./offline.js";

const main = document.getElementById("main");
// A card field moves on by itself once no further key can make what it holds another card
// (docs/scorepad.md): -2, -1, 0, 2-9, 10-12, x. A 1 (10, 11, 12 to come) and a lone minus
// wait; on the keypad, a key that cannot go on from a 1 leaves it and starts the next card.
const COMPLETE_CARD = /^(-[12]|[02-9]|1[0-2]|x)$/i;
const ONE_ENDS = /^([3-9]|x|-)$/; // the keypad's keys that cannot follow a card's 1

/** What the page shows; `sheet` is the server's view of the open sheet. */
const state = {
  sheet: null,
  missing: null, // {id, failure}: the sheet asked for, which could not be opened
  form: null, // the round being entered or edited
  selected: null, // the round explained
  confirm: null, // {kind: "sheet", id} or {kind: "round", number}: a deletion to confirm
  renaming: null, // a sheet id whose title is being edited
  notice: "",
  sharing: null, // {id, read, edit}: the links to the open sheet, shown
  keypad: keypadDefault(),
  draft: { title: "", players: ["", "", "", ""], rules: defaultRules() },
};

// ------------------------------------------------------------------ the server

/** A refusal of the API: `message` is its sentence in the page's language (`mistakeText`),
 * `error` the server's `{code, message, kind, params, round, player}`. */
class ApiError extends Error {
  constructor(status, error) {
    super(mistakeText(error) || String(status));
    this.error = error ?? { message: String(status) };
    this.status = status;
    this.code = error?.code;
    this.round = error?.round ?? null;
    this.player = error?.player ?? null;
  }
}

const OWNER = "skyjo:scorepad:owner"; // this browser's token: its sheets
const KEYS = "skyjo:scorepad:keys"; // {sheet id: the key of the link it was opened by}
const LINKS = "skyjo:scorepad:links"; // {sheet id: {read, edit}}: the links made to share it
// Offline (docs/scorepad.md): the page keeps what it last showed, and the rounds saved without a
// connection, which it sends (in order, each at the revision it was typed on) when the connection
// returns. The server's revision check decides: a sheet changed elsewhere meanwhile holds them
// (shown, never dropped) until the user saves each as the next round or discards it.
const SEEN = "skyjo:scorepad:seen:"; // + sheet id: the sheet as last shown
const LIST = "skyjo:scorepad:list"; // the list of sheets as last shown
const PENDING = "skyjo:scorepad:pending"; // {sheet id: {rounds: [{round, base}], held}}: not saved yet

function remembered(name) {
  try {
    return JSON.parse(localStorage.getItem(name) || "{}") || {};
  } catch {
    return {};
  }
}

function remember(name, id, value) {
  const all = remembered(name);
  all[id] = value;
  localStorage.setItem(name, JSON.stringify(all));
}

/** Who asks: this browser's token, and the key of the link the sheet of `path` was opened by. */
function credentials(path) {
  const headers = {};
  const owner = localStorage.getItem(OWNER);
  if (owner) headers["X-Skyjo-Owner"] = owner;
  const id = path.match(/^\/api\/scorepad\/sheets\/([^/?]+)/)?.[1];
  const key = id ? remembered(KEYS)[decodeURIComponent(id)] : undefined;
  if (key) headers["X-Skyjo-Key"] = key;
  return headers;
}

async function api(method, path, body, raw = false) {
  const headers = credentials(path);
  if (body !== undefined) headers["Content-Type"] = "application/json"; // raw bodies are JSON text too
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined || raw ? body : JSON.stringify(body),
    });
  } catch {
    throw offlineError(); // no connection
  }
  const data = await response.json();
  if (!response.ok) throw new ApiError(response.status, data.error);
  if (data.owner) localStorage.setItem(OWNER, data.owner); // the token of this browser's first sheet
  return data;
}

/** What a request made without a connection fails with. */
function offlineError() {
  return Object.assign(new Error(st("pad.offlineNeeded")), { offline: true });
}

function kept(name) {
  try {
    return JSON.parse(localStorage.getItem(name));
  } catch {
    return null;
  }
}

function keep(name, value) {
  try {
    localStorage.setItem(name, JSON.stringify(value));
  } catch {
    // full: the page still works online
  }
}

/** The rounds of sheet `id` saved offline and not yet on the server. */
function pendingOf(id) {
  return remembered(PENDING)[id] ?? { rounds: [], held: null };
}

function setPending(id, pending) {
  const all = remembered(PENDING);
  if (pending.rounds.length) all[id] = pending;
  else delete all[id];
  localStorage.setItem(PENDING, JSON.stringify(all));
}

/** Keep the round of `form` on this device, to be saved when the connection allows. */
function queueRound(form) {
  const sheet = state.sheet;
  const pending = pendingOf(sheet.id);
  pending.rounds.push({ round: typedRound(form), base: sheet.revision, number: formNumber(form) });
  setPending(sheet.id, pending);
  state.synced = 0;
  state.form = newForm(null);
  drawSheet();
  entryFields()[0]?.focus();
  main.querySelector("[data-key=round-form]")?.setAttribute("data-queued", String(pending.rounds.length));
  netStatus();
  if (!isOffline()) flush(sheet.id);
}

let flushing = false;

/** Send the rounds of sheet `id` saved offline, oldest first, until one is refused: a conflict
 * (the sheet changed elsewhere meanwhile) or a mistake holds them all for the user to decide. */
async function flush(id) {
  if (flushing) return;
  flushing = true;
  let saved = 0;
  try {
    for (let pending = pendingOf(id); pending.rounds.length && !pending.held; pending = pendingOf(id)) {
      const [first] = pending.rounds;
      let sheet;
      let refusal;
      try {
        sheet = await api("POST", `${sheetPath(id)}/rounds`, { revision: first.base, round: first.round });
      } catch (failure) {
        if (failure.offline) break; // still no connection: kept, sent when it returns
        refusal = failure;
        sheet = failure.status === 409 ? await savedBefore(id, first) : null;
      }
      if (!sheet) {
        pending.held = { kind: refusal.status === 409 ? "conflict" : "refused", error: refusal.error };
        setPending(id, pending);
        if (state.sheet?.id === id) await reload(id);
        break;
      }
      pending.rounds.shift();
      for (const one of pending.rounds) one.base = sheet.revision;
      setPending(id, pending);
      saved += 1;
      keep(SEEN + id, sheet);
      if (state.sheet?.id === id) {
        state.offline = false;
        refresh(sheet);
      }
    }
  } finally {
    flushing = false;
  }
  if (saved) state.synced = saved;
  if (state.sheet?.id === id) drawSheet();
  netStatus();
}

/** The sheet, when the round `kept` was saved already and nothing else since: an earlier try
 * reached the server but its answer was lost with the connection. Else null (a conflict). */
async function savedBefore(id, kept) {
  const words = (text) => String(text ?? "").replace(/\//g, " ").trim().split(/\s+/).join(" ").toLowerCase();
  try {
    const sheet = await api("GET", sheetPath(id));
    const last = sheet.typed[kept.number - 1];
    const same = sheet.typed.length === kept.number && last && last.ender === kept.round.ender
      && sheet.players.every((name) => words(last.entries[name]) === words(kept.round.entries[name]));
    return same ? sheet : null;
  } catch {
    return null;
  }
}

/** Show `sheet` again without losing the round being typed, nor the field being typed in. */
function refresh(sheet) {
  const focus = state.form?.focus;
  show(sheet, { keepForm: true });
  const field = focus ? main.querySelector(`[data-key="${focus}"]`) : null;
  if (field && field.matches("input")) {
    field.focus();
    field.setSelectionRange(field.value.length, field.value.length);
  }
}

/** The open sheet from the server again (kept as it is when the server cannot be reached). */
async function reload(id) {
  try {
    const sheet = await api("GET", sheetPath(id));
    if (state.sheet?.id !== id) return;
    state.offline = false;
    refresh(sheet);
  } catch {
    // offline again: the sheet shown stays
  }
}

/** Send every sheet's rounds saved offline (the open sheet's first). */
async function flushAll() {
  const open = state.sheet?.id;
  const ids = Object.keys(remembered(PENDING)).sort((a, b) => (b === open) - (a === open));
  for (const id of ids) await flush(id);
}

/** The status line: offline, and the rounds kept on this device, or the rounds just saved. */
function netStatus() {
  const id = state.sheet?.id;
  const pending = id ? pendingOf(id) : { rounds: Object.values(remembered(PENDING)).flatMap((p) => p.rounds) };
  const n = pending.rounds.length;
  if (isOffline()) say(n ? stn("pad.offlineKept", n) : st("pad.offline"), "offline");
  else if (pending.held) say(st("pad.heldStatus"), "offline");
  else if (n) say(stn("pad.sending", n), "pending");
  else if (state.synced) say(stn("pad.synced", state.synced), "back");
  else say("");
}

/** Whether the open sheet may be changed here (not through a read-only link), or deleted. */
const canEdit = (sheet) => sheet.access !== "read";

const sheetPath = (id) => `/api/scorepad/sheets/${encodeURIComponent(id)}`;

// ------------------------------------------------------------------ chrome and routing

function navigate(path) {
  history.pushState(null, "", path);
  route();
}

function link(path, text, attrs = {}) {
  return h("a", { href: path, ...attrs, onclick: (e) => {
    if (e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    navigate(path);
  } }, text);
}

function chrome() {
  topBar({
    parts: () => [link("/scorepad", st("pad.name"), { class: "pad-name" }), h("span", { class: "tagline" }, st("pad.tagline"))],
    redraw: draw,
    skip: () => st("pad.skip"),
  });
}

function route() {
  const match = location.pathname.match(/^\/scorepad\/([A-Za-z0-9]{1,16})\/?$/);
  const key = location.hash.match(/^#key=([A-Za-z0-9_-]{1,100})$/)?.[1];
  if (match && key) {
    // A shared link: its key is kept for that sheet, and leaves the address bar.
    remember(KEYS, match[1], key);
    history.replaceState(null, "", location.pathname);
  }
  state.confirm = null;
  state.renaming = null;
  state.sharing = null;
  state.notice = "";
  state.synced = 0;
  state.missing = null;
  if (match) openSheet(match[1]);
  else openList();
}

function draw() {
  if (state.sheet) drawSheet();
  else if (state.missing) drawMissing();
  else drawList(state.list || []);
}

// ------------------------------------------------------------------ the list of sheets

async function openList() {
  state.sheet = null;
  state.form = null;
  document.title = `Skyjo · ${st("pad.name")}`;
  replace(main, h("p", { class: "notice" }, st("pad.loading")));
  try {
    if (isOffline()) throw offlineError(); // not even tried
    state.list = (await api("GET", "/api/scorepad/sheets")).sheets;
    keep(LIST, state.list);
  } catch (failure) {
    state.list = (failure.offline && kept(LIST)) || [];
    state.notice = failure.offline ? "" : failure.message;
  }
  drawList(state.list);
  netStatus();
  if (!isOffline() && Object.keys(remembered(PENDING)).length) flushAll(); // rounds kept for other sheets
}

function drawList(sheets) {
  document.title = `Skyjo · ${st("pad.name")}`;
  replace(main, h("div", { class: "pad-front" },
    newSheetPanel(),
    h("div", { class: "pad-side" }, listPanel(sheets), importPanel())));
}

function newSheetPanel() {
  const draft = state.draft;
  const error = h("p", { class: "error", role: "alert", "data-key": "new-error" });
  const create = async () => {
    try {
      const sheet = await api("POST", "/api/scorepad/sheets", {
        title: draft.title,
        players: draft.players.map((name) => name.trim()).filter(Boolean),
        ...requestRules(draft.rules),
      });
      state.draft = { title: "", players: ["", "", "", ""], rules: draft.rules };
      navigate(`/scorepad/${sheet.id}`);
    } catch (failure) {
      error.textContent = failure.message;
    }
  };
  const names = draft.players.map((name, i) => h("input", {
    class: "pad-player-name", maxlength: FACTS.max_name, value: name, "data-key": `new-player-${i}`,
    "aria-label": st("pad.player", { n: i + 1 }), placeholder: st("pad.player", { n: i + 1 }), autocomplete: "off",
    oninput: (e) => { draft.players[i] = e.target.value; },
    onkeydown: (e) => {
      if (e.key !== "Enter") return;
      e.preventDefault();
      const next = main.querySelector(`[data-key="new-player-${i + 1}"]`);
      if (next) next.focus();
      else create();
    },
  }));
  return h("section", { class: "panel pad-new", "aria-labelledby": "pad-new-title" },
    h("h1", { id: "pad-new-title" }, st("pad.new")),
    h("label", { for: "pad-title" }, st("pad.title")),
    h("input", { id: "pad-title", maxlength: FACTS.max_sheet_title, value: draft.title, "data-key": "new-title",
      placeholder: st("pad.titlePlaceholder"), oninput: (e) => { draft.title = e.target.value; } }),
    h("fieldset", { class: "pad-players" }, h("legend", {}, st("pad.players")), names,
      draft.players.length < FACTS.players.max ? h("button", { type: "button", "data-key": "add-player", onclick: () => {
        draft.players.push("");
        drawList(state.list || []);
        main.querySelector(`[data-key="new-player-${draft.players.length - 1}"]`)?.focus();
      } }, `+ ${st("pad.addPlayer")}`) : null),
    h("div", { class: "pad-rules" },
      variantInputs(draft.rules, { label: (key) => st(`pad.${key}`), word: st, prefix: "new-" })),
    h("button", { type: "button", class: "start", "data-key": "create", onclick: create }, st("pad.create")),
    error);
}

function listPanel(sheets) {
  const items = sheets.map((info) => {
    const title = info.title || st("pad.untitled");
    const actions = [];
    if (state.confirm?.kind === "sheet" && state.confirm.id === info.id) {
      actions.push(h("span", { class: "confirm", role: "alert" }, st("pad.deleteSheet", { title })),
        h("button", { type: "button", class: "danger", "data-key": `confirm-delete-${info.id}`, onclick: async () => {
          try {
            await api("DELETE", sheetPath(info.id));
            state.notice = "";
          } catch (failure) {
            state.notice = failure.message;
          }
          state.confirm = null;
          openList();
        } }, st("pad.delete")),
        h("button", { type: "button", "data-key": `keep-${info.id}`, onclick: () => { state.confirm = null; drawList(sheets); } },
          st("pad.keep")));
    } else if (state.renaming === info.id) {
      actions.push(renameBox(info.title, async (value) => {
        const sheet = await api("GET", sheetPath(info.id));
        await api("PATCH", sheetPath(info.id), { revision: sheet.revision, title: value });
        state.renaming = null;
        openList();
      }, () => { state.renaming = null; drawList(sheets); }));
    } else {
      actions.push(
        link(`/scorepad/${info.id}`, st("pad.open"), { class: "button", "data-key": `open-${info.id}` }),
        h("button", { type: "button", "data-key": `rename-${info.id}`, onclick: () => { state.renaming = info.id; drawList(sheets); } },
          st("pad.rename")),
        exportLinks(info.id),
        h("button", { type: "button", class: "danger", "data-key": `delete-${info.id}`,
          onclick: () => { state.confirm = { kind: "sheet", id: info.id }; drawList(sheets); } }, st("pad.delete")));
    }
    const rounds = stn("pad.rounds", info.rounds);
    return h("li", { class: "pad-sheet", "data-id": info.id },
      h("div", { class: "pad-sheet-head" },
        link(`/scorepad/${info.id}`, title, { class: "title" }),
        h("span", { class: "meta" }, joinNames(info.players), " · ", rounds,
          info.finished ? ` · ${st("pad.over")}` : "", " · ",
          new Date(info.updated_at * 1000).toLocaleString(language()))),
      h("div", { class: "row" }, actions));
  });
  return h("section", { class: "panel pad-list", "aria-labelledby": "pad-list-title" },
    h("h2", { id: "pad-list-title" }, st("pad.list")),
    state.notice ? h("p", { class: "error", role: "alert" }, state.notice) : null,
    items.length ? h("ul", { class: "pad-sheets" }, items) : h("p", { class: "notice" }, st("pad.none")));
}

function exportLinks(id) {
  return h("span", { class: "exports" }, st("pad.export"), " ",
    h("button", { type: "button", "data-key": `csv-${id}`, onclick: () => download(id, "csv") }, st("pad.csv")),
    " ",
    h("button", { type: "button", "data-key": `json-${id}`, onclick: () => download(id, "json") }, st("pad.json")));
}

/** Download an export: fetched with this browser's credentials, saved from a blob. */
async function download(id, kind) {
  const path = `${sheetPath(id)}/export.${kind}`;
  let response;
  try {
    response = await fetch(path, { headers: credentials(path) });
  } catch {
    state.notice = st("pad.offlineNeeded");
    draw();
    return;
  }
  if (!response.ok) {
    state.notice = new ApiError(response.status, (await response.json()).error).message;
    draw();
    return;
  }
  const url = URL.createObjectURL(await response.blob());
  const anchor = h("a", { href: url, download: `scoresheet-${id}.${kind}`, hidden: true });
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000); // long after the download started
}

function renameBox(title, save, cancel) {
  const error = h("span", { class: "error", role: "alert" });
  const input = h("input", { class: "rename", maxlength: FACTS.max_sheet_title, value: title, "data-key": "rename-input", "aria-label": st("pad.title"),
    onkeydown: (e) => {
      if (e.key === "Enter") submit();
      if (e.key === "Escape") cancel();
    } });
  const submit = async () => {
    try {
      await save(input.value);
    } catch (failure) {
      error.textContent = failure.message;
    }
  };
  queueMicrotask(() => input.focus());
  return h("span", { class: "rename-box" }, input,
    h("button", { type: "button", "data-key": "rename-save", onclick: submit }, st("pad.save")),
    h("button", { type: "button", onclick: cancel }, st("pad.cancel")), error);
}

function importPanel() {
  const error = h("p", { class: "error", role: "alert", "data-key": "import-error" });
  const input = h("input", { type: "file", id: "pad-import", accept: ".json,application/json", "data-key": "import-file",
    onchange: async () => {
      const file = input.files[0];
      if (!file) return;
      try {
        const sheet = await api("POST", "/api/scorepad/import", await file.text(), true);
        navigate(`/scorepad/${sheet.id}`);
      } catch (failure) {
        error.textContent = failure.message;
        input.value = "";
      }
    } });
  return h("section", { class: "panel pad-import", "aria-labelledby": "pad-import-title" },
    h("h2", { id: "pad-import-title" }, st("pad.import")),
    h("p", { class: "notice" }, st("pad.importHelp")),
    h("label", { for: "pad-import" }, st("pad.importFile")), input, error);
}

// ------------------------------------------------------------------ one sheet

async function openSheet(id) {
  replace(main, h("p", { class: "notice" }, st("pad.loading")));
  try {
    if (isOffline()) throw offlineError(); // not even tried: the sheet as last shown
    state.offline = false;
    show(await api("GET", sheetPath(id)));
  } catch (failure) {
    const seen = failure.offline ? kept(SEEN + id) : null;
    if (seen) {
      state.offline = true; // the sheet as last shown here, and the rounds kept on this device
      show(seen);
      netStatus();
      return;
    }
    state.sheet = null;
    state.missing = { id, failure };
    drawMissing();
    netStatus();
    return;
  }
  netStatus();
  if (pendingOf(id).rounds.length) flush(id);
}

/** A sheet that could not be opened: why, in the page's language (its title too), redrawn in
 * another language as the rest of the page. */
function drawMissing() {
  const { id, failure } = state.missing;
  document.title = `Skyjo · ${st("pad.name")}`;
  replace(main, h("section", { class: "panel" }, h("p", { class: "error", role: "alert" }, st("pad.noSheet", { id })),
    h("p", { class: "notice" }, failure.offline ? st("pad.offlineUnseen") : mistakeText(failure.error) || failure.message),
    link("/scorepad", st("pad.all"))));
}

/** Show the server's view of a sheet; a new round's form unless the game is over. */
function show(sheet, { keepForm = false } = {}) {
  state.sheet = sheet;
  if (!state.offline) keep(SEEN + sheet.id, sheet);
  const rounds = sheet.summary.rounds.length;
  if (!keepForm || !state.form) state.form = sheet.summary.finished || !canEdit(sheet) ? null : newForm(null);
  if (state.selected === null || state.selected > rounds) state.selected = rounds || null;
  drawSheet();
}

function drawSheet() {
  const sheet = state.sheet;
  document.title = `Skyjo · ${st("pad.name")} · ${sheet.title || st("pad.untitled")}`;
  replace(main, h("div", { class: "pad-sheet-page", "data-revision": sheet.revision, "data-rounds": sheet.summary.rounds.length },
    headPanel(sheet),
    // the sheet first (who leads, the rounds and totals), then the round's form: beside the
    // sheet on a wide screen, under it on a phone (scorepad.css); then the selected round
    // explained and the chart
    h("div", { class: `pad-layout${state.form ? " with-form" : ""}` },
      statusPanel(sheet), roundsPanel(sheet), state.form ? formPanel(sheet) : null, explainPanel(sheet), chartPanel(sheet))));
  // the skip link lands on the round's form (its first field), else on the sheet's rounds
  const first = entryFields()[0];
  if (first) main.dataset.focus = first.dataset.key;
  else delete main.dataset.focus;
  if (state.form) {
    if (state.form.preview) showPreview(sheet, state.form, state.form.preview);
    schedulePreview();
  }
}

function headPanel(sheet) {
  const title = sheet.title || st("pad.untitled");
  const actions = state.renaming === sheet.id
    ? renameBox(sheet.title, async (value) => {
      state.renaming = null;
      await change("PATCH", sheetPath(sheet.id), { title: value });
    }, () => { state.renaming = null; drawSheet(); })
    : [
      canEdit(sheet) ? h("button", { type: "button", "data-key": "rename", onclick: () => { state.renaming = sheet.id; drawSheet(); } }, st("pad.rename")) : null,
      canEdit(sheet) ? h("button", { type: "button", "data-key": "undo", disabled: !sheet.can_undo, onclick: undo }, st("pad.undo")) : null,
      h("button", { type: "button", "data-key": "share", "aria-expanded": String(state.sharing?.id === sheet.id),
        onclick: () => (state.sharing?.id === sheet.id ? (state.sharing = null, drawSheet()) : share(sheet)) }, st("pad.share")),
      exportLinks(sheet.id),
      link("/scorepad", st("pad.all"), { class: "button", "data-key": "all" }),
    ];
  return h("section", { class: "panel pad-head" },
    h("h1", { "data-key": "sheet-title" }, title),
    h("p", { class: "rules" }, joinNames(sheet.players), " · ",
      st("pad.rules", ruleWords(sheet.rules, st))),
    canEdit(sheet) ? null : h("p", { class: "notice", "data-key": "read-only" }, st("pad.readOnly")),
    h("div", { class: "row" }, actions),
    sharePanel(sheet),
    state.notice ? h("p", { class: "error", role: "alert", "data-key": "notice" }, state.notice) : null);
}

/** Show the links that share the sheet: read only, and (when this browser may edit it) to edit.
 * Each is made once (POST .../share) and remembered, so the same links are offered again. */
async function share(sheet) {
  const links = { ...(remembered(LINKS)[sheet.id] || {}) };
  try {
    for (const access of canEdit(sheet) ? ["read", "edit"] : ["read"]) {
      if (!links[access]) links[access] = (await api("POST", `${sheetPath(sheet.id)}/share`, { access })).link;
    }
    remember(LINKS, sheet.id, links);
    state.sharing = { id: sheet.id, read: links.read, edit: canEdit(sheet) ? links.edit : undefined };
    state.notice = "";
  } catch (failure) {
    state.notice = failure.message;
  }
  drawSheet();
}

function sharePanel(sheet) {
  if (state.sharing?.id !== sheet.id) return null;
  const line = (access) => {
    const url = new URL(state.sharing[access], location.origin).href;
    const field = h("input", { readonly: true, value: url, id: `share-${access}`, "data-key": `share-${access}`,
      onfocus: (e) => e.target.select() });
    const copy = h("button", { type: "button", "data-key": `copy-${access}`, onclick: async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(url);
        copy.textContent = st("pad.shareCopied");
      } catch {
        copy.textContent = st("pad.shareSelected"); // no clipboard here (not HTTPS): copy it by hand
      }
    } }, st("pad.shareCopy"));
    return h("p", { class: "share-line" }, h("label", { for: `share-${access}` }, st(`pad.share.${access}`)), field, copy);
  };
  return h("div", { class: "pad-share", "data-key": "share-panel" },
    h("p", { class: "notice" }, st(state.sharing.edit ? "pad.shareHelp" : "pad.shareHelpRead")),
    ["read", "edit"].filter((access) => state.sharing[access]).map(line));
}

function statusPanel(sheet) {
  const summary = sheet.summary;
  const lines = [];
  if (summary.finished) {
    const total = summary.totals[summary.winners[0]];
    lines.push(h("p", { class: "pad-winners", "data-key": "winners" },
      stn("pad.won", summary.winners.length, { names: joinNames(summary.winners), total })));
  } else if (summary.leaders.length) {
    const total = summary.totals[summary.leaders[0]];
    lines.push(h("p", { class: "pad-leader", "data-key": "leader" },
      stn("pad.leading", summary.leaders.length, { names: joinNames(summary.leaders), total })));
  } else {
    lines.push(h("p", { class: "notice" }, st("pad.start")));
  }
  if (summary.rounds.length && !summary.finished) { // after the end: who won, above, not what is left
    lines.push(h("ul", { class: "pad-to-go", "data-key": "to-go" }, sheet.players.map((name) => {
      const left = summary.to_target[name];
      return h("li", { class: summary.winners.includes(name) ? "winner" : "" },
        left > 0 ? stn("pad.toGo", left, { name }) : st("pad.reached", { name }));
    })));
  }
  return h("section", { class: `panel pad-status${summary.finished ? " over" : ""}` }, lines);
}

// ------------------------------------------------------------------ entering a round

function newForm(number, given = null) {
  const sheet = state.sheet;
  const form = { number, ender: null, modes: {}, totals: {}, cards: {}, seq: 0, shown: 0, preview: null, refusal: null, focus: null };
  const typed = given ?? (number ? sheet.typed[number - 1] : null);
  for (const name of sheet.players) {
    const text = typed ? typed.entries[name] : "";
    const tokens = text.replace(/\//g, " ").split(/\s+/).filter(Boolean);
    form.modes[name] = tokens.length === 12 ? "cards" : "total";
    form.totals[name] = tokens.length === 12 ? "" : text;
    form.cards[name] = tokens.length === 12 ? tokens : Array(12).fill("");
  }
  if (typed) form.ender = typed.ender;
  return form;
}

/** The round as the page sends it: each player's entry as typed (docs/scorepad.md). */
function typedRound(form) {
  const entries = {};
  for (const name of state.sheet.players) {
    entries[name] = form.modes[name] === "total"
      ? form.totals[name].trim()
      : form.cards[name].map((card) => card.trim()).filter(Boolean).join(" ");
  }
  return { ender: form.ender, entries };
}

function formNumber(form) {
  return form.number || state.sheet.summary.rounds.length + pendingOf(state.sheet.id).rounds.length + 1;
}

function formPanel(sheet) {
  const form = state.form;
  const number = formNumber(form);
  const players = sheet.players.map((name, i) => playerEntry(sheet, form, name, i));
  const save = h("button", { type: "button", class: "start", "data-key": "save-round", onclick: saveRound,
    onfocus: () => { form.focus = "save-round"; } },
    form.number ? st("pad.saveEdit", { n: number }) : st("pad.saveRound", { n: number }));
  return h("section", { class: `panel pad-form${form.number ? " editing" : ""}`, "aria-labelledby": "pad-form-title", "data-key": "round-form" },
    h("div", { class: "pad-form-head" },
      h("h2", { id: "pad-form-title" }, form.number ? st("pad.editRound", { n: number }) : st("pad.newRound", { n: number })),
      h("button", { type: "button", class: "keypad-toggle", "aria-pressed": String(state.keypad), "data-key": "keypad-toggle",
        onclick: () => {
          state.keypad = !state.keypad;
          localStorage.setItem("skyjo:scorepad:keypad", state.keypad ? "1" : "0");
          drawSheet();
        } }, st("pad.keypad"))),
    h("p", { class: "notice hint" }, st("pad.hint")),
    h("ol", { class: "pad-entries" }, players),
    h("p", { class: "pad-reason", "data-key": "round-reason" }),
    h("p", { class: "error", role: "alert", "data-key": "round-error" }, form.refusal ? st("pad.refused", { message: mistakeText(form.refusal) }) : ""),
    h("div", { class: "row" }, save,
      form.number ? h("button", { type: "button", "data-key": "cancel-edit", onclick: () => {
        state.form = sheet.summary.finished ? null : newForm(null);
        drawSheet();
      } }, st("pad.cancelEdit")) : null),
    state.keypad ? keypad() : null);
}

function playerEntry(sheet, form, name, i) {
  const mode = form.modes[name];
  const switchTo = (next) => {
    form.modes[name] = next;
    form.focus = next === "total" ? `total-${i}` : `card-${i}-0`;
    drawSheet();
    main.querySelector(`[data-key="${form.focus}"]`)?.focus();
  };
  const ender = h("label", { class: "ender" },
    h("input", { type: "radio", name: "ender", value: name, checked: form.ender === name, "data-key": `ender-${i}`,
      "aria-label": st("pad.enderOf", { name }),
      onchange: () => { form.ender = name; schedulePreview(true); } }),
    " ", st("pad.ender"));
  const modes = h("span", { class: "modes", role: "group", "aria-label": st("pad.entryMode", { name }) },
    h("button", { type: "button", "aria-pressed": String(mode === "total"), "data-key": `mode-total-${i}`, onclick: () => switchTo("total") }, st("pad.total")),
    h("button", { type: "button", "aria-pressed": String(mode === "cards"), "data-key": `mode-cards-${i}`, onclick: () => switchTo("cards") }, st("pad.cards")));
  const field = mode === "total"
    ? h("input", entryAttrs(`total-${i}`, {
      class: "pad-total", value: form.totals[name], maxlength: 6, "aria-label": st("pad.totalOf", { name }),
      oninput: (e) => { form.totals[name] = e.target.value; schedulePreview(true); },
      onpaste: (e) => pasted(e, name, i, 0),
    }))
    : cardsGrid(form, name, i);
  return h("li", { class: "pad-entry", "data-player": i },
    h("div", { class: "pad-entry-head" }, h("span", { class: "name" }, name), ender, modes),
    field,
    h("p", { class: "pad-explain", "data-key": `explain-${i}` }),
    h("p", { class: "error", role: "alert", "data-key": `error-${i}` }));
}

function entryAttrs(key, attrs) {
  return {
    ...attrs,
    "data-key": key,
    "data-entry": "",
    autocomplete: "off",
    autocorrect: "off",
    spellcheck: "false",
    enterkeyhint: "next",
    inputmode: state.keypad ? "none" : "numeric",
    onkeydown: entryKey,
    onfocus: (e) => { state.form.focus = key; e.target.select(); },
  };
}

function cardsGrid(form, name, i) {
  const cells = form.cards[name].map((value, k) => {
    const row = Math.floor(k / 4);
    const col = k % 4;
    return h("input", entryAttrs(`card-${i}-${k}`, {
      class: "pad-card", value, maxlength: 3,
      "aria-label": st("pad.cardOf", { name, row: row + 1, col: col + 1 }),
      oninput: (e) => {
        form.cards[name][k] = e.target.value.trim();
        schedulePreview(true);
        if (COMPLETE_CARD.test(e.target.value.trim()) && !e.isComposing && e.inputType !== "deleteContentBackward") {
          moveOn(e.target, { typed: true });
        }
      },
      onpaste: (e) => pasted(e, name, i, k),
    }));
  });
  const clears = [0, 1, 2, 3].map((col) => {
    const column = [col, col + 4, col + 8];
    const cleared = column.every((k) => form.cards[name][k].toLowerCase() === "x");
    return h("button", { type: "button", class: "clear-col", "aria-pressed": String(cleared), "data-key": `clear-${i}-${col}`,
      "aria-label": st("pad.clearColumn", { name, col: col + 1 }),
      onclick: () => {
        for (const k of column) form.cards[name][k] = cleared ? "" : "x";
        form.refusal = null;
        drawSheet();
        main.querySelector(`[data-key="clear-${i}-${col}"]`)?.focus();
      } }, `✕ ${st("pad.cleared")}`);
  });
  return h("div", { class: "pad-cards" }, cells, clears);
}

/** The entry fields in order: each player's total, or their 12 cards row by row. */
function entryFields() {
  return [...main.querySelectorAll("[data-entry]")];
}

/** The field after `input`: a total moves to the next player, a card to the next card (of the
 * same grid, then the next player). From the last field Enter (or Next) goes to the Save button,
 * under the round's preview: a round is saved by Save only, never by the last card typed; a
 * complete last card (`typed`) stays where it is. */
function moveOn(input, { typed = false } = {}) {
  const fields = entryFields();
  const at = fields.indexOf(input);
  if (at < 0) return;
  const player = input.closest(".pad-entry");
  const next = fields.slice(at + 1).find((field) => !input.classList.contains("pad-total") || field.closest(".pad-entry") !== player);
  if (next) {
    next.focus();
  } else if (!typed) {
    const save = main.querySelector("[data-key=save-round]");
    save?.focus();
    keepInView(save);
  }
}

/** Enter moves on (a total to the next player, a card to the next card); so does a space after a
 * card (a complete card has moved on by itself, so a space in an empty cell is ignored). */
function entryKey(event) {
  const card = event.target.classList.contains("pad-card");
  if (event.key === "Enter" || (card && event.key === " ")) {
    event.preventDefault();
    if (event.key === "Enter" || event.target.value.trim()) moveOn(event.target);
  }
}

/** Cards pasted or typed into one field at once (`7 5 2 4 / 7 -1 3 1 / 7 0 -2 2`) fill the grid from there. */
function pasted(event, name, i, start) {
  const tokens = (event.clipboardData?.getData("text") || "").replace(/[/,]/g, " ").split(/\s+/).filter(Boolean);
  if (tokens.length < 2) return;
  event.preventDefault();
  const form = state.form;
  if (form.modes[name] === "total") {
    form.modes[name] = "cards";
    form.cards[name] = Array(12).fill("");
  }
  tokens.slice(0, 12 - start).forEach((token, n) => { form.cards[name][start + n] = token; });
  form.refusal = null;
  drawSheet();
  const next = Math.min(11, start + tokens.length);
  main.querySelector(`[data-key="card-${i}-${next}"]`)?.focus();
}

function keypad() {
  const press = (key) => {
    const input = main.querySelector(`[data-key="${state.form.focus}"]`) || entryFields()[0];
    if (!input || !input.matches("[data-entry]")) return;
    input.focus();
    if (key === "next") {
      moveOn(input);
      return;
    }
    let value = input.value;
    if (input.selectionStart === 0 && input.selectionEnd === value.length && value) value = "";
    if (value === "1" && ONE_ENDS.test(key) && input.matches(".pad-card")) {
      moveOn(input, { typed: true }); // the 1 is a card: the key starts the next one
      if (document.activeElement !== input) press(key);
      return;
    }
    if (key === "back") value = value.slice(0, -1);
    else if (key === "-") value = value.startsWith("-") ? value.slice(1) : `-${value}`;
    else value += key;
    input.value = value;
    input.setSelectionRange(value.length, value.length);
    input.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: key === "back" ? "deleteContentBackward" : "insertText" }));
  };
  const key = (k, label, aria) => h("button", { type: "button", class: `key key-${k === "-" ? "minus" : k}`, "data-key": `key-${k === "-" ? "minus" : k}`,
    "aria-label": aria || label, tabindex: "-1", onmousedown: (e) => e.preventDefault(), onclick: () => press(k) }, label);
  return h("div", { class: "keypad", role: "group", "aria-label": st("pad.keypad") },
    ["1", "2", "3", "4", "5", "6", "7", "8", "9"].map((d) => key(d, d)),
    key("-", "−", st("pad.minus")), key("0", "0"), key("x", "x", st("pad.cleared")),
    key("back", "⌫", st("pad.backspace")), key("next", `${st("pad.next")} ↵`));
}

/** Ask the server to check and score the round as typed; show only the latest answer. */
async function schedulePreview(changed = false) {
  const form = state.form;
  if (!form) return;
  if (changed) form.refusal = null;
  const seq = ++form.seq;
  const sheet = state.sheet;
  main.querySelector("[data-key=round-form]")?.setAttribute("data-pending", "true");
  let answer;
  try {
    if (isOffline()) throw offlineError(); // not even tried: the server checks it when it is saved
    answer = await api("POST", `${sheetPath(sheet.id)}/preview`, { round: typedRound(form), number: form.number });
  } catch (failure) {
    answer = failure.offline ? { entries: {}, round: null, error: null, offline: true }
      : { entries: {}, round: null, error: failure.error ?? { message: failure.message } };
  }
  if (form !== state.form || seq !== form.seq) return;
  form.preview = answer;
  showPreview(sheet, form, answer);
}

function showPreview(sheet, form, answer) {
  const panel = main.querySelector("[data-key=round-form]");
  if (!panel) return;
  sheet.players.forEach((name, i) => {
    const entry = answer.entries[name];
    const explain = panel.querySelector(`[data-key="explain-${i}"]`);
    const error = panel.querySelector(`[data-key="error-${i}"]`);
    const typing = beingTyped(form, name);
    let text = "";
    if (typing) {
      text = typing.written ? stn("pad.progress", typing.written, typing) : "";
    } else if (entry && !entry.error) {
      const score = answer.round ? answer.round.scores[name] : entry.raw;
      text = entry.grid ? gridText(entry.grid) : String(entry.raw);
      if (answer.round && answer.round.ender === name && answer.round.doubled) text += ` → ${score} (${st("pad.doubled")})`;
    }
    explain.textContent = text;
    // a save's refusal stands until the form changes: a preview answered after it (asked before
    // the save) must not put the as-typed message back in its place
    let wrong = form.refusal && form.refusalPlayer === name ? mistakeText(form.refusal) : "";
    if (!wrong && !typing && entry?.error) wrong = mistakeText({ message: entry.error, kind: entry.kind, params: entry.params });
    error.textContent = wrong;
    explain.classList.toggle("progress", Boolean(typing));
    panel.querySelector(`.pad-entry[data-player="${i}"]`).classList.toggle("wrong", Boolean(wrong));
  });
  const reason = panel.querySelector("[data-key=round-reason]");
  reason.textContent = answer.round ? reasonText(answer.round, sheet.players) : "";
  if (answer.offline) reason.textContent = st("pad.offlineCheck");
  reason.classList.toggle("pending", !answer.round);
  const entries = Object.values(answer.entries);
  if (!answer.round && answer.error && entries.every((entry) => entry && !entry.error)) {
    reason.textContent = mistakeText(answer.error);
  }
  panel.querySelector("[data-key=round-error]").textContent = form.refusal ? st("pad.refused", { message: mistakeText(form.refusal) }) : "";
  // the lines written above the focused field (or Save) may have pushed it under the keypad
  keepInView(document.activeElement);
  panel.setAttribute("data-pending", "false");
}

/** Whether `name`'s entry is still being typed, and how far: a grid with a card still to write
 * (`{written, size}`: shown as "11 of 12 cards", not as an error), or a total that is only its
 * minus sign so far. Null when it is complete (or empty, for a total): the server's word stands.
 * What is wrong with an unfinished entry is said by Save. */
function beingTyped(form, name) {
  const unfinished = (text) => !text.trim() || /^[-\u2212]$/.test(text.trim());
  if (form.modes[name] === "total") return /^[-\u2212]$/.test(form.totals[name].trim()) ? { written: 0, size: 1 } : null;
  const cards = form.cards[name];
  if (!cards.some(unfinished)) return null;
  return { written: cards.filter((card) => !unfinished(card)).length, size: cards.length };
}

async function saveRound() {
  const form = state.form;
  const sheet = state.sheet;
  const number = formNumber(form);
  const body = { revision: sheet.revision, round: typedRound(form) };
  const waiting = pendingOf(sheet.id);
  if (!form.number && (isOffline() || (waiting.rounds.length && !waiting.held))) {
    queueRound(form); // after the rounds kept before it, or until the connection returns
    return;
  }
  try {
    const saved = form.number
      ? await api("PUT", `${sheetPath(sheet.id)}/rounds/${form.number}`, body)
      : await api("POST", `${sheetPath(sheet.id)}/rounds`, body);
    state.notice = "";
    state.selected = number;
    state.form = null;
    show(saved);
    // the page's one live region: the round saved, then who leads (or who won)
    announce([st("pad.saved", { n: number }), main.querySelector(".pad-status p")?.textContent].filter(Boolean).join(" "));
    const first = entryFields()[0];
    if (first) first.focus();
    main.querySelector("[data-key=round-form]")?.setAttribute("data-saved", String(number));
  } catch (failure) {
    if (failure.offline && !form.number) queueRound(form);
    else await refused(failure, form);
  }
}

/** A refused change: a mistake is shown next to its field (nothing was saved); a conflict reloads. */
async function refused(failure, form) {
  if (failure.offline) { // nothing sent: what is typed stays where it is
    state.notice = failure.message;
    drawSheet();
    return;
  }
  if (failure.status === 409) {
    const fresh = await api("GET", sheetPath(state.sheet.id));
    state.notice = st("pad.conflict");
    show(fresh, { keepForm: true });
    return;
  }
  if (!form) {
    state.notice = failure.message;
    drawSheet();
    return;
  }
  form.refusal = failure.error; // written in the page's language whenever it is shown
  form.refusalPlayer = failure.player;
  const error = main.querySelector("[data-key=round-error]");
  if (error) error.textContent = st("pad.refused", { message: failure.message });
  if (failure.player) {
    const i = state.sheet.players.indexOf(failure.player);
    main.querySelector(`[data-key="error-${i}"]`).textContent = failure.message;
    main.querySelector(`.pad-entry[data-player="${i}"]`).classList.add("wrong");
    refusedField(i, failure.error)?.focus();
  }
}

/** The field a refusal of player `i`'s entry is about, to type again: the card it names (its
 * row and column, from 0), else the grid's first card still to write, else the entry's first
 * field. Never a written card by default: its text is selected on focus, and the next key would
 * replace it. */
function refusedField(i, refusal) {
  const entry = main.querySelector(`.pad-entry[data-player="${i}"]`);
  const { row, column } = refusal?.params ?? {};
  const named = Number.isInteger(row) && Number.isInteger(column)
    ? entry.querySelector(`[data-key="card-${i}-${row * 4 + column}"]`) : null;
  const unwritten = [...entry.querySelectorAll(".pad-card")].find((card) => !card.value.trim());
  return named || unwritten || entry.querySelector("[data-entry]");
}

/** A change of the sheet at the revision shown: the new view, or the refusal shown. */
async function change(method, path, body = {}) {
  const sheet = state.sheet;
  try {
    const url = method === "DELETE" ? `${path}?revision=${sheet.revision}` : path;
    const changed = await api(method, url, method === "DELETE" ? undefined : { ...body, revision: sheet.revision });
    state.notice = "";
    state.confirm = null;
    const editing = state.form?.number;
    show(changed, { keepForm: !editing && !changed.summary.finished && Boolean(state.form) });
    return true;
  } catch (failure) {
    state.confirm = null;
    await refused(failure, null);
    return false;
  }
}

async function undo() {
  state.selected = null;
  if (await change("POST", `${sheetPath(state.sheet.id)}/undo`)) {
    keepFocus();
    // the page's one live region: what happened, then who leads now
    announce([st("pad.undone"), main.querySelector(".pad-status p")?.textContent].filter(Boolean).join(" "));
  }
}

/** After an undo the focus stays on a control when the one it was on is gone or disabled:
 * Undo while there is more to undo, else the round's form (its first field), else the
 * sheet's rounds. */
function keepFocus() {
  const active = document.activeElement;
  if (active && active !== document.body && main.contains(active) && !active.disabled) return;
  const first = main.dataset.focus ? main.querySelector(`[data-key="${CSS.escape(main.dataset.focus)}"]`) : null;
  const target = main.querySelector("[data-key=undo]:not([disabled])") || first || main.querySelector(".pad-rounds");
  if (!target) return;
  if (!target.matches("button, input, select, textarea, a[href], [tabindex]")) target.setAttribute("tabindex", "-1");
  target.focus();
}

// ------------------------------------------------------------------ the rounds and their explanation

/** The sheet: a row a round, the totals and the points to go (or who won); before the first
 * round, the players' columns with their totals at 0. */
function roundsPanel(sheet) {
  const summary = sheet.summary;
  const rows = summary.rounds.map((one) => {
    const cells = sheet.players.map((name) => {
      const played = one.players[name];
      const ender = one.ender === name;
      // the mark is seen ("×2*"); a screen reader hears it in words, its doubling included
      const said = ender ? st(one.doubled ? "pad.enderDoubledOf" : "pad.enderOf", { name }) : undefined;
      return h("td", { class: ender ? "ender" : "", title: said },
        h("span", { class: "score" }, String(played.score)),
        ender ? h("span", { class: "mark", "aria-hidden": "true" }, one.doubled ? ` ${st("pad.doubled")}*` : " *") : null,
        ender ? h("span", { class: "sr-only" }, ` (${said})`) : null,
        h("span", { class: "running" }, String(one.totals[name])));
    });
    const actions = h("td", { class: "actions" }, roundActions(sheet, one.number, "table"));
    return h("tr", { class: state.selected === one.number ? "selected" : "", "data-round": one.number },
      h("th", { scope: "row" }, h("button", { type: "button", class: "round-pick", "data-key": `pick-${one.number}`,
        "aria-pressed": String(state.selected === one.number),
        onclick: () => { state.selected = one.number; drawSheet(); } }, String(one.number))),
      cells, actions);
  });
  return h("section", { class: "panel pad-rounds", "aria-labelledby": "pad-rounds-title" },
    h("h2", { id: "pad-rounds-title" }, st("pad.roundsTitle")),
    h("div", { class: "scroll" }, h("table", { class: "pad-table", "data-key": "rounds" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, st("pad.roundCol")),
        sheet.players.map((name) => h("th", { scope: "col", class: "player" }, name)), h("th", {}))),
      h("tbody", {}, rows),
      h("tfoot", {},
        h("tr", { class: "totals", "data-key": "totals" }, h("th", { scope: "row" }, st("pad.totalRow")),
          sheet.players.map((name) => h("td", { class: [summary.winners.includes(name) ? "winner" : "", summary.leaders.includes(name) ? "leader" : ""].join(" ").trim() },
            String(summary.totals[name]))), h("td", {})),
        summary.finished ? wonRow(sheet) : h("tr", { class: "to-go", "data-key": "to-go-row" }, h("th", { scope: "row" }, st("pad.toGoRow")),
          sheet.players.map((name) => h("td", {}, String(Math.max(0, summary.to_target[name])))), h("td", {}))))),
    summary.rounds.length ? h("p", { class: "notice pad-marks" }, st("pad.marks")) : null,
    pendingList(sheet));
}

/** The rounds saved on this device and not yet on the server: as typed (the server scores them),
 * each to discard; when they are held (refused, or the sheet changed elsewhere), the first one to
 * save as the next round, or to copy into the form. */
function pendingList(sheet) {
  const pending = pendingOf(sheet.id);
  if (!pending.rounds.length) return null;
  const next = sheet.summary.rounds.length + 1;
  const held = pending.held;
  const rows = pending.rounds.map((one, i) => {
    const entries = sheet.players.map((name) => `${name}${one.round.ender === name ? " *" : ""}: ${one.round.entries[name] || "—"}`);
    let actions;
    if (state.confirm?.kind === "pending" && state.confirm.index === i) {
      actions = [h("span", { class: "confirm", role: "alert" }, st("pad.discardAsk", { n: next + i })),
        h("button", { type: "button", class: "danger", "data-key": `confirm-discard-${i}`, onclick: () => {
          pending.rounds.splice(i, 1); // held rounds stay held: the next one is the user's to decide too
          setPending(sheet.id, pending);
          state.confirm = null;
          drawSheet();
          netStatus();
        } }, st("pad.discard")),
        h("button", { type: "button", "data-key": `keep-pending-${i}`, onclick: () => { state.confirm = null; drawSheet(); } }, st("pad.keep"))];
    } else {
      actions = [
        held && i === 0 ? h("button", { type: "button", class: "start", "data-key": "pending-save", onclick: () => {
          pending.held = null;
          pending.rounds.forEach((round, k) => Object.assign(round, { base: sheet.revision, number: next + k }));
          setPending(sheet.id, pending);
          flush(sheet.id);
        } }, st("pad.saveAsNext", { n: next })) : null,
        held && i === 0 && canEdit(sheet) ? h("button", { type: "button", "data-key": "pending-copy", onclick: () => {
          state.form = newForm(null, one.round);
          drawSheet();
          entryFields()[0]?.focus();
        } }, st("pad.copyToForm")) : null,
        h("button", { type: "button", class: "danger", "data-key": `discard-${i}`,
          onclick: () => { state.confirm = { kind: "pending", index: i }; drawSheet(); } }, st("pad.discard")),
      ];
    }
    return h("li", { "data-pending": i },
      h("p", {}, h("b", {}, st("pad.pendingRound", { n: next + i })), " ", entries.join(" · ")),
      h("div", { class: "row" }, actions));
  });
  const why = !held ? st("pad.pendingHelp")
    : held.kind === "conflict" ? st("pad.pendingConflict")
      : st("pad.pendingRefused", { message: mistakeText(held.error) || "" });
  return h("div", { class: "pad-pending", "data-key": "pending", "data-held": held ? held.kind : null },
    h("h3", {}, st("pad.pendingTitle")),
    h("p", { class: held ? "error" : "notice", role: held ? "alert" : null, "data-key": "pending-why" }, why),
    h("ol", {}, rows));
}

/** After the game's end, in place of the points to go: a star under each winner. */
function wonRow(sheet) {
  const winners = sheet.summary.winners;
  return h("tr", { class: "won", "data-key": "won-row" },
    h("th", { scope: "row" }, st(winners.length > 1 ? "pad.sharedRow" : "pad.wonRow")),
    sheet.players.map((name) => (winners.includes(name)
      ? h("td", { class: "winner", title: st(winners.length > 1 ? "pad.shares" : "pad.wins", { name }) }, "★")
      : h("td", {}))),
    h("td", {}));
}

/** Edit and delete (asked first) for round `number`, in the table (`where`) or under its explanation. */
function roundActions(sheet, number, where) {
  if (!canEdit(sheet)) return [];
  const suffix = where === "table" ? `-${number}` : "-explained";
  const label = (word) => `${word} · ${st("pad.round", { n: number })}`;
  if (state.confirm?.kind === "round" && state.confirm.number === number && state.confirm.where === where) {
    return [
      h("span", { class: "confirm", role: "alert" }, st("pad.deleteRound", { n: number })),
      h("button", { type: "button", class: "danger", "data-key": `confirm-delete-round${suffix}`,
        onclick: () => change("DELETE", `${sheetPath(sheet.id)}/rounds/${number}`) }, st("pad.delete")),
      h("button", { type: "button", "data-key": `keep-round${suffix}`, onclick: () => { state.confirm = null; drawSheet(); } }, st("pad.keep")),
    ];
  }
  return [
    h("button", { type: "button", "data-key": `edit-round${suffix}`, "aria-label": label(st("pad.edit")),
      onclick: () => {
        state.form = newForm(number);
        state.selected = number;
        drawSheet();
        main.querySelector("[data-key=round-form]")?.scrollIntoView({ block: "start" });
        entryFields()[0]?.focus();
      } }, st("pad.edit")),
    h("button", { type: "button", class: "danger", "data-key": `delete-round${suffix}`, "aria-label": label(st("pad.delete")),
      onclick: () => { state.confirm = { kind: "round", number, where }; drawSheet(); } },
    st("pad.delete")),
  ];
}

function explainPanel(sheet) {
  const number = state.selected;
  const one = number ? sheet.summary.rounds[number - 1] : null;
  if (!one) return null;
  const players = sheet.players.map((name) => {
    const played = one.players[name];
    const line = played.raw === played.score ? st("pad.raw", { name, raw: played.raw })
      : st("pad.rawDoubled", { name, raw: played.raw, score: played.score });
    return h("li", { class: one.ender === name ? "ender" : "" },
      h("p", { class: "line" }, line),
      played.grid ? gridView(played.grid) : null);
  });
  return h("section", { class: "panel pad-explain-round", "aria-labelledby": "pad-explain-title", "data-key": "explain-round", "data-round": number },
    h("h2", { id: "pad-explain-title" }, st("pad.explain", { n: number })),
    h("p", { class: "pad-reason", "data-key": "reason" }, reasonText(one, sheet.players)),
    h("ul", { class: "pad-explained" }, players),
    h("div", { class: "row" }, roundActions(sheet, number, "panel")));
}

function gridView(grid) {
  const columns = grid.columns.map((column) => h("div", { class: `pad-column${column.cleared ? " cleared" : ""}` },
    column.cards.map((card) => h("span", { class: `pad-mini ${cardClass(card)}` }, card === null ? "x" : String(card))),
    h("span", { class: "col-score" }, String(column.score))));
  return h("div", { class: "pad-grid-view" },
    h("div", { class: "pad-columns" }, columns),
    h("p", { class: "pad-explain", "data-key": "grid-explain" }, gridText(grid)));
}

function cardClass(card) {
  if (card === null) return "gone";
  if (card < 0) return "neg";
  if (card === 0) return "zero";
  if (card <= 4) return "low";
  if (card <= 8) return "mid";
  return "high";
}

// ------------------------------------------------------------------ the chart (chart.js)

function chartPanel(sheet) {
  const summary = sheet.summary;
  if (!summary.rounds.length) return null;
  const target = sheet.rules.target_score;
  const series = sheet.players.map((name) => [0, ...summary.rounds.map((one) => one.totals[name])]);
  const room = main.clientWidth >= 960 ? main.clientWidth * 0.6 - 40 : main.clientWidth - 60; // the sheet's column
  const width = Math.round(Math.min(600, Math.max(300, room)));
  const chart = totalsChart({ names: sheet.players, series, target, width,
    words: { title: st("pad.chart"), label: st("pad.chartLabel", { target }), targetLine: st("pad.target.line", { target }) } });
  chart.classList.add("pad-chart");
  chart.dataset.key = "chart";
  return h("section", { class: "panel pad-chart-panel", "aria-labelledby": "pad-chart-title" },
    h("h2", { id: "pad-chart-title" }, st("pad.chart")), chart,
    legend(sheet.players, sheet.players.map((name) => summary.totals[name])));
}

// ------------------------------------------------------------------ the field being typed, in view

/** Keep `element` of the round's form where the person typing sees it: inside the visual viewport
 * (above a phone's keyboard, which shrinks the page: `interactive-widget=resizes-content` in
 * scorepad.html) and above the page's keypad, which sticks to the bottom of the screen. The Save
 * button is kept with the round's preview above it when both fit, and the last field with Save
 * below it. */
function keepInView(element) {
  const form = main.querySelector("[data-key=round-form]");
  if (!element || !form || !form.contains(element) || element.closest(".keypad")) return;
  const view = window.visualViewport;
  const margin = 8;
  const top = (view ? view.offsetTop : 0) + margin;
  let bottom = (view ? view.offsetTop + view.height : window.innerHeight) - margin;
  const keypad = form.querySelector(".keypad");
  if (keypad) bottom = Math.min(bottom, keypad.getBoundingClientRect().top - margin);
  const box = element.getBoundingClientRect();
  let start = box.top;
  const reason = form.querySelector("[data-key=round-reason]");
  if (element.dataset.key === "save-round" && reason?.textContent) {
    const above = reason.getBoundingClientRect().top;
    if (box.bottom - above <= bottom - top) start = above;
  }
  let end = box.bottom;
  // the last field: Save, where Enter (or Next) goes from it, is kept in sight below it when both fit
  const fields = entryFields();
  const save = form.querySelector("[data-key=save-round]");
  if (save && element === fields[fields.length - 1]) {
    const under = save.getBoundingClientRect().bottom;
    if (under - start <= bottom - top) end = Math.max(end, under);
  }
  let by = 0;
  if (end > bottom) by = end - bottom;
  if (start - by < top) by = start - top;
  if (Math.abs(by) >= 1) window.scrollBy({ top: by, behavior: "instant" });
}

// a field on focus (the Save button is kept in view by moveOn and when the preview is written: a
// tap on it must not move it away)
main.addEventListener("focusin", (event) => {
  if (event.target.matches("[data-entry]")) keepInView(event.target);
});
for (const target of [window.visualViewport, window].filter(Boolean)) {
  target.addEventListener("resize", () => keepInView(document.activeElement));
}

// ------------------------------------------------------------------ start

function keypadDefault() {
  const saved = localStorage.getItem("skyjo:scorepad:keypad");
  if (saved !== null) return saved === "1";
  return window.matchMedia("(pointer: coarse)").matches;
}

document.addEventListener("keydown", (event) => {
  if (!state.sheet || event.target.closest("input, select, textarea")) return;
  if ((event.ctrlKey || event.metaKey) && event.key === "z" && state.sheet.can_undo && canEdit(state.sheet)) {
    event.preventDefault();
    undo();
  }
});

window.addEventListener("popstate", () => route());
window.addEventListener("offline", () => netStatus());
// A page being left sends nothing: Chromium may say "online" to the old page of an offline
// reload, and a round sent then would reach the server with nobody to hear the answer.
let leaving = false;
window.addEventListener("beforeunload", () => { leaving = true; });
window.addEventListener("pagehide", () => { leaving = true; });
window.addEventListener("pageshow", () => { leaving = false; });
window.addEventListener("online", async () => {
  if (leaving) return;
  netStatus();
  await flushAll();
  if (state.sheet) await reload(state.sheet.id);
  else if (!location.pathname.match(/^\/scorepad\/./)) openList();
  netStatus();
});
setLanguage(language());
chrome();
route();
registerWorker();
