// Search for the rulekb site. Served with the API (`rulekb serve`), it asks /api/v1/search, which
// ranks with the database; opened as static files, it searches a prebuilt index folded the same
// way (case, accents and the Polish ł), so "sluzacy" finds "Służący" either way.
(function () {
  const form = document.getElementById("rk-search");
  if (!form) return;
  const lang = form.dataset.lang;
  const list = document.getElementById("rk-results");
  const stroked = { "ł": "l", "đ": "d", "ø": "o", "ħ": "h", "ß": "s", "æ": "a", "œ": "o", "ı": "i" };
  const fold = (s) => Array.from(s.toLowerCase()).map((c) =>
    stroked[c] || c.normalize("NFD").replace(/[\u0300-\u036f]/g, "")[0] || c).join("");
  const words = (s) => fold(s).match(/[\p{L}]+|\p{N}+/gu) || [];
  let index = null;
  const loadIndex = async () => index || (index = await (await fetch(form.dataset.index)).json());

  const local = (tokens) => {
    const hits = [];
    for (const d of index) {
      let score = 0, all = true;
      for (const t of tokens) {
        const has = (field) => field.split(/[^\p{L}\p{N}]+/u).some((w) => t.length >= 3 ? w.startsWith(t) : w === t);
        const s = (has(d.n) ? 10 : 0) + (has(d.f) ? 6 : 0) + (has(d.b) ? 1 : 0);
        if (!s) { all = false; break; }
        score += s + (d.n === tokens.join(" ") ? 50 : 0);
      }
      if (all) hits.push([score, d]);
    }
    return hits.sort((a, b) => b[0] - a[0]).slice(0, 30).map((h) => h[1]);
  };

  const show = (docs) => {
    list.innerHTML = "";
    for (const d of docs) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = d.url; a.textContent = d.name;
      li.append(a, document.createTextNode(` — ${d.game} · ${d.kind}`));
      list.append(li);
    }
    if (!docs.length) list.innerHTML = "<li>—</li>";
  };

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const q = form.q.value;
    const idx = await loadIndex();
    const byId = new Map(idx.map((d) => [d.id, d]));
    try {
      const r = await fetch(`/api/v1/search?limit=30&lang=${lang}&q=${encodeURIComponent(q)}`);
      if (!r.ok) throw new Error(r.status);
      const body = await r.json();
      show((body.data || body.hits).map((h) => byId.get(h.id)).filter(Boolean));  // the list envelope: data
      list.dataset.mode = "api";
    } catch (e) {
      show(local(words(q)));
      list.dataset.mode = "static";
    }
  });
})();
