"""Liveness and readiness, never cached."""
from __future__ import annotations

from fastapi import Request, Response
from sqlalchemy import select

from api import models as out
from api.deps import ReaderDep, make_router
from i18n.catalog import N_
from api.problems import ApiError, responses
from kb import models as m

router = make_router(tags=["health"])
NO_STORE = {"Cache-Control": "no-store"}


@router.get("/health", summary="Liveness: the process answers (touches no database)")
async def health(response: Response) -> out.Health:
    response.headers.update(NO_STORE)
    return {"status": "ok"}


@router.get("/ready", responses=responses(503), summary="Readiness: the knowledge base can be read (else 503)")
def ready(request: Request, response: Response, reader: ReaderDep) -> out.Ready:
    response.headers.update(NO_STORE)
    warm_up = request.app.state.warm_up
    warm_up.start()
    if not warm_up.done.wait(0.5):
        raise ApiError(503, N_("The server is still reading the games' rules; try again in a few seconds."),
                       headers={"Retry-After": "2"})
    try:
        with reader.engine().connect() as conn:
            built = conn.execute(select(m.BuildInfo.value).where(m.BuildInfo.key == "built_at")).scalar()
    except Exception:  # missing file, unreachable server, a half-written table: not ready, whatever the cause
        raise ApiError(503, N_("The knowledge base cannot be read: run `rulekb build`, or check the database."),
                       headers={"Retry-After": "30"}) from None
    return {"status": "ready", "built_at": built}
