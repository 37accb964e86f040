"""Data: statute uploads ingested by the workers, Finetune-RAG dataset builds, and their jobs."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from legal_rag.api import schemas as s
from legal_rag.api.deps import ReadyApp, RecordsApp, SettingsDep
from legal_rag.api.security import Caller, Permission, requires
from legal_rag.api.views import job_out

router = APIRouter(tags=["data"])

DEFAULT_UPLOAD_NAME = "upload.jsonl"

_UPLOAD_BODY = {"requestBody": {"content": {
    "application/x-ndjson": {"schema": {"type": "string"}},
    "multipart/form-data": {"schema": {"type": "object", "properties": {
        "file": {"type": "string", "format": "binary"}}, "required": ["file"]}}}}}  # fmt: skip


@router.post("/v1/ingest", status_code=202, openapi_extra=_UPLOAD_BODY,
             responses={413: {"model": s.Problem}, 415: {"model": s.Problem}, 422: {"model": s.Problem}})
async def ingest(request: Request, settings: SettingsDep,
                 caller: Annotated[Caller, Depends(requires(Permission.INGEST))], application: ReadyApp,
                 filename: Annotated[str | None, Query(
                     max_length=200, description="The name of a JSON Lines body (default upload.jsonl); it "
                     "names the file in the job's report and in each record's source. A multipart "
                     "file's own name is used instead.")] = None) -> s.JobAccepted:
    data, name = await _upload(request, settings.api.max_upload_mb * 1024 * 1024, filename)
    job_id = await run_in_threadpool(application.submit_upload, data, name, caller.name)
    return s.JobAccepted(job_id=job_id)


@router.post("/v1/finetune/jobs", status_code=202, responses={422: {"model": s.Problem}})
def finetune_job(body: s.FinetuneRequest, caller: Annotated[Caller, Depends(requires(Permission.FINETUNE))],
                 application: ReadyApp) -> s.JobAccepted:
    return s.JobAccepted(job_id=application.submit_finetune(None, body.n, body.seed, body.eval_fraction,
                                                            key_name=caller.name))


@router.get("/v1/jobs/{job_id}", responses={404: {"model": s.Problem}})
def job(job_id: str, caller: Annotated[Caller, Depends(requires(Permission.JOBS))],
        application: RecordsApp) -> s.JobOut:
    return job_out(application.job(job_id))


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


async def _upload(request: Request, limit: int, filename: str | None = None) -> tuple[bytes, str]:
    """The ingest body and its file name: raw JSON Lines (named by ``filename``) or one multipart
    file (its own name), at most ``limit`` bytes."""
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
