"""API keys: create (shown once), list, revoke."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from legal_rag.api import schemas as s
from legal_rag.api.deps import RecordsApp
from legal_rag.api.security import Caller, Permission, requires
from legal_rag.api.views import key_out

router = APIRouter(tags=["admin"])


@router.post("/v1/keys", status_code=201, responses={422: {"model": s.Problem}})
def create_key(
    body: s.KeyRequest, caller: Annotated[Caller, Depends(requires(Permission.KEYS))], application: RecordsApp
) -> s.KeyCreated:
    row, raw = application.create_key(body.name, body.role, body.team)
    return s.KeyCreated(key=raw, **key_out(row).model_dump())


@router.get("/v1/keys")
def list_keys(caller: Annotated[Caller, Depends(requires(Permission.KEYS))], application: RecordsApp) -> list[s.KeyOut]:
    return [key_out(r) for r in application.api_keys()]


@router.delete("/v1/keys/{name}", responses={404: {"model": s.Problem}})
def revoke_key(
    name: str, caller: Annotated[Caller, Depends(requires(Permission.KEYS))], application: RecordsApp
) -> s.KeyOut:
    return key_out(application.revoke_key(name))
