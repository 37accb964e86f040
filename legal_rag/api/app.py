"""The HTTP API: ``create_app(settings)`` builds a FastAPI app over one :class:`legal_rag.app.Application`.

The application (graph, index, models) is opened once per process in the lifespan, on a worker
thread so that ``/health`` answers at once and ``/ready`` says 503 until the models are loaded.
Routes live in ``legal_rag.api.routers`` (one router per resource), each taking the application as
a typed dependency (``legal_rag.api.deps``): validate (pydantic, 422 naming the field), check the
key's role, call one application method, render. Errors are mapped once, here, from the class's own
``http_status``; every error is JSON ``{"detail": ...}``; nothing the client sends can produce a 500
(schemathesis checks that against the OpenAPI schema).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from graph_schema.errors import InvalidRecordError, LegalRagError, RetryableError
from legal_rag.api import schemas as s
from legal_rag.api.hardening import install_hardening
from legal_rag.api.metrics import ApiMetrics
from legal_rag.api.routers import admin, answers, data, page, research, service
from legal_rag.api.routers.service import STATIC
from legal_rag.api.security import RateLimiter
from legal_rag.app import Application
from legal_rag.settings import Settings

__all__ = ["STATIC", "create_app"]


def create_app(settings: Settings, application: Application | None = None, *, open_on_start: bool = True) -> FastAPI:
    """Build the API app.

    Args:
        settings: The configuration (database, graph, index, rate limits).
        application: An application to serve (tests pass one already open); built from ``settings`` if None.
        open_on_start: Open the application in the lifespan (on a thread); ``/ready`` is 503 until done.
    """
    app_obj = application or Application(settings)

    @asynccontextmanager
    async def lifespan(api: FastAPI) -> AsyncIterator[None]:
        state = api.state
        if open_on_start:
            threading.Thread(target=_open_in_background, args=(state,), name="open-application", daemon=True).start()
        yield
        state.shutting_down = True
        if application is None:  # we built it, we close it
            app_obj.close()

    api = FastAPI(
        title="legal-rag",
        version="0.1.0",
        summary="Indian statute research with verified citations",
        description="Answers from the statutes; every citation checked against the statute graph for the date "
                    "of the facts. Authenticate with an API key in the X-API-Key header.",
        lifespan=lifespan,
        docs_url=None,  # served from package assets by install_hardening (works offline)
        redoc_url=None,
        responses={401: {"model": s.Problem}, 403: {"model": s.Problem}, 413: {"model": s.Problem},
                   429: {"model": s.Problem}},
    )
    api.state.settings = settings
    api.state.application = app_obj
    api.state.ready = not open_on_start  # otherwise set when the application is open (lifespan)
    api.state.open_error = None
    api.state.shutting_down = False
    api.state.metrics = ApiMetrics()
    api.state.rate_limiter = RateLimiter(settings.api.rate_limit_per_minute)
    _handlers(api)
    _middleware(api)
    api.include_router(service.router)
    api.include_router(research.router)
    api.include_router(answers.router)
    api.include_router(data.router)
    api.include_router(admin.router)
    api.include_router(page.router)
    # Last: its middlewares wrap all others (the body limit outermost, before parsing and before the key check).
    install_hardening(api, settings.api, page_html=(STATIC / "index.html").read_text(encoding="utf-8"),
                      roots=(str(settings.state_dir), str(settings.state_dir.resolve())))
    return api


def _open_in_background(state: Any) -> None:
    try:
        state.application.open()
        recovered = state.application.recover()  # the index matches the graph; orphaned jobs re-queued
        logging.getLogger("legal_rag.api").info("start-up recovery: %s", recovered)
        state.ready = True
    except Exception as exc:  # noqa: BLE001 - reported by /ready, never swallowed silently
        state.open_error = f"{type(exc).__name__}: {exc}"


# -- errors ------------------------------------------------------------------------------------------


def _handlers(api: FastAPI) -> None:
    @api.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        detail = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
                  for e in exc.errors()]
        return JSONResponse({"detail": detail}, status_code=422)

    @api.exception_handler(LegalRagError)
    async def refused(request: Request, exc: LegalRagError) -> JSONResponse:
        return error_response(exc)


def error_response(exc: LegalRagError) -> JSONResponse:
    """A project error as the API answers it: the class's own status, ``{"detail": ...}``; a field's
    error names the field like pydantic's; "try again" says nothing was checked and when to retry."""
    if isinstance(exc, InvalidRecordError):
        return JSONResponse({"detail": [{"loc": ["body", exc.field], "msg": str(exc), "type": "value_error"}]},
                            status_code=exc.http_status)
    if isinstance(exc, RetryableError):
        return JSONResponse({"detail": f"temporarily unavailable, nothing was checked: {exc}"},
                            status_code=exc.http_status, headers={"Retry-After": "5"})
    return JSONResponse({"detail": str(exc)}, status_code=exc.http_status)


def _middleware(api: FastAPI) -> None:
    @api.middleware("http")
    async def measure(request: Request, call_next: Any) -> Response:
        t0 = time.perf_counter()
        status = 500
        try:
            response: Response = await call_next(request)
            status = response.status_code
            return response
        finally:
            route = request.scope.get("route")
            path = getattr(route, "path", "unmatched")
            m: ApiMetrics = request.app.state.metrics
            m.requests.labels(path, request.method, str(status)).inc()
            m.latency.labels(path).observe(time.perf_counter() - t0)
