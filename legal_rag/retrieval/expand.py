"""Query expansion with curated terms of art (``data/retrieval/terms_of_art.jsonl``).

A query that uses a term of art ("dying declaration") gets the statute's own wording appended as
one more sentence, so BM25 finds the words and the heading channel gets a sentence to match.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from graph_schema.errors import IngestError


@dataclass(frozen=True, slots=True)
class TermsOfArt:
    patterns: tuple[tuple[re.Pattern[str], str], ...]

    @classmethod
    def load(cls, path: Path) -> TermsOfArt:
        """Read the curated file.

        Raises:
            IngestError: a malformed line (file:line named).
        """
        out: list[tuple[re.Pattern[str], str]] = []
        if not path.exists():
            return cls(())
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise IngestError(f"{path}:{n}: malformed JSON: {exc.msg}") from exc
            terms, expansion = obj.get("terms"), obj.get("expansion")
            if (
                not isinstance(terms, list)
                or not terms
                or not all(isinstance(t, str) and t.strip() for t in terms)
                or not isinstance(expansion, str)
                or not expansion.strip()
            ):
                raise IngestError(f'{path}:{n}: expected {{"terms": [non-empty strings], "expansion": string}}')
            alts = "|".join(
                re.escape(t.strip()).replace(r"\ ", r"[\s-]+") for t in sorted(terms, key=len, reverse=True)
            )
            out.append((re.compile(rf"(?<![\w-])(?:{alts})(?![\w-])", re.IGNORECASE), expansion.strip()))
        return cls(tuple(out))

    def expand(self, query: str) -> str:
        """``query`` plus the statutory wording of each term of art it uses (each once)."""
        extra = [exp for pat, exp in self.patterns if pat.search(query)]
        extra = [e for e in dict.fromkeys(extra) if e.lower() not in query.lower()]
        if not extra:
            return query
        return query.rstrip() + ("" if query.rstrip().endswith((".", "?", "!")) else ".") + " " + ". ".join(extra) + "."
