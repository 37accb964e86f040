// The research page. Served from /static under a CSP without inline code; every DOM write is textContent
// or createElement, never parsed as HTML. The key lives in sessionStorage only (gone when the tab closes).
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const KEY_SLOT = "legal-rag-key";
  const STEPS = ["classify", "understand", "retrieve", "generate", "verify_citations", "verify_claims",
    "reconstruct", "score", "finalise"];
  const STEP_WORDS = {
    classify: "Reading the question", understand: "Reading the question's dates, asks and premises",
    retrieve: "Finding the provisions", generate: "Drafting the answer from the provisions",
    verify_citations: "Checking every citation for the date", verify_claims: "Checking each statement against the text",
    reconstruct: "Keeping only verified statements", score: "Weighing confidence", finalise: "Storing the answer",
  };

  let me = null;          // {name, role, views}
  let view = null;        // the answer view being shown (GET /v1/answers/{id}/view)
  let selection = null;   // {start, end} in code points of the stored answer text
  let lastAsk = null;     // the body of the last ask, for Retry
  let timer = null;

  const el = (tag, attrs = {}, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "text") e.textContent = v;
      else if (k === "onclick") e.addEventListener("click", v);
      else e.setAttribute(k, v);
    }
    for (const k of kids) e.append(k);
    return e;
  };
  const key = () => (sessionStorage.getItem(KEY_SLOT) || "").trim();
  const headers = (extra = {}) => ({ "X-API-Key": key(), ...extra });
  const words = (s) => String(s || "").replace(/_/g, " ");
  const when = (iso) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "");

  async function problem(resp) {
    let body = {};
    try { body = await resp.json(); } catch (e) { /* not JSON */ }
    const d = body.detail;
    if (Array.isArray(d)) return d.map((x) => `${(x.loc || []).slice(1).join(".")}: ${x.msg}`).join("; ");
    return d || `the server answered ${resp.status}`;
  }

  async function api(path, opts = {}) {
    const resp = await fetch(path, { ...opts, headers: headers(opts.headers || {}) });
    if (!resp.ok) throw new Error(await problem(resp));
    return resp;
  }

  // -- the key and the role's views ---------------------------------------------------------------

  $("key-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const raw = $("api-key").value.trim();
    if (!raw) { $("whoami").textContent = "enter your API key"; return; }
    sessionStorage.setItem(KEY_SLOT, raw);
    $("api-key").value = "";
    await identify();
  });

  async function identify() {
    if (!key()) { $("whoami").textContent = "Enter your API key to begin."; return; }
    try {
      me = await (await api("/v1/me")).json();
    } catch (e) {
      sessionStorage.removeItem(KEY_SLOT);
      $("whoami").textContent = `Key refused: ${e.message}`;
      return;
    }
    $("whoami").textContent = `Signed in as ${me.name} (${words(me.role)})`;
    document.body.dataset.role = me.role;
    for (const node of document.querySelectorAll("[data-view]")) node.hidden = !me.views.includes(node.dataset.view);
    $("no-ask").hidden = me.views.includes("ask");
    $("no-ask").textContent = me.views.includes("ask") ? "" :
      `A ${words(me.role)} key cannot ask questions: it may ${me.permissions.map(words).join(", ")}.`;
    if (me.views.includes("history")) loadHistory();
    if (me.views.includes("review")) loadQueue();
    if (me.views.includes("flag-export")) loadFlagSummary();
    openFromHash();
  }

  // -- dates: ISO or day-month-year, never the browser's locale -----------------------------------

  const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December"];
  function readDate(raw) {
    const s = raw.trim();
    if (!s) return { iso: null };
    let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
    let y, mo, d;
    if (m) { [y, mo, d] = [m[1], m[2], m[3]]; } else {
      m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(s);  // Indian order: day first
      if (!m) return { error: "write the date as YYYY-MM-DD (2025-01-31) or DD-MM-YYYY (31-01-2025)" };
      [d, mo, y] = [m[1].padStart(2, "0"), m[2].padStart(2, "0"), m[3]];
    }
    const t = new Date(Date.UTC(+y, +mo - 1, +d));
    if (t.getUTCFullYear() !== +y || t.getUTCMonth() !== +mo - 1 || t.getUTCDate() !== +d) {
      return { error: `${s} is not a real date` };
    }
    return { iso: `${y}-${mo}-${d}`, words: `${+d} ${MONTHS[+mo - 1]} ${y}` };
  }
  $("as-of").addEventListener("input", () => {
    const r = readDate($("as-of").value);
    $("as-of-read").textContent = r.error ? r.error : r.words ? `read as ${r.words} (${r.iso})` : "";
  });

  // -- asking: the stream's stages, the running step and its time, a plain word on a lost connection ---

  async function* events(resp) {
    const reader = resp.body.getReader();
    const decoder = new TextDecoder();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, cut); buf = buf.slice(cut + 2);
        let event = "message", data = "";
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("data:")) data += line.slice(5).trim();
        }
        yield { event, data: data ? JSON.parse(data) : null };
      }
    }
  }

  function setStatus(text, bad = false) {
    $("status").textContent = text;
    $("status").className = bad ? "status error" : "status muted";
  }

  function running(step, t0) {
    clearInterval(timer);
    $("progress").hidden = !step;
    if (!step) return;
    $("running").textContent = `${STEP_WORDS[step] || words(step)}…`;
    $("running").dataset.step = step;
    const tick = () => { $("elapsed").textContent = `${((performance.now() - t0) / 1000).toFixed(1)} s`; };
    tick();
    timer = setInterval(tick, 100);
  }

  $("ask-form").addEventListener("submit", (ev) => { ev.preventDefault(); ask(); });
  $("question").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); ask(); }
  });
  $("retry").addEventListener("click", () => { if (lastAsk) ask(lastAsk); });

  async function ask(again = null) {
    const body = again || { question: $("question").value.trim() };
    if (!again) {
      if (!body.question) { setStatus("enter a question", true); return; }
      const day = readDate($("as-of").value);
      if (day.error) { setStatus(day.error, true); $("as-of").focus(); return; }
      if (day.iso) body.as_of = day.iso;
    }
    lastAsk = body;
    $("ask").disabled = true; $("retry").hidden = true;
    $("stages").replaceChildren(); $("stages-card").hidden = false;
    setStatus("");
    const t0 = performance.now();
    running("classify", t0);
    let answered = false;
    try {
      const resp = await fetch("/v1/ask/stream", {
        method: "POST", headers: headers({ "Content-Type": "application/json" }), body: JSON.stringify(body) });
      if (!resp.ok) { setStatus(await problem(resp), true); if (resp.status >= 500) $("retry").hidden = false; return; }
      for await (const { event, data } of events(resp)) {
        if (event === "stage") {
          $("stages").append(el("li", { "data-stage": data.stage, text: `${STEP_WORDS[data.stage] || words(data.stage)} · ${(data.elapsed_ms / 1000).toFixed(1)} s` }));
          const next = STEPS[STEPS.indexOf(data.stage) + 1];
          if (next) running(next, t0); else running(null);
        } else if (event === "answer") {
          answered = true;
          running(null);
          await showAnswer(data.id);
          if (me && me.views.includes("history")) loadHistory();
        } else if (event === "error") {
          answered = true;
          setStatus(`The answer could not be produced: ${data.detail}`, true);
          $("retry").hidden = false;
        }
      }
      if (!answered) throw new Error("stream ended early");
    } catch (e) {
      setStatus("The connection to the server was lost before the answer arrived. Check that the server is " +
        "running, then retry.", true);
      $("retry").hidden = false;
    } finally {
      running(null);
      $("ask").disabled = false;
    }
  }

  // -- the answer ---------------------------------------------------------------------------------

  async function showAnswer(id) {
    try {
      view = await (await api(`/v1/answers/${encodeURIComponent(id)}/view`)).json();
    } catch (e) {
      setStatus(`Could not open answer ${id}: ${e.message}`, true);
      return;
    }
    selection = null;
    if (location.hash !== `#answer=${view.id}`) history.replaceState(null, "", `#answer=${view.id}`);
    $("result").hidden = false;
    $("answer-meta").textContent = `${view.question} · facts as of ${view.as_of} · asked ${when(view.created_at)} by ${view.key_name} · answer ${view.id}`;
    $("answer-meta").dataset.answerId = view.id;
    $("direct").replaceChildren(...view.lines.filter((l) => l.part === "answer").map(line));
    const provisions = view.lines.filter((l) => l.part === "provision");
    $("provisions").replaceChildren(...provisions.map(line));
    $("prov-h").hidden = provisions.length === 0;
    $("cited").replaceChildren(...view.citations.map(citationChip));
    const c = view.confidence;
    $("confidence").textContent = c.words;
    $("confidence").className = `conf ${c.label}`;
    $("factors").replaceChildren(...c.factors.map((f) => el("li", {
      text: `${f.words}: ${f.value.toFixed(2)} (${f.effect === "none" ? "no effect" : `${f.effect} confidence`})` })));
    $("factors").append(el("li", { text: `score ${c.score.toFixed(2)}: High from 0.80, Medium from 0.60` }));
    $("warnings").replaceChildren(...view.warnings.map((w) => el("p", { class: "warn", text: `⚠ ${w}` })));
    $("sources").replaceChildren(...view.sources.map((s) => el("li", { id: `src-${s.n}`, value: String(s.n), tabindex: "-1" },
      el("button", { type: "button", class: "link", text: `${s.label}`, onclick: () => openSection(s.act, s.section, view.as_of) }),
      `${s.heading ? ` · ${s.heading}` : ""}${s.status ? ` · ${words(s.status)}` : ""}`)));
    $("claims").replaceChildren(...view.claims.map((cl) => el("div", { class: `claim ${cl.verdict}` },
      el("div", { text: cl.text }),
      el("div", { class: "muted", text: `${cl.verdict_words} · evidence: ${cl.evidence.join("; ") || "none"}` }))));
    $("flag-span").textContent = ""; $("flag-save").disabled = true; $("flag-status").textContent = "";
    $("tool-status").textContent = "";
    $("answer-flags-card").hidden = false;
    loadFlags();
  }

  // One answer line: its text with each [n] a link to source n; data-start is its offset in the stored text.
  function line(l) {
    const p = el("p", { "data-start": String(l.start) });
    const re = /\[(\d+)\]/g;
    let at = 0, m;
    while ((m = re.exec(l.text)) !== null) {
      p.append(l.text.slice(at, m.index));
      const n = m[1];
      const a = el("a", { href: `#src-${n}`, class: "mark", "aria-label": `source ${n}`, text: m[0] });
      a.addEventListener("click", (ev) => {
        ev.preventDefault();
        const target = $(`src-${n}`);
        if (target) { target.scrollIntoView({ block: "center" }); target.focus(); }
      });
      p.append(a);
      at = m.index + m[0].length;
    }
    p.append(l.text.slice(at));
    return p;
  }

  function citationChip(c) {
    const b = el("button", { type: "button", class: "cite", "data-status": c.status, title: `Open ${c.label}` },
    el("strong", { text: c.act ? `${c.act} s.${c.section}` : c.label }),
    el("span", { class: "act", text: c.act_title || "" }),
    el("span", { class: `badge ${c.status}`, text: c.status_words }),
    el("span", { class: "act", text: `on ${c.date}` }));
    if (c.successors.length) b.append(el("span", { text: `→ ${c.successors.map((s) => `${s.act} s.${s.section}`).join(", ")}` }));
    if (c.act && c.section) b.addEventListener("click", () => openSection(c.act, c.section, c.date));
    else b.disabled = true;
    return b;
  }

  // -- the section panel: text on the date, in force from/to, old and new law, amendments, neighbours --

  async function openSection(act, section, asOf) {
    const panel = $("section-panel");
    $("sp-title").textContent = `${act} s.${section}`;
    $("sp-status").textContent = "loading…"; $("sp-note").textContent = ""; $("sp-text").textContent = "";
    $("sp-links").replaceChildren(); $("sp-amendments").replaceChildren();
    $("sp-prev").hidden = true; $("sp-next").hidden = true;
    if (!panel.open) panel.showModal();
    let s;
    try {
      const q = asOf ? `?as_of=${encodeURIComponent(asOf)}` : "";
      s = await (await api(`/v1/sections/${encodeURIComponent(act)}/${encodeURIComponent(section)}${q}`)).json();
    } catch (e) {
      $("sp-status").textContent = `Could not open ${act} s.${section}: ${e.message}`;
      return;
    }
    $("sp-title").textContent = `${s.act} s.${s.section}${s.title ? ` · ${s.title}` : ""} · ${s.act_title || ""}`;
    const interval = `in force from ${s.in_force_from || "an unknown date"}${s.in_force_to ? ` to ${s.in_force_to}` : ""}`;
    $("sp-status").textContent = `On ${s.as_of}: ${words(s.status_on_date)} · ${interval}` +
      `${s.chapter ? ` · Chapter ${s.chapter}${s.chapter_title ? ` ${s.chapter_title}` : ""}` : ""}`;
    const notes = [s.note, s.no_successor, s.repealed_by ? `repealed by ${s.repealed_by.act} (${s.repealed_by.provision}) from ${s.repealed_by.effective}` : null];
    $("sp-note").textContent = notes.filter(Boolean).join(" · ");
    $("sp-text").textContent = s.text || "(our copy holds no text for this provision)";
    const rel = (title, refs) => {
      if (!refs || !refs.length) return [];
      return [el("h3", { text: title }), el("ul", { class: "list small" }, ...refs.map((r) => el("li", {},
        el("button", { type: "button", class: "link", text: `${r.act} s.${r.section}`, onclick: () => openSection(r.act, r.section, s.as_of) }),
        ` · ${words(r.relation)}${r.note ? `: ${r.note}` : ""}`)))];
    };
    $("sp-links").replaceChildren(...rel("Replaced", s.predecessors), ...rel("Replaced by", s.successors));
    const later = (a) => a.effective && s.as_of && a.effective > s.as_of;
    $("sp-amendments").replaceChildren(...(s.amendments || []).map((a) => el("li", {
      text: `${a.effective || "undated"} · ${words(a.kind)}${a.amending_act ? ` by ${a.amending_act}` : ""}: ${a.text}${later(a) ? " (after this date)" : ""}` })));
    if (!(s.amendments || []).length) $("sp-amendments").append(el("li", { class: "muted", text: "none recorded" }));
    for (const [btn, num, arrow] of [[$("sp-prev"), s.previous, "← s."], [$("sp-next"), s.next, "s."]]) {
      btn.hidden = !num;
      btn.textContent = num ? (arrow.startsWith("←") ? `${arrow}${num}` : `${arrow}${num} →`) : "";
      btn.onclick = num ? () => openSection(s.act, num, s.as_of) : null;
    }
  }
  $("sp-close").addEventListener("click", () => $("section-panel").close());

  // -- copy, export, share -------------------------------------------------------------------------

  function say(text) { $("tool-status").textContent = text; }
  async function download(fmt) {
    if (!view) return;
    try {
      const blob = await (await api(`/v1/answers/${view.id}/export?format=${fmt}`)).blob();
      const a = el("a", { href: URL.createObjectURL(blob), download: `answer-${view.id}.${fmt}` });
      document.body.append(a); a.click(); a.remove();
      say(`exported .${fmt}`);
    } catch (e) { say(`export failed: ${e.message}`); }
  }
  $("export-md").addEventListener("click", () => download("md"));
  $("export-docx").addEventListener("click", () => download("docx"));
  $("copy-md").addEventListener("click", async () => {
    if (!view) return;
    try {
      const text = await (await api(`/v1/answers/${view.id}/export?format=md`)).text();
      await navigator.clipboard.writeText(text);
      say("copied as Markdown");
    } catch (e) { say(`could not copy: ${e.message}`); }
  });
  $("share").addEventListener("click", async () => {
    if (!view) return;
    const link = `${location.origin}/#answer=${view.id}`;
    try { await navigator.clipboard.writeText(link); say(`link copied: ${link}`); } catch (e) { say(`share this link: ${link}`); }
  });

  function openFromHash() {
    const m = /^#answer=([0-9a-f-]{8,64})$/.exec(location.hash);
    if (m && key() && (!view || view.id !== m[1])) showAnswer(m[1]);
  }
  window.addEventListener("hashchange", openFromHash);

  // -- history ---------------------------------------------------------------------------------------

  $("history-form").addEventListener("submit", (ev) => { ev.preventDefault(); loadHistory(); });
  async function loadHistory() {
    const q = $("history-q").value.trim();
    try {
      const page = await (await api(`/v1/history?limit=30${q ? `&q=${encodeURIComponent(q)}` : ""}`)).json();
      $("history").replaceChildren(...page.items.map((h) => el("li", { "data-answer": h.id },
        el("button", { type: "button", class: "link", text: h.question, onclick: () => showAnswer(h.id) }),
        el("div", { class: "muted", text: `${when(h.created_at)} · facts ${h.as_of} · ${h.confidence || "?"} confidence` }))));
      if (!page.items.length) $("history").append(el("li", { class: "muted", text: q ? "no question matches" : "no questions yet" }));
    } catch (e) { $("history").replaceChildren(el("li", { text: e.message })); }
  }

  // -- flags: select a span, save it; the flags on this answer with their comments ---------------------

  document.addEventListener("selectionchange", () => {
    const box = $("answer-text"), sel = document.getSelection();
    if (!view || !sel || sel.rangeCount === 0 || sel.isCollapsed) return;
    const range = sel.getRangeAt(0);
    const lineOf = (node) => (node.nodeType === 1 ? node : node.parentElement).closest("p[data-start]");
    const a = lineOf(range.startContainer), b = lineOf(range.endContainer);
    if (!a || !b || !box.contains(a) || !box.contains(b)) return;
    const offset = (p, node, off) => {
      const pre = document.createRange();
      pre.selectNodeContents(p); pre.setEnd(node, off);
      return Number(p.dataset.start) + Array.from(pre.toString()).length;  // code points, as the API counts
    };
    const start = offset(a, range.startContainer, range.startOffset);
    const end = offset(b, range.endContainer, range.endOffset);
    if (end <= start) return;
    selection = { start, end };
    $("flag-span").textContent = Array.from(view.text).slice(start, end).join("");
    $("flag-save").disabled = false;
  });

  $("flag-save").addEventListener("click", async () => {
    if (!view || !selection) return;
    const body = { start: selection.start, end: selection.end, label: $("flag-label").value };
    if ($("flag-comment").value.trim()) body.comment = $("flag-comment").value.trim();
    if ($("flag-correction").value.trim()) body.correction = $("flag-correction").value.trim();
    $("flag-save").disabled = true;
    const idem = (crypto.randomUUID && crypto.randomUUID()) || `${Date.now()}-${Math.random()}`;
    try {
      const resp = await api(`/v1/answers/${view.id}/flags`, { method: "POST",
        headers: { "Content-Type": "application/json", "Idempotency-Key": idem }, body: JSON.stringify(body) });
      const { id } = await resp.json();
      $("flag-status").textContent = `flag saved (${id})`;
      $("flag-comment").value = ""; $("flag-correction").value = "";
      loadFlags(); loadQueue();
    } catch (e) {
      $("flag-status").textContent = `The flag was not saved: ${e.message}`;
      $("flag-save").disabled = false;
    }
  });

  function flagItem(f, extra = []) {
    return el("li", { "data-flag": f.id },
      el("strong", { text: words(f.label) }), ` on “${f.span_text}” · ${f.status}`,
      ...(f.comment ? [el("div", { class: "comment", text: `Comment: ${f.comment}` })] : []),
      ...(f.correction ? [el("div", { class: "muted", text: `Correction: ${f.correction}` })] : []),
      ...(f.reviewed_by ? [el("div", { class: "muted", text: `reviewed by ${f.reviewed_by} ${when(f.reviewed_at)}` })] : []),
      ...extra);
  }

  async function loadFlags() {
    if (!view) return;
    try {
      const flags = await (await api(`/v1/answers/${view.id}/flags`)).json();
      $("flags").replaceChildren(...flags.map((f) => flagItem(f, [el("div", { class: "muted", text: `by ${f.key_name}` })])));
      if (!flags.length) $("flags").append(el("li", { class: "muted", text: "none yet" }));
    } catch (e) { $("flags").replaceChildren(el("li", { text: e.message })); }
  }

  // -- a paralegal's review queue ----------------------------------------------------------------------

  async function loadQueue() {
    if (!me || !me.views.includes("review")) return;
    try {
      const q = await (await api("/v1/review")).json();
      $("queue").replaceChildren(...q.answers.map((a) => el("li", { "data-answer": a.id },
        el("button", { type: "button", class: "link", text: a.question, onclick: () => showAnswer(a.id) }),
        el("div", { class: "muted", text: `${a.confidence || "?"} confidence · ${a.flags} flag(s), ${a.pending} pending · asked by ${a.key_name} ${when(a.created_at)}` }))));
      if (!q.answers.length) $("queue").append(el("li", { class: "muted", text: "nothing to check" }));
      $("my-flags").replaceChildren(...q.flags.map((f) => flagItem(f, [
        el("button", { type: "button", class: "link", text: "open the answer", onclick: () => showAnswer(f.answer_id) })])));
      if (!q.flags.length) $("my-flags").append(el("li", { class: "muted", text: "no flags yet" }));
    } catch (e) { $("queue").replaceChildren(el("li", { text: e.message })); }
  }

  // -- admins and data engineers: flags by label, export, review -----------------------------------------

  async function loadFlagSummary() {
    try {
      const counts = await (await api("/v1/flags/summary")).json();
      const labels = Object.keys(counts).sort();
      $("flag-summary").replaceChildren(...labels.map((label) => el("tr", { "data-label": label },
        el("td", { text: words(label) }),
        ...["pending", "accepted", "rejected"].map((s) => el("td", { text: String(counts[label][s] || 0) })),
        el("td", {}, el("button", { type: "button", class: "link", text: "JSON Lines", "aria-label": `JSON Lines: export the ${words(label)} flags`,
          onclick: () => exportFlags(label) })))));
      if (!labels.length) $("flag-summary").append(el("tr", {}, el("td", { colspan: "5", class: "muted", text: "no flags yet" })));
      if (me.views.includes("flags")) loadPending();
    } catch (e) { $("flag-summary").replaceChildren(el("tr", {}, el("td", { colspan: "5", text: e.message }))); }
  }

  async function exportFlags(label) {
    try {
      const blob = await (await api(`/v1/flags?label=${encodeURIComponent(label)}`, { headers: { Accept: "application/x-ndjson" } })).blob();
      const a = el("a", { href: URL.createObjectURL(blob), download: `flags-${label}.jsonl` });
      document.body.append(a); a.click(); a.remove();
    } catch (e) { $("flag-summary").append(el("tr", {}, el("td", { colspan: "5", text: e.message }))); }
  }

  async function loadPending() {
    try {
      const flags = await (await api("/v1/flags?status=pending")).json();
      $("pending").replaceChildren(...flags.map((f) => flagItem(f, [el("div", { class: "muted", text: `by ${f.key_name}` }),
        el("div", { class: "tools" },
          el("button", { type: "button", class: "link", text: "open the answer", onclick: () => showAnswer(f.answer_id) }),
          el("button", { type: "button", class: "secondary", text: "Accept", "data-review": "accepted", onclick: () => review(f.id, "accepted") }),
          el("button", { type: "button", class: "secondary", text: "Reject", "data-review": "rejected", onclick: () => review(f.id, "rejected") })),
      ])));
      if (!flags.length) $("pending").append(el("li", { class: "muted", text: "nothing pending" }));
    } catch (e) { $("pending").replaceChildren(el("li", { text: e.message })); }
  }

  async function review(id, status) {
    try {
      await api(`/v1/flags/${id}/review`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ status }) });
      loadFlagSummary(); loadFlags();
    } catch (e) { $("pending").prepend(el("li", { class: "error", text: e.message })); }
  }

  identify();
})();
