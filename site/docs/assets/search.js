// Search for the rulekb site: a box in the header of every page, and result pages at
// <lang>/search/?q=…&page=N that can be linked.
//
// Served with the API (`rulekb serve`), results come from /api/v1/search, i.e. kb.search: the same
// ranking as the CLI and the API (lemmas, typo tolerance, names before mentions), asked for the page's
// language (every language when that finds nothing), snippets from the entries' texts in it. Opened as
// static files (no API), it fetches the prebuilt folded indexes of all three languages, and only then,
// and ranks with a simpler ranking of the same shape (exact name > prefix > one or two typos; lookups
// before prose), each entry shown in the page's language. A query typed on a game's page searches that
// game; the result page links to all games.
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
    // the page's game goes with the query: the search page offers all games from there
    const game = document.querySelector("p.rk-switch[data-game]");
    if (game) {
      const hidden = document.createElement("input");
      hidden.type = "hidden"; hidden.name = "game"; hidden.value = game.dataset.game;
      form.append(hidden);
    }
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
  function localSearch(tokens, game) {
    const best = new Map();
    for (const lang of LANGS) {
      for (const d of indexes[lang] || []) {
        if (game && d.game !== game) continue;
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

  const DATA = JSON.parse((form && form.dataset.search) || "{}");

  // an API hit's address on this site, from the entry's id (game/kind/key) and the pages a kind is cut into
  function hitUrl(id, lang) {
    const [game, kind, key] = id.split("/");
    const page = DATA.pages[id] || `${game}/${DATA.special[kind] || kind}`;
    return `../../${lang}/${page}/#${key}`;
  }

  // the API, asked for the page's language (and game); null when it cannot be reached
  async function fromApi(q, page, lang, game) {
    const ask = async (withLang) => {
      const p = new URLSearchParams({ q, limit: PAGE, offset: (page - 1) * PAGE });
      if (withLang) p.set("lang", lang);
      if (game) p.set("game", game);
      const r = await fetch(`/api/v1/search?${p}`);
      if (!r.ok) throw new Error(r.status);
      return r.json();
    };
    try {
      let body = await ask(true);
      if (!body.total) body = await ask(false);  // typed in another language: its entries, marked as such
      return body;
    } catch (e) {
      return null;
    }
  }

  async function run() {
    const params = new URLSearchParams(location.search);
    const q = (params.get("q") || "").trim();
    const page = Math.max(1, parseInt(params.get("page") || "1", 10) || 1);
    const game = DATA.games && DATA.games[params.get("game")] ? params.get("game") : "";
    form.q.value = q;
    form.game.value = game;
    if (!q) return;
    const lang = form.dataset.lang;
    const list = document.getElementById("rk-results");
    const scope = document.getElementById("rk-scope");
    if (game) {
      scope.hidden = false;
      scope.querySelector("b").textContent = DATA.games[game];
      scope.querySelector("a").href = `?q=${encodeURIComponent(q)}`;
    }
    let rows = [], total = 0, suggestion = null;
    const body = await fromApi(q, page, lang, game);
    if (body) {
      total = body.total; suggestion = body.suggestion;
      rows = body.data.map((h) => ({ doc: { name: h.name, url: hitUrl(h.id, lang), game: h.game, kind: h.kind, lang: h.lang },
        snippet: h.snippet, spans: h.highlights }));
      list.dataset.mode = "api";
    } else {  // no API (the site opened as static files): the prebuilt indexes, fetched only now
      await Promise.all(LANGS.map(loadIndex));
      const byId = new Map(indexes[lang].map((d) => [d.id, d]));
      const tokens = Array.from(new Set(words(q))).slice(0, 40);  // as kb.search (MAX_TOKENS)
      const found = localSearch(tokens, game);
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
      if (doc.lang && doc.lang !== lang) li.lang = doc.lang;
      const a = document.createElement("a");
      a.href = doc.url; a.textContent = doc.name;
      const meta = document.createElement("span");
      meta.className = "rk-meta";
      meta.textContent = ` — ${DATA.games[doc.game] || doc.game} · ${DATA.kinds[doc.kind] || doc.kind}`;
      const p = document.createElement("div");
      p.className = "rk-snippet"; p.append(marked(snippet || "", spans || []));
      li.append(a, meta, p);
      list.append(li);
    }
    const count = document.getElementById("rk-count");
    if (list.children.length) {
      count.hidden = false; count.textContent = `${list.start}–${list.start + list.children.length - 1} / ${total}`;
    } else {
      document.getElementById("rk-none").hidden = false;
    }
    const sug = document.getElementById("rk-suggest");
    if (suggestion) {
      sug.hidden = false;
      const a = sug.querySelector("a"); a.textContent = suggestion;
      a.href = `?q=${encodeURIComponent(suggestion)}${game ? `&game=${game}` : ""}`;
    }
    const nav = document.getElementById("rk-pages");
    const prev = document.getElementById("rk-prev"), next = document.getElementById("rk-next");
    const scoped = game ? `&game=${game}` : "";
    prev.hidden = page <= 1; next.hidden = page * PAGE >= total;
    prev.href = `?q=${encodeURIComponent(q)}${scoped}&page=${page - 1}`;
    next.href = `?q=${encodeURIComponent(q)}${scoped}&page=${page + 1}`;
    nav.hidden = prev.hidden && next.hidden;
  }

  headerBox();
  if (form) run();
})();
