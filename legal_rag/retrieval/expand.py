"""Query expansion with curated terms of art (``data/retrieval/terms_of_art.jsonl``).

A query that uses a term of art ("dying declaration") gets the statute's own wording appended as
one more sentence, so BM25 finds the words and the heading channel gets a sentence to match.

Some entries put a client's account of the facts into the statute's words ("secretly filmed her" ->
"captures the image of a woman engaging in a private act"). Those are marked ``"when": "offence"``:
they describe an offence, and are appended only when the question asks about one (what offence, who is
liable, what punishment). Elsewhere they would pull the answer away from what was asked: "the victim
told the doctor who had attacked her; can her statement be used?" is about a dying declaration, not hurt.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from graph_schema.errors import IngestError

ASKS_OFFENCE = re.compile(
    r"\b(?:what|which)\s+(?:\w+\s+){0,2}(?:offen[cs]es?|crimes?)\b|\bcharged?\s+(?:(?:him|her|them)\s+)?with\b"
    r"|\bguilty\s+of\b|\bcriminal(?:ly)?\s+liab(?:le|ility)\b|\bprosecuted\s+(?:for|under)\b"
    r"|\b(?:he|she|they|accused|client|person|husband|wife|man|woman)\s+be\s+charged\b"
    r"|\bpunish(?:ed|able|ment)\b|\bsentence[ds]?\b|\bbook(?:ed)?\s+(?:him|her|them\s+)?(?:for|under)\b|\bbe\s+booked\b"
    r"|\b(?:case|complaint|fir|action)\s+against\b|\bis\s+(?:it|this|that)\s+(?:an?\s+)?(?:offen[cs]e|crime|criminal)\b"
    r"|\b(?:which|what)\s+(?:\w+\s+)?(?:sections?|provisions?)\s+(?:of\s+\w+\s+)?(?:apply|applies|attract|is|are|can|could)\b"
    r"|\bunder\s+which\s+(?:section|provision)|\bhas\s+(?:he|she|they|it)\s+committed\b|\bcommitted\s+(?:an?\s+)?"
    r"(?:offen[cs]e|crime)\b",
    re.IGNORECASE,
)
"""The question asks about an offence: which one the facts make out, who is liable, what punishment, or
what case can be brought against someone. A bare "liable" counts only with ``CRIMINAL`` context: "are the
sons liable for his debts?" is about succession."""
_LIABLE = re.compile(r"\bliab(?:le|ility)\b", re.IGNORECASE)
CRIMINAL = re.compile(
    r"\b(?:accused|police|fir|arrest\w*|murder\w*|kill\w*|stab\w*|assault\w*|beat\w*|crime|criminal|offen[cs]es?"
    r"|ipc|bns|theft|stole\w*|cheat\w*|rap(?:e|ed)|attack\w*|weapon|injur\w*|dowry|forg\w*|bribe\w*)\b",
    re.IGNORECASE,
)


def asks_offence(question: str) -> bool:
    """Whether ``question`` asks about an offence (``ASKS_OFFENCE``, or "liable" in a criminal matter)."""
    return bool(ASKS_OFFENCE.search(question)) or (bool(_LIABLE.search(question)) and bool(CRIMINAL.search(question)))


WHEN = frozenset({"always", "offence"})


@dataclass(frozen=True, slots=True)
class Term:
    pattern: re.Pattern[str]
    expansion: str
    offence_only: bool = False
    """An account of facts in lay words: appended only to a question that asks about an offence."""


@dataclass(frozen=True, slots=True)
class TermsOfArt:
    terms: tuple[Term, ...]

    @classmethod
    def load(cls, path: Path) -> TermsOfArt:
        """Read the curated file.

        Raises:
            IngestError: a malformed line (file:line named).
        """
        out: list[Term] = []
        if not path.exists():
            return cls(())
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise IngestError(f"{path}:{n}: malformed JSON: {exc.msg}") from exc
            if not isinstance(obj, dict):
                raise IngestError(f'{path}:{n}: expected {{"terms": [non-empty strings], "expansion": string}}')
            terms, expansion, when = obj.get("terms"), obj.get("expansion"), obj.get("when", "always")
            if (
                not isinstance(terms, list)
                or not terms
                or not all(isinstance(t, str) and t.strip() for t in terms)
                or not isinstance(expansion, str)
                or not expansion.strip()
            ):
                raise IngestError(f'{path}:{n}: expected {{"terms": [non-empty strings], "expansion": string}}')
            if when not in WHEN:
                raise IngestError(f'{path}:{n}: "when" must be one of {sorted(WHEN)}, not {when!r}')
            alts = "|".join(
                re.escape(t.strip()).replace(r"\ ", r"[\s-]+") for t in sorted(terms, key=len, reverse=True)
            )
            pattern = re.compile(rf"(?<![\w-])(?:{alts})(?![\w-])", re.IGNORECASE)
            out.append(Term(pattern, expansion.strip(), offence_only=when == "offence"))
        return cls(tuple(out))

    def matches(self, query: str) -> list[tuple[re.Match[str], Term]]:
        """The terms that apply to ``query``, each with where it first matched."""
        out: list[tuple[re.Match[str], Term]] = []
        offence: bool | None = None  # computed once, and only if an offence term matches
        for t in self.terms:
            m = t.pattern.search(query)
            if m is None:
                continue
            if t.offence_only:
                offence = asks_offence(query) if offence is None else offence
                if not offence:
                    continue
            out.append((m, t))
        return out

    def expand(self, query: str) -> str:
        """``query`` plus the statutory wording of each term of art it uses (each once)."""
        extra = [t.expansion for _, t in self.matches(query)]
        extra = [e for e in dict.fromkeys(extra) if e.lower() not in query.lower()]
        if not extra:
            return query
        return query.rstrip() + ("" if query.rstrip().endswith((".", "?", "!")) else ".") + " " + ". ".join(extra) + "."
