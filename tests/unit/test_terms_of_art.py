"""Terms of art in queries get the statute's wording appended (data/retrieval/terms_of_art.jsonl)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph_schema.errors import IngestError
from legal_rag.retrieval.expand import TermsOfArt
from legal_rag.settings import Settings

TERMS = TermsOfArt.load(Settings().retrieval.terms_of_art)


@pytest.mark.parametrize(
    ("query", "wording"),
    [
        ("Is a dying declaration admissible?", "cause of his death"),
        ("my cheque bounced last week", "dishonour of cheque for insufficiency of funds"),
        ("Can the High Court quash the FIR?", "inherent powers of High Court"),
        ("hit-and-run case on the highway", "escaping without reporting"),
        ("ANTICIPATORY BAIL in a dowry case", "person apprehending arrest"),
        ("Within what time must the complaint be filed?", "the date on which the cause of action arises"),
        # the names a practitioner uses for the courts and officers the statutes name otherwise
        ("Can the Sessions Court grant bail after the Magistrate refused?", "Court of Session"),
        ("The SHO refused to register my FIR.", "officer in charge of a police station"),
        ("Can a JMFC try this offence?", "Judicial Magistrate of the first class"),
        ("He was not produced before a magistrate for three days.", "not to be detained more than twenty-four hours"),
    ],
)
def test_terms_of_art_bring_the_statutory_wording(query: str, wording: str) -> None:
    out = TERMS.expand(query)
    assert out.startswith(query.rstrip(".?")) and wording in out


def test_words_inside_other_words_do_not_match_and_plain_queries_are_untouched() -> None:
    assert TERMS.expand("the firm's directors") == "the firm's directors"  # "fir" inside "firm"
    assert TERMS.expand("punishment for murder") == "punishment for murder"


def test_a_malformed_line_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "terms.jsonl"
    bad.write_text('{"terms": ["x"], "expansion": "y"}\n{"terms": "x"}\n', encoding="utf-8")
    with pytest.raises(IngestError, match="terms.jsonl:2"):
        TermsOfArt.load(bad)


@pytest.mark.parametrize(
    ("query", "wording"),
    [
        ("My client's husband secretly filmed her friend changing clothes. What offence is this?",
         "captures the image of a woman engaging in a private act"),
        ("In 2023 she entrusted her gold to a friend for safekeeping and the friend sold it. What offence?",
         "dishonestly misappropriates"),
        ("He took Rs 2 lakh promising a government job and disappeared. Can he be charged with anything?",
         "fraudulently or dishonestly induces"),
        ("Two brothers: one held him down while the other stabbed him. What is his liability?",
         "in furtherance of the common intention"),
    ],
)  # fmt: skip
def test_a_clients_account_of_facts_gets_the_offence_in_the_statutes_words(query: str, wording: str) -> None:
    assert wording in TERMS.expand(query)


def test_an_account_of_an_offence_is_not_expanded_when_the_question_asks_something_else() -> None:
    """The facts of a dying-declaration question mention an attack; the question is about evidence, and hurt
    provisions would crowd out BSA 26."""
    q = "Before dying, the victim told the doctor who had attacked her. Can her statement be used at the trial?"
    out = TERMS.expand(q)
    assert "cause of his death" in out and "causes hurt" not in out
    assert "causes hurt" in TERMS.expand("The neighbour attacked my client. What offence has he committed?")


def test_evidence_and_procedure_wording_applies_whatever_is_asked() -> None:
    assert "certificate identifying the electronic record" in TERMS.expand("Is the CCTV footage admissible?")
    assert "undertrial prisoner" in TERMS.expand("My client is an undertrial in custody for three years.")


def test_an_unknown_when_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "terms.jsonl"
    bad.write_text('{"terms": ["x"], "expansion": "y", "when": "sometimes"}\n', encoding="utf-8")
    with pytest.raises(IngestError, match=r"terms.jsonl:1: \"when\" must be one of"):
        TermsOfArt.load(bad)


@pytest.mark.parametrize(
    "question",
    [
        # "liable" in a civil matter is no question about an offence
        "A died intestate and was survived by his wife and two sons. Are the sons liable for his debts?",
        "Is the insurance company liable to pay compensation for the accident?",
        # "charged" on money is no charge of an offence
        "My friend took money from me as a loan and has not repaid it. Can interest be charged on it?",
        # words that also describe what is not an offence are not terms on their own
        "The judge pointed out that the complaint was defective. Can it be amended?",
        "The accused was in custody for 2 days. Was the confession admissible?",
    ],
)
def test_no_offence_wording_where_no_offence_is_asked_about(question: str) -> None:
    assert TERMS.expand(question) == question


@pytest.mark.parametrize(
    ("question", "wording"),
    [
        ("He beat his wife to death in 2025. What offence?", "culpable homicide"),
        ("They hacked him to death with swords. Can they be charged with murder?", "culpable homicide"),
        ("Under which section can a man who secretly filmed his tenant be booked?", "captures the image"),
        ("Two brothers planned it; one held him down while the other stabbed him. What is his liability?",
         "common intention"),
        ("He cheated the buyer into paying Rs 3 lakh for land he did not own. Under which law should he be charged?",
         "induces the person so deceived to deliver any property"),
    ],
)  # fmt: skip
def test_the_question_asks_about_an_offence_in_the_ways_lawyers_put_it(question: str, wording: str) -> None:
    assert wording in TERMS.expand(question)
