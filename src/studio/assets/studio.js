// rpsdsl studio: the editor at "/", a seat's table at "/play/GAME/TOKEN".
// Everything shown comes from the server; text goes in as text, and the
// only markup inserted is the board's SVG, which the server drew.
"use strict";

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) node.append(c);
  return node;
}

function problem(text) {
  const p = $("problem");
  p.textContent = text;
  p.hidden = !text;
}

// ---------------------------------------------------------------- editor

const KEYWORDS = new Set(("action add after all and anytime as at beats board bool break by calls chooses colour " +
  "constant count deal declare display draft draw each else end every exists extends faces false fewest first flow " +
  "for forward from game graph grid group hidden hide hook if in int is items kind kinds let lines link list longest " +
  "loop most move not number of on one option or override owner per phase piece pieces player players procedure " +
  "public race repeat result return reveal rhai ring roll run score secretly set setup shuffle space step sum table " +
  "then timed times to trigger true type use value var when where while win with wraps zone zones").split(" "));

const TOKEN = /(#.*)|("(?:[^"\\]|\\.)*"?)|(\b\d+\b)|([A-Za-z_][A-Za-z0-9_]*)|([^#"A-Za-z_\d]+|.)/g;

function highlightLine(line) {
  const out = document.createDocumentFragment();
  for (const m of line.matchAll(TOKEN)) {
    const [text, comment, string, number, word] = m;
    let cls = null;
    if (comment) cls = "tok-comment";
    else if (string) cls = "tok-string";
    else if (number) cls = "tok-number";
    else if (word && KEYWORDS.has(word)) cls = "tok-keyword";
    out.append(cls ? el("span", { class: cls }, text) : text);
  }
  return out;
}

const editor = { path: null, diagnostics: [], timer: null, checked: 0 };

function drawCode() {
  const text = $("code").value;
  const lines = text.split("\n");
  const marks = new Map();
  for (const d of editor.diagnostics) {
    if (d.line && !(marks.get(d.line) === "bad")) marks.set(d.line, d.severity === "error" ? "bad" : "warn");
  }
  const hl = $("highlight");
  hl.replaceChildren();
  const gutter = $("gutter");
  gutter.replaceChildren();
  lines.forEach((line, i) => {
    const mark = marks.get(i + 1);
    const row = el("span", { class: mark ? mark + "-line" : "", "data-line": String(i + 1) }, highlightLine(line), "\n");
    hl.append(row);
    gutter.append(el("span", { class: mark || "" }, String(i + 1)), "\n");
  });
  // Room for a last empty line, as the textarea has.
  hl.append("\n");
  syncScroll();
}

function syncScroll() {
  const code = $("code");
  $("highlight").scrollTop = code.scrollTop;
  $("highlight").scrollLeft = code.scrollLeft;
  $("gutter").scrollTop = code.scrollTop;
}

function drawDiagnostics() {
  const list = $("diagnostics");
  list.replaceChildren();
  if (editor.diagnostics.length === 0) {
    list.append(el("li", { class: "diag ok" }, "No problems found."));
  }
  for (const d of editor.diagnostics) {
    const where = d.line ? `line ${d.line}, column ${d.column}` : d.elsewhere ? `in ${d.elsewhere}` : "";
    const item = el("li", { class: "diag " + d.severity, "data-line": d.line ? String(d.line) : "" },
      el("div", { class: "where" }, where), el("span", { class: "code" }, d.code), " ", d.message);
    if (d.label) item.append(el("div", { class: "help" }, "here: " + d.label));
    if (d.help) item.append(el("div", { class: "help" }, "help: " + d.help));
    if (d.line) item.addEventListener("click", () => goToLine(d.line, d.column));
    list.append(item);
  }
}

function goToLine(line, column) {
  const code = $("code");
  const lines = code.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += Math.max(0, (column || 1) - 1);
  code.focus();
  code.setSelectionRange(at, at);
  code.scrollTop = Math.max(0, (line - 5) * 20);
  syncScroll();
}

// The studio's key: from the studio's link, remembered in this browser so
// that the owner's own seat pages can fork and save whole transcripts.
const KEY_STORE = "rpsdsl-studio-key";
function studioKey() {
  return new URLSearchParams(location.search).get("key") || localStorage.getItem(KEY_STORE) || "";
}

async function api(path, options) {
  const key = studioKey();
  const response = await fetch(path, {
    ...(options || {}),
    headers: { "content-type": "application/json", "x-studio-key": key },
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error || `${response.status} ${response.statusText}`);
  return body;
}

async function check() {
  const asked = ++editor.checked;
  try {
    const body = await api("/api/check", { method: "POST", body: JSON.stringify({ path: editor.path, text: $("code").value }) });
    if (asked !== editor.checked) return; // a later check is on its way
    editor.diagnostics = body.diagnostics;
    $("status").textContent = editor.diagnostics.some((d) => d.severity === "error") ? "errors" : "checked";
    drawCode();
    drawDiagnostics();
  } catch (e) {
    $("status").textContent = e.message;
  }
}

async function openFile(path) {
  try {
    const body = await api("/api/file?path=" + encodeURIComponent(path));
    editor.path = path;
    $("code").value = body.text;
    $("where").textContent = path;
    editor.diagnostics = [];
    drawCode();
    check();
  } catch (e) {
    problem(e.message);
  }
}

async function startStudio() {
  $("studio").hidden = false;
  const key = new URLSearchParams(location.search).get("key");
  if (key) localStorage.setItem(KEY_STORE, key);
  const code = $("code");
  code.addEventListener("input", () => {
    drawCode();
    $("status").textContent = "…";
    clearTimeout(editor.timer);
    // Checked once typing stops for a moment.
    editor.timer = setTimeout(check, 300);
  });
  code.addEventListener("scroll", syncScroll);
  code.addEventListener("keydown", (e) => {
    if (e.key === "Tab") {
      e.preventDefault();
      code.setRangeText("  ", code.selectionStart, code.selectionEnd, "end");
      code.dispatchEvent(new Event("input"));
    }
  });
  $("save").addEventListener("click", async () => {
    try {
      await api("/api/save", { method: "POST", body: JSON.stringify({ path: editor.path, text: code.value }) });
      $("status").textContent = "saved";
    } catch (e) {
      $("status").textContent = "not saved: " + e.message;
    }
  });
  $("start").addEventListener("click", startGame);
  $("transcript-file").addEventListener("change", loadTranscript);
  $("compare-run").addEventListener("click", runCompare);
  $("compare-stop").addEventListener("click", () => compareJob.id && api(`/api/compare/${compareJob.id}/stop`, { method: "POST" }));
  $("study-run").addEventListener("click", runStudy);
  $("study-stop").addEventListener("click", () => studyJob.id && api(`/api/studies/${studyJob.id}/stop`, { method: "POST" }));
  $("study-kind").addEventListener("change", showStudyFields);
  showStudyFields();
  $("files").addEventListener("change", (e) => openFile(e.target.value));
  try {
    const body = await api("/api/files");
    // Without `--agents`, each game gets its own opponent: leave the field
    // empty and say so.
    if (body.agents) $("seats").value = "human," + body.agents;
    else $("seats").placeholder = "human, then its own opponent";
    for (const f of body.files) {
      $("files").append(el("option", { value: f }, f));
      $("compare-base").append(el("option", { value: f }, f));
      $("compare-variant").append(el("option", { value: f }, f));
      $("study-file").append(el("option", { value: f }, f));
      $("study-variant").append(el("option", { value: f }, f));
    }
    drawLobby();
    setInterval(drawLobby, 4000);
    const wanted = new URLSearchParams(location.search).get("file");
    const first = body.files.includes(wanted) ? wanted : body.files[0];
    if (first) {
      $("files").value = first;
      openFile(first);
    }
  } catch (e) {
    problem(e.message + " Open the link the studio printed when it started.");
  }
}

// ---------------------------------------------------------------- lobby

function ago(seconds) {
  const s = Math.max(0, Math.round(Date.now() / 1000 - seconds));
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} days ago`;
}

async function lobbyAction(path, options) {
  try {
    const body = await api(path, options);
    await drawLobby();
    return body;
  } catch (e) {
    problem(e.message);
    return null;
  }
}

function seatCell(game, s, index) {
  const li = el("li", {});
  const dot = el("span", { class: "presence" + (s.connected ? " on" : ""), title: s.connected ? "connected now" : "not connected" }, "●");
  li.append(dot, " ", s.seat, ": ");
  if (s.person) {
    li.append(el("a", { href: location.origin + s.link, target: "_blank", class: "seat-link" }, "resume"));
    if (!game.done) {
      // A quiet person's seat can be handed to an agent, and given back.
      const hand = el("button", { type: "button", class: "small" }, s.agent ? `give back (now ${s.agent})` : "hand to an agent");
      hand.addEventListener("click", () => {
        const agent = s.agent ? null : $("lobby-agent").value || "random";
        lobbyAction(`/api/games/${game.id}/seats/${index + 1}`, { method: "POST", body: JSON.stringify({ agent }) });
      });
      li.append(" ", hand);
    }
  } else {
    li.append(`played by the studio (${s.agent})`);
  }
  return li;
}

async function drawLobby() {
  let body;
  try {
    body = await api("/api/lobby");
  } catch (e) {
    return;
  }
  const rows = $("lobby").tBodies[0];
  rows.replaceChildren();
  const losses = body.losses || [];
  $("lobby-losses").hidden = losses.length === 0;
  $("lobby-losses").replaceChildren(...losses.map((l) => el("li", {}, l)));
  if (losses.length) $("lobby-kept").textContent = "kept in the data folder; this restart found losses:";
  const coming = body.coming_back || 0;
  $("lobby-empty").hidden = body.games.length > 0 || coming > 0;
  $("lobby").hidden = body.games.length === 0;
  $("lobby-coming").hidden = coming === 0;
  $("lobby-coming").textContent = `${coming} kept game${coming === 1 ? " is" : "s are"} still coming back after the restart; a link to one brings it back at once.`;
  for (const g of body.games) {
    const seats = el("ul", { class: "lobby-seats" }, ...g.seats.map((s, i) => seatCell(g, s, i)));
    const now = el("td", {}, g.done
      ? el("span", { class: "done" }, g.ending || "over")
      : `step ${g.turn} · ${g.waiting_for.length ? g.waiting_for.join(", ") + " to play" : "…"}`);
    if (g.take_backs) now.append(el("br", {}), el("small", {}, `${g.take_backs} take-back${g.take_backs === 1 ? "" : "s"}`));
    const name = el("td", {}, el("strong", {}, g.game), el("br", {}), el("small", {}, g.rules));
    if (g.rules_edited) name.append(el("br", {}), el("small", { class: "edited-tag" }, "rules edited since this game began"));
    const actions = el("td", { class: "lobby-actions" });
    actions.append(el("a", { href: location.origin + g.watch, target: "_blank" }, `watch${g.spectators ? ` (${g.spectators})` : ""}`));
    const again = el("button", { type: "button", class: "small" }, "play again");
    again.addEventListener("click", async () => {
      const started = await lobbyAction(`/api/games/${g.id}/again`, { method: "POST" });
      if (started) showLinks($("links"), started);
    });
    actions.append(" ", again);
    if (g.done) {
      const del = el("button", { type: "button", class: "small" }, "delete");
      del.addEventListener("click", () => lobbyAction(`/api/games/${g.id}`, { method: "DELETE" }));
      actions.append(" ", del);
    }
    rows.append(el("tr", { "data-game": g.id, class: g.done ? "finished" : "" }, name, el("td", {}, seats), now, el("td", {}, ago(g.updated)), actions));
  }
}

// The links of a game just set up (started, forked or loaded), in `list`.
function showLinks(list, body) {
  list.replaceChildren();
  for (const s of body.seats) {
    if (s.link) {
      const url = location.origin + s.link;
      list.append(el("li", {}, s.seat + ": ", el("a", { href: url, target: "_blank", class: "seat-link" }, url)));
    } else {
      list.append(el("li", {}, s.seat + ": played by the studio"));
    }
  }
  if (body.id) {
    const save = el("button", { type: "button", class: "save-whole" }, "Save this new game's whole transcript");
    save.addEventListener("click", () => download(`/api/games/${body.id}/transcript`, true, "transcript.json"));
    list.append(el("li", { class: "plain" }, save));
  }
}

async function startGame() {
  const links = $("links");
  links.replaceChildren();
  const settings = $("settings").value.split(/[\s,]+/).filter(Boolean);
  try {
    const body = await api("/api/games", {
      method: "POST",
      body: JSON.stringify({ path: editor.path, seats: $("seats").value, settings }),
    });
    showLinks(links, body);
    drawLobby();
  } catch (e) {
    links.append(el("li", { class: "diag" }, el("pre", {}, e.message)));
  }
}

async function loadTranscript(event) {
  const links = $("links");
  links.replaceChildren();
  const file = event.target.files[0];
  if (!file) return;
  try {
    const body = await api("/api/transcripts", { method: "POST", body: JSON.stringify({ text: await file.text() }) });
    showLinks(links, body);
  } catch (e) {
    links.append(el("li", { class: "diag" }, el("pre", {}, e.message)));
  }
  event.target.value = "";
}

// Saves what `path` answers as a file; with `owner`, the request carries the studio's key.
async function download(path, owner, name) {
  try {
    const response = await fetch(path, { headers: owner ? { "x-studio-key": studioKey() } : {} });
    if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error || response.statusText);
    const url = URL.createObjectURL(await response.blob());
    const a = el("a", { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } catch (e) {
    problem(e.message);
  }
}

// ---------------------------------------------------------------- compare

const compareJob = { id: null, events: null };

async function runCompare() {
  const status = $("compare-status");
  const progress = $("compare-progress");
  if (compareJob.events) compareJob.events.close();
  $("compare-pane").hidden = true;
  status.textContent = "";
  try {
    const body = await api("/api/compare", {
      method: "POST",
      body: JSON.stringify({
        base: $("compare-base").value,
        variant: $("compare-variant").value,
        games: Number($("compare-games").value),
        agents: $("compare-agents").value,
      }),
    });
    compareJob.id = body.job;
  } catch (e) {
    status.replaceChildren(el("pre", { class: "diag" }, e.message));
    return;
  }
  $("compare-run").disabled = true;
  $("compare-stop").disabled = false;
  progress.hidden = false;
  progress.value = 0;
  const key = encodeURIComponent(studioKey());
  const base = `/api/compare/${compareJob.id}`;
  const events = new EventSource(`${base}/events?key=${key}`);
  compareJob.events = events;
  const finish = (text) => {
    events.close();
    $("compare-run").disabled = false;
    $("compare-stop").disabled = true;
    status.textContent = text;
  };
  events.addEventListener("progress", (e) => {
    const p = JSON.parse(e.data);
    progress.max = p.total;
    progress.value = p.done;
    status.textContent = `${p.done} of ${p.total} games played`;
  });
  events.addEventListener("done", (e) => {
    const p = JSON.parse(e.data);
    progress.value = progress.max;
    finish("Done.");
    $("report-title").textContent = "Compare report";
    $("compare-text").textContent = p.text;
    $("compare-report").src = `${base}/report?key=${key}`;
    $("compare-open").href = `${base}/report?key=${key}`;
    $("compare-pane").hidden = false;
  });
  events.addEventListener("stopped", () => finish("Stopped."));
  events.addEventListener("failed", (e) => finish("Failed: " + JSON.parse(e.data).error));
}

// ------------------------------------------------------------------ studies

const studyJob = { id: null, events: null };

// Only the fields the chosen study reads are shown.
function showStudyFields() {
  const kind = $("study-kind").value;
  for (const label of document.querySelectorAll("#play-pane label[data-for]")) {
    label.hidden = !label.dataset.for.split(" ").includes(kind);
  }
  $("study-agents").placeholder = kind === "simulate" ? "random" : "chosen to fit the time";
}

async function runStudy() {
  const status = $("study-status");
  const progress = $("study-progress");
  const kind = $("study-kind").value;
  if (studyJob.events) studyJob.events.close();
  $("compare-pane").hidden = true;
  status.textContent = "";
  const ask = { study: kind, file: $("study-file").value, agents: $("study-agents").value };
  if (kind === "verdict") ask.variant = $("study-variant").value;
  if (kind === "sweep") {
    ask.vary = $("study-vary").value;
    ask.target = $("study-target").value;
  }
  if (kind === "simulate") ask.games = Number($("study-games").value);
  else ask.seconds = Number($("study-seconds").value);
  try {
    const body = await api("/api/studies", { method: "POST", body: JSON.stringify(ask) });
    studyJob.id = body.job;
  } catch (e) {
    status.replaceChildren(el("pre", { class: "diag" }, e.message));
    return;
  }
  $("study-run").disabled = true;
  $("study-stop").disabled = false;
  progress.hidden = false;
  progress.value = 0;
  status.textContent = kind === "simulate" ? "Playing…" : "Choosing the players…";
  const key = encodeURIComponent(studioKey());
  const base = `/api/studies/${studyJob.id}`;
  const events = new EventSource(`${base}/events?key=${key}`);
  studyJob.events = events;
  const finish = (text) => {
    events.close();
    $("study-run").disabled = false;
    $("study-stop").disabled = true;
    status.textContent = text;
  };
  events.addEventListener("progress", (e) => {
    const p = JSON.parse(e.data);
    progress.max = p.total;
    progress.value = p.done;
    if (kind === "simulate") status.textContent = `${p.done} of ${p.total} games played`;
    else if (p.deals) status.textContent = `${p.deals} deals played, ${Math.round(p.done / 10)} s of ${Math.round(p.total / 10)}`;
  });
  events.addEventListener("done", (e) => {
    const p = JSON.parse(e.data);
    progress.value = progress.max;
    finish("Done.");
    $("report-title").textContent = { verdict: "Verdict", sweep: "Sweep", simulate: "Simulation" }[kind];
    $("compare-text").textContent = p.text;
    $("compare-report").src = `${base}/report?key=${key}`;
    $("compare-open").href = `${base}/report?key=${key}`;
    $("compare-pane").hidden = false;
  });
  events.addEventListener("stopped", () => finish("Stopped."));
  events.addEventListener("failed", (e) => finish("Failed: " + JSON.parse(e.data).error));
}

// ----------------------------------------------------------------- table

// `live` is the latest screen; `viewing`, when not null, the earlier step shown.
const table = { api: null, screen: null, live: null, viewing: null, shownAt: 0, picks: [], sending: false };

function offersNow() {
  return (table.screen && table.screen.prompt && table.screen.prompt.offers) || [];
}

// The offers that still fit what was clicked: each pick is the set of
// places the clicked thing stands for.
function fitting() {
  return offersNow()
    .map((o, index) => ({ ...o, index }))
    .filter((o) => o.targets.length >= table.picks.length && table.picks.every((set, k) => set.includes(o.targets[k])));
}

// A new screen of now: shown unless the seat is looking back.
function onScreen(screen) {
  table.live = screen;
  if (table.viewing === null) drawTable(screen);
  else drawTime();
}

function drawTime() {
  const shown = table.screen;
  const last = table.live ? table.live.turn : 0;
  const past = table.viewing !== null;
  document.body.classList.toggle("past", past);
  $("time-at").textContent = past ? `looking back: step ${shown.at} of ${last}` : `step ${last} (now)`;
  $("time-first").disabled = $("time-back").disabled = !shown || shown.at === 0;
  $("time-forward").disabled = $("time-now").disabled = !past;
}

// Shows the seat's screen after step `at`; now when `at` is the last step.
async function travel(at) {
  const last = table.live.turn;
  at = Math.max(0, Math.min(at, last));
  if (at === last) {
    table.viewing = null;
    drawTable(table.live);
    return;
  }
  try {
    const response = await fetch(`${table.api}/at/${at}`);
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    table.viewing = at;
    drawTable(body);
  } catch (e) {
    problem(e.message);
  }
}

async function fork() {
  const list = $("forked");
  list.hidden = false;
  const at = table.screen.at;
  const game = table.api.split("/")[3];
  try {
    const body = await api(`/api/games/${game}/fork`, { method: "POST", body: JSON.stringify({ at }) });
    showLinks(list, body);
    list.prepend(el("li", { class: "plain" }, `A new game from step ${at}; each person's link:`));
  } catch (e) {
    list.replaceChildren(el("li", { class: "diag" }, e.message));
  }
}

function drawTable(screen) {
  const fresh = !table.screen || table.screen.turn !== screen.turn || !table.screen.prompt !== !screen.prompt;
  table.screen = screen;
  if (fresh) {
    table.picks = [];
    // A race's clock starts when the prompt is shown.
    table.shownAt = performance.now();
  }
  table.sending = false;
  // A game may go on over days: the tab says when it is this seat's turn.
  const yourTurn = screen.prompt && table.viewing === null;
  document.title = `${yourTurn ? "Your turn · " : ""}${screen.game}: ${screen.seat}`;
  $("edited").hidden = !screen.rules_edited;
  const tb = screen.take_back;
  $("take-back-row").hidden = !tb || table.viewing !== null;
  $("take-back").disabled = !tb || !tb.allowed;
  $("take-back-why").textContent = tb && !tb.allowed ? `You cannot take it back: ${tb.why}.` : "";
  document.body.dataset.turn = String(screen.turn);
  $("where").textContent = `${screen.game} · you are ${screen.seat}`;
  $("board").innerHTML = screen.svg;
  const over = $("over");
  over.hidden = !screen.over;
  over.textContent = screen.over ? "Game over: " + screen.over : "";
  const failure = $("failure");
  failure.hidden = !screen.failure;
  failure.textContent = screen.failure ? "The game stopped on an error:\n" + screen.failure : "";
  $("waiting").textContent =
    !screen.prompt && screen.waiting_for.length ? "Waiting for " + screen.waiting_for.join(", ") + "…" : "";
  $("counters").textContent = screen.counters ? "Counters: " + screen.counters : "";
  $("scores").textContent = screen.scores ? "Score if the game ended now: " + screen.scores : "";
  const happened = $("happened");
  happened.replaceChildren(...screen.happened.map((line) => el("li", {}, line)));
  happened.scrollTop = happened.scrollHeight;
  drawPrompt();
  drawTime();
}

function drawPrompt() {
  const box = $("prompt");
  box.replaceChildren();
  const p = table.screen.prompt;
  for (const node of $("board").querySelectorAll("[data-target]")) node.classList.remove("can", "next", "picked");
  if (!p) return;
  box.append(el("h2", {}, `${table.screen.seat} (you), ${p.what}`));
  // The note comes from the server, worded for clicking ("until you click").
  if (p.note) box.append(el("p", { class: "note" + (p.race ? " race" : "") }, p.note));
  const fits = fitting();
  const offers = el("div", { class: "offers" });
  for (const o of fits) {
    const b = el("button", { type: "button", class: "offer" + (o.anytime ? " extra" : ""), "data-index": String(o.index) }, o.label);
    b.addEventListener("click", () => choose(o.index));
    offers.append(b);
  }
  box.append(offers);
  if (table.picks.length) {
    const clear = el("button", { type: "button", class: "clear" }, "Clear the selection");
    clear.addEventListener("click", () => { table.picks = []; drawPrompt(); });
    box.append(el("p", {}, clear));
  }
  // What can be clicked on the board next, and what was clicked.
  const next = new Set(fits.filter((o) => o.targets.length > table.picks.length).map((o) => o.targets[table.picks.length]));
  const picked = new Set(table.picks.flat());
  for (const node of $("board").querySelectorAll("[data-target]")) {
    const mine = node.getAttribute("data-target").split(" ");
    if (mine.some((t) => next.has(t))) node.classList.add(table.picks.length ? "next" : "can");
    if (mine.some((t) => picked.has(t))) node.classList.add("picked");
  }
}

function onBoardClick(event) {
  if (!table.screen || !table.screen.prompt || table.sending) return;
  const node = event.target.closest("[data-target]");
  if (!node) return;
  const set = node.getAttribute("data-target").split(" ");
  table.picks.push(set);
  let fits = fitting();
  if (fits.length === 0 && table.picks.length > 1) {
    // Not a continuation: a fresh start from what was clicked.
    table.picks = [set];
    fits = fitting();
  }
  if (fits.length === 0) {
    table.picks = [];
    drawPrompt();
    return;
  }
  if (fits.every((o) => o.targets.length === table.picks.length)) {
    // Every choice left points at exactly what was clicked: alike, so the first.
    choose(fits[0].index);
    return;
  }
  drawPrompt();
}

async function choose(index) {
  if (table.sending) return;
  table.sending = true;
  for (const b of $("prompt").querySelectorAll("button")) b.disabled = true;
  const reaction_ms = Math.max(0, Math.round(performance.now() - table.shownAt));
  try {
    const response = await fetch(table.api + "/choose", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ turn: table.screen.turn, index, reaction_ms }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    onScreen(body);
  } catch (e) {
    table.sending = false;
    problem(e.message);
  }
}

async function takeBack() {
  if (table.sending) return;
  table.sending = true;
  try {
    const response = await fetch(table.api + "/takeback", { method: "POST" });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    onScreen(body);
  } catch (e) {
    table.sending = false;
    problem(e.message);
  }
}

function startTable(game, token) {
  $("table").hidden = false;
  table.api = `/api/play/${encodeURIComponent(game)}/${encodeURIComponent(token)}`;
  $("board").addEventListener("click", onBoardClick);
  $("time-first").addEventListener("click", () => travel(0));
  $("time-back").addEventListener("click", () => travel(table.screen.at - 1));
  $("time-forward").addEventListener("click", () => travel(table.screen.at + 1));
  $("time-now").addEventListener("click", () => travel(table.live.turn));
  $("save-mine").addEventListener("click", () => download(table.api + "/transcript", false, "my_transcript.json"));
  $("take-back").addEventListener("click", takeBack);
  // The studio's key in this browser: the owner may fork and save the whole game.
  if (studioKey()) {
    // The key holder may start a game with the rules as they are now.
    const again = el("button", { type: "button" }, "Start a new game with the edited rules");
    again.addEventListener("click", async () => {
      try {
        const body = await api(`/api/games/${game}/again`, { method: "POST" });
        const mine = body.seats.find((s) => s.link);
        if (mine) location.href = mine.link;
      } catch (e) {
        problem(e.message);
      }
    });
    $("edited-new").append(again);
    $("fork").hidden = false;
    $("save-all").hidden = false;
    $("fork").addEventListener("click", fork);
    $("save-all").addEventListener("click", () =>
      download(`/api/games/${game}/transcript`, true, "transcript.json"));
  }
  const events = new EventSource(table.api + "/events");
  events.addEventListener("screen", (e) => {
    problem("");
    onScreen(JSON.parse(e.data));
  });
  events.addEventListener("error", () => {
    if (events.readyState === EventSource.CLOSED) problem("This link is not a seat of a game here (or the studio stopped).");
  });
}

// A spectator's page: what every seat may see, asking nothing.
function startWatching(game, token) {
  $("table").hidden = false;
  document.body.classList.add("spectator");
  table.api = `/api/watch/${encodeURIComponent(game)}/${encodeURIComponent(token)}`;
  $("time").hidden = true;
  const events = new EventSource(table.api + "/events");
  events.addEventListener("screen", (e) => {
    problem("");
    onScreen(JSON.parse(e.data));
    $("where").textContent = `${table.screen.game} · watching`;
    document.title = `${table.screen.game}: watching`;
  });
  events.addEventListener("error", () => {
    if (events.readyState === EventSource.CLOSED) problem("This link is not a game here (or the studio stopped).");
  });
}

const seat = location.pathname.match(/^\/play\/([^/]+)\/([^/]+)$/);
const watching = location.pathname.match(/^\/watch\/([^/]+)\/([^/]+)$/);
if (seat) startTable(seat[1], seat[2]);
else if (watching) startWatching(watching[1], watching[2]);
else startStudio();
