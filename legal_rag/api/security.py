"""Who may do what: API keys in ``X-API-Key``, four roles, and a per-key rate limit.

A key is looked up in the records (only its hash is stored there). Missing, unknown or revoked:
401. A role without the right: 403. Over the key's rate: 429 with ``Retry-After``. A client address
that sent too many unknown keys gets 429 before its key is even looked up
(:class:`legal_rag.api.hardening.FailedKeyLimiter`). The key is read from ``X-API-Key`` (or, for
scrapers such as Prometheus, ``Authorization: Bearer``) and never logged or echoed.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from fastapi import HTTPException, Request

from legal_rag.roles import Role, Viewer

__all__ = ["Caller", "Permission", "RateLimiter", "ROLE_PERMISSIONS", "requires"]


class Permission(StrEnum):
    ASK = "ask"
    VERIFY = "verify"
    SECTIONS = "sections"
    READ_ANSWERS = "read_answers"
    FLAG = "flag"
    EXPORT_FLAGS = "export_flags"
    REVIEW_FLAGS = "review_flags"
    INGEST = "ingest"
    JOBS = "jobs"
    FINETUNE = "finetune"
    KEYS = "keys"
    METRICS = "metrics"


_LAWYER = frozenset({Permission.ASK, Permission.VERIFY, Permission.SECTIONS, Permission.READ_ANSWERS})

ROLE_PERMISSIONS: dict[Role, frozenset[Permission]] = {
    Role.LAWYER: _LAWYER,
    Role.PARALEGAL: _LAWYER | {Permission.FLAG},
    # Data engineers load statutes and build training data (which reads the flags export).
    Role.DATA_ENGINEER: frozenset({Permission.INGEST, Permission.JOBS, Permission.SECTIONS, Permission.EXPORT_FLAGS,
                                   Permission.FINETUNE}),
    Role.ADMIN: frozenset(Permission),
    Role.METRICS: frozenset({Permission.METRICS}),
}


@dataclass(frozen=True, slots=True)
class Caller:
    """The authenticated key behind a request."""

    name: str
    role: Role
    team: str

    def can(self, permission: Permission) -> bool:
        return permission in ROLE_PERMISSIONS[self.role]

    @property
    def viewer(self) -> Viewer:
        """Whose records this caller may read and write (its team's; an admin's, every team's)."""
        return Viewer(name=self.name, role=self.role, team=self.team)


class RateLimiter:
    """A token bucket per key: ``per_minute`` requests a minute, refilled continuously, burst of the same size."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = per_minute / 60.0
        self.capacity = float(per_minute)
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        """Spend one token; returns 0 when allowed, else the seconds until the next token."""
        with self._lock:
            now = self._clock()
            tokens, last = self._buckets.get(key, (self.capacity, now))
            tokens = min(self.capacity, tokens + (now - last) * self.rate)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                return 0.0
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate


def requires(permission: Permission) -> Callable[[Request], Caller]:
    """A FastAPI dependency: the caller, if its key is valid, has ``permission`` and is within its rate."""

    def dependency(request: Request) -> Caller:
        state = request.app.state
        raw = _presented_key(request)
        if not raw:
            raise HTTPException(401, "missing API key: send it in the X-API-Key header",
                                headers={"WWW-Authenticate": "X-API-Key"})
        address = request.client.host if request.client else "unknown"
        wait = state.failed_keys.blocked_for(address)
        if wait > 0:
            raise HTTPException(429, "too many unknown API keys from this address; try again later",
                                headers={"Retry-After": str(max(1, math.ceil(wait)))})
        record = state.application.authenticate(raw)
        if record is None:
            state.failed_keys.failed(address)
            raise HTTPException(401, "unknown or revoked API key", headers={"WWW-Authenticate": "X-API-Key"})
        caller = Caller(name=record.name, role=Role(record.role), team=record.team)
        wait = state.rate_limiter.take(caller.name)
        if wait > 0:
            raise HTTPException(429, f"rate limit of {state.settings.api.rate_limit_per_minute} requests a minute "
                                     f"exceeded for key {caller.name!r}",
                                headers={"Retry-After": str(max(1, math.ceil(wait)))})
        if not caller.can(permission):
            raise HTTPException(403, f"role {caller.role.value!r} may not {permission.value.replace('_', ' ')}")
        request.state.caller = caller
        return caller

    return dependency


def _presented_key(request: Request) -> str | None:
    raw = request.headers.get("x-api-key")
    if raw:
        return raw
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None
