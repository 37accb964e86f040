"""Questions asked before: labelled questions as situations of the provisions that decided them.

The lay cards (``lay.py``) tell each provision's situations as their writers imagined a client would. Labelled
questions tell them as people did ask ("after a fight my husband went back to dubai and my in laws are now telling me
to leave the house"). Each labelled development question is added, in its own words, to the situations of the
provisions of today's law its answer must cite, and the lay channel matches a new story (15 words or more) against
it as against any situation. This is
document expansion by past queries (the way search engines use the queries that led to a page), not a lexicon: no
entry is written for a miss, and the questions are the evaluation sets' as their blind writers wrote them.

Built by ``legal-rag eval build-asked`` from the development sets that were read (never a sealed or held-out set, nor a
question that a measuring set asks: ``Application._development_files``) and shipped as ``data/retrieval/asked.jsonl``.
A question dated before 2024-07-01, an unanswerable one and the old codes' provisions add nothing (a new-code
provision's situations already speak for the old-code sections it replaced: ``LayChannel``), nor one that is a near copy
of a question that measures (``NEAR_COPY``). Whatever asks labelled questions (scoring, training) does so inside
``HybridRetriever.leaving_out`` a ``LeaveOut`` of their sets and questions: a development set is scored
leave-one-set-out, never by looking itself up.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from graph_schema.errors import IngestError
from graph_schema.model import NEW_CRIMINAL_CODES_IN_FORCE, main_section
from legal_rag.model_files import write_whole
from legal_rag.retrieval.jsonlines import json_objects
from legal_rag.retrieval.rerank import OLD_CODES

log = logging.getLogger(__name__)

__all__ = ["NEAR_COPY", "AskedQuestion", "LeaveOut", "asked_rows", "normalised", "read_asked", "write_asked"]

NEAR_COPY = 0.95
"""Cosine of two questions' sentence vectors at or above which one is a near copy of the other ("What is the
punishment ..." / "What's the punishment ..."): a question that measures keeps its near copies out of the file."""
SHAPE = '{"id": ..., "from": set file name, "question": ..., "cited": [[act, section], ...]}'
KEYS = frozenset({"id", "from", "question", "cited"})


@dataclass(frozen=True, slots=True)
class AskedQuestion:
    """A labelled question and the provisions of today's law its answer must cite."""

    id: str
    source: str
    """The name of the set it came from ("probe15.jsonl")."""
    question: str
    cited: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class LeaveOut:
    """What a run that asks labelled questions leaves out of the questions asked before: those taken from its sets
    (by file name) and any that asks one of its questions (normalised)."""

    sets: frozenset[str] = frozenset()
    questions: frozenset[str] = frozenset()

    @classmethod
    def of(cls, sets: Iterable[str] = (), questions: Iterable[str] = ()) -> LeaveOut:
        return cls(frozenset(sets), frozenset(normalised(q) for q in questions))

    def covers(self, row: AskedQuestion) -> bool:
        return row.source in self.sets or normalised(row.question) in self.questions


class Labelled(Protocol):
    """What a labelled question must tell to be asked before (``evaluation.answers.LabelledQuestion`` does)."""

    @property
    def id(self) -> str: ...
    @property
    def question(self) -> str: ...
    @property
    def as_of(self) -> str | None: ...
    @property
    def expect_cited(self) -> Sequence[tuple[str, str]]: ...
    @property
    def answerable(self) -> bool: ...


def normalised(question: str) -> str:
    """A question as compared across sets: lower case, whitespace collapsed."""
    return " ".join(question.lower().split())


def asked_rows(sets: Iterable[tuple[str, Sequence[Labelled]]]) -> list[AskedQuestion]:
    """The questions of ``sets`` (set name, its labelled rows) that add situations: answerable, not dated before
    2024-07-01, and citing a provision of today's law (the old codes' left out); a question asked twice is kept once,
    where it first appears."""
    out: list[AskedQuestion] = []
    seen: set[str] = set()
    for name, rows in sets:
        for q in rows:
            if not q.answerable or (q.as_of is not None and q.as_of < NEW_CRIMINAL_CODES_IN_FORCE):
                continue
            cited = tuple(dict.fromkeys((act, main_section(section)) for act, section in q.expect_cited
                                        if act.upper() not in OLD_CODES))
            key = normalised(q.question)
            if not cited or key in seen:
                continue
            seen.add(key)
            out.append(AskedQuestion(q.id, name, " ".join(q.question.split()), cited))
    return out


def write_asked(path: Path, rows: Sequence[AskedQuestion]) -> None:
    """Written whole (``model_files.write_whole``): a file being replaced is never half-written.

    Raises:
        OSError: the file cannot be written.
    """
    write_whole(path, "".join(json.dumps({"id": r.id, "from": r.source, "question": r.question,
                                          "cited": [list(c) for c in r.cited]}, ensure_ascii=False) + "\n"
                              for r in rows))


def read_asked(path: Path) -> list[AskedQuestion]:
    """The questions in ``path`` (JSON Lines, ``SHAPE``); a missing file has none.

    Raises:
        IngestError: a file that cannot be read, a line that is not such an object, or a question asked twice,
            naming the file and line.
    """
    if not path.is_file():
        log.warning("no questions asked before at %s (retrieval.asked): the lay channel has only its cards", path)
        return []
    try:
        lines = json_objects(path, SHAPE)
    except (OSError, UnicodeDecodeError) as exc:
        raise IngestError(f"{path}: cannot be read: {exc}") from exc
    out: list[AskedQuestion] = []
    seen: set[str] = set()
    for n, row in lines:
        where = f"{path}:{n}"
        if set(row) != KEYS:
            raise IngestError(f"{where}: expected an object with exactly {sorted(KEYS)}")
        qid, source, question, cited = row["id"], row["from"], row["question"], row["cited"]
        if not all(isinstance(v, str) and v.strip() for v in (qid, source, question)):
            raise IngestError(f'{where}: "id", "from" and "question" must be non-empty strings')
        if not (isinstance(cited, list) and cited and all(
                isinstance(c, list) and len(c) == 2 and all(isinstance(x, str) and x.strip() for x in c)
                for c in cited)):
            raise IngestError(f'{where}: "cited" must be a non-empty list of [act, section] pairs of strings')
        key = normalised(str(question))
        if key in seen:
            raise IngestError(f"{where}: the question is asked a second time: {str(question)[:60]!r}")
        seen.add(key)
        out.append(AskedQuestion(str(qid), str(source), " ".join(str(question).split()),
                                 tuple((str(a).strip().upper(), str(s).strip()) for a, s in cited)))
    return out
