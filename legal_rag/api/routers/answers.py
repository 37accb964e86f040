"""Stored answers and the flags paralegals put on them (export and review for training data)."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Depends, Header, Query, Request, Response
from fastapi.responses import JSONResponse

from legal_rag.api import schemas as s
from legal_rag.api.deps import Metrics, RecordsApp
from legal_rag.api.security import Caller, Permission, requires
from legal_rag.api.views import answer_doc, flag_out
from legal_rag.results import FlagLabel

router = APIRouter(tags=["answers"])


@router.get("/v1/answers/{answer_id}", responses={404: {"model": s.Problem}})
def get_answer(
    answer_id: str, caller: Annotated[Caller, Depends(requires(Permission.READ_ANSWERS))], application: RecordsApp
) -> s.StoredAnswer:
    return answer_doc(application.answer(answer_id, caller.viewer))  # another team's: 404


@router.get("/v1/answers")
def list_answers(
    caller: Annotated[Caller, Depends(requires(Permission.READ_ANSWERS))],
    application: RecordsApp,
    limit: Annotated[int, Query(ge=1, le=200)] = 20,
    before: Annotated[str | None, Query(max_length=64)] = None,
) -> s.AnswerPage:
    docs = [answer_doc(r) for r in application.answers(caller.viewer, limit=limit, before=before)]
    return s.AnswerPage(answers=docs, next_before=docs[-1].id if len(docs) == limit else None)


@router.post(
    "/v1/answers/{answer_id}/flags",
    status_code=201,
    responses={
        200: {"model": s.Created, "description": "a retry: the flag first stored"},
        404: {"model": s.Problem},
        409: {"model": s.Problem},
        422: {"model": s.Problem},
    },
)
def add_flag(
    answer_id: str,
    body: s.FlagRequest,
    response: Response,
    metrics: Metrics,
    caller: Annotated[Caller, Depends(requires(Permission.FLAG))],
    application: RecordsApp,
    idempotency_key: Annotated[str | None, Header(max_length=200)] = None,
) -> s.Created:
    flag, created = application.add_flag(
        answer_id,
        start=body.start,
        end=body.end,
        label=body.label,
        comment=body.comment,
        correction=body.correction,
        viewer=caller.viewer,
        idempotency_key=idempotency_key,
    )
    if created:
        metrics.flags.labels(body.label.value).inc()
    else:
        response.status_code = 200  # a retry: the first flag, nothing new stored
    return s.Created(id=str(flag.id))


@router.get("/v1/answers/{answer_id}/flags", responses={404: {"model": s.Problem}})
def answer_flags(
    answer_id: str, caller: Annotated[Caller, Depends(requires(Permission.READ_ANSWERS))], application: RecordsApp
) -> list[s.FlagOut]:
    return [flag_out(f) for f in application.answer_flags(answer_id, caller.viewer)]


@router.get("/v1/flags", responses={200: {"content": {"application/json": {}, "application/x-ndjson": {}}}})
def export_flags(
    request: Request,
    caller: Annotated[Caller, Depends(requires(Permission.EXPORT_FLAGS))],
    application: RecordsApp,
    since: Annotated[s.IsoDate | None, Query(description="Flags made on or after this day")] = None,
    label: FlagLabel | None = None,
    status: Annotated[str | None, Query(pattern="^(pending|accepted|rejected)$")] = None,
) -> Response:
    flags = [flag_out(f).model_dump(mode="json") for f in application.export_flags(caller.viewer, since, label, status)]
    if "application/x-ndjson" in request.headers.get("accept", ""):
        body = "".join(json.dumps(f, ensure_ascii=False) + "\n" for f in flags)
        return Response(body, media_type="application/x-ndjson")
    return JSONResponse(flags)


@router.post("/v1/flags/{flag_id}/review", responses={404: {"model": s.Problem}})
def review_flag(
    flag_id: str,
    body: s.FlagReview,
    caller: Annotated[Caller, Depends(requires(Permission.REVIEW_FLAGS))],
    application: RecordsApp,
) -> s.FlagOut:
    return flag_out(application.review_flag(flag_id, body.status, caller.viewer))
