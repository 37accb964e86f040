"""What an ingestion run did: rejected records with their location, and per-Act counts."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Reject:
    """One record refused by validation, with where it came from and why."""

    file: str
    line: int
    reason: str
    act: str | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"


@dataclass
class IngestReport:
    """Counts per Act of added / updated / unchanged / rejected records."""

    added: Counter[str] = field(default_factory=Counter)
    updated: Counter[str] = field(default_factory=Counter)
    unchanged: Counter[str] = field(default_factory=Counter)
    rejected: Counter[str] = field(default_factory=Counter)
    rejects: list[Reject] = field(default_factory=list)
    empty_files: list[str] = field(default_factory=list)
    """Input files that held no records at all (said so to the user, never silently ignored)."""

    def reject(self, r: Reject) -> None:
        self.rejects.append(r)
        self.rejected[r.act or "?"] += 1

    @property
    def acts(self) -> list[str]:
        keys = set(self.added) | set(self.updated) | set(self.unchanged) | set(self.rejected)
        return sorted(keys)

    @property
    def changed(self) -> bool:
        return bool(sum(self.added.values()) or sum(self.updated.values()))

    def totals(self) -> dict[str, int]:
        return {
            "added": sum(self.added.values()),
            "updated": sum(self.updated.values()),
            "unchanged": sum(self.unchanged.values()),
            "rejected": sum(self.rejected.values()),
        }

    def as_dict(self) -> dict[str, object]:
        return {
            "totals": self.totals(),
            "per_act": {
                a: {
                    "added": self.added[a],
                    "updated": self.updated[a],
                    "unchanged": self.unchanged[a],
                    "rejected": self.rejected[a],
                }
                for a in self.acts
            },
            "rejects": [{"file": r.file, "line": r.line, "reason": r.reason, "act": r.act} for r in self.rejects],
            "empty_files": list(self.empty_files),
        }

    def changed_acts(self) -> list[str]:
        """Acts with an added, updated or rejected record (what the summary lists by default)."""
        return [a for a in self.acts if self.added[a] or self.updated[a] or self.rejected[a]]

    def merge(self, other: IngestReport) -> None:
        self.added.update(other.added)
        self.updated.update(other.updated)
        self.unchanged.update(other.unchanged)
        self.rejected.update(other.rejected)
        self.rejects.extend(other.rejects)
        self.empty_files.extend(other.empty_files)
