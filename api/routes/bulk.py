"""Bulk data: the whole knowledge base as files to download once (written by `rulekb build`, see
kb/export.py). `GET /bulk` lists them; `GET /bulk/{name}` downloads one with an ETag (its sha256)
and Last-Modified, answering 304 to If-None-Match / If-Modified-Since. The app's GZip middleware
compresses them on the way out.
"""
from __future__ import annotations

import hashlib
import os
import threading
from datetime import datetime, timezone
from email.utils import format_datetime, parsedate_to_datetime
from pathlib import Path
from typing import Annotated, Literal, Optional

from fastapi import Depends, Path as PathParam, Request, Response
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from api.deps import link, make_router
from api.problems import ApiError, responses
from i18n.catalog import N_
from kb import export

router = make_router(prefix="/bulk", tags=["bulk"])

CONTENT_TYPES = {".json": "application/json", ".jsonl": "application/x-ndjson", ".zip": "application/zip",
                 ".sqlite": "application/vnd.sqlite3"}
DESCRIPTIONS = {
    ".json": "the whole knowledge base as one JSON document {meta, data}",
    ".jsonl": "one record a line (meta first), each with its `object` type",
    ".zip": "CSV tables (entities, texts, provenance, effects, glossary, examples, discrepancies, unknowns) and meta.json",
    ".sqlite": "the same tables in an SQLite database, with a meta table",
}
SPECIAL = {"meta.json": "the meta block: version, build date, content hash, sources, licence",
           "rulekb.schema.json": "JSON Schema of rulekb.json",
           "rulekb.jsonl.schema.json": "JSON Schema of one line of rulekb.jsonl",
           export.CHANGELOG: "what each build changed against the one before"}
CACHE_CONTROL = "public, max-age=300"


def bulk_dir(request: Request) -> Path:
    """The folder of bulk files: the one `rulekb build` writes for the database this app reads."""
    return export.bulk_dir(request.app.state.settings.database_url)


BulkDir = Annotated[Path, Depends(bulk_dir)]


class BulkFile(BaseModel):
    object: Literal["bulk_file"] = "bulk_file"
    name: str = Field(examples=["rulekb.json"])
    description: str
    content_type: str = Field(examples=["application/json"])
    size: int = Field(description="bytes, uncompressed")
    sha256: str
    updated_at: str = Field(description="when the file was written (ISO 8601, UTC)")
    download_url: str = Field(description="relative, or under RULEKB_PUBLIC_URL")
    kb_version: Optional[str] = Field(default=None, description="the knowledge-base version the files hold")


class BulkList(BaseModel):
    object: Literal["list"] = "list"
    data: list[BulkFile]
    total: int
    has_more: bool
    next: Optional[str]


_hashes: dict[tuple[str, int, int], str] = {}
_hash_lock = threading.Lock()


def _sha256(path: Path, stat: os.stat_result) -> str:
    """A file's sha256, computed once per version of the file (path, size, mtime)."""
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    with _hash_lock:
        known = _hashes.get(key)
    if known is None:
        digest = hashlib.sha256()
        with path.open("rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                digest.update(chunk)
        known = digest.hexdigest()
        with _hash_lock:
            _hashes[key] = known
    return known


def _files(folder: Path) -> dict[str, Path]:
    """The bulk files there, by name (nothing else in the folder is ever served)."""
    if not folder.is_dir():
        return {}
    return {p.name: p for p in sorted(folder.iterdir())
            if p.is_file() and not p.name.startswith(".") and (p.suffix in CONTENT_TYPES)}


def _kb_version(folder: Path) -> Optional[str]:
    import json

    try:
        return json.loads((folder / "meta.json").read_text(encoding="utf-8")).get("kb_version")
    except (OSError, ValueError):
        return None


@router.get("", summary="The bulk data files: the whole knowledge base in several formats")
def list_files(request: Request, folder: BulkDir) -> BulkList:
    version = _kb_version(folder)
    items = []
    for name, path in _files(folder).items():
        stat = path.stat()
        items.append(BulkFile(
            object="bulk_file", name=name, description=SPECIAL.get(name) or DESCRIPTIONS[path.suffix],
            content_type=CONTENT_TYPES[path.suffix], size=stat.st_size, sha256=_sha256(path, stat),
            updated_at=datetime.fromtimestamp(stat.st_mtime, timezone.utc).isoformat(timespec="seconds"),
            download_url=link(request, request.url_for("download", name=name).path), kb_version=version))
    return BulkList(object="list", data=items, total=len(items), has_more=False, next=None)


def _not_modified(request: Request, etag: str, modified: datetime) -> bool:
    """RFC 9110 13.2.2: If-None-Match decides when present; else If-Modified-Since."""
    if_none_match = request.headers.get("if-none-match")
    if if_none_match is not None:
        tags = [item.strip().removeprefix("W/") for item in if_none_match.split(",")]
        return "*" in tags or etag in tags
    since = request.headers.get("if-modified-since")
    if since:
        try:
            return modified.replace(microsecond=0) <= parsedate_to_datetime(since)
        except (TypeError, ValueError):  # an unreadable date is ignored, as RFC 9110 says
            return False
    return False


@router.get("/{name}", name="download", response_class=FileResponse, responses={
    200: {"description": "The file", "content": {item: {} for item in sorted(set(CONTENT_TYPES.values()))}},
    **responses(304, 404, 422)}, summary="Download one bulk file (ETag, Last-Modified, conditional requests)")
def download(request: Request, folder: BulkDir,
             name: Annotated[str, PathParam(max_length=100, examples=["rulekb.json"])]) -> Response:
    path = _files(folder).get(name)
    if path is None:
        raise ApiError(404, N_("There is no bulk file %(name)s; GET /api/v1/bulk lists them."), params={"name": name})
    stat = path.stat()
    etag = f'"{_sha256(path, stat)}"'
    modified = datetime.fromtimestamp(stat.st_mtime, timezone.utc)
    headers = {"ETag": etag, "Last-Modified": format_datetime(modified.replace(microsecond=0), usegmt=True),
               "Cache-Control": CACHE_CONTROL}
    if _not_modified(request, etag, modified):
        return Response(status_code=304, headers=headers)
    return FileResponse(path, media_type=CONTENT_TYPES[path.suffix], headers=headers, filename=name,
                        content_disposition_type="inline" if path.suffix in (".json", ".jsonl") else "attachment")
