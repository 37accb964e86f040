"""The case registry format: JSON Lines of judgments data engineers load so precedents can be checked.

    {"citation": "(2014) 8 SCC 273", "citations": ["AIR 2014 SC 2756"], "parties": "Arnesh Kumar v.
     State of Bihar", "court": "Supreme Court of India", "date": "2014-07-02"}

``citation`` (and optional parallel ``citations``) must be reporter or neutral citations we can read
("(2014) 8 SCC 273", "AIR 1973 SC 1461", "2023 SCC OnLine SC 890", "2024 INSC 123",
"2023:DHC:1234"); they are stored in canonical spelling so any spelling in an answer finds them.
"""

from __future__ import annotations

from pathlib import Path

from graph_schema.citations import case_citations
from graph_schema.model import Case
from ingestion.dates import parse_date
from ingestion.report import Reject
from ingestion.sources.base import Parsed, read_jsonl, text_or_none

ACT = "CASES"  # the row label in ingest summaries


def read_cases(path: Path) -> Parsed:
    out = Parsed()
    seen: dict[str, int] = {}
    for n, r in read_jsonl(path, out.rejects):
        raw = [r.get("citation"), *(r.get("citations") or [])] if isinstance(r.get("citations") or [], list) else []
        if not raw or not all(isinstance(c, str) for c in raw if c is not None):
            out.rejects.append(
                Reject(path.name, n, "'citation' must be a string and 'citations' a list of strings", ACT)
            )
            continue
        cits: list[str] = []
        for c in raw:
            found = case_citations(c or "")
            if not found:
                out.rejects.append(
                    Reject(path.name, n, f"{c!r} is not a reporter or neutral citation we can read", ACT)
                )
                cits = []
                break
            cits.extend(x for x in found if x not in cits)
        if not cits:
            continue
        parties, court = text_or_none(r.get("parties")), text_or_none(r.get("court"))
        if not parties or not court:
            out.rejects.append(Reject(path.name, n, "a case needs 'parties' and 'court'", ACT))
            continue
        date = None
        if r.get("date") not in (None, ""):
            date = parse_date(str(r.get("date")))
            if date is None:
                out.rejects.append(Reject(path.name, n, f"date {r.get('date')!r} is not a date (use YYYY-MM-DD)", ACT))
                continue
        clash = next((c for c in cits if c in seen), None)
        if clash:
            out.rejects.append(Reject(path.name, n, f"citation {clash} already given at line {seen[clash]}", ACT))
            continue
        seen.update(dict.fromkeys(cits, n))
        out.cases.append(
            Case(citations=tuple(cits), parties=parties, court=court, date=date, source=f"{path.name}:{n}")
        )
    return out
