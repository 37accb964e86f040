"""Paralegals' flags -> preference data: DPO rows where a correction exists, KTO rows where it does not.

For each flag the stored answer is read back: its question, as-of date, answer text and the chunk
ids it rested on (``sources`` and the claims' ``evidence``). The prompt is rebuilt the way the
builder builds one (those chunks as delimited documents, then the question), from the graph as it is
*now*, so a flag is used only if that evidence is unchanged: every chunk still exists, with the
status the answer saw (and the same text, when the stored answer kept it). Otherwise the flag is
reported, not used.

* With a ``correction``: the corrected answer is the flagged answer with ``[start:end]`` replaced by
  it; it must pass the verifier for the answer's as-of date (citations verified or a noted
  replacement, quotations exact or normalised). Then a DPO row: chosen = corrected, rejected =
  flagged. A correction that fails verification is reported and the flag falls back to a KTO row.
* Without one: a KTO row ``{prompt, completion: [the flagged answer], label: false}``, one per answer.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from finetune.judge import Judge
from finetune.prompt import SYSTEM, ContextChunk, user_turn
from finetune.rows import DPORow, KTORow, ProvisionRef, Turn, write_jsonl
from finetune.statutes import StatuteView
from verification import QuoteStatus


class FlagLike(Protocol):
    id: str
    answer_id: str
    start: int
    end: int
    span_text: str
    label: str
    comment: str | None
    correction: str | None
    status: str
    created_at: datetime


class AnswerLike(Protocol):
    id: str
    document: dict[str, Any]


class FlagSource(Protocol):
    """Where flags and the answers they flag come from (``legal_rag.records`` in the product)."""

    def flags(self, since: str | None, label: str | None, status: str | None) -> Sequence[FlagLike]: ...

    def answer(self, answer_id: str) -> AnswerLike | None: ...


class RecordsFlagSource:
    """:class:`FlagSource` over the records store (``records.flags.export``, ``records.answers.get``).

    Training data is built by the operator's own process, so it reads every team's flags: the caller
    passes that viewer (``legal_rag.records.SYSTEM`` in the product), since ``finetune`` never imports the
    application.
    """

    def __init__(self, records: Any, viewer: Any) -> None:
        self._records = records
        self._viewer = viewer

    def flags(self, since: str | None, label: str | None, status: str | None) -> Sequence[FlagLike]:
        return self._records.flags.export(  # type: ignore[no-any-return]
            self._viewer, since=since, label=label, status=status)

    def answer(self, answer_id: str) -> AnswerLike | None:
        return self._records.answers.get(answer_id, self._viewer)  # type: ignore[no-any-return]


@dataclass
class FlagsReport:
    out: Path
    flags: int = 0
    dpo: int = 0
    kto: int = 0
    skipped: list[dict[str, str]] = field(default_factory=list)
    """One entry per flag not used (or used only as KTO): flag id, answer id, reason."""

    def as_dict(self) -> dict[str, Any]:
        return {"out": str(self.out), "flags": self.flags, "dpo": self.dpo, "kto": self.kto,
                "skipped": self.skipped, "totals": {"dpo": self.dpo, "kto": self.kto, "skipped": len(self.skipped)}}


def evidence_ids(document: dict[str, Any]) -> list[str]:
    """Chunk ids the stored answer rested on: its sources, then every claim's evidence, once each."""
    ids = [str(s.get("chunk_id")) for s in document.get("sources", []) if isinstance(s, dict) and s.get("chunk_id")]
    for c in document.get("claims", []):
        if isinstance(c, dict):
            ids.extend(str(e) for e in c.get("evidence", []) if isinstance(e, str))
    return list(dict.fromkeys(ids))


def evidence_changes(document: dict[str, Any], view: StatuteView) -> list[str]:
    """How the answer's evidence differs from the graph now (empty: unchanged)."""
    out = []
    stored = {str(s.get("chunk_id")): s for s in document.get("sources", []) if isinstance(s, dict)}
    for cid in evidence_ids(document):
        chunk = view.chunks.get(cid)
        if chunk is None:
            out.append(f"evidence {cid} is no longer in the graph")
            continue
        s = stored.get(cid, {})
        if s.get("status") and s["status"] != chunk.status:
            out.append(f"evidence {cid} was {s['status']}, now {chunk.status}")
        if isinstance(s.get("text"), str) and s["text"] != chunk.text:
            out.append(f"evidence {cid} text has changed")
    return out


def flags_to_rows(source: FlagSource, view: StatuteView, judge: Judge, out: Path, *, since: str | None = None,
                  status: str | None = "accepted", label: str | None = None) -> FlagsReport:
    """Write ``out/dpo/flags.jsonl``, ``out/kto/flags.jsonl`` and ``out/flags_report.json``."""
    report = FlagsReport(out)
    dpo: dict[str, DPORow] = {}
    kto: dict[str, KTORow] = {}
    for flag in sorted(source.flags(since, label, status), key=lambda f: (f.answer_id, f.id)):
        report.flags += 1

        def skip(reason: str, flag: FlagLike = flag) -> None:
            report.skipped.append({"flag": flag.id, "answer": flag.answer_id, "reason": reason})

        answer = source.answer(flag.answer_id)
        if answer is None:
            skip("the flagged answer is not in the records")
            continue
        doc = answer.document
        text, question, as_of = doc.get("answer"), doc.get("question"), doc.get("as_of")
        if not (isinstance(text, str) and isinstance(question, str) and isinstance(as_of, str)):
            skip("the stored answer has no answer, question or as_of")
            continue
        if text[flag.start:flag.end] != flag.span_text:
            skip(f"the flagged span {flag.start}:{flag.end} does not match the stored answer text")
            continue
        changed = evidence_changes(doc, view)
        if changed:
            skip("evidence changed since the answer: " + "; ".join(changed))
            continue
        chunks = [view.chunks[c] for c in evidence_ids(doc)]
        prompt = [Turn(role="system", content=SYSTEM), Turn(role="user", content=user_turn(question, chunks, as_of))]
        provisions = _provisions(doc)
        if flag.correction:
            corrected = text[:flag.start] + flag.correction + text[flag.end:]
            problems = _verify(judge, corrected, [ContextChunk(c.id, c.text) for c in chunks], as_of)
            if not problems:
                dpo[flag.id] = DPORow(id=f"flag-{flag.id}", prompt=prompt,
                                      chosen=[Turn(role="assistant", content=corrected)],
                                      rejected=[Turn(role="assistant", content=text)], category="flag",
                                      provisions=provisions, as_of=as_of)  # fmt: skip
                continue
            skip("the correction fails verification (used as a negative example only): " + "; ".join(problems))
        if answer.id not in kto:
            kto[answer.id] = KTORow(id=f"answer-{answer.id}", prompt=prompt,
                                    completion=[Turn(role="assistant", content=text)], label=False, as_of=as_of,
                                    flag_label=str(flag.label), comment=flag.comment)  # fmt: skip
    report.dpo = write_jsonl(out / "dpo" / "flags.jsonl", (dpo[k] for k in sorted(dpo)))
    report.kto = write_jsonl(out / "kto" / "flags.jsonl", (kto[k] for k in sorted(kto)))
    (out / "flags_report.json").write_text(json.dumps(report.as_dict(), indent=2, sort_keys=True) + "\n",
                                           encoding="utf-8")
    return report


def _verify(judge: Judge, text: str, context: list[ContextChunk], as_of: str) -> list[str]:
    rep = judge.report(text, context, as_of)
    problems = judge.citation_problems(rep)
    ok = (QuoteStatus.EXACT, QuoteStatus.NORMALISED)
    problems += [f"quotation {q.status.value}: {q.message}" for q in rep.quotes if q.status not in ok]
    if rep.unchecked:
        problems.append("could not be checked (graph unreachable)")
    return problems


def _provisions(doc: dict[str, Any]) -> list[ProvisionRef]:
    out = []
    for c in doc.get("citations", []):
        if isinstance(c, dict) and c.get("act") and c.get("section"):
            ref = ProvisionRef(act=str(c["act"]), section=str(c["section"]))
            if ref not in out:
                out.append(ref)
    return out
