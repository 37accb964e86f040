"""The HTTP API: ``create_app(settings)`` builds a FastAPI app over one :class:`legal_rag.app.Application`.

The application (graph, index, models) is opened once per process in the lifespan, on a worker
thread so that ``/health`` answers at once and ``/ready`` says 503 until the models are loaded.
Endpoints are thin: validate (pydantic, 422 naming the field), check the key's role, call the
application, store what must be stored, render. Every error is JSON ``{"detail": ...}``; nothing
the client sends can produce a 500 (schemathesis checks that against the OpenAPI schema).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, StreamingResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from graph_schema.errors import (
    IdempotencyConflictError,
    InvalidInputError,
    InvalidRecordError,
    LegalRagError,
    RecordNotFoundError,
    RetryableError,
)
from legal_rag.api import schemas as s
from legal_rag.api.metrics import ApiMetrics
from legal_rag.api.security import Caller, Permission, RateLimiter, requires
from legal_rag.app import Application
from legal_rag.records import AnswerRow, ApiKeyRow, FlagLabel, FlagRow, FlagStatus, JobRow, Role
from legal_rag.settings import Settings
from legal_rag.workflow.results import AskResult
from verification.model import VerificationReport

STATIC = Path(__file__).parent / "static"

__all__ = ["create_app"]


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
        responses={401: {"model": s.Problem}, 403: {"model": s.Problem}, 429: {"model": s.Problem}},
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
    _routes(api)
    return api


def _open_in_background(state: Any) -> None:
    try:
        state.application.open()
        state.application.records()
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

    @api.exception_handler(InvalidInputError)
    async def bad_input(request: Request, exc: InvalidInputError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=422)

    @api.exception_handler(InvalidRecordError)
    async def bad_record(request: Request, exc: InvalidRecordError) -> JSONResponse:
        return JSONResponse({"detail": [{"loc": ["body", exc.field], "msg": str(exc), "type": "value_error"}]},
                            status_code=422)

    @api.exception_handler(RecordNotFoundError)
    async def missing(request: Request, exc: RecordNotFoundError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=404)

    @api.exception_handler(IdempotencyConflictError)
    async def conflict(request: Request, exc: IdempotencyConflictError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=409)

    @api.exception_handler(RetryableError)
    async def unavailable(request: Request, exc: RetryableError) -> JSONResponse:
        return JSONResponse({"detail": f"temporarily unavailable, nothing was checked: {exc}"}, status_code=503,
                            headers={"Retry-After": "5"})

    @api.exception_handler(LegalRagError)
    async def refused(request: Request, exc: LegalRagError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=422)


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


def _ready(request: Request) -> Application:
    state = request.app.state
    if not state.ready:
        raise HTTPException(503, "starting: the statute graph, index and models are still loading",
                            headers={"Retry-After": "2"})
    app_obj: Application = state.application
    return app_obj


# -- routes ------------------------------------------------------------------------------------------


def _routes(api: FastAPI) -> None:  # noqa: C901 - one place that lists every endpoint
    @api.get("/", response_class=HTMLResponse, include_in_schema=False)
    def research_page() -> HTMLResponse:
        return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))

    @api.get("/health", tags=["service"])
    def health() -> dict[str, str]:
        return {"status": "ok"}

    @api.get("/ready", tags=["service"], responses={503: {"model": s.Problem}})
    def ready(request: Request) -> JSONResponse:
        state = request.app.state
        if state.ready:  # the version the next search uses (a job may have published a newer one)
            return JSONResponse({"status": "ready", "index_version": state.application.served_index_version()})
        if state.open_error:
            return JSONResponse({"detail": f"failed to start: {state.open_error}"}, status_code=503)
        return JSONResponse({"detail": "starting"}, status_code=503, headers={"Retry-After": "2"})

    @api.get("/metrics", tags=["service"], include_in_schema=False)
    def metrics(request: Request) -> Response:
        return Response(generate_latest(request.app.state.metrics.registry), media_type=CONTENT_TYPE_LATEST)

    # -- research --

    @api.post("/v1/ask", tags=["research"], responses={422: {"model": s.Problem}, 503: {"model": s.Problem}})
    def ask(body: s.AskRequest, request: Request,
            caller: Annotated[Caller, Depends(requires(Permission.ASK))]) -> s.StoredAnswer:
        app_obj = _ready(request)
        result = app_obj.ask(body.question, body.as_of)
        return _store_answer(request, app_obj, result, caller.name)

    @api.post("/v1/ask/stream", tags=["research"], response_class=StreamingResponse,
              responses={200: {"content": {"text/event-stream": {}}}, 422: {"model": s.Problem}})
    async def ask_stream(body: s.AskRequest, request: Request,
                         caller: Annotated[Caller, Depends(requires(Permission.ASK))]) -> StreamingResponse:
        app_obj = _ready(request)
        return StreamingResponse(_answer_events(request, app_obj, body, caller.name), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    @api.post("/v1/verify", tags=["research"], responses={422: {"model": s.Problem}})
    def verify(body: s.VerifyRequest, request: Request,
               caller: Annotated[Caller, Depends(requires(Permission.VERIFY))]) -> VerificationReport:
        app_obj = _ready(request)
        context = [c.model_dump() for c in body.context or []]
        report = app_obj.verify(body.text, body.as_of, context, body.offence_on)
        for c in report.citations:
            request.app.state.metrics.citations.labels(c.status.value).inc()
        return report

    @api.get("/v1/sections/{act}/{section}", tags=["research"], responses={404: {"model": s.Problem}})
    def section(act: str, section: str, request: Request,
                caller: Annotated[Caller, Depends(requires(Permission.SECTIONS))],
                as_of: Annotated[s.IsoDate | None, Query()] = None) -> JSONResponse:
        app_obj = _ready(request)
        result = app_obj.section(act, section, as_of)
        if not result["found"]:
            return JSONResponse({"detail": result.get("error") or "not found",
                                 "suggestions": result.get("suggestions", [])}, status_code=404)
        return JSONResponse(result)

    # -- answers and flags --

    @api.get("/v1/answers/{answer_id}", tags=["answers"], responses={404: {"model": s.Problem}})
    def get_answer(answer_id: str, request: Request,
                   caller: Annotated[Caller, Depends(requires(Permission.READ_ANSWERS))]) -> s.StoredAnswer:
        return _answer_or_404(request, answer_id)

    @api.get("/v1/answers", tags=["answers"])
    def list_answers(request: Request, caller: Annotated[Caller, Depends(requires(Permission.READ_ANSWERS))],
                     limit: Annotated[int, Query(ge=1, le=200)] = 20,
                     before: Annotated[str | None, Query(max_length=64)] = None) -> s.AnswerPage:
        records = request.app.state.application.records()
        rows = records.answers.list(limit=limit, before=before)
        docs = [_answer_doc(r) for r in rows]
        return s.AnswerPage(answers=docs, next_before=docs[-1].id if len(docs) == limit else None)

    @api.post("/v1/answers/{answer_id}/flags", tags=["answers"], status_code=201,
              responses={200: {"model": s.Created, "description": "a retry: the flag first stored"},
                         404: {"model": s.Problem}, 409: {"model": s.Problem}, 422: {"model": s.Problem}})
    def add_flag(answer_id: str, body: s.FlagRequest, request: Request, response: Response,
                 caller: Annotated[Caller, Depends(requires(Permission.FLAG))],
                 idempotency_key: Annotated[str | None, Header(max_length=200)] = None) -> s.Created:
        records = request.app.state.application.records()
        flag, created = records.flags.add(
            answer_id=answer_id, start=body.start, end=body.end, label=body.label, comment=body.comment,
            correction=body.correction, key_name=caller.name, idempotency_key=idempotency_key)
        if created:
            request.app.state.metrics.flags.labels(body.label.value).inc()
        else:
            response.status_code = 200  # a retry: the first flag, nothing new stored
        return s.Created(id=str(flag.id))

    @api.get("/v1/answers/{answer_id}/flags", tags=["answers"], responses={404: {"model": s.Problem}})
    def answer_flags(answer_id: str, request: Request,
                     caller: Annotated[Caller, Depends(requires(Permission.READ_ANSWERS))]) -> list[s.FlagOut]:
        _answer_or_404(request, answer_id)
        records = request.app.state.application.records()
        return [_flag_out(f) for f in records.flags.list_for_answer(answer_id)]

    @api.get("/v1/flags", tags=["answers"],
             responses={200: {"content": {"application/json": {}, "application/x-ndjson": {}}}})
    def export_flags(request: Request, caller: Annotated[Caller, Depends(requires(Permission.EXPORT_FLAGS))],
                     since: Annotated[s.IsoDate | None, Query(description="Flags made on or after this day")] = None,
                     label: FlagLabel | None = None,
                     status: Annotated[str | None, Query(pattern="^(pending|accepted|rejected)$")] = None) -> Response:
        records = request.app.state.application.records()
        flags = [_flag_out(f).model_dump(mode="json")
                 for f in records.flags.export(since=since, label=label.value if label else None, status=status)]
        if "application/x-ndjson" in request.headers.get("accept", ""):
            body = "".join(json.dumps(f, ensure_ascii=False) + "\n" for f in flags)
            return Response(body, media_type="application/x-ndjson")
        return JSONResponse(flags)

    @api.post("/v1/flags/{flag_id}/review", tags=["answers"], responses={404: {"model": s.Problem}})
    def review_flag(flag_id: str, body: s.FlagReview, request: Request,
                    caller: Annotated[Caller, Depends(requires(Permission.REVIEW_FLAGS))]) -> s.FlagOut:
        records = request.app.state.application.records()
        return _flag_out(records.flags.review(flag_id, body.status, caller.name))

    # -- data --

    @api.post("/v1/ingest", tags=["data"], status_code=202,
              responses={413: {"model": s.Problem}, 415: {"model": s.Problem}, 422: {"model": s.Problem}},
              openapi_extra={"requestBody": {"content": {
                  "application/x-ndjson": {"schema": {"type": "string"}},
                  "multipart/form-data": {"schema": {"type": "object", "properties": {
                      "file": {"type": "string", "format": "binary"}}, "required": ["file"]}}}}})
    async def ingest(request: Request,
                     caller: Annotated[Caller, Depends(requires(Permission.INGEST))],
                     filename: Annotated[str | None, Query(
                         max_length=200, description="The name of a JSON Lines body (default upload.jsonl); it "
                         "names the file in the job's report and in each record's source. A multipart "
                         "file's own name is used instead.")] = None) -> s.JobAccepted:
        app_obj = _ready(request)
        data, name = await _upload(request, filename)
        job_id = await run_in_threadpool(_submit_ingest, app_obj, data, name, caller.name)
        return s.JobAccepted(job_id=job_id)

    @api.post("/v1/finetune/jobs", tags=["data"], status_code=202, responses={422: {"model": s.Problem}})
    def finetune_job(body: s.FinetuneRequest, request: Request,
                     caller: Annotated[Caller, Depends(requires(Permission.FINETUNE))]) -> s.JobAccepted:
        app_obj = _ready(request)
        import uuid

        out_dir = app_obj.settings.state_dir / "finetune" / uuid.uuid4().hex
        return s.JobAccepted(job_id=app_obj.submit_finetune(out_dir, body.n, body.seed, body.eval_fraction,
                                                            key_name=caller.name))

    @api.post("/v1/keys", tags=["admin"], status_code=201, responses={422: {"model": s.Problem}})
    def create_key(body: s.KeyRequest, request: Request,
                   caller: Annotated[Caller, Depends(requires(Permission.KEYS))]) -> s.KeyCreated:
        row, raw = request.app.state.application.records().keys.create(body.name, body.role)
        return s.KeyCreated(key=raw, **_key_out(row).model_dump())

    @api.get("/v1/keys", tags=["admin"])
    def list_keys(request: Request, caller: Annotated[Caller, Depends(requires(Permission.KEYS))]) -> list[s.KeyOut]:
        return [_key_out(r) for r in request.app.state.application.records().keys.list()]

    @api.delete("/v1/keys/{name}", tags=["admin"], responses={404: {"model": s.Problem}})
    def revoke_key(name: str, request: Request,
                   caller: Annotated[Caller, Depends(requires(Permission.KEYS))]) -> s.KeyOut:
        return _key_out(request.app.state.application.records().keys.revoke(name))

    @api.get("/v1/jobs/{job_id}", tags=["data"], responses={404: {"model": s.Problem}})
    def job(job_id: str, request: Request, caller: Annotated[Caller, Depends(requires(Permission.JOBS))]) -> s.JobOut:
        records = request.app.state.application.records()
        row = records.jobs.get(job_id)
        if row is None:
            raise HTTPException(404, f"no job {job_id!r}")
        return _job_out(row)


# -- helpers -----------------------------------------------------------------------------------------


def _store_answer(request: Request, app_obj: Application, result: AskResult, key_name: str) -> s.StoredAnswer:
    """Persist an answer with its provenance; return it as stored (the answer plus id, time, key, index)."""
    row = app_obj.records().answers.add(result.model_dump(mode="json"), index_version=app_obj.index_version,
                                        key_name=key_name)
    m: ApiMetrics = request.app.state.metrics
    m.answers.labels(result.confidence.label.value, result.complexity.value).inc()
    for c in result.citations:
        m.citations.labels(c.status.value).inc()
    return _answer_doc(row)


def _answer_doc(row: AnswerRow) -> s.StoredAnswer:
    """The stored answer as the API shows it: the workflow's answer plus its provenance."""
    return s.StoredAnswer.model_validate({**row.document, "id": row.id, "created_at": _iso(row.created_at),
                                          "key_name": row.key_name, "index_version": row.index_version})


def _answer_or_404(request: Request, answer_id: str) -> s.StoredAnswer:
    row = request.app.state.application.records().answers.get(answer_id)
    if row is None:
        raise HTTPException(404, f"no answer {answer_id!r}")
    return _answer_doc(row)


def _flag_out(f: FlagRow) -> s.FlagOut:
    return s.FlagOut(id=f.id, answer_id=f.answer_id, start=f.start, end=f.end, span_text=f.span_text,
                     label=FlagLabel(f.label), comment=f.comment, correction=f.correction,
                     status=FlagStatus(f.status), key_name=f.key_name, created_at=_iso(f.created_at),
                     reviewed_at=_iso(f.reviewed_at) if f.reviewed_at else None, reviewed_by=f.reviewed_by)


def _key_out(row: ApiKeyRow) -> s.KeyOut:
    return s.KeyOut(name=row.name, role=Role(row.role), prefix=row.prefix, created_at=_iso(row.created_at),
                    revoked_at=_iso(row.revoked_at) if row.revoked_at else None)


_UPLOAD_DIR = re.compile(r"\S*/uploads/[0-9a-f]{32}/")
"""Where the server keeps an upload: shown to clients as the file's own name, never as a server path."""


def _job_out(row: JobRow) -> s.JobOut:
    return s.JobOut.model_validate({
        "id": row.id, "kind": row.kind, "state": row.state, "stage": row.stage,
        "progress": {"done": row.done, "total": row.total}, "report": row.report,
        "error": _UPLOAD_DIR.sub("", row.error) if row.error else row.error, "attempts": row.attempts or 0,
        "created_at": _iso(row.created_at), "updated_at": _iso(row.updated_at)})


def _iso(value: Any) -> str:
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


DEFAULT_UPLOAD_NAME = "upload.jsonl"


def _upload_name(given: str | None, loc: str) -> str:
    """The upload's file name as the report and the records' sources show it: the last part of the
    name a client sent (browsers may send a whole path), ending in ``.jsonl``.

    Raises:
        RequestValidationError: a name that is not a plain file name ending in .jsonl (422 naming it).
    """
    if given is None or not given.strip():
        return DEFAULT_UPLOAD_NAME
    name = given.replace("\\", "/").rsplit("/", 1)[-1].strip()
    problem = None
    if not name or name.startswith(".") or not name.isprintable() or len(name) > 150:
        problem = f"file name {given!r} is not a plain file name"
    elif not name.lower().endswith(".jsonl"):
        problem = f"file name {given!r} must end in .jsonl (the generic format is JSON Lines)"
    if problem:
        where = ("query", "filename") if loc == "query" else ("body", "file")
        raise RequestValidationError([{"loc": where, "type": "value_error", "msg": problem}])
    return name


async def _upload(request: Request, filename: str | None = None) -> tuple[bytes, str]:
    """The ingest body and its file name: raw JSON Lines (named by ``filename``) or one multipart
    file (its own name), at most ``api.max_upload_mb``."""
    limit = request.app.state.settings.api.max_upload_mb * 1024 * 1024
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit + 64 * 1024:
        raise HTTPException(413, f"body of {int(declared)} bytes is over the {limit // (1024 * 1024)} MB limit")
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype in ("application/x-ndjson", "application/jsonl", "application/json-lines"):
        data = bytearray()
        async for part in request.stream():
            data.extend(part)
            if len(data) > limit:
                raise HTTPException(413, f"body is over the {limit // (1024 * 1024)} MB limit")
        raw = bytes(data)
        name = _upload_name(filename, "query")
    elif ctype == "multipart/form-data":
        try:
            form = await request.form(max_files=1, max_fields=5, max_part_size=limit)
        except StarletteHTTPException as exc:  # a malformed form: the client's fault, named
            raise RequestValidationError([{"loc": ("body", "file"), "type": "value_error",
                                           "msg": f"unreadable multipart form: {exc.detail}"}]) from exc
        upload = form.get("file")
        if upload is None or isinstance(upload, str):
            raise RequestValidationError([{"loc": ("body", "file"), "type": "missing",
                                           "msg": "a multipart upload needs one file in the field 'file'"}])
        raw = await upload.read(limit + 1)
        if len(raw) > limit:
            raise HTTPException(413, f"file is over the {limit // (1024 * 1024)} MB limit")
        name = _upload_name(upload.filename, "body")
    else:
        raise HTTPException(415, "send generic-format JSON Lines as application/x-ndjson, or a multipart "
                                 "form with the file in the field 'file'")
    if not raw.strip():
        raise RequestValidationError([{"loc": ("body",), "type": "value_error",
                                       "msg": "the upload is empty: nothing to ingest"}])
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RequestValidationError([{"loc": ("body",), "type": "value_error",
                                       "msg": f"the upload is not UTF-8 text (byte {exc.start})"}]) from exc
    return raw, name


def _submit_ingest(app_obj: Application, data: bytes, name: str, key_name: str) -> str:
    """Keep the upload under the state dir (workers read it from there), then enqueue the job.

    Each upload gets its own folder and keeps its own file name, so the file reads as the same file
    the CLI would read: records carry ``<name>:<line>`` as their source (re-uploading an unchanged
    file writes nothing) and rejects name the file the client sent.
    """
    import uuid

    folder = app_obj.settings.state_dir / "uploads" / uuid.uuid4().hex
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    tmp = folder / f".{name}.part"
    tmp.write_bytes(data)
    tmp.replace(path)
    return app_obj.submit_ingest([path], key_name=key_name, params={"bytes": len(data), "file": name})


def _sse(event: str, data: Any) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def _answer_events(request: Request, app_obj: Application, body: s.AskRequest, key_name: str
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
            result = app_obj.ask(body.question, body.as_of, on_stage=on_stage)
            doc = _store_answer(request, app_obj, result, key_name)
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
    if isinstance(exc, InvalidInputError | LegalRagError):
        return str(exc)
    return f"internal error ({type(exc).__name__}); the answer was not produced"

