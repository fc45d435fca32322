"""Liveness and readiness, never cached."""
from __future__ import annotations

from fastapi import Response
from sqlalchemy import select

from api import models as out
from api.deps import ReaderDep, make_router
from api.problems import ApiError, responses
from kb import models as m

router = make_router(tags=["health"])
NO_STORE = {"Cache-Control": "no-store"}


@router.get("/health", summary="Liveness: the process answers (touches no database)")
async def health(response: Response) -> out.Health:
    response.headers.update(NO_STORE)
    return {"status": "ok"}


@router.get("/ready", responses=responses(503), summary="Readiness: the knowledge base can be read (else 503)")
def ready(response: Response, reader: ReaderDep) -> out.Ready:
    response.headers.update(NO_STORE)
    try:
        with reader.engine().connect() as conn:
            built = conn.execute(select(m.BuildInfo.value).where(m.BuildInfo.key == "built_at")).scalar()
    except Exception:  # missing file, unreachable server, a half-written table: not ready, whatever the cause
        raise ApiError(503, "The knowledge base cannot be read: run `rulekb build`, or check the database.",
                       headers={"Retry-After": "30"}) from None
    return {"status": "ready", "built_at": built}
