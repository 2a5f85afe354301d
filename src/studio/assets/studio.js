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

async function api(path, options) {
  const key = new URLSearchParams(location.search).get("key") || "";
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
  $("files").addEventListener("change", (e) => openFile(e.target.value));
  try {
    const body = await api("/api/files");
    $("seats").value = "human," + body.agents;
    for (const f of body.files) $("files").append(el("option", { value: f }, f));
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

async function startGame() {
  const links = $("links");
  links.replaceChildren();
  const settings = $("settings").value.split(/[\s,]+/).filter(Boolean);
  try {
    const body = await api("/api/games", {
      method: "POST",
      body: JSON.stringify({ path: editor.path, seats: $("seats").value, settings }),
    });
    for (const s of body.seats) {
      if (s.link) {
        const url = location.origin + s.link;
        links.append(el("li", {}, s.seat + ": ", el("a", { href: url, target: "_blank", class: "seat-link" }, url)));
      } else {
        links.append(el("li", {}, s.seat + ": played by the studio"));
      }
    }
  } catch (e) {
    links.append(el("li", { class: "diag" }, el("pre", {}, e.message)));
  }
}

// ----------------------------------------------------------------- table

const table = { api: null, screen: null, shownAt: 0, picks: [], sending: false };

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

function drawTable(screen) {
  const fresh = !table.screen || table.screen.turn !== screen.turn || !table.screen.prompt !== !screen.prompt;
  table.screen = screen;
  if (fresh) {
    table.picks = [];
    // A race's clock starts when the prompt is shown.
    table.shownAt = performance.now();
  }
  table.sending = false;
  document.title = `${screen.game}: ${screen.seat}`;
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
}

function drawPrompt() {
  const box = $("prompt");
  box.replaceChildren();
  const p = table.screen.prompt;
  for (const node of $("board").querySelectorAll("[data-target]")) node.classList.remove("can", "next", "picked");
  if (!p) return;
  box.append(el("h2", {}, `${table.screen.seat} (you), ${p.what}`));
  if (p.race) box.append(el("p", { class: "note race" }, "A race: the clock runs from this prompt until you click."));
  else if (p.note) box.append(el("p", { class: "note" }, p.note));
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
    drawTable(body);
  } catch (e) {
    table.sending = false;
    problem(e.message);
  }
}

function startTable(game, token) {
  $("table").hidden = false;
  table.api = `/api/play/${encodeURIComponent(game)}/${encodeURIComponent(token)}`;
  $("board").addEventListener("click", onBoardClick);
  const events = new EventSource(table.api + "/events");
  events.addEventListener("screen", (e) => {
    problem("");
    drawTable(JSON.parse(e.data));
  });
  events.addEventListener("error", () => {
    if (events.readyState === EventSource.CLOSED) problem("This link is not a seat of a game here (or the studio stopped).");
  });
}

const seat = location.pathname.match(/^\/play\/([^/]+)\/([^/]+)$/);
if (seat) startTable(seat[1], seat[2]);
else startStudio();
