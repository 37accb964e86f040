"""Who may do what through the API: the roles API keys carry, the teams they belong to, and the
viewer a read is made for (no database import, so the CLI and the records can both name them)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

DEFAULT_TEAM = "default"
"""The team of a key made without ``--team`` (and of every key, answer and flag made before teams)."""


class Role(StrEnum):
    LAWYER = "lawyer"
    PARALEGAL = "paralegal"
    DATA_ENGINEER = "data_engineer"
    ADMIN = "admin"
    METRICS = "metrics"
    """A scraper's key: reads ``/metrics`` and nothing else."""


@dataclass(frozen=True, slots=True)
class Viewer:
    """On whose behalf answers and flags are read or written: a key's name, role and team.

    An admin sees every team's records; every other role sees only its own team's, and a record
    of another team reads as absent (so its id does not even say that it exists).
    """

    name: str
    role: Role
    team: str = DEFAULT_TEAM

    @property
    def sees_all(self) -> bool:
        return self.role is Role.ADMIN

    def may_see(self, team: str) -> bool:
        return self.sees_all or team == self.team


SYSTEM = Viewer(name="system", role=Role.ADMIN, team=DEFAULT_TEAM)
"""The process itself (CLI commands run by the operator, training-data jobs): sees every team."""
