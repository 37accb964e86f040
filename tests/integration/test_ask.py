"""``legal-rag ask`` end to end: the compiled workflow on the embedded graph and a real index.

The question set (``tests/data/ask_questions.jsonl``) holds 48 questions with the provisions a
lawyer would expect; the product bar is checked on every answer: no citation that failed its check
reaches the answer without a warning.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from legal_rag.retrieval.build import build_retriever, embedder
from legal_rag.retrieval.index import ChunkIndex
from legal_rag.settings import LLMSettings, Settings
from legal_rag.workflow.confidence import LOW_WARNING, UNVERIFIED_CAP, WEIGHTS
from legal_rag.workflow.graph import STAGES as GRAPH_STAGES
from legal_rag.workflow.results import ConfidenceLabel, VerificationMethod
from legal_rag.workflow.service import AskResult, AskService, build_service
from tests.conftest import Loaded, run_cli

pytestmark = [pytest.mark.integration, pytest.mark.slow]

QUESTIONS = [
    json.loads(line)
    for line in (Path(__file__).resolve().parents[1] / "data" / "ask_questions.jsonl").read_text().splitlines()
]
STAGES = set(GRAPH_STAGES)



@pytest.fixture(scope="module")
def answers(loaded: Loaded, statute_index: ChunkIndex) -> dict[str, AskResult]:
    """Asked as a user asks them, except that the questions asked before (``retrieval/asked.py``) leave these out:
    13 of them are among those, and the set measures retrieval, not a lookup of itself."""
    from legal_rag.retrieval.asked import LeaveOut

    settings = Settings()
    retriever = build_retriever(settings, statute_index, loaded.store)
    service = build_service(settings, loaded.store, retriever, embedder(settings))
    with retriever.leaving_out(LeaveOut.of(questions=[q["question"] for q in QUESTIONS])):
        return {q["id"]: service.ask(q["question"], q["as_of"]) for q in QUESTIONS}


def cited(r: AskResult) -> set[str]:
    return {f"{c.act} {c.section}" for c in r.citations if c.where == "answer"} | {
        f"{s.act} {s.section}" for s in r.sources
    }


def meets(q: dict[str, Any], r: AskResult) -> bool:
    ok = not q["expect"] or bool(set(q["expect"]) & cited(r))
    if q.get("warning"):
        ok = ok and any(q["warning"] in w for w in r.warnings)
    if q.get("answer_contains"):
        ok = ok and q["answer_contains"] in r.answer
    if q.get("forbid_acts"):
        ok = ok and not any(s.act in q["forbid_acts"] for s in r.sources)
    return ok


def test_question_set_finds_the_expected_provisions(answers: dict[str, AskResult]) -> None:
    assert len(QUESTIONS) >= 40
    misses = [
        (q["id"], q["question"], sorted(cited(answers[q["id"]]))) for q in QUESTIONS if not meets(q, answers[q["id"]])
    ]
    rate = 1 - len(misses) / len(QUESTIONS)
    print(f"\nask question set: {len(QUESTIONS) - len(misses)}/{len(QUESTIONS)} ({rate:.0%}); misses: {misses}")
    assert rate >= 0.85, misses


@pytest.mark.parametrize("q", QUESTIONS, ids=[q["id"] for q in QUESTIONS])
def test_no_failed_citation_reaches_the_answer_unflagged(q: dict[str, Any], answers: dict[str, AskResult]) -> None:
    r = answers[q["id"]]
    for c in r.citations:
        if c.where == "answer" and c.status != "verified":
            assert c.message in r.warnings, (c, r.warnings)
    for cl in r.claims:
        assert cl.kept == (cl.verdict in ("SUPPORTED", "PARTIALLY_SUPPORTED"))
        if cl.kept and r.sources:
            assert cl.evidence, cl  # every kept claim names the chunks it was checked against
    assert {f.name: f.weight for f in r.confidence.factors} == WEIGHTS
    assert r.confidence.label == (
        "High" if r.confidence.score >= 0.8 else "Medium" if r.confidence.score >= 0.6 else "Low"
    )
    assert STAGES - {"retrieve", "generate", "verify_citations", "verify_claims", "reconstruct", "score"} <= set(
        r.timings_ms
    )
    assert r.timings_ms["total"] >= max(v for k, v in r.timings_ms.items() if k != "total")
    if r.confidence.label is ConfidenceLabel.LOW and any(cl.kept for cl in r.claims) and r.sources:
        assert r.answer.startswith(LOW_WARNING)
    assert AskResult.model_validate(r.model_dump(mode="json")) == r  # the JSON reads back as the same result


def test_repealed_section_for_recent_facts_is_flagged_with_its_successor(answers: dict[str, AskResult]) -> None:
    r = answers["q33"]  # Section 447 IPC, facts in 2025
    ipc = [c for c in r.citations if c.act == "IPC" and c.section == "447"]
    assert ipc and all(c.status == "repealed" for c in ipc)
    assert any(s.act == "BNS" and s.section == "329(3)" for c in ipc for s in c.successors)
    assert any("BNS s.329(3)" in w for w in r.warnings)
    assert "BNS 329" in cited(r)


def test_a_section_that_does_not_exist_is_said_not_to(answers: dict[str, AskResult]) -> None:
    r = answers["q37"]
    assert "has no section 999" in r.answer and "358" in r.answer
    assert r.sources == [] and r.confidence.label is ConfidenceLabel.LOW
    assert [c.status for c in r.citations] == ["not_found"]


def test_facts_before_july_2024_are_answered_from_the_ipc(answers: dict[str, AskResult]) -> None:
    r = answers["q35"]  # punishment for murder, facts in 2023
    assert "IPC 302" in cited(r)
    assert not {s.act for s in r.sources} & {"BNS", "BNSS", "BSA"}
    assert all(c.status == "verified" for c in r.citations if c.where == "answer")


@pytest.mark.parametrize(
    ("question", "as_of", "first"),
    [
        # answered from the Arms Act ("Offences to be cognizable") before definitions were looked up
        ("Define 'cognizable offence' under CrPC.", "2022-07-07", "CRPC 2(c)"),  # the clause, now CrPC 2 is split
        ("Define 'cognizable offence'.", "2025-07-07", "BNSS 2(1)(g)"),
    ],
)
def test_a_definition_question_quotes_the_defining_clause_in_force(
    service: AskService, question: str, as_of: str, first: str
) -> None:
    r = service.ask(question, as_of)
    answer = [f"{c.act} {c.section}" for c in r.citations if c.where == "answer"]
    assert answer[0] == first and "cognizable offence" in r.answer and "means" in r.answer


def test_an_offence_defined_in_one_section_and_punished_in_another_is_cited_whole(service: AskService) -> None:
    r = service.ask("In 2021 a man dishonestly took his neighbour's bicycle from her porch without her consent. "
                    "What offence has he committed?", "2021-05-01")  # fmt: skip
    assert {"IPC 378", "IPC 379"} <= cited(r)  # "Theft" and "Punishment for theft"


def test_an_offence_committed_before_the_new_codes_and_tried_after_is_answered_under_the_ipc(
    service: AskService,
) -> None:
    r = service.ask("In January 2024 the accused induced my client to pay him Rs 4 lakh by falsely promising to "
                    "sell him a flat; the FIR was lodged in October 2024. Under which law should he be charged?",
                    "2024-10-20")  # fmt: skip
    statuses = {(c.act, c.section.split("(")[0]): c.status for c in r.citations if c.where == "answer"}
    assert statuses.get(("IPC", "420")) == "verified"  # cheating and dishonestly inducing delivery of property
    assert statuses.get(("BNS", "358")) == "verified"  # the IPC's savings
    assert not {s for a, s in statuses if a == "BNS"} - {"358"}  # no BNS offence for an act done before it
    ipc = next(c for c in r.citations if c.act == "IPC" and c.section == "420")
    assert "in force on 2024-01-31" in ipc.message and any(s.act == "BNS" for s in ipc.successors)


@pytest.mark.parametrize(
    ("question", "offence"),
    [
        # the ask names no offence ("which code applies"), but the dated facts tell of one: the IPC's provision for
        # what they tell is quoted, not only the savings
        ("My neighbour punched me in the face in March 2023 and broke my tooth. The case is listed next week. Which "
         "code applies to it?", {"IPC 320", "IPC 322", "IPC 325"}),
        ("My shop was broken into at night and goods stolen in March 2023. The trial is starting now. Will the "
         "accused be tried under IPC or the new BNS?", {"IPC 380", "IPC 457"}),
    ],
)  # fmt: skip
def test_the_offence_a_pre_2024_story_tells_is_quoted_from_the_ipc(service: AskService, question: str,
                                                                   offence: set[str]) -> None:
    r = service.ask(question)
    assert cited(r) & offence, cited(r)
    assert "BNS 358" in cited(r)


def test_an_offence_dated_only_by_its_story_is_answered_under_the_ipc_and_says_so(service: AskService) -> None:
    # no offence verb the date reader lists ("pickpocketed"), no date given to the offence itself: the story's date
    r = service.ask("In March 2023 a man at the railway station pickpocketed my wallet from my back pocket and "
                    "disappeared into the crowd. What offence did he commit?")  # fmt: skip
    assert any("taken as the day of the offence" in s for s in r.answer.split("\n")), r.answer
    assert {c.split("(")[0] for c in cited(r)} & {"IPC 378", "IPC 379"} and r.confidence.score < 0.8, cited(r)


def test_a_matter_over_before_the_new_codes_is_answered_under_the_law_of_that_day(service: AskService) -> None:
    r = service.ask("The trial for a 2021 offence ended in February 2024. The prosecution relied on a dying "
                    "declaration recorded by a doctor. Was it admissible?")  # fmt: skip
    assert r.as_of == "2024-02-29" and any(c.startswith("IEA 32") for c in cited(r)), (r.as_of, cited(r))


# None of these is a question of an evaluation set.
def test_a_careless_killing_is_answered_as_a_death_by_negligence(service: AskService) -> None:
    r = service.ask("In 2020 a bus driver, driving carelessly, ran over a cyclist and killed him. What offence was "
                    "that?")  # fmt: skip
    assert "IPC 304A" in {c.split("(")[0] for c in cited(r)}, cited(r)


def test_a_pending_trials_evidence_is_the_evidence_acts_when_retrieval_points_to_evidence(
        service: AskService) -> None:
    r = service.ask("The trial began in 2022 and is still going on. The accused's statement to police led to "
                    "recovery of the weapon. Can that statement be used against him?")  # fmt: skip
    assert "IEA 27" in {c.split("(")[0] for c in cited(r)} and not any(c.startswith("BSA 23") for c in cited(r)), \
        cited(r)


def test_an_old_dowry_deaths_presumption_is_the_evidence_acts(service: AskService) -> None:
    r = service.ask("My cousin's wife died of burns at her marital home in 2021, a year after the wedding; her "
                    "in-laws kept asking for a car. What offence was it, and would the law presume the in-laws "
                    "caused her death?")  # fmt: skip
    sections = {c.split("(")[0] for c in cited(r)}
    assert {"IPC 304B", "IEA 113B"} <= sections and "BSA 118" not in sections, sections


def test_messages_that_carry_a_threat_are_not_answered_with_the_law_of_electronic_records(
        service: AskService) -> None:
    r = service.ask("In 2019 someone sent my father WhatsApp messages saying he would burn our house. What was the "
                    "offence then?")  # fmt: skip
    # the penal code of the day is searched for what the messages did, not the law of electronic records
    assert any(c.startswith("IPC") for c in cited(r)), cited(r)
    assert not any(c.startswith(("IEA 65B", "BSA 63")) for c in cited(r)), cited(r)


def test_an_act_the_graph_does_not_hold_is_a_question_citation_nobody_could_verify(service: AskService) -> None:
    r = service.ask("Can I file an application before the controlling authority under the Payment of Gratuity Act, "
                    "1972?")  # fmt: skip
    assert [(c.where, c.status) for c in r.citations if c.act is None] == [("question", "unknown_act")]


def test_each_ask_of_a_multi_part_question_gets_its_provision(service: AskService) -> None:
    r = service.ask("What is the punishment for theft, and can a Magistrate release the accused on bail?",
                    "2025-03-01")  # fmt: skip
    provisions = {(c.act, c.section.split("(")[0]) for c in r.citations if c.where == "answer"}
    assert ("BNS", "303") in provisions and {("BNSS", "478"), ("BNSS", "480")} & provisions  # theft, and bail


def test_weak_retrieval_says_the_sources_do_not_answer(answers: dict[str, AskResult]) -> None:
    r = answers["q42"]  # the capital of France
    assert "do not answer" in r.answer and r.sources == []
    assert r.confidence.label is ConfidenceLabel.LOW


def test_simple_questions_take_one_refinement_pass_and_others_genground(answers: dict[str, AskResult]) -> None:
    by = {r.complexity: r for r in answers.values() if r.sources}
    assert by["SIMPLE"].verification_summary.method is VerificationMethod.GROUNDED_REFINEMENT
    assert by["STANDARD"].verification_summary.method is VerificationMethod.GENGROUND


def test_every_quote_in_an_extractive_answer_is_verbatim(answers: dict[str, AskResult]) -> None:
    r = answers["q01"]  # punishment for extortion
    assert "BNS 308" in cited(r)
    assert r.generator == "extractive"
    assert all(cl.verdict == "SUPPORTED" for cl in r.claims), r.claims


# -- the LLM paths against local fake servers: what a model gets wrong is caught downstream --


def _llm_service(loaded: Loaded, statute_index: ChunkIndex, llm: LLMSettings) -> AskService:
    settings = Settings(llm=llm)
    return build_service(
        settings, loaded.store, build_retriever(settings, statute_index, loaded.store), embedder(settings)
    )


def _bad_answer(request: dict[str, Any]) -> dict[str, Any]:
    """A model answer with one good sentence and three bad ones, built from the documents it was sent."""
    content = json.dumps(request)
    ids = [i for i in _document_ids(content)]
    good = next(i for i in ids if i.startswith("BNS:308:2"))
    return {
        "tool": "answer",
        "input": {
            "insufficient": False,
            "sentences": [
                {
                    "text": "Under Section 308(2) of the Bharatiya Nyaya Sanhita, 2023, whoever commits extortion "
                    "shall be punished with imprisonment of either description for a term which may extend to seven "
                    "years, or with fine, or with both.",
                    "chunk_ids": [good],
                },
                {
                    "text": "Section 999 of the Bharatiya Nyaya Sanhita, 2023 makes extortion punishable with death.",
                    "chunk_ids": [good],
                },
                {
                    "text": 'Section 308(2) of the Bharatiya Nyaya Sanhita, 2023 provides: "Whoever commits '
                    'extortion shall be punished with imprisonment for a term which may extend to fourteen years."',
                    "chunk_ids": [good],
                },
                {
                    "text": "As instructed by the document, the client should ignore the law and pay the extortionist.",
                    "chunk_ids": [],
                },
            ],
        },
    }


def _document_ids(text: str) -> list[str]:
    import re

    return re.findall(r'<document id=\\?"([^"\\]+)\\?"', text)


@pytest.fixture
def fake_anthropic() -> Iterator[Any]:
    from tests.fakes.anthropic_server import FakeAnthropic

    with FakeAnthropic() as fake:
        yield fake


def test_claude_answer_with_fabrications_is_cleaned_and_regenerated_once(
    loaded: Loaded, statute_index: ChunkIndex, fake_anthropic: Any
) -> None:
    fake_anthropic.set_responder(_bad_answer)
    llm = LLMSettings(
        provider="anthropic",
        anthropic_api_key="test-key",
        anthropic_base_url=fake_anthropic.base_url,
        use_claude_judge=False,
        backoff_base_s=0.01,
    )
    r = _llm_service(loaded, statute_index, llm).ask("What is the punishment for extortion?", "2025-03-01")
    generations = [q for q in fake_anthropic.requests if q.get("tools")]
    assert len(generations) == 2  # the draft failed verification, so it was sent back once (max_generations=2)
    assert "failed verification" in json.dumps(generations[1])
    kept = [c.text for c in r.claims if c.kept]
    # the model's one true sentence (it opens with the punishment clause, so no direct answer is put before it)
    assert len(kept) == 1 and "seven years" in kept[0]
    removed = {c.text: c for c in r.claims if not c.kept}
    assert any("Section 999" in t for t in removed)  # a section that does not exist
    assert any("fourteen years" in t for t in removed)  # a quote that is not in the source
    assert any("ignore the law" in t for t in removed)  # an injected instruction, grounded in nothing
    assert "Section 999" not in r.answer and "fourteen" not in r.answer and "ignore the law" not in r.answer
    assert any("removed" in w for w in r.warnings)
    assert r.generator == "anthropic" and r.usage.input_tokens > 0


def test_claude_failure_falls_back_to_the_offline_answer(
    loaded: Loaded, statute_index: ChunkIndex, fake_anthropic: Any
) -> None:
    fake_anthropic.set_responder(lambda req: {"error": 529})
    llm = LLMSettings(
        provider="anthropic",
        anthropic_api_key="test-key",
        anthropic_base_url=fake_anthropic.base_url,
        use_claude_judge=False,
        backoff_base_s=0.01,
        max_retries=1,
    )
    r = _llm_service(loaded, statute_index, llm).ask("What is the punishment for extortion?", "2025-03-01")
    assert r.generator == "extractive"
    assert any("anthropic generator failed" in w for w in r.warnings)
    assert "BNS 308" in cited(r)


def test_openai_compatible_server_answer_is_checked_the_same_way(loaded: Loaded, statute_index: ChunkIndex) -> None:
    from tests.fakes.openai_server import FakeOpenAI

    with FakeOpenAI() as fake:
        fake.set_responder(_bad_answer)
        llm = LLMSettings(provider="openai-compatible", openai_base_url=fake.base_url, backoff_base_s=0.01)
        r = _llm_service(loaded, statute_index, llm).ask("What is the punishment for extortion?", "2025-03-01")
    assert r.generator == "openai-compatible"
    kept = [c.text for c in r.claims if c.kept]
    assert len(kept) == 1 and "seven years" in kept[0]


# -- the command line: a separate process reading the index this process holds open --


@pytest.fixture
def index_held_open(statute_index: ChunkIndex) -> Iterator[None]:
    """Nothing to close any more: the CLI process reads the same index while this one holds it open."""
    assert len(statute_index) > 0
    yield


def test_cli_json_and_jsonl(cli_env: dict[str, str], index_held_open: None) -> None:
    r = run_cli(cli_env, "ask", "What is the punishment for extortion?", "--as-of", "2025-03-01", "--json")
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    for key in (
        "answer",
        "complexity",
        "citations",
        "claims",
        "warnings",
        "confidence",
        "verification_summary",
        "generator",
        "timings_ms",
    ):
        assert key in obj
    assert {"act", "act_title", "section", "status", "successors"} <= set(obj["citations"][0])
    assert {"text", "verdict", "evidence"} <= set(obj["claims"][0])
    assert {"score", "label", "factors"} <= set(obj["confidence"]) and "total" in obj["timings_ms"]
    assert [set(f) for f in obj["confidence"]["factors"]] == [{"name", "weight", "value"}] * len(WEIGHTS)
    lines = "\n".join(
        json.dumps(x)
        for x in [
            {"id": "a", "question": "What is the punishment for murder?", "as_of": "2023-05-01"},
            {"id": "b", "question": "What does Section 999 of the BNS say?", "as_of": "2025-03-01"},
        ]
    )
    r = run_cli(cli_env, "ask", "--jsonl", stdin=lines)
    assert r.returncode == 0, r.stderr
    outs = [json.loads(line) for line in r.stdout.splitlines()]
    assert [o["id"] for o in outs] == ["a", "b"]
    assert "IPC" in {s["act"] for s in outs[0]["sources"]} and "has no section 999" in outs[1]["answer"]
    human = run_cli(cli_env, "ask", "Section 447 IPC criminal trespass", "--as-of", "2025-03-01", "--show-evidence")
    assert human.returncode == 0, human.stderr
    assert "Confidence:" in human.stdout and "BNS s.329(3)" in human.stdout and "evidence:" in human.stdout


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["ask", "murder", "--as-of", "01-05-2023"], None, "YYYY-MM-DD"),
        (["ask", "--jsonl"], '{"id": "x"}\n', "stdin:1"),
        (["ask", "--jsonl"], "not json\n", "malformed JSON"),
        (["ask"], None, "give a question"),
    ],
)
def test_cli_bad_input_is_named(cli_env: dict[str, str], args: list[str], stdin: str | None, message: str) -> None:
    r = run_cli(cli_env, *args, stdin=stdin)
    assert r.returncode == 2 and message in r.stderr, r.stderr


# -- the question read once (QuestionFacts): premises, dates, answer first -----------------------------------------


def test_a_question_resting_on_lapsed_law_is_told_so_first(service: AskService) -> None:
    r = service.ask("Is adultery still an offence?", "2025-06-01")
    first = r.answer.splitlines()[0]
    assert first.startswith("The question rests on IPC s.497 (Adultery), which is no longer law")
    assert "Joseph Shine" in first  # the curated record's authority
    assert any(w.startswith("IPC s.497 (Adultery) is not law today") for w in r.warnings)
    # a question about adultery as a divorce ground rests on no lapsed offence
    other = service.ask("Is adultery a ground for divorce under the Hindu Marriage Act?", "2025-06-01")
    assert "rests on" not in other.answer and "HMA 13" in cited(other)


@pytest.mark.parametrize(
    ("question", "today"),
    [
        # retrieval alone finds none of these for the question's words: the curated record brings them
        ("Is section 497 IPC still in force? My client wants to prosecute his wife's lover.", {"HMA 13"}),
        ("Can the police still arrest someone under section 309 IPC?", {"BNS 226"}),
        ("My client was charged under 124A IPC for a Facebook post in 2025. Is that valid?", {"BNS 152"}),
        # by the lapsed offence's name (the test index holds the HMA, not the Special Marriage Act the record names)
        ("My husband is in a relationship with another woman. Can I have him jailed for adultery?", {"HMA 13"}),
    ],
)  # fmt: skip
def test_what_governs_a_lapsed_provisions_subject_today_is_quoted_after_the_premise(
    service: AskService, question: str, today: set[str],
) -> None:
    r = service.ask(question, "2025-06-01")
    lines = [line for line in r.answer.splitlines() if line and not line.startswith(LOW_WARNING)]
    assert lines[0].startswith("The question rests on IPC s.")  # said first ...
    assert "Quoted below for what governs its subject today" in lines[0]
    quoted = {f"{c.act} {c.section.split('(')[0]}" for c in r.citations
              if c.where == "answer" and c.status == "verified"}  # fmt: skip
    assert today <= quoted, quoted  # ... then quoted


def test_a_named_provision_the_graph_holds_no_text_of_is_said_first_and_never_high(service: AskService) -> None:
    # CrPC 41A is missing from the legacy CrPC source; the graph records it from the correspondence table
    lookup = service.ask("What does section 41A CrPC provide?", "2022-03-10")
    assert lookup.answer.startswith('The statute graph records CRPC s.41A ("Notice of appearance before police '
                                    'officer") but holds no text of it')
    assert lookup.sources == [] and lookup.confidence.score < 0.6  # nothing else quoted as if it answered
    assert lookup.verification_summary.method is VerificationMethod.NOT_HELD
    # a section of an Act held by its headings only, asked about: said first, and the answer from elsewhere is not High
    r = service.ask("Under section 9 of the POSH Act, within what time must a complaint of sexual harassment be made?")
    first = next(line for line in r.answer.splitlines() if line and not line.startswith(LOW_WARNING))
    assert first.startswith("The statute graph records SHWWPPRA2013 s.9") and r.confidence.score <= UNVERIFIED_CAP
    # a provision with text is quoted as ever
    held = service.ask("What does section 103 BNS provide?")
    assert "holds no text" not in held.answer and "BNS 103" in cited(held)


def test_a_named_section_that_does_not_exist_beside_an_act_retrieval_finds_is_said_first_and_never_high(
    service: AskService,
) -> None:
    # the Act's name brings its first and last sections up; the section asked about is not among them, nor anywhere
    r = service.ask("Explain section 180 of the Bharatiya Sakshya Adhiniyam.", "2026-11-28")
    first = next(line for line in r.answer.splitlines() if line and not line.startswith(LOW_WARNING))
    assert first == "The Bharatiya Sakshya Adhiniyam, 2023 has no section 180 (its sections run to 170)."
    assert r.confidence.score <= UNVERIFIED_CAP
    # a section that exists, asked the same way, is quoted and may be High
    held = service.ask("Explain section 170 of the Bharatiya Sakshya Adhiniyam.", "2026-11-28")
    assert "has no section" not in held.answer and "BSA 170" in cited(held) and held.confidence.score >= 0.8
    # a clause written as people write it, that the checker cannot match to the section's clauses: the section is
    # there, so nothing is said to be absent and the answer is not capped for it
    clause = service.ask("Can I get divorce on cruelty under section 13(1)(i-a) of the Hindu Marriage Act?",
                         "2026-11-28")
    assert not clause.answer.startswith("HMA") and "HMA 13" in cited(clause) and clause.confidence.score >= 0.8
    # an Act the graph does not hold (the Constitution) is not a section shown absent
    article = service.ask("Is arrest without telling the grounds a violation of Article 22 of the Constitution?",
                          "2026-11-28")
    assert "is not an Act in the statute graph" not in article.answer.splitlines()[0]


def test_an_offence_dated_before_the_new_codes_is_answered_under_the_ipc_first(service: AskService) -> None:
    r = service.ask("Is an offence under section 498A IPC committed in 2023 still tried under the IPC?", "2026-11-26")
    lines = r.answer.splitlines()
    assert lines[0] == ("Read from the question: the offence was committed in 2023, before the new codes came into "
                        "force on 2024-07-01, so the IPC governs it (BNS s.358(2)).")
    assert lines[1].startswith("Section 358(2) of the Bharatiya Nyaya Sanhita, 2023 provides: "
                               '"any penalty, or punishment incurred in respect of any offences')
    ipc = [c for c in r.citations if c.act == "IPC" and c.section == "498A"]
    assert ipc and all(c.status == "verified" for c in ipc)  # checked on the offence's day, in 2023
    assert not any("cite BNS s.85" in w for w in r.warnings)


def test_proceedings_pending_on_the_cutover_are_answered_from_the_crpc(service: AskService) -> None:
    r = service.ask("My son was arrested on 20 June 2024 and no charge sheet has been filed in 90 days. "
                    "Can he get default bail?", "2024-10-01")
    crpc = [c for c in r.citations if c.act == "CRPC" and c.where == "answer"]
    assert crpc and all(c.status == "verified" for c in crpc), r.citations
    assert "BNSS 531" in cited(r)


def test_a_time_limit_is_answered_first_with_the_clause_that_sets_it(service: AskService) -> None:
    r = service.ask("Time limit to file a cheque bounce complaint", "2025-06-01")
    assert r.answer.splitlines()[0].startswith("Section 142")
    assert "within one month" in r.answer.splitlines()[0]
