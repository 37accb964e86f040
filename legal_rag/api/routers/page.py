"""What the research page needs beyond asking: who am I, an answer as a lawyer reads it, its exports, my
history, a paralegal's review queue and the admins' flag counts.

Thin, like every route: check the key's role, call the application, render. The page (``static/app.js``) is the
main client; every endpoint is also plain JSON (or a file) for scripts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response
from pydantic import BaseModel

from legal_rag.api.security import ROLE_PERMISSIONS, Caller, Permission, requires
from legal_rag.app import Application
from legal_rag.results import AnswerView, to_docx, to_markdown

__all__ = ["router"]

router = APIRouter()

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"

VIEWS = {
    Permission.ASK: "ask",
    Permission.READ_ANSWERS: "history",
    Permission.FLAG: "review",
    Permission.REVIEW_FLAGS: "flags",
    Permission.EXPORT_FLAGS: "flag-export",
}
"""The page's views each permission opens (a data engineer, who may not ask, sees no question box)."""


class Me(BaseModel):
    name: str
    role: str
    permissions: list[str]
    views: list[str]
    """The research page's views for this role: ``ask``, ``history``, ``review``, ``flags``, ``flag-export``."""


class HistoryItem(BaseModel):
    id: str
    question: str
    as_of: str
    created_at: str
    confidence: str | None = None
    first_line: str


class History(BaseModel):
    items: list[HistoryItem]
    next_before: str | None = None


class QueueAnswer(BaseModel):
    id: str
    question: str
    as_of: str
    created_at: str
    confidence: str | None = None
    key_name: str
    flags: int
    pending: int


class QueueFlag(BaseModel):
    id: str
    answer_id: str
    label: str
    span_text: str
    comment: str | None = None
    correction: str | None = None
    status: str
    created_at: str
    reviewed_by: str | None = None
    reviewed_at: str | None = None


class ReviewQueue(BaseModel):
    answers: list[QueueAnswer]
    """Answers to check: below High confidence, or with a flag pending review."""
    flags: list[QueueFlag]
    """The flags made with this key, with their comments and review status."""


ASSETS = {"app.js": "text/javascript", "app.css": "text/css"}
"""The research page's script and style sheet (separate files: the page runs under a CSP without inline code)."""
STATIC = Path(__file__).parent.parent / "static"


@router.get("/static/{name}", include_in_schema=False)
def static_asset(name: str) -> Response:
    if name not in ASSETS:
        raise HTTPException(404, "not found")
    return Response((STATIC / name).read_bytes(), media_type=f"{ASSETS[name]}; charset=utf-8",
                    headers={"Cache-Control": "no-cache"})


def _application(request: Request) -> Application:
    app_obj: Application = request.app.state.application
    return app_obj


def _view_or_404(app_obj: Application, answer_id: str, caller: Caller) -> AnswerView:
    view = app_obj.answer_view(answer_id, caller.viewer)  # another team's answer reads as absent: 404
    if view is None:
        raise HTTPException(404, f"no answer {answer_id!r}")
    return view


# Every role may look sections up, so SECTIONS stands for "any valid key" here.
@router.get("/v1/me", tags=["research"])
def me(caller: Annotated[Caller, Depends(requires(Permission.SECTIONS))]) -> Me:
    """The key's name and role, what it may do and which views of the research page it opens."""
    allowed = ROLE_PERMISSIONS[caller.role]
    return Me(name=caller.name, role=caller.role.value, permissions=sorted(p.value for p in allowed),
              views=[v for p, v in VIEWS.items() if p in allowed])


@router.get("/v1/answers/{answer_id}/view", tags=["answers"], responses={404: {"description": "no such answer"}})
def answer_view(answer_id: str, request: Request,
                caller: Annotated[Caller, Depends(requires(Permission.READ_ANSWERS))]) -> dict[str, Any]:
    """A stored answer as a lawyer reads it: the direct answer first (``lines`` with ``part: answer``), then the
    deciding provisions; one row per cited provision (Act, section, status, date); the numbered sources;
    confidence in words with its factors; the claims with their evidence named by provision."""
    return _view_or_404(_application(request), answer_id, caller).as_dict()


@router.get("/v1/answers/{answer_id}/export", tags=["answers"], response_class=Response,
            responses={200: {"content": {"text/markdown": {}, DOCX: {}}}, 404: {"description": "no such answer"}})
def export_answer(answer_id: str, request: Request,
                  caller: Annotated[Caller, Depends(requires(Permission.READ_ANSWERS))],
                  format: Annotated[Literal["md", "docx"], Query()] = "md") -> Response:  # noqa: A002
    """The answer with its citations and sources as Markdown or as a Word document."""
    view = _view_or_404(_application(request), answer_id, caller)
    name = f"answer-{view.id}.{format}"
    headers = {"Content-Disposition": f'attachment; filename="{name}"'}
    if format == "docx":
        return Response(to_docx(view), media_type=DOCX, headers=headers)
    return Response(to_markdown(view), media_type="text/markdown; charset=utf-8", headers=headers)


@router.get("/v1/history", tags=["answers"])
def history(request: Request, caller: Annotated[Caller, Depends(requires(Permission.READ_ANSWERS))],
            q: Annotated[str | None, Query(max_length=200, description="Words the question contains")] = None,
            limit: Annotated[int, Query(ge=1, le=200)] = 20,
            before: Annotated[str | None, Query(max_length=64)] = None) -> History:
    """The questions asked with this key, newest first; ``q`` keeps those containing its words."""
    items = [HistoryItem(**i) for i in _application(request).history(caller.name, (q or "").strip() or None,
                                                                      limit, before)]
    return History(items=items, next_before=items[-1].id if len(items) == limit else None)


@router.get("/v1/review", tags=["answers"])
def review_queue(request: Request, caller: Annotated[Caller, Depends(requires(Permission.FLAG))],
                 limit: Annotated[int, Query(ge=1, le=200)] = 50) -> ReviewQueue:
    """A paralegal's queue: answers to check with their flag counts, and this key's flags with comments and
    status (pending until an admin accepts or rejects them)."""
    return ReviewQueue.model_validate(_application(request).review_queue(caller.viewer, limit))


@router.get("/v1/flags/summary", tags=["answers"])
def flag_summary(request: Request,
                 caller: Annotated[Caller, Depends(requires(Permission.EXPORT_FLAGS))]) -> dict[str, dict[str, int]]:
    """How many flags carry each label, by review status (export them with ``GET /v1/flags?label=``)."""
    return _application(request).flag_counts(caller.viewer)
