"""Definition questions find the clause that defines their term (legal_rag/retrieval/definitions.py), on real
defining clauses of the BNS, BNSS, IPC, CrPC and the Prevention of Corruption Act."""

from __future__ import annotations

import time

import pytest

from legal_rag.retrieval.definitions import Definition, asked_terms, defined_terms
from legal_rag.retrieval.types import Chunk


def chunk(cid: str, text: str, title: str = "Definitions") -> Chunk:
    act, section, sub, part = cid.split(":")
    return Chunk(cid, act, section, None if sub == "-" else sub, int(part), title, f"{act} s.{section}",
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
    # the IPC defines by "denote", in a section headed by the term
    chunk("IPC:21:-:0", "The words \u201cpublic servant\u201d denote a person falling under any of the "
          "descriptions hereinafter following, namely:\u2014", "Public servant"),
    chunk("BNS:86:-:0", "For the purposes of section 85, \u201ccruelty\u201d means\u2014", "Cruelty defined"),
    chunk("PCA:2:c:0", "(c) \u201cpublic servant\u201d means--"),
    # a definition for its own section only, far from the words that limit it
    chunk("BNSS:98:2:0", "(2) In this section and in section 99,\u2014 (a) \u201cnewspaper\u201d and \u201cbook\u201d "
          "have the same meanings as in the Press and Registration of Books Act, 1867 (25 of 1867); (b) "
          "\u201cdocument\u201d includes any painting, drawing or photograph, or other visible representation.",
          "Power to declare certain publications forfeited"),
    # a term used, not defined; an apostrophe is no quotation mark
    chunk("ARMS:38:-:0", "Every offence under this Act shall be cognizable within the meaning of the Code of "
          "Criminal Procedure, 1973 (2 of 1974)."),
    chunk("JJA:2:9:0", "(9) the Board's order' includes an order of the Committee", "Definitions"),
]  # fmt: skip


def test_every_quoted_term_followed_by_means_includes_or_denote_is_a_definition() -> None:
    got = defined_terms(CHUNKS)
    assert [d.chunk_id for d in got["public servant"]] == ["BNS:2:28:0", "IPC:21:-:0", "PCA:2:c:0"]
    assert got["cognizable offence"] == [Definition("BNSS:2:1/g:0", True)]
    assert got["cognizable case"] == [Definition("BNSS:2:1/g:0", True)]
    assert [d.chunk_id for d in got["bailable offence"]] == ["CRPC:2:-:0"] and "charge" in got
    assert got["cruelty"] == [Definition("BNS:86:-:0", True)]  # its section is about the term
    assert got["document"] == [Definition("BNSS:98:2:0", False)]  # for ss.98-99 only
    assert not any("ARMS:38:-:0" in [d.chunk_id for d in ds] for ds in got.values())
    assert not any(t.startswith("s ") for t in got)  # "Board's order'" is no quoted term


@pytest.mark.parametrize(
    ("question", "first"),
    [
        ("Define 'cognizable offence' under CrPC.", "cognizable offence"),
        ("Define cognizable offence under the CrPC", "cognizable offence under the crpc"),
        ("What is the meaning of public servant?", "public servant"),
        ("What is meant by \u201ccruelty\u201d in section 85 BNS?", "cruelty"),
        ("What are bailable offences?", "bailable offences"),
        ("What is a child in need of care and protection?", "child in need of care and protection"),
        # after the facts, a cue that can only ask what a word covers
        ("My in-laws taunt me every day about my cooking. What amounts to cruelty?", "cruelty"),
        ("The FIR names my brother. What counts as abetment here?", "abetment here"),
        ("Our landlord sold the house. What qualifies as a valid notice?", "valid notice"),
    ],
)
def test_the_candidate_terms_of_a_definition_question_longest_first(question: str, first: str) -> None:
    got = asked_terms(question)
    assert got[0] == first
    assert all(len(a.split()) >= len(b.split()) for a, b in zip(got, got[1:], strict=False))


def test_shorter_candidates_and_singulars_reach_the_defined_term() -> None:
    assert "cognizable offence" in asked_terms("Define cognizable offence under the CrPC")
    assert "bailable offence" in asked_terms("What are bailable offences?")
    assert asked_terms("What is the meaning of 'bailable offences'?") == ["bailable offences", "bailable offence"]
    assert "dowry" in asked_terms("What is meant by dowry under the Dowry Prohibition Act's section 2?")


@pytest.mark.parametrize(
    "question",
    [
        "Can the Sessions Court grant bail?",
        # after a fact pattern, "What is the offence?" asks what the facts make out
        "A hit B with a rod in 2025 and broke his arm. What is the offence?",
        # words every question asks about are not terms to define
        "What is the punishment?",
        "What are the offences?",
        # a bare "what amounts" is a quantity, "what comes" a sequence
        "He hit my car last week. What amounts of compensation can the court award?",
        "What comes next after the chargesheet?",
    ],
)
def test_questions_that_ask_for_no_definition(question: str) -> None:
    assert asked_terms(question) == []


def test_the_penal_codes_define_an_offence_by_the_conduct_that_makes_it_out() -> None:
    got = defined_terms([
        chunk("BNS:116:-:0", "The following kinds of hurt only are designated as \u201cgrievous\u201d, namely:\u2014",
              "Grievous hurt"),
        chunk("IPC:383:-:0", "Whoever intentionally puts any person in fear of any injury to that person, or to any "
              "other, and thereby dishonestly induces the person so put in fear to deliver to any person any "
              "property, or valuable security or anything signed or sealed which may be converted into a valuable "
              "security, commits \u201cextortion\u201d.", "Extortion"),
        chunk("IPC:444:-:0", "Whoever commits lurking house-trespass after sunset and before sunrise, is said to "
              "commit \u201clurking house-trespass by night\u201d.", "Lurking house-trespass by night"),
        # the offence named unquoted is used, not defined
        chunk("IPC:379:-:0", "Whoever commits theft shall be punished with imprisonment of either description for "
              "a term which may extend to three years, or with fine, or with both.", "Punishment for theft"),
    ])  # fmt: skip
    assert got["grievous"] == [Definition("BNS:116:-:0", True)]
    assert got["extortion"] == [Definition("IPC:383:-:0", True)]
    assert got["lurking house-trespass by night"] == [Definition("IPC:444:-:0", True)]
    assert "theft" not in got


@pytest.mark.parametrize(("question", "terms"), [
    ("When is hurt 'grievous', and what is the punishment for voluntarily causing grievous hurt?",
     ["grievous", "grievou"]),
    ("What amounts to extortion?", ["extortion"]),
    ("What constitutes cruelty?", ["cruelty"]),
    # "when" asks for a definition only of a quoted term
    ("When is bail granted?", []),
    # whether something falls within a quoted word: its definition decides
    ("Are WhatsApp chats and emails 'documents' under the new evidence law?", ["documents", "document"]),
    ("Is a drone a 'vehicle'?", ["vehicle"]),
    ("Is theft a crime?", []),
    # the quoted word as the subject: asked about, not defined
    ("Is 'theft' a compoundable offence?", []),
    ("Is \u201cdowry death\u201d bailable?", []),
    # who counts as one: a person-word's definition decides
    ("Who is a 'child' under the POCSO Act?", ["child"]),
    ("who is a 'senior citizen' and who is a 'relative' under the Senior Citizens Act?",
     ["senior citizen", "relative"]),
    ("Who is a public servant?", ["public servant", "public"]),
    ("Who is the magistrate for my area?", []),
    # "counts as", "qualifies as", "is treated as": the article after them is no part of the term
    ("Who counts as a 'child' under the juvenile justice law?", ["child"]),
    ("What qualifies as a public servant?", ["public servant", "public"]),
    ("Who is treated as a juvenile?", ["juvenile"]),
    ("Which Act applies and who is treated fairly?", []),
])  # fmt: skip
def test_other_ways_of_asking_what_a_term_means(question: str, terms: list[str]) -> None:
    assert asked_terms(question) == terms


def test_a_long_run_of_spaces_after_a_quoted_term_is_read_in_linear_time() -> None:
    text = "\u201cterm\u201d" + " " * 20000 + "x"
    start = time.perf_counter()
    assert defined_terms([chunk("X:1:-:0", text)]) == {}
    assert time.perf_counter() - start < 5  # a hang guard: the quadratic pattern took 17 s


@pytest.mark.parametrize(("question", "term"), [
    ("Does 'cruelty' under the new penal code cover only physical beating, or taunts too?", "cruelty"),
    ("I run a small printing press and bought a machine for it. Am I a 'consumer' for a complaint?", "consumer"),
    ("Is my cook a 'domestic worker' under the law?", "domestic worker"),
    ("Does 'document' include a WhatsApp message?", "document"),
])
def test_whether_something_falls_within_a_quoted_word_asks_for_its_definition(question: str, term: str) -> None:
    assert asked_terms(question)[0] == term


@pytest.mark.parametrize("question", [
    "Is 'theft' a compoundable offence?",  # asks about theft, not what it means
    "Did 'Ramesh' sign the agreement in my presence?",
])
def test_a_quoted_word_that_is_the_subject_is_not_asked_to_be_defined(question: str) -> None:
    assert asked_terms(question) == []


def test_a_term_whose_closing_quotation_mark_the_text_misplaced_is_defined_whole() -> None:
    # India Code's JJA 2(13) and 2(31), as printed: the term runs past its closing quotation mark to "means"
    chunks = [
        chunk("JJA:2:13:0", "(13) \u201cchild\u201d in conflict with law means a child who is alleged or found to have "
              "committed an offence and who has not completed eighteen years of age on the date of commission of "
              "such offence;"),
        chunk("JJA:2:31:0", "(31) \u201cguardian\u201d in relation to a child, means his natural guardian or any other "
              "person having the actual charge of the child"),
        # a term that means what it says, and one that "shall include": nothing more is taken into the term
        chunk("BNS:2:36:0", "(36) \u201cwrongful gain\u201d means gain by unlawful means of property to which the "
              "person gaining is not legally entitled;"),
        chunk("XYZ:2:a:0", "(a) \u201ccourt\u201d shall include a tribunal;"),
    ]  # fmt: skip
    got = defined_terms(chunks)
    assert [d.chunk_id for d in got["child in conflict with law"]] == ["JJA:2:13:0"]
    assert [d.chunk_id for d in got["guardian in relation to a child"]] == ["JJA:2:31:0"]
    assert "wrongful gain" in got and not any(t.startswith("wrongful gain ") for t in got)
    assert "court" in got and not any(t.startswith("court ") for t in got)
    assert "child in conflict with law" in asked_terms("Who is a 'child in conflict with law' under the JJ Act?")
