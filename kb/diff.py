"""What changed between two versions of the knowledge base (`rulekb diff`, and the changelog of
each build): entities added and removed; for an entity in both, each attribute (by dotted path),
each text (by field, language and position), its effect, parent, scope and references.
"""
from __future__ import annotations

from typing import Any

from kb.export import EntityRecord, Export

_MISSING = object()


def _flatten(value: Any, prefix: str, out: dict[str, Any]) -> dict[str, Any]:
    """Nested mappings as dotted paths (attrs.price.by_edition.2007); lists stay whole."""
    if isinstance(value, dict) and value:
        for k, v in value.items():
            _flatten(v, f"{prefix}.{k}", out)
    else:
        out[prefix] = value
    return out


def _texts(e: EntityRecord) -> dict[tuple[str, str, int], str]:
    return {(item.field, item.lang, item.position): item.text for item in e.texts}


def _name(e: EntityRecord) -> str:
    names = {item.lang: item.text for item in e.texts if item.field == "name" and item.position == 0}
    return names.get("en") or names.get("pl") or names.get("cs") or e.key


def _change(path: str, old: Any, new: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"path": path}
    if old is not _MISSING:
        out["old"] = old
    if new is not _MISSING:
        out["new"] = new
    return out


def entity_changes(old: EntityRecord, new: EntityRecord) -> dict[str, Any] | None:
    attrs_old, attrs_new = _flatten(old.attrs, "attrs", {}), _flatten(new.attrs, "attrs", {})
    attrs = [_change(p, attrs_old.get(p, _MISSING), attrs_new.get(p, _MISSING))
             for p in sorted(attrs_old.keys() | attrs_new.keys()) if attrs_old.get(p, _MISSING) != attrs_new.get(p, _MISSING)]
    texts_old, texts_new = _texts(old), _texts(new)
    texts = []
    for key in sorted(texts_old.keys() | texts_new.keys()):
        a, b = texts_old.get(key, _MISSING), texts_new.get(key, _MISSING)
        if a != b:
            field, lang, position = key
            texts.append({"field": field, "lang": lang, "position": position,
                          **{k: v for k, v in _change("", a, b).items() if k != "path"}})
    other = [_change(f, getattr(old, f), getattr(new, f)) for f in ("effect", "parent", "scope", "kind")
             if getattr(old, f) != getattr(new, f)]
    if sorted(old.refs) != sorted(new.refs):
        other.append({"path": "refs", "added": sorted(set(new.refs) - set(old.refs)),
                      "removed": sorted(set(old.refs) - set(new.refs))})
    if not (attrs or texts or other):
        return None
    return {"id": new.id, "name": _name(new), "attrs": attrs, "texts": texts, "other": other}


def _version(export: Export) -> dict[str, Any]:
    return {"kb_version": export.meta.kb_version, "built_at": export.meta.built_at,
            "content_hash": export.meta.content_hash}


def diff(old: Export, new: Export) -> dict[str, Any]:
    """The changes from `old` to `new`, JSON-ready; `summary` counts them (all 0: nothing changed)."""
    before = {e.id: e for e in old.data.entities}
    after = {e.id: e for e in new.data.entities}
    added = [{"id": i, "kind": after[i].kind, "name": _name(after[i])} for i in sorted(after.keys() - before.keys())]
    removed = [{"id": i, "kind": before[i].kind, "name": _name(before[i])} for i in sorted(before.keys() - after.keys())]
    changed = [c for i in sorted(before.keys() & after.keys()) if (c := entity_changes(before[i], after[i]))]
    findings_old = {f.key for f in old.data.discrepancies}
    findings_new = {f.key for f in new.data.discrepancies}
    return {
        "old": _version(old), "new": _version(new),
        "summary": {"added": len(added), "removed": len(removed), "changed": len(changed),
                    "attrs": sum(len(c["attrs"]) for c in changed), "texts": sum(len(c["texts"]) for c in changed),
                    "findings_added": len(findings_new - findings_old),
                    "findings_removed": len(findings_old - findings_new)},
        "added": added, "removed": removed, "changed": changed,
    }


def is_empty(changes: dict[str, Any]) -> bool:
    return not any(changes["summary"].values())


def _short(value: Any, width: int = 100) -> str:
    import json

    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = text.replace("\n", " ")
    return text if len(text) <= width else text[: width - 1] + "…"


def render_text(changes: dict[str, Any]) -> str:
    """The changes for a terminal: one line per entity added or removed, one per value changed."""
    old, new, s = changes["old"], changes["new"], changes["summary"]
    lines = [f"{old['kb_version']} ({old['built_at']}) -> {new['kb_version']} ({new['built_at']})"]
    if is_empty(changes):
        return "\n".join(lines + ["no changes"])
    lines.append(f"{s['added']} added, {s['removed']} removed, {s['changed']} changed "
                 f"({s['attrs']} attributes, {s['texts']} texts); findings +{s['findings_added']} -{s['findings_removed']}")
    lines += [f"+ {a['id']}  {a['name']}" for a in changes["added"]]
    lines += [f"- {r['id']}  {r['name']}" for r in changes["removed"]]
    for c in changes["changed"]:
        lines.append(f"~ {c['id']}  {c['name']}")
        for a in c["attrs"] + c["other"]:
            if "added" in a:
                lines.append(f"    {a['path']}: +{a['added']} -{a['removed']}")
            else:
                lines.append(f"    {a['path']}: {_short(a.get('old', '(none)'))} -> {_short(a.get('new', '(none)'))}")
        for item in c["texts"]:
            lines.append(f"    texts.{item['field']}.{item['lang']}[{item['position']}]: "
                         f"{_short(item.get('old', '(none)'), 60)} -> {_short(item.get('new', '(none)'), 60)}")
    return "\n".join(lines)
