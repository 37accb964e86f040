"""What an ingestion run did: rejected records with their location, and per-Act counts."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a record: what, and where on its line."""

    reason: str
    field: str | None = None
    """The record's field at fault (None: the line as a whole, or a field that is missing)."""
    column: int | None = None
    """1-based character column on the line: where the field's key starts, or where JSON parsing failed."""


@dataclass(frozen=True, slots=True)
class Reject:
    """One record refused by validation, with where it came from and why.

    ``reason`` lists every problem found on the line (``; ``-separated, in column order);
    ``problems`` gives each with its field and column, and ``column`` is the first one's.
    """

    file: str
    line: int
    reason: str
    act: str | None = None
    column: int | None = None
    problems: tuple[Problem, ...] = ()

    @classmethod
    def of(cls, file: str, line: int, problems: list[Problem], act: str | None = None) -> Reject:
        """A reject listing ``problems`` (at least one), ordered by column (unplaced ones last)."""
        ordered = tuple(sorted(problems, key=lambda p: (p.column is None, p.column or 0)))
        return cls(file, line, "; ".join(p.reason for p in ordered), act,
                   next((p.column for p in ordered if p.column is not None), None), ordered)

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" + (f":{self.column}" if self.column else "")
        return f"{where}: {self.reason}"

    def as_dict(self) -> dict[str, object]:
        return {"file": self.file, "line": self.line, "column": self.column, "reason": self.reason,
                "act": self.act, "problems": [{"reason": p.reason, "field": p.field, "column": p.column}
                                              for p in self.problems]}


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
            "rejects": [r.as_dict() for r in self.rejects],
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
