"""``from-flags``: paralegals' flags in a real records store (SQLite) -> DPO and KTO rows, checked on the real graph."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from finetune import Judge
from finetune.flags import RecordsFlagSource, flags_to_rows
from finetune.statutes import StatuteView
from legal_rag.records import SYSTEM, Records, Role, Viewer
from tests.conftest import Loaded
from verification import Verifier

pytestmark = [pytest.mark.integration, pytest.mark.slow]

THEFT = ("(2) Whoever commits theft shall be punished with imprisonment of either description for a term which may "
         "extend to three years, or with fine, or with both")  # BNS s.303(2), first sentence


@pytest.fixture
def records(tmp_path: Path) -> Iterator[Records]:
    with Records(f"sqlite:///{tmp_path / 'records.sqlite3'}") as r:
        yield r


def answer_doc(text: str, sources: list[dict[str, Any]]) -> dict[str, Any]:
    """An answer as the API stores it (the fields from-flags reads)."""
    return {"question": "What is the punishment for theft?", "as_of": "2025-02-01", "answer": text,
            "generator": "extractive", "citations": [{"act": "BNS", "section": "303(2)", "status": "verified"}],
            "sources": sources, "claims": [{"text": text, "evidence": [s["chunk_id"] for s in sources]}]}


def flag(records: Records, answer_id: str, text: str, span: str, correction: str | None, status: str = "accepted",
         label: str = "misquote") -> str:
    start = text.index(span)
    row, _ = records.flags.add(answer_id=answer_id, start=start, end=start + len(span), label=label,
                               viewer=Viewer("paralegal", Role.PARALEGAL), correction=correction)  # fmt: skip
    if status != "pending":
        records.flags.review(row.id, status, Viewer("lead", Role.ADMIN))
    return row.id


def test_flags_become_dpo_and_kto_rows_and_changed_evidence_is_reported(
    records: Records, loaded: Loaded, tmp_path: Path
) -> None:
    source = [{"n": 1, "chunk_id": "BNS:303:2:0", "act": "BNS", "section": "303", "status": "in_force"}]
    wrong = THEFT.replace("three years", "seven years")
    text = f'Section 303(2) of the Bharatiya Nyaya Sanhita, 2023 provides: "{wrong}" [BNS:303:2:0]'
    a1 = records.answers.add(answer_doc(text, source), key_name="api").id
    fixed = flag(records, a1, text, "seven years", "three years")  # a correction that verifies
    still_wrong = flag(records, a1, text, "seven years", "ten years")  # a correction that does not
    no_fix = flag(records, a1, text, "Section 303(2)", None, label="wrong_provision")
    flag(records, a1, text, "seven", "three", status="pending")  # not accepted: not exported
    # an answer that rested on evidence the graph no longer holds as it was
    gone = [{"n": 1, "chunk_id": "BNS:303:2:0", "act": "BNS", "section": "303", "status": "repealed"}]
    a2 = records.answers.add(answer_doc(text, gone), key_name="api").id
    changed = flag(records, a2, text, "seven years", "three years")

    store = loaded.store
    report = flags_to_rows(RecordsFlagSource(records, SYSTEM), StatuteView.read(store), Judge(Verifier(store), store),
                           tmp_path / "out", status="accepted")  # fmt: skip
    assert report.flags == 4
    dpo = [json.loads(line) for line in (tmp_path / "out" / "dpo" / "flags.jsonl").read_text().splitlines()]
    kto = [json.loads(line) for line in (tmp_path / "out" / "kto" / "flags.jsonl").read_text().splitlines()]
    assert [r["id"] for r in dpo] == [f"flag-{fixed}"]
    assert "three years" in dpo[0]["chosen"][0]["content"] and dpo[0]["rejected"][0]["content"] == text
    assert '<document id="BNS:303:2:0"' in dpo[0]["prompt"][1]["content"]
    assert dpo[0]["provisions"] == [{"act": "BNS", "section": "303(2)"}] and dpo[0]["as_of"] == "2025-02-01"
    assert [(r["id"], r["label"]) for r in kto] == [(f"answer-{a1}", False)]  # no_fix and still_wrong, one answer
    assert kto[0]["completion"] == [{"role": "assistant", "content": text}]
    reasons = {s["flag"]: s["reason"] for s in report.skipped}
    assert "correction fails verification" in reasons[still_wrong] and "misquoted" in reasons[still_wrong]
    assert reasons[changed] == "evidence changed since the answer: evidence BNS:303:2:0 was repealed, now in_force"
    assert no_fix not in reasons
    saved = json.loads((tmp_path / "out" / "flags_report.json").read_text())
    assert saved["totals"] == {"dpo": 1, "kto": 1, "skipped": 2}
