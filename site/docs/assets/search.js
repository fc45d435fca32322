// Search for the rulekb site: a box in the header of every page, and result pages at
// <lang>/search/?q=…&page=N that can be linked.
//
// Served with the API (`rulekb serve`), results come from /api/v1/search, i.e. kb.search: the same
// ranking as the CLI and the API (lemmas, typo tolerance, names before mentions). Opened as static
// files, it searches the prebuilt folded indexes of all three languages with a simpler ranking of the
// same shape (exact name > prefix > one or two typos; lookups before prose). Either way every language
// is searched and each entry is shown in the page's language.
(function () {
  const PAGE = 10;
  const LANGS = ["en", "pl", "cs"];
  const stroked = { "ł": "l", "đ": "d", "ø": "o", "ħ": "h", "ß": "s", "æ": "a", "œ": "o", "ı": "i" };
  const fold = (s) => Array.from(s.toLowerCase()).map((c) =>
    stroked[c] || c.normalize("NFD").replace(/[\u0300-\u036f]/g, "")[0] || c).join("");
  const words = (s) => fold(s).match(/[\p{L}]+|\p{N}+/gu) || [];
  // kb.search's KIND_WEIGHT (lookups before rules, before prose, before the unknowns register)
  const KIND = { unknown: 0, example: 2, tip: 3, "setup-step": 5, variant: 5, "action-option": 6, step: 6, rule: 8,
    term: 9.5, component: 9, token: 9, "card-ability": 9, reward: 9, port: 9, track: 9, phase: 9, "scoring-rule": 9 };
  const kindWeight = (k) => (k in KIND ? KIND[k] : 10);

  // ---------------------------------------------------------------- the header box, on every page
  // The page's own "Search" link (the language switcher line every generated page has) gives the
  // search page's address and its label in the page's language.
  const pageSearchLink = () => Array.from(document.querySelectorAll("p.rk-switch a"))
    .find((a) => /search\/?$/.test(a.getAttribute("href") || ""));

  function headerBox() {
    const inner = document.querySelector(".md-header__inner");
    if (!inner || document.getElementById("rk-header-search")) return;
    const link = pageSearchLink();
    let action, label;
    if (link) { action = link.href; label = link.textContent; } else {
      const cfg = document.getElementById("__config");
      const base = cfg ? JSON.parse(cfg.textContent).base : ".";
      action = new URL(`${base}/en/search/`, location.href).href; label = "Search";
    }
    const form = document.createElement("form");
    form.id = "rk-header-search"; form.className = "rk-header-search"; form.method = "get"; form.action = action;
    form.setAttribute("role", "search");
    const input = document.createElement("input");
    input.type = "search"; input.name = "q"; input.placeholder = label; input.setAttribute("aria-label", label);
    const q = new URLSearchParams(location.search).get("q");
    if (q && document.getElementById("rk-search")) input.value = q;
    form.append(input);
    const before = inner.querySelector(".md-header__option, .md-header__source");
    inner.insertBefore(form, before);
  }

  // ---------------------------------------------------------------- the search page
  const form = document.getElementById("rk-search");
  const indexes = {};
  const loadIndex = async (lang) => indexes[lang] || (indexes[lang] = await (await fetch(
    form.dataset.index.replace("{lang}", lang))).json());

  function editsWithin(a, b, k) { // optimal string alignment distance <= k
    if (Math.abs(a.length - b.length) > k) return false;
    const d = [];
    for (let i = 0; i <= a.length; i++) { d.push([i]); }
    for (let j = 1; j <= b.length; j++) d[0][j] = j;
    for (let i = 1; i <= a.length; i++) {
      let rowMin = Infinity;
      for (let j = 1; j <= b.length; j++) {
        const cost = a[i - 1] === b[j - 1] ? 0 : 1;
        d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        rowMin = Math.min(rowMin, d[i][j]);
      }
      if (rowMin > k) return false;
    }
    return d[a.length][b.length] <= k;
  }
  const allowed = (t) => (t.length >= 9 ? 2 : t.length >= 5 ? 1 : 0);
  const level = (t, w) => (w === t ? 3 : t.length >= 3 && w.startsWith(t) ? 2 : allowed(t) && editsWithin(t, w, allowed(t)) ? 1 : 0);

  // static ranking: the shape of kb.search (name match level, coverage, kind), without lemmas
  function localSearch(tokens) {
    const best = new Map();
    for (const lang of LANGS) {
      for (const d of indexes[lang] || []) {
        // names without counts ("12 služebníků"), as kb.search compares them
        const names = [...d.n.split(" / "), ...d.f.split("|")].map((p) => p.split(/[^\p{L}]+/u).filter(Boolean))
          .filter((ws) => ws.length);
        let name = 0;
        for (const ws of names) {
          const lv = tokens.map((t) => Math.max(0, ...ws.map((w) => level(t, w))));
          if (lv.every((x) => x)) name = Math.max(name, [0, 35, 45, 60][Math.min(...lv)] + 30 * Math.min(1, tokens.length / ws.length));
        }
        const body = [d.n, d.f, d.b].join(" ").split(/[^\p{L}\p{N}]+/u);  // the whole entry, as kb.search
        const inBody = tokens.filter((t) => body.some((w) => level(t, w) >= 2)).length;
        if (!name && !inBody) continue;
        const score = name + 30 * inBody / tokens.length + kindWeight(d.kind);
        if (!best.has(d.id) || best.get(d.id).score < score) best.set(d.id, { id: d.id, score });
      }
    }
    return Array.from(best.values()).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  }

  function marked(text, spans) {
    const frag = document.createDocumentFragment();
    let last = 0;
    for (const [a, b] of spans) {
      if (a < last) continue;
      frag.append(document.createTextNode(text.slice(last, a)));
      const m = document.createElement("mark"); m.textContent = text.slice(a, b); frag.append(m);
      last = b;
    }
    frag.append(document.createTextNode(text.slice(last)));
    return frag;
  }

  function localSnippet(text, tokens) { // the first 160 characters around the first match, marked
    const f = fold(text);
    const spans = [];
    for (const m of f.matchAll(/[\p{L}]+|\p{N}+/gu)) {
      if (tokens.some((t) => level(t, m[0]))) spans.push([m.index, m.index + m[0].length]);
    }
    const lo = spans.length ? Math.max(0, spans[0][0] - 50) : 0;
    const hi = Math.min(text.length, lo + 160);
    const pre = lo ? "…" : "";
    return [pre + text.slice(lo, hi) + (hi < text.length ? "…" : ""),
      spans.filter(([a, b]) => a >= lo && b <= hi).map(([a, b]) => [a - lo + pre.length, b - lo + pre.length])];
  }

  async function run() {
    const params = new URLSearchParams(location.search);
    const q = (params.get("q") || "").trim();
    const page = Math.max(1, parseInt(params.get("page") || "1", 10) || 1);
    form.q.value = q;
    if (!q) return;
    const lang = form.dataset.lang;
    const list = document.getElementById("rk-results");
    const own = await loadIndex(lang);
    const byId = new Map(own.map((d) => [d.id, d]));
    let rows = [], total = 0, suggestion = null;
    try {
      const r = await fetch(`/api/v1/search?limit=${PAGE}&offset=${(page - 1) * PAGE}&q=${encodeURIComponent(q)}`);
      if (!r.ok) throw new Error(r.status);
      const body = await r.json();
      total = body.total; suggestion = body.suggestion;
      rows = body.data.map((h) => ({ doc: byId.get(h.id), snippet: h.snippet, spans: h.highlights }));
      list.dataset.mode = "api";
    } catch (e) {
      await Promise.all(LANGS.map(loadIndex));
      const tokens = Array.from(new Set(words(q))).slice(0, 12);
      const found = localSearch(tokens);
      total = found.length;
      rows = found.slice((page - 1) * PAGE, page * PAGE).map((h) => {
        const doc = byId.get(h.id);
        // the text around the match, or the name when the indexed text does not hold the words (as kb.search)
        let [snippet, spans] = localSnippet((doc && doc.t) || "", tokens);
        if (!spans.length && doc) [snippet, spans] = localSnippet(doc.name, tokens);
        return { doc, snippet, spans };
      });
      list.dataset.mode = "static";
    }
    list.innerHTML = "";
    list.start = (page - 1) * PAGE + 1;
    for (const { doc, snippet, spans } of rows) {
      if (!doc) continue;
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = doc.url; a.textContent = doc.name;
      const meta = document.createElement("span");
      meta.className = "rk-meta"; meta.textContent = ` — ${doc.game} · ${doc.kind}`;
      const p = document.createElement("div");
      p.className = "rk-snippet"; p.append(marked(snippet || "", spans || []));
      li.append(a, meta, p);
      list.append(li);
    }
    if (!list.children.length) list.innerHTML = "<li>—</li>";
    const count = document.getElementById("rk-count");
    count.hidden = false; count.textContent = `${total ? list.start : 0}–${list.start + rows.length - 1} / ${total}`;
    const sug = document.getElementById("rk-suggest");
    if (suggestion) {
      sug.hidden = false;
      const a = sug.querySelector("a"); a.textContent = suggestion; a.href = `?q=${encodeURIComponent(suggestion)}`;
    }
    const nav = document.getElementById("rk-pages");
    const prev = document.getElementById("rk-prev"), next = document.getElementById("rk-next");
    prev.hidden = page <= 1; next.hidden = page * PAGE >= total;
    prev.href = `?q=${encodeURIComponent(q)}&page=${page - 1}`;
    next.href = `?q=${encodeURIComponent(q)}&page=${page + 1}`;
    nav.hidden = prev.hidden && next.hidden;
  }

  headerBox();
  if (form) run();
})();
