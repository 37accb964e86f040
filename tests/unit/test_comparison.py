"""Comparison questions: reading their two sides, and quoting the provision each side names (real headings)."""

from __future__ import annotations

import pytest

from legal_rag.workflow.comparison import comparison_sides
from legal_rag.workflow.generators.extractive import ExtractiveGenerator, side_pick
from legal_rag.workflow.types import Complexity, Passage


@pytest.mark.parametrize(("question", "sides"), [
    ("What is the difference between theft and extortion?", ("theft", "extortion")),
    ("Culpable homicide vs murder?", ("Culpable homicide", "murder")),
    ("Culpable homicide vs murder - what distinguishes them under the BNS?", ("Culpable homicide", "murder")),
    ("What is criminal conspiracy, and how does it differ from abetment?", ("criminal conspiracy", "abetment")),
    ("Distinguish common intention from common object under the BNS.", ("common intention", "common object")),
    ("How does robbery differ from dacoity?", ("robbery", "dacoity")),
    ("Compare the offence of cheating with criminal breach of trust.", ("cheating", "criminal breach of trust")),
    ("Rape versus sexual assault in POCSO?", ("Rape", "sexual assault")),
    ("What is the punishment for theft?", ()),
])  # fmt: skip
def test_comparison_sides(question: str, sides: tuple[str, ...]) -> None:
    assert comparison_sides(question) == sides


def group(cid: str, heading: str, text: str = "Whoever commits the offence shall be punished with fine.",
          relevance: float = 0.6) -> tuple[tuple[str, str], list[Passage]]:
    act, section, *_ = cid.split(":")
    return (act, section), [Passage(cid, act, section, heading, text, "in_force", relevance=relevance)]


def test_side_pick_takes_the_section_the_side_heads() -> None:
    groups = [
        group("BNS:105:-:0", "BNS s.105 Punishment for culpable homicide not amounting to murder"),
        group("BNS:49:-:0", "BNS s.49 Punishment of abetment if act abetted is committed in consequence and where "
                            "no express provision is made for its punishment"),
        group("BNS:100:-:0", "BNS s.100 Culpable homicide"),
        group("BNS:101:-:0", "BNS s.101 Murder"),
        group("POCSO:17:-:0", "POCSO s.17 Punishment for abetment"),
        group("BNS:45:-:0", "BNS s.45 Abetment of a thing"),
    ]  # fmt: skip
    assert side_pick("culpable homicide", groups) == groups[2]
    assert side_pick("murder", groups) == groups[3]
    # fewest other words, though retrieved after BNS 49; and the definition, not POCSO's "Punishment for abetment"
    assert side_pick("abetment", groups) == groups[5]
    assert side_pick("dacoity", groups) is None


IPC_299 = ("Whoever causes death by doing an act with the intention of causing death, or with the intention of causing "
           "such bodily injury as is likely to cause death, or with the knowledge that he is likely by such act to "
           "cause death, commits the offence of culpable homicide.")
IPC_300 = "Except in the cases hereinafter excepted, culpable homicide is murder, if the act by which the death is "
IPC_304 = ("Whoever commits culpable homicide not amounting to murder shall be punished with imprisonment for life, or "
           "imprisonment of either description for a term which may extend to ten years, and shall also be liable to "
           "fine, if the act by which the death is caused is done with the intention of causing death;")
IPC_308 = ("Whoever does any act with such intention or knowledge and under such circumstances that, if he by that act "
           "caused death, he would be guilty of culpable homicide not amounting to murder, shall be punished with "
           "imprisonment of either description for a term which may extend to three years, or with fine, or with both.")


def test_a_comparison_quotes_each_side() -> None:
    # Ranked by how much of the question they cover, 304 and 308 ("culpable homicide not amounting to murder")
    # beat 299, the section that defines one side of the comparison.
    passages = [Passage(cid, "IPC", cid.split(":")[1], heading, text, "in_force", relevance=rel) for cid, heading, text,
                rel in (("IPC:300:-:0", "IPC s.300 Murder", IPC_300 + "caused is done with the intention.", 0.80),
                        ("IPC:299:-:0", "IPC s.299 Culpable homicide", IPC_299, 0.78),
                        ("IPC:304:-:0", "IPC s.304 Punishment for culpable homicide not amounting to murder", IPC_304,
                         0.77),
                        ("IPC:308:-:0", "IPC s.308 Attempt to commit culpable homicide", IPC_308, 0.75))]  # fmt: skip
    gen = ExtractiveGenerator({"IPC": "The Indian Penal Code, 1860"}).generate(
        "Culpable homicide vs murder?", passages, as_of="2021-04-04", complexity=Complexity.SIMPLE)
    assert {s.chunk_ids[0] for s in gen.sentences} == {"IPC:299:-:0", "IPC:300:-:0"}
