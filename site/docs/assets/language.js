// The language links (the header menu and the line under each page's title) lead to the same page in
// the other language; the section the reader has open (#anchor: an entry's key, the same in every
// language) goes along with the click.
document.addEventListener("click", (ev) => {
  const a = ev.target instanceof Element && ev.target.closest("a[hreflang]");
  if (!a || !location.hash || a.hash) return;
  a.hash = location.hash;
}, true);
