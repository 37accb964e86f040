"""The service itself: the research page, liveness, readiness and Prometheus metrics."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from legal_rag.api import schemas as s
from legal_rag.api.deps import Metrics
from legal_rag.api.security import Caller, Permission, requires

STATIC = Path(__file__).parent.parent / "static"

router = APIRouter(tags=["service"])


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def research_page() -> HTMLResponse:
    return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))


@router.get("/health")
def health() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/ready", responses={503: {"model": s.Problem}})
def ready(request: Request) -> JSONResponse:
    state = request.app.state
    if state.ready:  # the version the next search uses (a job may have published a newer one)
        return JSONResponse({"status": "ready", "index_version": state.application.served_index_version()})
    if state.open_error:
        return JSONResponse({"detail": f"failed to start: {state.open_error}"}, status_code=503)
    return JSONResponse({"detail": "starting"}, status_code=503, headers={"Retry-After": "2"})


@router.get("/metrics", include_in_schema=False)
def metrics(caller: Annotated[Caller, Depends(requires(Permission.METRICS))], m: Metrics) -> Response:
    """Prometheus counters: an admin's key or a ``metrics`` key (also as ``Authorization: Bearer``)."""
    return Response(generate_latest(m.registry), media_type=CONTENT_TYPE_LATEST)
