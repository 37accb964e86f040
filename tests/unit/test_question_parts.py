"""The asks of a multi-part question (legal_rag/workflow/parts.py), on questions as lawyers write them."""

from __future__ import annotations

import pytest

from legal_rag.workflow.parts import question_parts


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("What is the punishment for theft, and can a Magistrate release the accused on bail?",
         ("What is the punishment for theft", "can a Magistrate release the accused on bail")),
        ("On what grounds can a Hindu marriage be dissolved by divorce, and when can the spouses divorce by mutual "
         "consent?",
         ("On what grounds can a Hindu marriage be dissolved by divorce",
          "when can the spouses divorce by mutual consent")),
        # facts before the asks belong to the ask that follows them
        ("A wife died of burns in May 2025, three years after her marriage; her parents say the in-laws had been "
         "demanding a car as dowry. What offence, and what presumption applies?",
         ("A wife died of burns in May 2025, three years after her marriage; her parents say the in-laws had been "
          "demanding a car as dowry. What offence", "what presumption applies")),
        ("Is a dying declaration admissible? Can the accused be convicted on it alone?",
         ("Is a dying declaration admissible", "Can the accused be convicted on it alone")),
        # a one-word ask after "and" + a question word
        ("What is robbery, and is it bailable?", ("What is robbery", "is it bailable")),
    ],
)  # fmt: skip
def test_each_ask_is_split_out_as_written(question: str, parts: tuple[str, ...]) -> None:
    assert question_parts(question) == parts


@pytest.mark.parametrize(
    "question",
    [
        "What is the punishment for extortion?",
        # one ask after facts, whatever the punctuation
        "Two brothers planned to kill their uncle; in 2025 one held him down while the other stabbed him. What is "
        "the liability of the brother who only held him?",
        "Can my client get anticipatory bail under section 438 CrPC? A dowry FIR was registered in December 2024.",
        # "and" joining things, not asks
        "What is the difference between theft and extortion?",
        "What are the rights of an arrested person and the duties of the police?",
        # a second piece too thin to be an ask of its own
        "What is cheating, and how?",
        # facts joined by "and is" / "and will" are not asks: only a piece ending at "?" asks with "is"
        "He was arrested on 3 March and is still in custody. The police have not filed a chargesheet and will not "
        "say why. Can he get default bail?",
        "",
    ],
)
def test_a_single_ask_is_not_split(question: str) -> None:
    assert question_parts(question) == ()


def test_at_most_three_asks() -> None:
    q = "What is the punishment for theft? When is bail granted? Which court may try it? Which court hears the appeal?"
    assert question_parts(q) == ("What is the punishment for theft", "When is bail granted", "Which court may try it")
