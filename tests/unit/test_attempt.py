"""The general attempt provision (BNS 62, IPC 511) is brought in only where the offence's own provisions say
nothing of the attempt (real headings and text)."""

from __future__ import annotations

import pytest

from legal_rag.workflow.attempt import attempted_offence, general_attempt_for
from legal_rag.workflow.types import Passage


def passage(cid: str, heading: str, text: str) -> Passage:
    act, section, *_ = cid.split(":")
    return Passage(cid, act, section, heading, text, "in_force")


THEFT = passage("BNS:303:2:0", "BNS s.303(2) Theft", "(2) Whoever commits theft shall be punished with imprisonment "
                "of either description for a term which may extend to three years, or with fine, or with both")
RAPE = passage("BNS:64:1:0", "BNS s.64(1) Punishment for rape", "(1) Whoever, except in the cases provided for in "
               "sub-section (2), commits rape, shall be punished with rigorous imprisonment of either description")
ROBBERY_5 = passage("BNS:309:5:0", "BNS s.309(5) Robbery", "(5) Whoever attempts to commit robbery shall be punished "
                    "with rigorous imprisonment for a term which may extend to seven years, and shall also be liable "
                    "to fine.")
CULPABLE_ATTEMPT = passage("BNS:110:-:0", "BNS s.110 Attempt to commit culpable homicide", "Whoever does any act "
                           "with such intention or knowledge and under such circumstances that, if he by that act "
                           "caused death, he would be guilty of culpable homicide not amounting to murder")


@pytest.mark.parametrize(("question", "offence"), [
    ("What is the punishment for attempt to commit rape?", "rape"),
    ("What provisions apply to an attempt to commit theft, and what is the punishment?", "theft"),
    ("Attempt to commit theft - which provisions apply?", "theft"),
    ("What is the punishment for attempting to commit robbery?", "robbery"),
    ("He attempted to commit the offence of criminal breach of trust.", "criminal breach of trust"),
    ("What is the punishment for attempt to murder?", None),  # an offence of its own (BNS 109), not "to commit"
    ("What is the punishment for theft?", None),
])  # fmt: skip
def test_attempted_offence(question: str, offence: str | None) -> None:
    assert attempted_offence(question) == offence


def test_the_general_provision_only_where_the_offence_does_not_provide_for_the_attempt() -> None:
    q = "What is the punishment for attempt to commit theft?"
    assert general_attempt_for(q, "2025-03-01", [THEFT]) == ("BNS", "62")
    assert general_attempt_for(q, "2023-03-01", [THEFT]) == ("IPC", "511")  # the code in force on the date
    assert general_attempt_for("What is the punishment for attempt to commit rape?", "2025-03-01", [RAPE]) == (
        "BNS", "62")
    # Robbery's own section punishes the attempt; culpable homicide has an attempt section of its own.
    assert general_attempt_for("What is the punishment for attempting to commit robbery?", "2025-03-01",
                               [ROBBERY_5]) is None  # fmt: skip
    assert general_attempt_for("What is the punishment for attempt to commit culpable homicide?", "2025-03-01",
                               [CULPABLE_ATTEMPT]) is None  # fmt: skip
    assert general_attempt_for("What is the punishment for theft?", "2025-03-01", [THEFT]) is None
