"""Research: ask (whole or streamed), verify a text, look a provision up."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, StreamingResponse

from graph_schema.errors import LegalRagError
from legal_rag.api import schemas as s
from legal_rag.api.deps import Metrics, ReadyApp
from legal_rag.api.metrics import ApiMetrics
from legal_rag.api.security import Caller, Permission, requires
from legal_rag.api.views import answer_doc
from legal_rag.app import Application
from legal_rag.results import AskResult, VerificationReport

router = APIRouter(tags=["research"])


@router.post("/v1/ask", responses={422: {"model": s.Problem}, 503: {"model": s.Problem}})
def ask(
    body: s.AskRequest,
    metrics: Metrics,
    caller: Annotated[Caller, Depends(requires(Permission.ASK))],
    application: ReadyApp,
) -> s.StoredAnswer:
    return _store_answer(application, metrics, application.ask(body.question, body.as_of), caller)


@router.post(
    "/v1/ask/stream",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}}, 422: {"model": s.Problem}},
)
async def ask_stream(
    body: s.AskRequest,
    request: Request,
    metrics: Metrics,
    caller: Annotated[Caller, Depends(requires(Permission.ASK))],
    application: ReadyApp,
) -> StreamingResponse:
    events = _answer_events(request, application, metrics, body, caller)
    return StreamingResponse(
        events, media_type="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    )


@router.post("/v1/verify", responses={422: {"model": s.Problem}})
def verify(
    body: s.VerifyRequest,
    metrics: Metrics,
    caller: Annotated[Caller, Depends(requires(Permission.VERIFY))],
    application: ReadyApp,
) -> VerificationReport:
    context = [c.model_dump() for c in body.context or []]
    report = application.verify(body.text, body.as_of, context, body.offence_on)
    for c in report.citations:
        metrics.citations.labels(c.status.value).inc()
    return report


@router.get("/v1/sections/{act}/{section}", responses={404: {"model": s.Problem}})
def section(
    act: str,
    section: str,
    caller: Annotated[Caller, Depends(requires(Permission.SECTIONS))],
    application: ReadyApp,
    as_of: Annotated[s.IsoDate | None, Query()] = None,
) -> JSONResponse:
    result = application.section(act, section, as_of)
    if not result.found:
        return JSONResponse(
            {"detail": result.error or "not found", "suggestions": result.suggestions or []}, status_code=404
        )
    return JSONResponse(result.as_dict())


def _store_answer(application: Application, metrics: ApiMetrics, result: AskResult, caller: Caller) -> s.StoredAnswer:
    """Persist an answer with its provenance and the caller's team; return it as stored (the answer plus id,
    time, key, index)."""
    row = application.store_answer(result, caller.viewer)
    metrics.answers.labels(result.confidence.label.value, result.complexity.value).inc()
    for c in result.citations:
        metrics.citations.labels(c.status.value).inc()
    return answer_doc(row)


def _sse(event: str, data: Any) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def _answer_events(
    request: Request, application: Application, metrics: ApiMetrics, body: s.AskRequest, caller: Caller
) -> AsyncIterator[str]:
    """``stage`` events as the workflow runs, then one ``answer`` (verified, stored) and ``done``.

    The workflow runs on a worker thread; a client that disconnects sets ``cancelled`` and the next
    stage boundary stops the work. Heartbeats keep proxies from closing a quiet stream.
    """
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
    cancelled = threading.Event()
    heartbeat = request.app.state.settings.api.heartbeat_s

    def on_stage(stage: str, elapsed_ms: float) -> None:
        if cancelled.is_set():
            raise _Cancelled()
        loop.call_soon_threadsafe(queue.put_nowait, ("stage", {"stage": stage, "elapsed_ms": round(elapsed_ms, 1)}))

    def work() -> None:
        try:
            result = application.ask(body.question, body.as_of, on_stage=on_stage)
            doc = _store_answer(application, metrics, result, caller)
            loop.call_soon_threadsafe(queue.put_nowait, ("answer", doc.model_dump(mode="json")))
        except _Cancelled:
            loop.call_soon_threadsafe(queue.put_nowait, ("cancelled", None))
        except Exception as exc:  # noqa: BLE001 - sent to the client as an error event
            loop.call_soon_threadsafe(queue.put_nowait, ("error", {"detail": _public_error(exc)}))

    thread = threading.Thread(target=work, name="ask-stream", daemon=True)
    thread.start()
    try:
        while True:
            try:
                kind, payload = await asyncio.wait_for(queue.get(), timeout=heartbeat)
            except TimeoutError:
                if await request.is_disconnected():
                    cancelled.set()
                    return
                yield _sse("heartbeat", {"t": round(time.time(), 3)})
                continue
            if kind == "stage":
                yield _sse("stage", payload)
            elif kind == "answer":
                yield _sse("answer", payload)
                yield _sse("done", {"id": payload["id"]})
                return
            elif kind == "error":
                yield _sse("error", payload)
                return
            else:
                return
    finally:
        cancelled.set()  # a client gone mid-stream: stop the workflow at its next stage


class _Cancelled(Exception):
    """The client went away; raised inside the workflow's stage callback to stop the work."""


def _public_error(exc: Exception) -> str:
    if isinstance(exc, LegalRagError):
        return str(exc)
    return f"internal error ({type(exc).__name__}); the answer was not produced"
