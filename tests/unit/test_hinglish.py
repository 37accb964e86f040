"""Hinglish questions glossed into English before retrieval (data/retrieval/hinglish.jsonl). The questions are
written for these tests; none is in an evaluation set."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph_schema.errors import IngestError
from legal_rag.retrieval.expand import TermsOfArt
from legal_rag.retrieval.hinglish import MIN_ENTRIES, Glossary
from legal_rag.settings import Settings

GLOSSARY = Glossary.load(Settings().retrieval.hinglish)


@pytest.mark.parametrize(("question", "english"), [
    ("Mera pati roz maarpeet karta hai. Kya saza hogi?", ["husband", "every day", "voluntarily causing hurt",
                                                          "what", "punishment"]),
    ("Padosi ne meri zameen par kabza kar liya, kya karu?", ["neighbour", "land, immovable property",
                                                            "encroachment"]),
    ("Bhai ko thana mein giraftar kiya, jamanat kaise milegi?", ["police station", "arrest", "bail", "how"]),
    ("Kirayedar 6 mahine se kiraya nahi de raha", ["tenant", "rent"]),
    # everyday verbs: driving drunk, being caught, living in a house
    ("Papa sharab pee kar gaadi chala rahe the, police ne pakda. Kya hoga?", ["drunk", "vehicle", "driving",
                                                                             "caught", "what"]),
    ("Sasural wale mujhe ghar mein rehne nahi de rahe, kya karu?", ["in-laws", "house", "reside"]),
])  # fmt: skip
def test_a_hinglish_question_is_glossed_in_english(question: str, english: list[str]) -> None:
    glossed = GLOSSARY.gloss(question)
    assert glossed is not None
    for words in english:
        assert words in glossed, (words, glossed)


@pytest.mark.parametrize("question", [
    "My papa did not pay for the shaadi. Is that a dowry case?",  # one borrowed word is no Hinglish
    "What is the punishment for theft under the BNS?",
    "The beta version of the banking app leaked my data.",
    # borrowed words and names in English: no Hindi small word, or one word of the glossary only
    "I run a SaaS startup in Thane and my co-founder took the money.",
    "My makan malik refuses to return the deposit.",
    "Mr Haq and Mr Roz signed the agreement; can the chor clause be enforced?",
])  # fmt: skip
def test_an_english_question_is_left_alone(question: str) -> None:
    assert MIN_ENTRIES == 2 and GLOSSARY.gloss(question) is None


@pytest.mark.parametrize(("question", "not_glossed_as"), [
    ("Padosi ne mere papa ko thappad maar diya, kya case banta hai?", "murder"),  # a slap, not a killing
    ("Police ne mere bhai ko raat mein utha liya, kya karu?", "kidnapping"),  # picked up by the police
    ("Case ka kharcha kitna hoga?", "maintenance"),  # the cost of the case
])  # fmt: skip
def test_words_that_mean_something_else_as_often_are_not_glossed(question: str, not_glossed_as: str) -> None:
    assert not_glossed_as not in (GLOSSARY.gloss(question) or "")


def test_the_longest_spelling_wins_and_every_entry_is_used_once_per_place() -> None:
    glossed = GLOSSARY.gloss("Sasural wale dahej maang rahe hain")
    assert glossed is not None and glossed.startswith("in-laws, relatives of the husband dowry demand")
    assert "wale" not in glossed


def test_the_gloss_reaches_retrieval_and_the_terms_of_art() -> None:
    terms = TermsOfArt.load(Settings().retrieval.terms_of_art, Settings().retrieval.hinglish)
    q = "Sasural wale dahej ke liye maarpeet karte hain"
    expanded = terms.expand(q)
    assert expanded.startswith(q) and "dowry" in expanded and "voluntarily causing hurt" in expanded
    assert TermsOfArt.load(Settings().retrieval.terms_of_art).expand(q) == q  # no glossary, nothing glossed


def test_a_malformed_line_names_its_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "hinglish.jsonl"
    bad.write_text('{"words": ["chori"], "english": "theft"}\n{"words": [], "english": "x"}\n', encoding="utf-8")
    with pytest.raises(IngestError, match=r"hinglish.jsonl:2: \"words\""):
        Glossary.load(bad)
    assert Glossary.load(tmp_path / "absent.jsonl").gloss("chori aur dhokha") is None
