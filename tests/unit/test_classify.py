"""Question complexity routing: the rule classifier, its labelled set, and the Claude classifier.

The labelled set (``tests/data/complexity_questions.jsonl``) was written before the rules; the rules were
developed against its ``dev`` split only. The ``heldout`` split (the last 40 lines) was first scored on frozen
rules (38/40); two later fixes found on dev (word-boundary anchoring of the lexicon, a motor-accident concept)
moved it to 37/40, and no rule was changed for a held-out question. The floors are what the rules reach, with
a little room, not targets to tune to.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from legal_rag.workflow.classify import RuleClassifier, accuracy_report, format_confusion
from legal_rag.workflow.types import Classification, Complexity

DATA = Path(__file__).resolve().parents[1] / "data" / "complexity_questions.jsonl"
DEV_FLOOR = 0.95  # reached: 64/64
HELDOUT_FLOOR = 0.90  # reached: 37/40 (38/40 on the first frozen rules; see the module docstring)

S, T, C, A = Complexity.SIMPLE, Complexity.STANDARD, Complexity.COMPLEX, Complexity.ANALYTICAL

# Questions that are not in the labelled set, one table for every class.
TABLE: list[tuple[str, Complexity]] = [
    ("What is section 420 IPC?", S),
    ("Punishment u/s 304B IPC", S),
    ("text of s.482 BNSS", S),
    ("Is section 377 IPC still in force?", S),
    ("What is the new BNS section for IPC 302?", S),
    ("Define 'document' under Bharatiya Sakshya Adhiniyam", S),
    ("Can I file a consumer complaint against a hospital for a wrong diagnosis?", T),
    ("My tenant has not paid rent for 6 months, how do I evict him?", T),
    ("Is a second appeal maintainable on a question of fact under Section 100 CPC?", T),
    ("Can the accused be released on bail after 60 days if no chargesheet is filed for an offence under BNS 318?", T),
    ("My wife has left the matrimonial home with our son; can I seek restitution of conjugal rights?", T),
    ("What is the remedy if a bank refuses to return original title deeds after loan repayment?", T),
    (
        "My neighbour built a wall on my land, cut electricity to my shop and threatened my father; I want an "
        "injunction, damages and a police case. Where do I start?",
        C,
    ),
    (
        "The insurer rejected my health claim, the hospital is holding my mother's body for unpaid bills and the "
        "TPA is not responding; what criminal and consumer remedies do we have?",
        C,
    ),
    (
        "A cheque given by my client's debtor bounced, the debtor has also transferred his property to his wife to "
        "defeat creditors, and he has filed a false extortion complaint against my client. What are our options?",
        C,
    ),
    ("How does the BNSS change the law on handcuffing compared to CrPC?", A),
    ("Critically evaluate Section 69 BNS on sexual intercourse by deceitful means.", A),
    ("What is the difference between a void and a voidable marriage under the HMA?", A),
    ("Discuss the impact of Vineeta Sharma on coparcenary rights.", A),
    ("IPC vs BNS on attempt to suicide", A),
]


@pytest.fixture(scope="module")
def rules() -> RuleClassifier:
    return RuleClassifier()


def _rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]


# -- the rule classifier ---------------------------------------------------------------------------


@pytest.mark.parametrize(("question", "expected"), TABLE, ids=[f"{e.value}-{i}" for i, (_, e) in enumerate(TABLE)])
def test_table(rules: RuleClassifier, question: str, expected: Complexity) -> None:
    got = rules.classify(question)
    assert got.complexity is expected, (got.reasons, got.features)


def test_deterministic(rules: RuleClassifier) -> None:
    other = RuleClassifier()
    for question, _ in TABLE:
        first = rules.classify(question)
        assert rules.classify(question) == first
        assert other.classify(question) == first


def test_features_and_reasons(rules: RuleClassifier) -> None:
    got = rules.classify(
        "A husband's family harassed the wife for dowry, took her jewellery and threatened her brother; "
        "what offences and what procedure for bail?"
    )
    assert isinstance(got, Classification)
    assert got.method == "rules"
    assert got.complexity is C
    assert set(got.features) >= {
        "provisions", "acts", "old_new_pair", "issues", "parties", "comparative", "analytical", "lookup",
        "questions", "words",
    }  # fmt: skip
    assert got.features["issues"] >= 3  # dowry, cruelty (harassment), theft, intimidation, bail
    assert got.reasons and all(isinstance(r, str) and r for r in got.reasons)


@pytest.mark.parametrize(
    ("question", "provisions", "acts"),
    [
        ("Sections 302, 307 and 34 IPC", 3, 1),
        # The extractor leaves a number standing after the Act code; the classifier counts it.
        ("compare sedition under IPC 124A with BNS 152", 2, 2),
        ("bail under BNS 318 and 316", 2, 1),
        ("a 138 NI Act complaint", 1, 1),
        # Order 39 Rule 1 is one provision: the "1" before "CPC" belongs to it, not to the Act.
        ("What does Order 39 Rule 1 CPC provide?", 1, 1),
        ("Section 125 CrPC / Section 144 BNSS", 2, 2),
        ("the Partnership Act, NI Act and criminal law", 0, 2),
        # "the Act" refers back to the statute named before it, known to the resolver or not: not another Act.
        ("Under the Police Act, 1861 what does section 2 of the Act say?", 1, 1),
        ("Section 138 of the Negotiable Instruments Act and Section 142 of the Act", 2, 1),
    ],
)
def test_provision_and_act_counts(rules: RuleClassifier, question: str, provisions: int, acts: int) -> None:
    f = rules.classify(question).features
    assert (f["provisions"], f["acts"]) == (provisions, acts)


def test_old_and_new_code_without_a_cue_is_analytical(rules: RuleClassifier) -> None:
    got = rules.classify("Sedition: IPC 124A and BNS 152")
    assert got.features["old_new_pair"] == 1.0
    assert got.complexity is A
    # ... but a correspondence lookup naming both codes stays a lookup.
    lookup = rules.classify("Which section of BNSS corresponds to Section 438 CrPC?")
    assert lookup.features["old_new_pair"] == 1.0
    assert lookup.complexity is S


def test_several_fields_of_law_make_it_complex(rules: RuleClassifier) -> None:
    # No issue from the lexicon and a short fact pattern, yet the client asks for two kinds of proceedings.
    got = rules.classify(
        "My neighbour blocked the only road to my plot and abused my mother. "
        "What civil and criminal remedies do I have?"
    )
    assert got.features["areas"] == 2
    assert got.complexity is C
    assert any("fields of law" in r for r in got.reasons)


def test_lookup_cue_needs_a_single_provision(rules: RuleClassifier) -> None:
    assert rules.classify("What does s.138 NI Act say?").complexity is S
    several = "What do sections 138, 141 and 142 NI Act say about a company's liability?"
    assert rules.classify(several).complexity is not S


# -- the labelled set --------------------------------------------------------------------------------


def test_labelled_set_shape() -> None:
    rows = _rows()
    assert len(rows) >= 100
    assert len({r["id"] for r in rows}) == len(rows)
    assert all(set(r) == {"id", "question", "complexity", "note", "split"} for r in rows)
    per_class = Counter(r["complexity"] for r in rows)
    assert set(per_class) == {c.value for c in Complexity}
    assert all(22 <= n <= 30 for n in per_class.values()), per_class
    splits = [r["split"] for r in rows]
    assert splits[-40:] == ["heldout"] * 40
    assert set(splits[:-40]) == {"dev"} and len(splits) - 40 >= 60
    for split in ("dev", "heldout"):
        assert {r["complexity"] for r in rows if r["split"] == split} == {c.value for c in Complexity}


@pytest.fixture(scope="module")
def report(rules: RuleClassifier) -> dict[str, Any]:
    return accuracy_report(DATA, rules)


@pytest.mark.parametrize(("split", "floor"), [("dev", DEV_FLOOR), ("heldout", HELDOUT_FLOOR)])
def test_accuracy(report: dict[str, Any], split: str, floor: float) -> None:
    bucket = report[split]
    print(f"\n{split}: {bucket['correct']}/{bucket['n']} = {bucket['accuracy']:.3f}")
    print(format_confusion(bucket["confusion"]))
    for e in bucket["errors"]:
        print(f"  {e['id']}: gold {e['gold']} got {e['got']} ({'; '.join(e['reasons'])})")
    assert sum(sum(row.values()) for row in bucket["confusion"].values()) == bucket["n"]
    assert bucket["accuracy"] >= floor


def test_accuracy_report_counts(tmp_path: Path, rules: RuleClassifier) -> None:
    path = tmp_path / "mini.jsonl"
    rows = [
        {"id": "a", "question": "Text of section 103 BNS", "complexity": "SIMPLE", "split": "dev"},
        {"id": "b", "question": "Compare IPC 124A with BNS 152", "complexity": "SIMPLE", "split": "dev"},
        {"id": "c", "question": "Can police arrest without a warrant?", "complexity": "STANDARD"},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    rep = accuracy_report(path, rules)
    assert (rep["all"]["n"], rep["all"]["correct"]) == (3, 2)
    assert (rep["dev"]["n"], rep["dev"]["correct"]) == (2, 1)
    assert rep["dev"]["confusion"]["SIMPLE"] == {"SIMPLE": 1, "STANDARD": 0, "COMPLEX": 0, "ANALYTICAL": 1}
    assert [e["id"] for e in rep["all"]["errors"]] == ["b"]
    assert rep["mean_ms"] > 0


# -- the Claude classifier against the fake Anthropic server ----------------------------------------


@pytest.fixture
def fake() -> Iterator[Any]:
    from tests.fakes.anthropic_server import FakeAnthropic

    server = FakeAnthropic().start()
    yield server
    server.stop()


@pytest.fixture
def claude(fake: Any, rules: RuleClassifier) -> Any:
    claude_mod = pytest.importorskip("legal_rag.workflow.generators.claude")
    from legal_rag.settings import LLMSettings
    from legal_rag.workflow.classify import ClaudeClassifier

    client = claude_mod.ClaudeClient(
        LLMSettings(anthropic_api_key="test", anthropic_base_url=fake.base_url, backoff_base_s=0.01, max_retries=1)
    )
    return ClaudeClassifier(client, fallback=rules)


QUESTION = "Can police arrest without a warrant for a cognizable offence?"


def test_claude_classifies_with_a_forced_tool(fake: Any, claude: Any) -> None:
    fake.reply_tool("classify_complexity", {"complexity": "COMPLEX", "reason": "several parties"})
    got = claude.classify(QUESTION)
    assert got == Classification(complexity=C, method="claude", reasons=("several parties",))
    (body,) = fake.requests
    assert [t["name"] for t in body["tools"]] == ["classify_complexity"]
    assert body["tool_choice"]["name"] == "classify_complexity"
    assert QUESTION in json.dumps(body["messages"])
    assert "ANALYTICAL" in json.dumps(body["system"])


@pytest.mark.parametrize("status", [500, 529, 401])
def test_claude_failure_falls_back_to_rules(fake: Any, claude: Any, rules: RuleClassifier, status: int) -> None:
    for _ in range(3):  # max_retries=1: at most two attempts reach the fake
        fake.reply_error(status)
    got = claude.classify(QUESTION)
    expected = rules.classify(QUESTION)
    assert got.method == "rules"
    assert got.complexity is expected.complexity is T
    assert got.features["claude_failed"] == 1.0
    assert got.reasons[0].startswith("claude classifier failed")
    assert got.reasons[1:] == expected.reasons


def test_claude_unknown_class_falls_back_to_rules(fake: Any, claude: Any) -> None:
    fake.reply_tool("classify_complexity", {"complexity": "VERY_HARD", "reason": "?"})
    got = claude.classify("Text of section 103 BNS")
    assert (got.method, got.complexity) == ("rules", S)
    assert "VERY_HARD" in got.reasons[0]
