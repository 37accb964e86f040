"""Who may do what through the API: the roles API keys carry (no database import, so the CLI can name them)."""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    LAWYER = "lawyer"
    PARALEGAL = "paralegal"
    DATA_ENGINEER = "data_engineer"
    ADMIN = "admin"
