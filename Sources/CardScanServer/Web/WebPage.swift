/// The page `cardscan serve` shows: plain HTML and JavaScript served from the binary (no build
/// step), three views on one page (review, collection, import) switched without a reload.
/// Keyboard: j/k next/previous item, 1–9 accept that candidate, Enter the highlighted one,
/// x reject, space select, A / X accept / reject the selection, / search another printing.
enum WebPage {
    static let html = ##"""
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>cardscan</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
*{box-sizing:border-box}body{font:14px system-ui,sans-serif;margin:0;color:#222;background:#f6f6f4}
header{display:flex;gap:4px;align-items:center;padding:8px 12px;background:#2b2d42;color:#fff}
header a{color:#fff;text-decoration:none;padding:6px 12px;border-radius:4px}header a.on{background:#4a4e69}
header .hint{margin-left:auto;font-size:12px;opacity:.8}
main{padding:12px}section{display:none}section.on{display:block}
.cols{display:flex;gap:12px;align-items:flex-start}
#review-list{width:280px;max-height:80vh;overflow:auto;background:#fff;border:1px solid #ddd;border-radius:4px}
.review-item{padding:6px 8px;border-bottom:1px solid #eee;cursor:pointer;display:flex;gap:6px}
.review-item.current{background:#e0e7ff}.review-item.selected{border-left:4px solid #2563eb}
.review-item small{color:#666;display:block}
#review-detail{flex:1;display:flex;gap:12px;background:#fff;border:1px solid #ddd;border-radius:4px;padding:12px;min-height:420px}
#crop{width:280px;min-height:390px;background:#ddd;border-radius:8px;object-fit:contain}
#crop.none{display:flex;align-items:center;justify-content:center;color:#666}
.candidate{border:1px solid #ddd;border-radius:4px;padding:6px 8px;margin:4px 0;cursor:pointer}
.candidate.hl{border-color:#2563eb;background:#eef2ff}.candidate b.key{display:inline-block;width:1.4em;color:#2563eb}
.candidate .meta{color:#555;font-size:12px}.candidate .flavor{color:#777;font-style:italic;font-size:12px}
.fields{color:#444;margin-bottom:8px}button{cursor:pointer}
table{border-collapse:collapse;background:#fff;width:100%}td,th{border-bottom:1px solid #eee;padding:4px 6px;text-align:left;vertical-align:middle}
td img{height:56px;border-radius:3px}#filters{display:flex;gap:6px;flex-wrap:wrap;margin-bottom:8px}
#totals{background:#fff;border:1px solid #ddd;border-radius:4px;padding:8px;margin-bottom:8px;font-size:13px}
#drop{border:2px dashed #999;border-radius:8px;padding:30px;text-align:center;margin:10px 0;background:#fff}
#drop.over{background:#eef2ff}progress{width:100%;height:18px}#status{position:fixed;bottom:8px;right:12px;background:#333;color:#fff;padding:6px 10px;border-radius:4px;display:none}
.err{color:#b91c1c}
</style></head>
<body>
<header><b>cardscan</b>
<a href="#review" id="tab-review">Review (<span id="review-count">0</span>)</a>
<a href="#collection" id="tab-collection">Collection</a>
<a href="#import" id="tab-import">Import</a>
<span class="hint">j/k move · 1–9 accept · Enter accept highlighted · x reject · space select · A/X bulk · / search · Esc back</span></header>
<main>
<section id="view-review"><div class="cols">
<div id="review-list"></div>
<div id="review-detail"><div><img id="crop" alt="card crop"></div>
<div style="flex:1"><div class="fields" id="fields"></div>
<input id="search" placeholder="search another printing: name, or set and number (m19 125)" style="width:100%">
<div id="candidates-title"><b>Candidates</b></div><div id="candidates"></div>
<div style="margin-top:8px"><button id="btn-accept">Accept highlighted (Enter)</button> <button id="btn-reject">Reject (x)</button>
<button id="btn-bulk-accept">Accept selected (A)</button> <button id="btn-bulk-reject">Reject selected (X)</button></div>
</div></div></div></section>
<section id="view-collection">
<div id="filters"><input id="filter-name" placeholder="name"><input id="filter-set" placeholder="set" size="5">
<select id="filter-pool"><option value="*">all pools</option><option value="">main collection</option></select>
<select id="filter-finish"><option value="">any finish</option><option>nonfoil</option><option>foil</option><option>etched</option></select>
<select id="filter-condition"><option value="">any condition</option><option>M</option><option>NM</option><option>EX</option><option>LP</option><option>MP</option><option>HP</option><option>DMG</option></select>
<select id="filter-origin"><option value="">any review state</option><option value="identified">identified</option><option value="reviewed">reviewed</option><option value="other">not from a photo</option></select>
<a href="/api/export?format=moxfield" id="export-link">Export CSV</a></div>
<div id="totals"></div>
<table id="entries"><thead><tr><th></th><th>Name</th><th>Set</th><th>#</th><th>Qty</th><th>Condition</th><th>Finish</th><th>Lang</th><th>Pool</th><th>State</th><th></th></tr></thead><tbody></tbody></table>
<button id="more" style="display:none">More</button></section>
<section id="view-import">
<div><input id="import-path" placeholder="folder or photo path on this computer" size="60">
<input id="import-pool" placeholder="pool (optional)"> <label><input type="checkbox" id="import-foil"> foil</label>
<button id="import-start">Import</button></div>
<div id="drop">Drop photos here, or <input type="file" id="import-files" multiple accept="image/*"></div>
<progress id="import-progress" value="0" max="1"></progress><div id="import-status"></div><ul id="import-log"></ul>
</section>
</main><div id="status"></div>
<script>
"use strict";
const $ = s => document.querySelector(s);
const esc = s => String(s ?? "").replace(/[&<>"']/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;","\"":"&quot;","'":"&#39;"}[c]));
async function api(method, path, body) {
  const r = await fetch(path, {method, headers: body ? {"Content-Type": "application/json"} : {}, body: body ? JSON.stringify(body) : undefined});
  const data = r.headers.get("content-type")?.includes("json") ? await r.json() : await r.text();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}
function note(text, bad) { const s = $("#status"); s.textContent = text; s.className = bad ? "err" : ""; s.style.display = "block";
  clearTimeout(note.t); note.t = setTimeout(() => s.style.display = "none", 3000); }

// ---- views
function show() {
  const v = (location.hash || "#review").slice(1);
  for (const n of ["review", "collection", "import"]) {
    $("#view-" + n).classList.toggle("on", n === v); $("#tab-" + n).classList.toggle("on", n === v);
  }
  if (v === "collection") loadEntries(true);
}
window.addEventListener("hashchange", show);

// ---- review
const R = {items: [], cur: 0, hl: 0, selected: new Set(), shown: [], searching: false};
async function loadReview() {
  R.items = await api("GET", "/api/review"); R.cur = Math.min(R.cur, Math.max(0, R.items.length - 1)); renderReview();
}
function renderList() {
  $("#review-count").textContent = R.items.length;
  $("#review-list").innerHTML = R.items.map((it, i) => `<div class="review-item${i === R.cur ? " current" : ""}${R.selected.has(it.id) ? " selected" : ""}" data-i="${i}" data-id="${it.id}">
    <div><b>#${it.id}</b> ${esc(it.candidates[0]?.name || it.read_title || "?")}<small>${esc(it.match_status)} · ${esc(it.source_path.split("/").pop())}</small></div></div>`).join("")
    || "<div class=review-item>Nothing to review.</div>";
  $("#review-list .current")?.scrollIntoView({block: "nearest"});
}
function renderReview() {
  renderList();
  const it = R.items[R.cur];
  if (!it) { $("#fields").textContent = "Nothing to review."; $("#candidates").innerHTML = ""; $("#crop").removeAttribute("src"); return; }
  if (it.crop) $("#crop").src = it.crop; else $("#crop").removeAttribute("src");
  $("#fields").innerHTML = `Read: title <b>${esc(it.read_title || "—")}</b>, set <b>${esc(it.read_set || "—")}</b>, number <b>${esc(it.read_number || "—")}</b> · ${esc(it.match_status)} · <span title="${esc(it.source_path)}">${esc(it.source_path.split("/").pop())}</span>`;
  if (!R.searching) { R.shown = it.candidates; $("#candidates-title").innerHTML = "<b>Candidates</b>"; }
  R.hl = Math.min(R.hl, Math.max(0, R.shown.length - 1));
  $("#candidates").innerHTML = R.shown.map((c, i) => `<div class="candidate${i === R.hl ? " hl" : ""}" data-i="${i}">
    <b class="key">${i < 9 ? i + 1 : ""}</b><b>${esc(c.name)}</b> — ${esc((c.set || "").toUpperCase())} #${esc(c.collector_number)} ${esc(c.set_name || "")}
    <div class="meta">${esc(c.year || "")} · ${esc(c.rarity || "")} · ${esc(c.lang)} · artist ${esc(c.artist || "?")} · frame ${esc(c.frame || "?")}${c.border_color ? " · " + esc(c.border_color) + " border" : ""}${c.score != null ? " · score " + c.score : ""}${c.price_usd ? " · $" + esc(c.price_usd) : ""}</div>
    ${c.flavor ? `<div class="flavor">${esc(c.flavor)}</div>` : ""}</div>`).join("") || "<i>No candidate: search by name or set and number (/).</i>";
}
function removeItems(ids) {
  const set = new Set(ids); R.items = R.items.filter(it => !set.has(it.id)); ids.forEach(id => R.selected.delete(id));
  R.cur = Math.min(R.cur, Math.max(0, R.items.length - 1)); R.searching = false; R.hl = 0; $("#search").value = ""; renderReview();
}
async function acceptShown(i) {
  const it = R.items[R.cur], c = R.shown[i]; if (!it || !c) return;
  try { await api("POST", `/api/review/${it.id}/accept`, {printing: c.id}); note(`#${it.id} accepted as ${c.name} (${c.set.toUpperCase()} #${c.collector_number})`); removeItems([it.id]); }
  catch (e) { note(e.message, true); if (/already/.test(e.message)) removeItems([it.id]); }
}
async function rejectCurrent() {
  const it = R.items[R.cur]; if (!it) return;
  try { await api("POST", `/api/review/${it.id}/reject`); note(`#${it.id} rejected`); removeItems([it.id]); }
  catch (e) { note(e.message, true); if (/already/.test(e.message)) removeItems([it.id]); }
}
async function bulk(action) {
  const ids = R.selected.size ? [...R.selected] : (R.items[R.cur] ? [R.items[R.cur].id] : []);
  if (!ids.length) return;
  const out = await api("POST", "/api/review/bulk", {ids, action});
  const done = out.filter(o => o.ok || /already/.test(o.error || "")).map(o => o.id), bad = out.filter(o => !o.ok);
  note(`${out.length - bad.length} ${action}ed` + (bad.length ? `, ${bad.length} not: ${bad[0].error}` : ""), bad.length > 0);
  removeItems(done);
}
async function search(q) {
  if (!q.trim()) { R.searching = false; renderReview(); return; }
  try { R.shown = await api("GET", "/api/printings?q=" + encodeURIComponent(q)); R.searching = true; R.hl = 0;
    $("#candidates-title").innerHTML = `<b>Search results for “${esc(q)}”</b> (Esc: back to the candidates)`; renderReview(); }
  catch (e) { note(e.message, true); }
}
$("#search").addEventListener("keydown", e => {
  if (e.key === "Enter") { e.preventDefault(); search(e.target.value); e.target.blur(); }
  if (e.key === "Escape") { e.target.blur(); }
});
$("#review-list").addEventListener("click", e => { const d = e.target.closest(".review-item"); if (d?.dataset.i) { R.cur = +d.dataset.i; R.searching = false; renderReview(); } });
$("#candidates").addEventListener("click", e => { const d = e.target.closest(".candidate"); if (d) acceptShown(+d.dataset.i); });
$("#btn-accept").onclick = () => acceptShown(R.hl); $("#btn-reject").onclick = rejectCurrent;
$("#btn-bulk-accept").onclick = () => bulk("accept"); $("#btn-bulk-reject").onclick = () => bulk("reject");
document.addEventListener("keydown", e => {
  if ((location.hash || "#review") !== "#review" || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target.matches("input, select, textarea")) return;
  const k = e.key;
  if (k === "j" || k === "ArrowDown") { R.cur = Math.min(R.cur + 1, R.items.length - 1); R.searching = false; R.hl = 0; renderReview(); }
  else if (k === "k" || k === "ArrowUp") { R.cur = Math.max(R.cur - 1, 0); R.searching = false; R.hl = 0; renderReview(); }
  else if (/^[1-9]$/.test(k)) acceptShown(+k - 1);
  else if (k === "Enter") acceptShown(R.hl);
  else if (k === "x") rejectCurrent();
  else if (k === "X") bulk("reject");
  else if (k === "A") bulk("accept");
  else if (k === " ") { const it = R.items[R.cur]; if (it) { R.selected.has(it.id) ? R.selected.delete(it.id) : R.selected.add(it.id); R.cur = Math.min(R.cur + 1, R.items.length - 1); renderReview(); } }
  else if (k === "n") { R.hl = Math.min(R.hl + 1, R.shown.length - 1); renderReview(); }
  else if (k === "p") { R.hl = Math.max(R.hl - 1, 0); renderReview(); }
  else if (k === "/") { $("#search").focus(); }
  else if (k === "Escape") { R.searching = false; renderReview(); }
  else return;
  e.preventDefault();
});

// ---- collection
const C = {offset: 0, total: 0};
function filterQuery() {
  const p = new URLSearchParams();
  for (const k of ["name", "set", "finish", "condition", "origin"]) { const v = $("#filter-" + k).value.trim(); if (v) p.set(k, v); }
  const pool = $("#filter-pool").value; if (pool !== "*") p.set("pool", pool);
  return p.toString();
}
async function loadEntries(reset) {
  if (reset) C.offset = 0;
  const q = filterQuery();
  if (reset) loadTotals(q).catch(e => note(e.message, true)); // beside the rows, not after them
  const page = await api("GET", `/api/entries?limit=100&offset=${C.offset}&${q}`);
  C.total = page.total;
  const rows = page.entries.map(e => `<tr data-id="${e.id}">
    <td>${e.crop ? `<img loading="lazy" src="${e.crop}" alt="">` : ""}</td><td class="name">${esc(e.name)}</td><td>${esc(e.set.toUpperCase())}</td><td>${esc(e.collector_number)}</td>
    <td><input class="qty" type="number" min="1" value="${e.quantity}" style="width:4em"></td>
    <td><select class="condition">${["M","NM","EX","LP","MP","HP","DMG"].map(c => `<option${c === e.condition ? " selected" : ""}>${c}</option>`).join("")}</select></td>
    <td><select class="finish">${["nonfoil","foil","etched"].map(c => `<option${c === e.finish ? " selected" : ""}>${c}</option>`).join("")}</select></td>
    <td><input class="lang" value="${esc(e.language)}" size="3"></td><td>${esc(e.pool || "—")}</td><td>${esc(e.origin)}</td>
    <td><button class="printing">printing…</button> <button class="delete">delete</button></td></tr>`).join("");
  const body = $("#entries tbody");
  if (reset) body.innerHTML = rows; else body.insertAdjacentHTML("beforeend", rows);
  C.offset += page.entries.length;
  window.__rowsDrawnAt = window.__rowsDrawnAt || performance.now();
  $("#more").style.display = C.offset < C.total ? "" : "none";
  $("#export-link").href = "/api/export?format=moxfield" + ($("#filter-pool").value !== "*" ? "&pool=" + encodeURIComponent($("#filter-pool").value) : "");
}
async function loadTotals(q) {
  const t = await api("GET", "/api/totals?" + q);
  const money = v => v == null ? "" : " · $" + v.toFixed(2);
  $("#totals").innerHTML = `<b id="total-cards">${t.cards}</b> cards in <b>${t.entries}</b> entries${money(t.value_usd)}${t.price_date ? ` (prices of ${esc(t.price_date)}${t.unpriced_cards ? `, ${t.unpriced_cards} cards unpriced` : ""})` : (t.value_usd == null ? " · no prices in the catalog" : "")}
    <div><b>Per set:</b> ${t.by_set.map(g => `<span class="set-total" data-set="${esc(g.key)}">${esc(g.key.toUpperCase())} ${g.cards}${money(g.value_usd)}</span>`).join(" · ")}</div>
    <div><b>Per pool:</b> ${t.by_pool.map(g => `<span class="pool-total">${esc(g.key || "main")} ${g.cards}${money(g.value_usd)}</span>`).join(" · ")}</div>`;
  window.__totalsDrawnAt = window.__totalsDrawnAt || performance.now();
  const sel = $("#filter-pool"), keep = sel.value, pools = await api("GET", "/api/pools");
  sel.innerHTML = `<option value="*">all pools</option><option value="">main collection</option>` + pools.map(p => `<option value="${esc(p.name)}">${esc(p.name)}</option>`).join("");
  sel.value = keep;
}
let filterTimer;
for (const k of ["name", "set", "pool", "finish", "condition", "origin"])
  $("#filter-" + k).addEventListener(k === "name" || k === "set" ? "input" : "change", () => { clearTimeout(filterTimer); filterTimer = setTimeout(() => loadEntries(true), 150); });
$("#more").onclick = () => loadEntries(false);
async function patch(tr, change) {
  try { await api("PATCH", `/api/entries/${tr.dataset.id}`, change); note("saved"); loadTotals(filterQuery()); }
  catch (e) { note(e.message, true); loadEntries(true); }
}
$("#entries").addEventListener("change", e => {
  const tr = e.target.closest("tr"); if (!tr) return;
  if (e.target.matches(".qty")) patch(tr, {quantity: +e.target.value});
  if (e.target.matches(".condition")) patch(tr, {condition: e.target.value});
  if (e.target.matches(".finish")) patch(tr, {finish: e.target.value});
  if (e.target.matches(".lang")) patch(tr, {language: e.target.value});
});
$("#entries").addEventListener("click", async e => {
  const tr = e.target.closest("tr"); if (!tr) return;
  if (e.target.matches(".delete")) {
    try { await api("DELETE", `/api/entries/${tr.dataset.id}`); tr.remove(); note("deleted"); loadTotals(filterQuery()); } catch (err) { note(err.message, true); }
  }
  if (e.target.matches(".printing")) {
    const q = prompt("Set and number (m19 125) or name of the printing:", tr.querySelector(".name").textContent); if (!q) return;
    try { const found = await api("GET", "/api/printings?q=" + encodeURIComponent(q)); if (!found.length) return note("no printing found", true);
      await api("PATCH", `/api/entries/${tr.dataset.id}`, {printing: found[0].id}); note(`now ${found[0].name} ${found[0].set.toUpperCase()} #${found[0].collector_number}`); loadEntries(true); }
    catch (err) { note(err.message, true); }
  }
});

// ---- import
async function startImport(paths) {
  const job = await api("POST", "/api/imports", {paths, pool: $("#import-pool").value || undefined, finish: $("#import-foil").checked ? "foil" : undefined});
  $("#import-log").innerHTML = ""; watch(job.id);
}
async function watch(id) {
  const j = await api("GET", `/api/imports/${id}`);
  $("#import-progress").max = j.total; $("#import-progress").value = j.done;
  $("#import-status").textContent = `${j.state}: ${j.done} of ${j.total} photos · ${j.added} added, ${j.review} to review, ${j.failed} failed, ${j.skipped} skipped` + (j.error ? " · " + j.error : "");
  $("#import-log").innerHTML = j.recent.slice(-10).map(o => `<li>${esc(o.file.split("/").pop())}: ${esc(o.outcome)} ${esc(o.card || o.detail || "")}</li>`).join("");
  if (j.state === "running") setTimeout(() => watch(id), 400); else loadReview();
}
$("#import-start").onclick = () => { const p = $("#import-path").value.trim(); if (p) startImport([p]).catch(e => note(e.message, true)); };
async function upload(files) {
  const paths = [];
  for (const f of files) {
    $("#import-status").textContent = `uploading ${f.name} (${paths.length + 1} of ${files.length})`;
    const r = await fetch("/api/uploads?name=" + encodeURIComponent(f.name), {method: "POST", body: f});
    const d = await r.json(); if (!r.ok) { note(d.error, true); continue; } paths.push(d.path);
  }
  if (paths.length) await startImport(paths);
}
$("#import-files").onchange = e => upload([...e.target.files]).catch(err => note(err.message, true));
const drop = $("#drop");
drop.ondragover = e => { e.preventDefault(); drop.classList.add("over"); };
drop.ondragleave = () => drop.classList.remove("over");
drop.ondrop = e => { e.preventDefault(); drop.classList.remove("over"); upload([...e.dataTransfer.files]).catch(err => note(err.message, true)); };

show(); loadReview();
</script></body></html>
"""##
}
