"""Accepted flags as relevance labels: which provision a flag names, what is refused, and the rule-based paralegal.

The answer documents are shaped as the API stores them (``answer``, ``citations`` with their text, ``sources``
numbered as the ``[n]`` markers of the answer)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from legal_rag.evaluation.answers import LabelledQuestion
from legal_rag.evaluation.flag_examples import (
    FlaggedAnswer,
    examples_from_flags,
    flagged_provision,
    labels_for,
    paralegal_spans,
    read_flags,
)
from legal_rag.evaluation.relevance import Example, cross_validate_and_train, examples, versioned
from legal_rag.records import AnswerRow, FlagRow
from legal_rag.workflow.relevance import FEATURES, Candidate, Decision

HOUSE = ('Section 331(4) of the Bharatiya Nyaya Sanhita, 2023 provides: "Whoever commits lurking house-trespass by '
         'night ... shall be punished with imprisonment ... three years" [1]')
CHARGE = ('Section 100 of the Transfer of Property Act, 1882 provides: "Where immoveable property of one person is '
          '... the latter person is said to have a charge on the property" [2]')
BOTH = ("Under Section 331(4) of the Bharatiya Nyaya Sanhita, 2023 and Section 100 of the Transfer of Property Act, "
        "1882.")


def document(lines: list[str]) -> dict[str, Any]:
    return {
        "question": "Neighbour broke in at night and stole gold. Which section will police charge him under?",
        "as_of": "2025-03-01",
        "answer": "\n".join(lines),
        "citations": [
            {"text": "Section 331(4)", "act": "BNS", "section": "331(4)", "status": "verified"},
            {"text": "Section 100", "act": "TPA", "section": "100", "status": "verified"},
        ],
        "sources": [
            {"n": 1, "chunk_id": "BNS:331:4:0", "act": "BNS", "section": "331"},
            {"n": 2, "chunk_id": "TPA:100:-:0", "act": "TPA", "section": "100"},
        ],
    }


def flag_row(fid: str, answer_id: str, start: int, end: int, span_text: str, label: str,
         correction: str | None = None) -> FlagRow:
    """An accepted flag as the records store keeps it (the row, not stored: ``read_flags`` reads its fields)."""
    return FlagRow(id=fid, answer_id=answer_id, start=start, end=end, span_text=span_text, label=label,
                   correction=correction, comment=None, status="accepted", key_name="paralegal")


def answer_row(answer_id: str, document: dict[str, Any]) -> AnswerRow:
    return AnswerRow(id=answer_id, document=document)


def flag_on(doc: dict[str, Any], span: str, fid: str = "f1", label: str = "wrong_provision", nth: int = 0,
            correction: str | None = None) -> FlagRow:
    text = doc["answer"]
    start = -1
    for _ in range(nth + 1):
        start = text.index(span, start + 1)
    return flag_row(fid, "a1", start, start + len(span), span, label, correction)


def test_a_flag_names_the_citation_inside_its_span_or_the_one_provision_its_line_quotes() -> None:
    doc = document([HOUSE, CHARGE])
    on_citation = flag_on(doc, "Section 100 of the Transfer of Property Act")
    assert flagged_provision(doc, on_citation.start, on_citation.end) == ("TPA", "100")
    # a span over quoted words only: the line's [2] marker names the provision
    on_words = flag_on(doc, "said to have a charge")
    assert flagged_provision(doc, on_words.start, on_words.end) == ("TPA", "100")
    # the sub-section is read at its section, as the model's labels are
    on_house = flag_on(doc, "Section 331(4)")
    assert flagged_provision(doc, on_house.start, on_house.end) == ("BNS", "331")


def test_a_citation_is_found_only_where_it_stands_whole() -> None:
    doc = document([HOUSE.replace("Section 331(4)", "Section 1004"), CHARGE])
    doc["citations"][0].update(text="Section 1004", section="1004")
    on = flag_on(doc, "Section 1004")
    # "Section 100" (TPA) is a prefix of "Section 1004" (BNS): the span cites only the latter
    assert flagged_provision(doc, on.start, on.end) == ("BNS", "1004")
    spans = paralegal_spans(doc, [("BNS", "1004")])
    assert [doc["answer"][s:e] for s, e, _ in spans] == ["Section 100"]
    assert spans[0][0] == doc["answer"].index("Section 100 of the Transfer")


def test_a_flag_that_cannot_be_told_to_one_provision_is_refused_with_the_reason() -> None:
    doc = document([BOTH, HOUSE, CHARGE])
    whole = flag_on(doc, BOTH)
    assert "cites 2 provisions" in str(flagged_provision(doc, whole.start, whole.end))
    doc = document(["The statutes do not say.", HOUSE])
    none = flag_on(doc, "do not say")
    assert flagged_provision(doc, none.start, none.end) == "the span's line quotes no provision"


def test_read_flags_keeps_relevance_labels_and_reports_every_flag_it_cannot_use() -> None:
    doc = document([HOUSE, CHARGE])
    answers = {"a1": answer_row("a1", doc)}
    good = flag_on(doc, "Section 100", "f1")
    misquote = flag_on(doc, "three years", "f2", label="misquote")
    moved = flag_row("f3", "a1", good.start + 1, good.end + 1, good.span_text, "wrong_provision")
    missing = flag_row("f4", "gone", 0, 5, "x", "wrong_provision")
    corrected = flag_on(doc, "Section 331(4)", "f5", label="outdated_law",
                        correction="Section 457 of the Indian Penal Code")
    reading = read_flags([good, misquote, moved, missing, corrected], answers.get,
                         lambda text: [("IPC", "457")] if "457" in text else [])
    assert [(a.answer_id, a.flags, sorted(a.wrong), sorted(a.right)) for a in reading.answers] == [
        ("a1", (("f1", ("TPA", "100")), ("f5", ("BNS", "331"))), [("BNS", "331"), ("TPA", "100")], [("IPC", "457")])]
    assert reading.answers[0].as_of == "2025-03-01"
    reasons = {s["flag"]: s["reason"] for s in reading.skipped}
    assert set(reasons) == {"f2", "f3", "f4"}
    assert "says nothing about which provisions" in reasons["f2"]
    assert "does not match the stored answer text" in reasons["f3"]
    assert "not in the records" in reasons["f4"]


def _decision(question: str, rows: list[tuple[str, str, float]]) -> Decision:
    cands = []
    for act, section, dense in rows:
        f = dict.fromkeys(FEATURES, 0.0)
        f["dense"] = dense
        cands.append(Candidate(act, section, tuple(f[n] for n in FEATURES), hand_score=0.5))
    return Decision(question, tuple(cands), places=3)


def test_labels_mark_the_flagged_provision_not_relevant_and_leave_the_rest_unknown() -> None:
    flagged = FlaggedAnswer("a1", "q", None, (("f1", ("TPA", "100")),), frozenset({("IPC", "457")}))
    d = _decision("q", [("BNS", "331(4)", 0.5), ("TPA", "100", 0.4), ("IPC", "457", 0.3)])
    assert labels_for(flagged, d) == (None, False, True)
    exs, skipped = examples_from_flags([(flagged, d)])
    assert exs[0].labels == (None, False, True) and not exs[0].scored and not skipped
    # asked again, the flagged provision is no longer a candidate: the flag is reported, not used
    gone = _decision("q", [("BNS", "331(4)", 0.5)])
    exs, skipped = examples_from_flags([(flagged, gone)])
    assert not exs and skipped[0]["flag"] == "f1" and "no longer has TPA 100" in skipped[0]["reason"]


def test_flag_examples_train_but_are_never_scored_and_move_the_model() -> None:
    # labelled questions: dense says nothing (equal for relevant and not); flags say low dense is not relevant
    pairs = []
    for i, act in enumerate(["BNS", "TPA", "HMA", "MVA", "CPA", "NIA"] * 2):
        d = _decision(f"q{i}", [(act, "1", 0.5), (act, "2", 0.5)])
        pairs.append((LabelledQuestion(f"q{i}", f"q{i}", None, ((act, "1"),)), d))
    labelled = examples(pairs)
    flags = [Example(f"answer-{i}", "X", _decision(f"f{i}", [("X", "9", 0.05 * (i % 3))]), (False,), scored=False)
             for i in range(30)]
    plain = cross_validate_and_train(labelled, ["q"])
    with_flags = cross_validate_and_train(labelled + flags, ["q"], card={"flags": {"accepted": 30}})
    w_plain = dict(zip(FEATURES, plain.model.weights, strict=True))
    w_flags = dict(zip(FEATURES, with_flags.model.weights, strict=True))
    assert w_flags["dense"] > w_plain["dense"]
    card = with_flags.model.card
    assert card["questions"] == len(labelled) and card["flag_examples"]["not_relevant"] == 30
    assert card["flags"] == {"accepted": 30}
    assert card["cross_validation"]["model"]["questions"] == len(labelled)


def test_the_rule_based_paralegal_flags_each_unexpected_provision_once_at_its_citation() -> None:
    doc = document([HOUSE, CHARGE, CHARGE.replace("[2]", "[2] again")])
    spans = paralegal_spans(doc, [("BNS", "331(4)")])
    assert [(doc["answer"][s:e], key) for s, e, key in spans] == [("Section 100", ("TPA", "100"))]
    assert spans[0][0] == doc["answer"].index("Section 100")
    # nothing expected (a question the statutes do not answer): every quoted provision is flagged
    assert [k for *_, k in paralegal_spans(doc, [])] == [("BNS", "331"), ("TPA", "100")]
    # the flags it makes are read back to the provisions it flagged
    reading = read_flags([flag_row(f"f{i}", "a1", s, e, doc["answer"][s:e], "wrong_provision")
                          for i, (s, e, _) in enumerate(paralegal_spans(doc, []))],
                         {"a1": answer_row("a1", doc)}.get, lambda _t: [])
    assert sorted(reading.answers[0].wrong) == [("BNS", "331"), ("TPA", "100")] and not reading.skipped


def test_models_are_written_as_numbered_versions(tmp_path: Path) -> None:
    assert versioned(tmp_path) == (tmp_path / "relevance-v1.json", 1)
    (tmp_path / "relevance-v1.json").write_text("{}")
    (tmp_path / "relevance-v7.json").write_text("{}")
    (tmp_path / "relevance-vx.json").write_text("{}")
    assert versioned(tmp_path) == (tmp_path / "relevance-v8.json", 8)


def test_versions_are_listed_in_order_with_the_one_answering_marked(tmp_path: Path) -> None:
    from graph_schema.errors import ConfigurationError
    from legal_rag.evaluation.relevance import versions
    from legal_rag.workflow.relevance import LinearRelevance

    n = len(FEATURES)
    for v in (2, 10):
        m = LinearRelevance(weights=(0.1,) * n, bias=0.0, mean=(0.0,) * n, scale=(1.0,) * n, threshold=0.5)
        m.card = {"flags": {"used": v}}
        m.save(tmp_path / f"relevance-v{v}.json")
    listed = versions(tmp_path, tmp_path / "relevance-v2.json")
    assert [(m.version, m.active, m.as_dict()["flags_used"]) for m in listed] == [(2, True, 2), (10, False, 10)]
    assert versions(tmp_path / "none", None) == []
    (tmp_path / "relevance-v11.json").write_text("{")
    with pytest.raises(ConfigurationError, match="relevance-v11.json cannot be read"):
        versions(tmp_path, None)


@pytest.mark.parametrize("label", ["misquote", "unsupported_claim", "bogus"])
def test_training_refuses_a_flag_label_that_names_no_provision_to_leave_out(tmp_path: Path, label: str) -> None:
    from graph_schema.errors import InvalidInputError
    from legal_rag.app import Application
    from legal_rag.settings import Settings

    app = Application(Settings(state_dir=tmp_path), first_run=False)
    with pytest.raises(InvalidInputError, match=f"flag label '{label}' does not say"):
        app.train_relevance([], tmp_path / "m.json", flag_labels=["wrong_provision", label])
    with pytest.raises(InvalidInputError, match="--since"):
        app.train_relevance([], tmp_path / "m.json", flag_labels=["wrong_provision"], since="26/11/2026")
    assert list(tmp_path.iterdir()) == []  # nothing started, nothing written


def _built_row(n: int, question: str) -> dict[str, Any]:
    from finetune.prompt import SYSTEM
    from verification.claims.documents import Complexity, question_text

    user = "<documents>\n</documents>\n\n" + question_text(question, as_of="2024-09-01", complexity=Complexity.SIMPLE)
    return {"id": f"r{n}", "category": "correct", "as_of": "2024-09-01",
            "provisions": [{"act": "BNS", "section": "303(2)"}],
            "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user},
                         {"role": "assistant", "content": "x"}]}


def test_a_built_datasets_questions_are_read_from_its_rows_with_their_provisions(tmp_path: Path) -> None:
    import json

    from legal_rag.evaluation.relevance import built_questions

    (tmp_path / "sft").mkdir()
    rows = [_built_row(n, f"What does the law say about taking things, case {n}?\nTwo lines.") for n in range(10)]
    (tmp_path / "sft" / "train.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    qs = built_questions(tmp_path, 4)
    assert [q.id for q in qs] == ["r0", "r2", "r4", "r6"]  # spread over the rows
    assert qs[1].question == "What does the law say about taking things, case 2?\nTwo lines."
    assert (qs[1].as_of, qs[1].expect_cited, qs[1].split) == ("2024-09-01", (("BNS", "303(2)"),), "built")
    with pytest.raises(ValueError, match="holds no built dataset"):
        built_questions(tmp_path / "sft", 4)
    rows[0]["messages"][1]["content"] = "no question here"
    (tmp_path / "sft" / "train.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(ValueError, match=r"train.jsonl:1: not a built SFT row"):
        built_questions(tmp_path, 4)


def test_a_correction_never_makes_the_flagged_provision_relevant_and_conflicting_flags_are_not_used() -> None:
    doc = document([HOUSE, CHARGE])
    stored = {"a1": answer_row("a1", doc)}.get

    def cite(text: str) -> list[tuple[str, str]]:
        return [k for k, word in ((("TPA", "100"), "100"), (("IPC", "457"), "457")) if word in text]

    # "not section 100 but IPC 457": the correction cites the flagged provision too
    on_charge = flag_on(doc, "Section 100", "f1", correction="not Section 100 but section 457 IPC")
    reading = read_flags([on_charge], stored, cite)
    assert (reading.answers[0].wrong, reading.answers[0].right) == (frozenset({("TPA", "100")}),
                                                                    frozenset({("IPC", "457")}))
    # one flag says TPA 100 should not have been quoted, another's correction cites it: neither label is used
    on_house = flag_on(doc, "Section 331(4)", "f2", correction="Section 100 of the Transfer of Property Act")
    reading = read_flags([flag_on(doc, "Section 100", "f1"), on_house], stored, cite)
    assert [s["flag"] for s in reading.skipped] == ["f1"]
    assert "another flag's correction" in reading.skipped[0]["reason"]
    assert reading.answers[0].flags == (("f2", ("BNS", "331")),)
    assert (reading.answers[0].wrong, reading.answers[0].right) == (frozenset({("BNS", "331")}), frozenset())


def test_each_flag_whose_provision_is_gone_is_reported_even_when_the_answer_still_trains() -> None:
    flagged = FlaggedAnswer("a1", "q", None, (("f1", ("TPA", "100")), ("f2", ("BNS", "331"))))
    exs, skipped = examples_from_flags([(flagged, _decision("q", [("BNS", "331(4)", 0.5)]))])
    assert exs[0].labels == (False,) and [s["flag"] for s in skipped] == ["f1"]
    # a provision the question names is quoted before the ranked candidates: the model never ranks it
    named = Decision("q", _decision("q", [("BNS", "331(4)", 0.5)]).candidates, places=2, first=(("TPA", "100"),))
    _, skipped = examples_from_flags([(flagged, named)])
    assert "quoted before the ranked candidates" in skipped[0]["reason"]


def test_a_new_version_never_replaces_one_another_run_wrote(tmp_path: Path) -> None:
    from legal_rag.app import Application
    from legal_rag.workflow.relevance import LinearRelevance

    n = len(FEATURES)

    def model() -> LinearRelevance:
        return LinearRelevance(weights=(0.1,) * n, bias=0.0, mean=(0.0,) * n, scale=(1.0,) * n, threshold=0.5)

    first = model()
    first.save(tmp_path / "relevance-v1.json", exclusive=True)
    with pytest.raises(FileExistsError):
        model().save(tmp_path / "relevance-v1.json", exclusive=True)
    assert Application._save_model(model(), tmp_path) == tmp_path / "relevance-v2.json"
    assert LinearRelevance.load(tmp_path / "relevance-v2.json").card["version"] == 2
    assert sorted(f.name for f in tmp_path.iterdir()) == ["relevance-v1.json", "relevance-v2.json"]  # no temp files
    # a .json target is written in place
    assert Application._save_model(model(), tmp_path / "x" / "mine.json") == tmp_path / "x" / "mine.json"
