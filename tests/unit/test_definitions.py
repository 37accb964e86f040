"""Definition questions find the clause that defines their term (legal_rag/retrieval/definitions.py), on real
defining clauses of the BNS, BNSS, CrPC and the Prevention of Corruption Act."""

from __future__ import annotations

import pytest

from legal_rag.retrieval.definitions import asked_terms, defined_terms
from legal_rag.retrieval.types import Chunk


def chunk(cid: str, text: str) -> Chunk:
    act, section, sub, part = cid.split(":")
    return Chunk(cid, act, section, None if sub == "-" else sub, int(part), "Definitions", f"{act} s.{section}",
                 text, "in_force", None, None, None)  # fmt: skip


CHUNKS = [
    chunk("BNS:2:28:0", "(28) \u201cpublic servant\u201d means a person falling under any of the descriptions, "
          "namely:\u2014"),
    chunk("BNSS:2:1/g:0", "(g) \u201ccognizable offence\u201d means an offence for which, and \u201ccognizable "
          "case\u201d means a case in which, a police officer may, in accordance with the First Schedule or under "
          "any other law for the time being in force, arrest without warrant;"),
    # the CrPC's definitions are held as a few long chunks: every term in them counts
    chunk("CRPC:2:-:0", "In this Code, unless the context otherwise requires; \u201cbailable offence\u201d means an "
          "offence which is shown as bailable in the First Schedule; \u201ccharge\u201d includes any head of charge "
          "when the charge contains more heads than one;"),
    chunk("BNS:86:-:0", "For the purposes of section 85, \u201ccruelty\u201d means\u2014"),
    chunk("PCA:2:c:0", "(c) \u201cpublic servant\u201d means--"),
    # a term used, not defined
    chunk("ARMS:38:-:0", "Every offence under this Act shall be cognizable within the meaning of the Code of "
          "Criminal Procedure, 1973 (2 of 1974)."),
]  # fmt: skip


def test_every_quoted_term_followed_by_means_or_includes_is_a_definition() -> None:
    got = defined_terms(CHUNKS)
    assert got["public servant"] == ["BNS:2:28:0", "PCA:2:c:0"]
    assert got["cognizable offence"] == ["BNSS:2:1/g:0"] and got["cognizable case"] == ["BNSS:2:1/g:0"]
    assert got["bailable offence"] == ["CRPC:2:-:0"] and got["charge"] == ["CRPC:2:-:0"]
    assert got["cruelty"] == ["BNS:86:-:0"]
    assert not any("ARMS:38:-:0" in ids for ids in got.values())


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("Define 'cognizable offence' under CrPC.", ["cognizable offence"]),
        ("Define cognizable offence under the CrPC", ["cognizable offence"]),
        ("What is the meaning of public servant?", ["public servant"]),
        ("What is meant by \u201ccruelty\u201d in section 85 BNS?", ["cruelty"]),
        ("What are bailable offences?", ["bailable offences", "bailable offence"]),
        ("What is a charge?", ["charge"]),
        # a candidate no statute defines: the lookup finds nothing, and the question is answered as before
        ("What is the punishment for theft under the BNS?", ["punishment for theft"]),
        # not definition questions
        ("Can the Sessions Court grant bail?", []),
    ],
)  # fmt: skip
def test_the_term_a_definition_question_asks_about(question: str, terms: list[str]) -> None:
    assert asked_terms(question) == terms
