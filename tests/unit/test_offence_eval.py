"""The facts -> offences gold: AILA 2019's anonymised statutes recognised as IPC sections, on the real files."""

from __future__ import annotations

import json
from pathlib import Path

from legal_rag.retrieval.evaluate import load_eval_set
from legal_rag.retrieval.offence_eval import ipc_sections, offence_gold

ROOT = Path(__file__).resolve().parents[2]
AILA = ROOT / "tests" / "data" / "aila2019-train"
ES = load_eval_set(AILA / "corpus.jsonl", AILA / "queries.jsonl", AILA / "qrels.txt")
IPC = json.loads((ROOT / "data" / "corpus" / "legacy" / "ipc.json").read_text(encoding="utf-8"))
MAPPING = ipc_sections(ES.docs, IPC)


def test_ipc_statutes_are_recognised_by_title_and_text() -> None:
    assert {s: MAPPING.get(s) for s in ("S2", "S6", "S13", "S25", "S52", "S168")} == {
        "S2": "302", "S6": "34", "S13": "307", "S25": "498A", "S52": "409", "S168": "477A"}  # fmt: skip
    assert MAPPING["S48"] == "304B"  # "Dowry death": the IPC copy holds no text, the title decides
    assert MAPPING["S41"] == "471"  # the title gained "or electronic record" in 2000; the text agrees
    assert MAPPING["S127"] == "5"  # "Certain laws not to be affected by this Act"


def test_other_acts_are_not_taken_for_ipc_sections() -> None:
    # Articles 14 and 136 of the Constitution, the Dowry Prohibition Act's penalties, the PC Act's special judge
    assert not {"S3", "S4", "S193", "S124", "S27"} & set(MAPPING)
    assert len(set(MAPPING.values())) == len(MAPPING)  # no IPC section claimed twice


def test_gold_is_each_query_s_relevant_ipc_sections() -> None:
    gold = offence_gold(ES, MAPPING)
    assert set(gold) == {f"AILA_Q{i}" for i in (1, 2, 5, 6, 7, 8, 9, 10)}  # Q3 and Q4 cite no IPC section
    assert gold["AILA_Q8"] == {"304B", "306", "34", "498A"}
    assert gold["AILA_Q10"] == {"147", "149", "307", "34"}
