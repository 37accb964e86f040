"""The answer-evaluation harness's scoring: labels read strictly, answers compared with them, and the
calibration numbers (ECE, AUROC) checked against values worked out by hand."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from legal_rag.evaluation.answers import (
    LabelledQuestion,
    auroc,
    build_report,
    expected_calibration_error,
    is_sealed,
    load_labelled,
    reliability_bins,
    score_answer,
    write_report,
)
from legal_rag.workflow.mixups import MIXUP_WARNING
from legal_rag.workflow.results import (
    AskResult,
    CitationOut,
    ClaimOut,
    ClassificationOut,
    Confidence,
    ConfidenceLabel,
    VerificationMethod,
    VerificationSummary,
)
from legal_rag.workflow.types import Complexity, Usage, Verdict
from verification.model import CitationStatus

ALIASES = {"BNS": "BNS", "IPC": "IPC", "CrPC": "CRPC", "CRPC": "CRPC", "Indian Penal Code": "IPC", "BNSS": "BNSS"}


def resolve(name: str) -> str:
    try:
        return ALIASES[name]
    except KeyError:
        raise LookupError(name) from None


def write(tmp_path: Path, *rows: object) -> Path:
    p = tmp_path / "q.jsonl"
    p.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return p


GOOD = {"id": "a1", "question": "Punishment for theft?", "as_of": "2025-01-01", "expect_cited": [["BNS", "303(2)"]]}


def test_labels_resolve_acts_and_reduce_sections_to_their_main_number(tmp_path: Path) -> None:
    q = load_labelled(write(tmp_path, GOOD, {**GOOD, "id": "a2", "expect_cited": [["Indian Penal Code", "498a"]],
                                             "expect_flagged": [["CrPC", "438"]], "split": "heldout"}), resolve)
    assert q[0].expect_cited == (("BNS", "303"),)
    assert q[1].expect_cited == (("IPC", "498A"),) and q[1].expect_flagged == (("CRPC", "438"),)
    assert q[1].split == "heldout"


@pytest.mark.parametrize(("row", "message"), [
    ("{not json", "q.jsonl:1: not JSON"),
    ({k: v for k, v in GOOD.items() if k != "id"}, "missing 'id'"),
    ({**GOOD, "premise": "maybe"}, "'premise' must be"),
    ({**GOOD, "as_of": "20250101"}, "as_of must be a real date as YYYY-MM-DD"),
    ({**GOOD, "false_premise": [["IPC", "497"]]}, "'false_premise' is given but 'premise' is not"),
    ({**GOOD, "answerable": "no"}, "'answerable' must be true or false"),
    ({**GOOD, "as_of": "1/2/2025"}, "as_of must be a real date as YYYY-MM-DD"),
    ({**GOOD, "expect_cited": [["Penal Code of Mars", "1"]]}, "unknown Act 'Penal Code of Mars'"),
    ({**GOOD, "expect_cited": ["BNS 303"]}, "[act, section] string pairs"),
    ({**GOOD, "expect_cited": "BNS 303"}, "must be a list"),
    ({**GOOD, "complexity": "HARD"}, "'complexity' must be one of"),
    ({**GOOD, "question": "  "}, "non-empty string"),
    ({**GOOD, "number_mixup": "yes"}, "'number_mixup' must be true or false"),
    ({**GOOD, "number_mixup": True}, "'number_mixup' needs 'cited'"),
])  # fmt: skip
def test_bad_label_lines_are_named_by_file_and_line(tmp_path: Path, row: object, message: str) -> None:
    with pytest.raises(ValueError, match="q.jsonl:1: ") as info:
        load_labelled(write(tmp_path, row), resolve)
    assert message in str(info.value)


def test_duplicate_ids_and_empty_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="q.jsonl:2: duplicate id 'a1'"):
        load_labelled(write(tmp_path, GOOD, GOOD), resolve)
    (tmp_path / "empty.jsonl").write_text("\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no questions"):
        load_labelled(tmp_path / "empty.jsonl", resolve)


def cit(act: str, section: str, status: CitationStatus, where: str = "answer") -> CitationOut:
    return CitationOut(text=f"Section {section}", act=act, act_title=None, section=section, status=status,
                       message="", where=where)  # type: ignore[arg-type]


def result(citations: list[CitationOut], warnings: list[str] | None = None, score: float = 0.9,
           claims: list[ClaimOut] | None = None) -> AskResult:
    return AskResult(
        question="q", as_of="2025-01-01", answer="a", complexity=Complexity.STANDARD,
        classification=ClassificationOut(method="rules"), citations=citations, sources=[], claims=claims or [],
        warnings=warnings or [], confidence=Confidence(score=score, label=ConfidenceLabel.HIGH, factors=[]),
        verification_summary=VerificationSummary(method=VerificationMethod.GENGROUND), generator="extractive",
        usage=Usage(input_tokens=10, output_tokens=5, cost_usd=0.001), timings_ms={"total": 123.4},
    )  # fmt: skip


def claim(verdict: Verdict, kept: bool) -> ClaimOut:
    return ClaimOut(text="x", verdict=verdict, evidence=[], cited=[], reasons=[], kept=kept)


CHEATING = LabelledQuestion("c1", "Under IPC 420, what is the punishment for cheating?", "2025-02-01",
                            expect_cited=(("BNS", "318"),), expect_flagged=(("IPC", "420"),))


def test_fully_right_needs_every_expected_provision_verified_and_every_expected_flag_raised() -> None:
    s = score_answer(CHEATING, result([cit("IPC", "420", CitationStatus.REPEALED, "question"),
                                       cit("BNS", "318(4)", CitationStatus.VERIFIED), cit("ITA", "66D",
                                                                                         CitationStatus.VERIFIED)]))
    assert s.fully_right and s.expected_verified == ["BNS 318"] and s.flags_raised == ["IPC 420"]
    assert s.unexpected == ["ITA 66D"] and s.cited == 2 and s.latency_ms == 123.4 and s.cost_usd == 0.001
    # the right provision cited but the repealed one in the question let through
    s = score_answer(CHEATING, result([cit("BNS", "318(4)", CitationStatus.VERIFIED)]))
    assert not s.fully_right and s.flags_missed == ["IPC 420"]
    # the expected provision cited, but reported as not in force: not verified, and a wrong flag
    s = score_answer(CHEATING, result([cit("BNS", "318", CitationStatus.NOT_YET_IN_FORCE),
                                       cit("IPC", "420", CitationStatus.REPEALED, "question")]))
    assert not s.fully_right and s.missing == ["BNS 318"] and s.wrong_flags == ["BNS 318"]


def test_an_expected_provision_repealed_before_the_date_counts_when_cited_and_reported_repealed() -> None:
    compare = LabelledQuestion("t1", "How did the punishment for theft change under the BNS?", "2025-03-01",
                               expect_cited=(("BNS", "303"), ("IPC", "379")))
    s = score_answer(compare, result([cit("BNS", "303(2)", CitationStatus.VERIFIED),
                                      cit("IPC", "379", CitationStatus.REPEALED)]))
    assert s.fully_right and s.expected_verified == ["BNS 303", "IPC 379"] and s.wrong_flags == []
    s = score_answer(compare, result([cit("BNS", "303(2)", CitationStatus.VERIFIED),
                                      cit("IPC", "379", CitationStatus.REPEALED, "question")]))
    assert not s.fully_right and s.missing == ["IPC 379"]  # named in the question is not cited in the answer


def test_a_warning_flags_only_the_provision_it_starts_with() -> None:
    warned = ["IPC s.420 was repealed with effect from 2024-07-01 by BNS s.358; for facts on 2025-02-01 cite "
              "BNS s.318(4)"]
    s = score_answer(CHEATING, result([cit("BNS", "318(4)", CitationStatus.VERIFIED)], warnings=warned))
    assert s.fully_right and s.wrong_flags == []
    act_level = ["The Indian Penal Code, 1860 was repealed with effect from 2024-07-01 by BNS s.358"]
    s = score_answer(CHEATING, result([cit("BNS", "318(4)", CitationStatus.VERIFIED)], warnings=act_level))
    assert s.flags_missed == ["IPC 420"]


def test_unsupported_claims_count_only_those_shown_to_the_user() -> None:
    s = score_answer(CHEATING, result([], claims=[claim(Verdict.SUPPORTED, True), claim(Verdict.UNSUPPORTED, True),
                                                  claim(Verdict.CONTRADICTED, False)]))
    assert (s.claims_kept, s.unsupported_claims, s.removed_claims) == (2, 1, 1)


def test_ece_and_auroc_match_hand_computed_values() -> None:
    conf = [0.95, 0.85, 0.75, 0.15]
    right = [True, True, False, False]
    # bins: [0.9,1) acc 1 conf .95; [0.8,.9) acc 1 conf .85; [0.7,.8) acc 0 conf .75; [0.1,.2) acc 0 conf .15
    assert expected_calibration_error(conf, right) == pytest.approx((0.05 + 0.15 + 0.75 + 0.15) / 4, abs=1e-4)
    assert auroc(conf, right) == 1.0
    assert auroc([0.5, 0.5], [True, False]) == 0.5
    assert auroc([0.2, 0.9], [True, False]) == 0.0
    assert auroc([0.9], [True]) is None and expected_calibration_error([], []) is None
    bins = reliability_bins([1.0, 0.0], [True, False])
    assert bins[-1]["n"] == 1 and bins[0]["n"] == 1 and sum(b["n"] for b in bins) == 2


def test_report_has_no_nan_and_writes_a_reliability_diagram(tmp_path: Path) -> None:
    scores = [score_answer(CHEATING, result([cit("BNS", "318", CitationStatus.VERIFIED)], score=0.3))]
    report = build_report(scores, "extractive")
    doc = report.as_dict()
    text = json.dumps(doc)
    assert "NaN" not in text and doc["overall"]["auroc"] is None and doc["overall"]["fully_right_rate"] == 0.0
    for v in doc["overall"].values():
        assert not (isinstance(v, float) and math.isnan(v))
    paths = write_report(report, tmp_path / "out")
    assert [p.name for p in paths] == ["report.json", "report.md", "reliability.svg"]
    svg = (tmp_path / "out" / "reliability.svg").read_text(encoding="utf-8")
    assert svg.startswith("<svg") and svg.count("<rect") == 2  # the frame and the one non-empty bin
    assert "`c1`" in (tmp_path / "out" / "report.md").read_text(encoding="utf-8")


def test_a_question_may_carry_no_date_a_false_premise_or_no_answer(tmp_path: Path) -> None:
    rows = [{k: v for k, v in GOOD.items() if k != "as_of"},
            {**GOOD, "id": "a2", "premise": "false", "false_premise": [["IPC", "497"]], "expect_cited": []},
            {**GOOD, "id": "a3", "answerable": False, "expect_cited": []}]
    (undated, premise, unanswerable) = load_labelled(write(tmp_path, *rows), resolve)
    assert undated.as_of is None and undated.false_premise is None and undated.answerable
    assert premise.false_premise == (("IPC", "497"),)
    assert not unanswerable.answerable
    # an Act that does not exist at all, written ["NONE", "0"], is a premise naming no provision
    (made_up,) = load_labelled(write(tmp_path, {**GOOD, "id": "a4", "premise": "false",
                                                "false_premise": [["NONE", "0"]], "expect_cited": []}), resolve)
    assert made_up.false_premise == ()


def _answered(answer: str, score: float, citations: list[CitationOut] | None = None) -> AskResult:
    return result(citations or [], score=score).model_copy(update={"answer": answer})


def test_a_false_premise_is_right_only_when_the_answer_corrects_it() -> None:
    q = LabelledQuestion("p1", "Is adultery still an offence?", None, (), false_premise=(("IPC", "497"),))
    said = _answered("The question rests on IPC s.497 (Adultery), which is no longer law and has no successor.", 0.55)
    assert score_answer(q, said).fully_right and score_answer(q, said).premise_corrected
    silent = _answered('Section 13(1) of the Hindu Marriage Act, 1955 provides: "... adultery ..."', 0.87)
    s = score_answer(q, silent)
    assert not s.fully_right and s.premise_corrected is False and "premise not corrected" in s.misses()
    # saying the law still stands corrects nothing, whatever words it uses
    for text in ("IPC s.497 has not been repealed.", "Adultery is illegal under IPC section 497."):
        assert not score_answer(q, _answered(text, 0.9)).premise_corrected
    # a citation of it reported as no longer law corrects it too
    flagged = cit("IPC", "497", CitationStatus.REPEALED, where="question").model_copy(
        update={"message": "IPC s.497 was repealed; it has no successor"})
    assert score_answer(q, _answered("x", 0.9, [flagged])).fully_right
    # a section that is not there, said so ("498A of the BNS" is the old code's number), corrects the premise too
    absent = LabelledQuestion("p3", "Punishment under section 498A of the BNS?", None, (),
                              false_premise=(("BNS", "498A"),))
    assert score_answer(absent, _answered("The BNS has no section 498A: the subject matches IPC s.498A.",
                                          0.75)).premise_corrected
    assert not score_answer(absent, _answered("Section 498A of the BNS provides cruelty.", 0.75)).premise_corrected
    # a premise naming no provision (an Act that never existed): a citation of the question found nowhere
    made_up = LabelledQuestion("p2", "Punishment under section 9 of the Indian Cyber Act?", None, (), false_premise=())
    assert not score_answer(made_up, _answered("x", 0.9)).fully_right
    assert score_answer(made_up, _answered("x", 0.9, [cit("ITA", "9", CitationStatus.UNKNOWN_ACT, "question")])
                        ).fully_right


def test_an_unanswerable_question_is_right_only_below_medium_and_wrong_high_answers_are_counted() -> None:
    q = LabelledQuestion("u1", "What did the Supreme Court hold in its latest bail judgment?", None, (),
                         answerable=False)
    low, high = score_answer(q, _answered("x", 0.55)), score_answer(q, _answered("x", 0.85))
    assert low.fully_right and not high.fully_right
    report = build_report([low, high])
    assert report.overall["wrong_at_high"] == 1
    sealed = report.sealed()
    assert set(sealed) == {"generator", "sealed", "overall", "by_split"} and "questions" not in sealed


def test_a_sealed_set_is_named_so() -> None:
    assert is_sealed(Path("data/eval/sealed.jsonl")) and not is_sealed(Path("data/eval/questions.jsonl"))


def test_a_confused_number_is_right_only_when_said_and_a_right_one_only_when_not() -> None:
    mixed = LabelledQuestion("m1", "Punishment for murder u/s 302 BNS?", None, expect_cited=(("BNS", "103"),),
                             number_mixup=True, cited=("BNS", "302"))
    right = LabelledQuestion("m2", "Punishment for murder u/s 103 BNS?", None, expect_cited=(("BNS", "103"),),
                             number_mixup=False, cited=("BNS", "103"))
    said = [f"BNS s.302 {MIXUP_WARNING}: the question describes IPC s.302 (\"Punishment for murder\")."]
    cites = [cit("BNS", "103(1)", CitationStatus.VERIFIED)]
    assert score_answer(mixed, result(cites, said)).fully_right
    assert not score_answer(mixed, result(cites)).fully_right  # the right section, the wrong citation let stand
    assert score_answer(right, result(cites)).fully_right
    assert not score_answer(right, result(cites, said)).fully_right  # a right citation questioned
    assert not score_answer(mixed, result([], said)).fully_right  # said, but the answering section not cited
    other = [f"BNS s.303 {MIXUP_WARNING}: the question describes IPC s.303."]
    assert not score_answer(mixed, result(cites, other)).fully_right  # a mix-up said, but of another section
