"""Which personal law governs a family matter, read from the community the question tells (``personal_law``), and
the provisions of other communities' Acts left out of the evidence (``steps._in_personal_law``).

The grid below crosses the ways people tell their community with family matters told in different words; none is a
question of an evaluation set. The Acts' own application sections are the authority (HMA s.2(1), the Divorce Act s.2,
ISA s.29(1), the DMMA's title, the Special Marriage Act s.4)."""

from __future__ import annotations

import itertools

import pytest

from legal_rag.workflow.facts import QuestionFacts, read_facts
from legal_rag.workflow.personal_law import (
    CIVIL_ACTS,
    MARRIAGE_ACTS,
    Community,
    PersonalLaw,
    community_acts,
    read_personal_law,
)
from legal_rag.workflow.steps import _in_personal_law
from legal_rag.workflow.types import Passage, Pin

TOLD = {
    Community.HINDU: ["We are Hindus.", "we r hindu by religion.", "Both of us are Sikhs.", "My family is Jain.",
                      "We are Buddhists from Nagpur.", "I am a Hindu woman.", "Ours was a Hindu marriage."],
    Community.MUSLIM: ["We are Muslims.", "Our nikah was in Lucknow.", "He said talaq talaq talaq over WhatsApp.",
                       "It was triple talaq.", "I am a muslim lady.", "She is in iddat now."],
    Community.CHRISTIAN: ["We are Christians.", "We had a church wedding in Kochi.", "I am a Christian woman.",
                          "We were married in a church in Goa.", "We are Catholics."],
    Community.PARSI: ["We are Parsis from Mumbai.", "I am a Parsi."],
}
MATTERS = [
    "My husband has started living with another woman. What can I do?",
    "My wife left the house two years ago and does not return. Can I get a divorce?",
    "Who gets custody of our 4 year old daughter if we separate?",
    "My father died without a will. Do I get a share of his house?",
    "Can the marriage be annulled? He hid that he was already married.",
]
ACTS_OF = {
    Community.HINDU: ["HMA", "HAMA", "HMGA", "HSA"],
    Community.MUSLIM: ["DMMA", "MWPRMA", "MWPRDA1986", "MPLSAA1937"],
    Community.CHRISTIAN: ["IDA", "ICMA1872"],
    Community.PARSI: ["PMDA1936"],
}


def _facts(question: str) -> QuestionFacts:
    return read_facts(question, "2026-11-29", comparison=False, checks_for=lambda offence, proceedings: [])


@pytest.mark.parametrize(("community", "told", "matter"), [
    (c, t, m) for c, ts in TOLD.items() for t, m in itertools.product(ts, MATTERS)
])  # fmt: skip
def test_the_told_community_is_read_and_other_communities_acts_are_left_out(
    community: Community, told: str, matter: str
) -> None:
    for question in (f"{told} {matter}", f"{matter} {told}"):
        facts = _facts(question)
        assert facts.personal_law.communities == frozenset({community}), question
        for other, acts in ACTS_OF.items():
            for act in acts:
                assert facts.outside_personal_law(act, "13") is (other is not community), (question, act)
        # one faith and its marriage told: the Special Marriage Act is not the couple's; nothing said of a marriage
        # (a father's estate), it may be
        married = any(w in question for w in ("husband", "wife", "married", "marri", "wedding"))
        assert all(facts.outside_personal_law(act, "27") is married for act in CIVIL_ACTS), question
        # laws for everyone stay: the Domestic Violence Act, the procedure code's maintenance, the Guardians Act
        for act, section in (("PWDVA", "12"), ("BNSS", "144"), ("GWA", "7"), ("BNS", "82"), ("ISA", "213")):
            assert not facts.outside_personal_law(act, section), (question, act)


def _law(*communities: Community) -> PersonalLaw:
    return PersonalLaw(frozenset(communities), civil=False, married=True)


@pytest.mark.parametrize("section", ["29", "30", "32", "37", "43", "46", "50", "56"])
def test_the_succession_act_s_intestacy_part_is_not_a_hindu_s_or_a_muslim_s(section: str) -> None:
    # ISA s.29(1): Part V (ss.29-56) does not apply to the property of any Hindu, Muhammadan, Buddhist, Sikh or Jaina
    for community in (Community.HINDU, Community.MUSLIM):
        assert _law(community).outside("ISA", section)
    assert not _law().outside("ISA", section)
    # a Christian told beside a Hindu: the Christian's estate may be the one asked about (ISA s.33), but not under the
    # Parsis' chapter (ss.50-56), which is neither's
    assert _law(Community.HINDU, Community.CHRISTIAN).outside("ISA", section) is (int(section) >= 50)


@pytest.mark.parametrize(("community", "out", "kept"), [
    (Community.CHRISTIAN, ["50", "51", "56"], ["32", "33", "43", "49", "57", "63"]),  # ss.50-56: Parsis only
    (Community.PARSI, ["31", "32", "43", "49"], ["50", "51", "56", "63"]),  # s.31: Chapter II not for Parsis
    (Community.MUSLIM, ["29", "57", "63", "191"], ["211", "213", "372"]),  # s.58(1): Part VI not a Muhammadan's
    (Community.HINDU, ["29", "56"], ["57", "59", "63", "213", "222", "28"]),  # s.57 applies Part VI to Hindus' wills
])  # fmt: skip
def test_the_succession_act_s_chapters_follow_their_own_application_sections(
    community: Community, out: list[str], kept: list[str]
) -> None:
    assert all(_law(community).outside("ISA", s) for s in out), out
    assert not any(_law(community).outside("ISA", s) for s in kept), kept


@pytest.mark.parametrize("question", [
    "My husband and I married in court under the Special Marriage Act in 2015. We want a divorce now.",
    "I am Hindu and he is Christian; we married under the SMA in 2018. How do we divorce?",
    "We got married at the registrar's office. He left me. What are the grounds for divorce?",
])  # fmt: skip
def test_a_civil_marriage_is_not_answered_from_the_communities_marriage_acts(question: str) -> None:
    facts = _facts(question)
    assert facts.personal_law.civil, question
    assert all(facts.outside_personal_law(act, "13") for act in MARRIAGE_ACTS), question
    assert not any(facts.outside_personal_law(act, "27") for act in CIVIL_ACTS), question
    # succession to such a couple is not a marriage Act's matter (SMA s.21): the succession Acts are not left out
    assert not facts.outside_personal_law("HSA", "8")


def test_two_communities_told_leave_out_only_the_acts_of_those_not_told() -> None:
    facts = _facts("I am Hindu and my wife is Christian; we married in her church. Can I file for divorce?")
    assert facts.personal_law.communities == frozenset({Community.HINDU, Community.CHRISTIAN})
    for act in ("HMA", "IDA", "SMA"):
        assert not facts.outside_personal_law(act, "10"), act
    for act in ("DMMA", "PMDA1936", "MWPRMA"):
        assert facts.outside_personal_law(act, "2"), act


@pytest.mark.parametrize("question", [
    "My husband beats me and demands dowry. What can I do?",
    "My neighbour built a wall on my land. What are my remedies?",
    "The Hinduja group owes me money. Can I sue?",  # a name, not a faith
    "A man stole the donation box from a temple. What is the punishment?",
    "What are the grounds for divorce?",
    # words that do not say whose faith it is (the independent review's inputs)
    "My landlord Mr. Jain wants me to vacate. Can he?", "Mehr Singh, my husband, left me. Can I get maintenance?",
    "My husband wants talaq. Can I get maintenance?", "Mujhe talaq chahiye, kya karun?",
    "I was treated at Christian Medical College and the surgery went wrong.",
    # a second faith, a Jewish party, a foreign marriage, a conversion: any of the Acts may govern
    "I am a Hindu girl and want to marry a boy of another religion without conversion. Which law allows it?",
    "I am Hindu and my husband is Jewish. What are the grounds for divorce?",
    "I am Hindu and want to marry an American citizen in the US. Which law applies?",
    "We had an inter-faith marriage in a church; I am Hindu and my wife is Christian. Grounds for divorce?",
    # a court marriage beside a community: its own marriage registered (HMA s.8), or the Special Marriage Act's
    "We are Hindus and did a court marriage. Can I get divorce on the ground of cruelty?",
    "Should we marry under the Special Marriage Act or in church?",
    # the second review's inputs: a name, a second faith told without a verb, someone outside the family
    "My name is Priya Jain. My husband beats me. What can I do?", "My husband is Amit Jain. He left me.",
    "My daughter is married to a Muslim. He beats her. We are Hindus.", "We are Hindu; my son married a Christian.",
    "I am Hindu, my wife Christian. Can we divorce by consent?",
    "My landlord is a Muslim. My wife and I want a divorce.",
    "Our family lawyer is a Parsi gentleman. My wife wants a divorce.",
])  # fmt: skip
def test_nothing_is_left_out_when_no_community_is_told(question: str) -> None:
    facts = _facts(question)
    assert facts.personal_law == PersonalLaw() or not facts.personal_law.communities and not (
        facts.personal_law.civil), question
    for acts in ACTS_OF.values():
        assert not any(facts.outside_personal_law(act, "13") for act in acts), question
    assert not facts.outside_personal_law("SMA", "27")
    assert not facts.outside_personal_law("ISA", "37")


def test_a_marriage_the_parties_mean_to_make_keeps_the_special_marriage_act() -> None:
    facts = _facts("We are Hindus and want to get married. What is the procedure?")
    assert facts.personal_law.communities == frozenset({Community.HINDU}) and not facts.personal_law.married
    assert not facts.outside_personal_law("SMA", "4") and facts.outside_personal_law("IDA", "10")


def test_a_christian_s_estate_told_beside_a_hindu_keeps_the_succession_act() -> None:
    facts = _facts("My Christian mother died without a will; my father is Hindu. What is my share in her property?")
    assert not facts.outside_personal_law("ISA", "33") and not facts.outside_personal_law("HSA", "15")


def test_an_act_the_question_names_is_never_left_out() -> None:
    facts = QuestionFacts(as_of="2026-11-29", personal_law=_law(Community.HINDU), acts_named=("IDA",))
    assert not facts.outside_personal_law("IDA", "10")
    assert facts.outside_personal_law("DMMA", "2")


def _passage(act: str, section: str, pinned: Pin | None = None) -> Passage:
    return Passage(chunk_id=f"{act}:{section}:-:0", act=act, section=section, heading=f"{act} s.{section} X",
                   text="text", status="in_force", pinned=pinned)


def test_the_evidence_keeps_the_told_community_s_acts_and_the_general_law() -> None:
    facts = _facts("We are Hindus. My husband married a second woman without divorcing me. What can I do?")
    passages = [_passage("IPC", "494"), _passage("IDA", "10"), _passage("HMA", "17"), _passage("SMA", "27"),
                _passage("DMMA", "2"), _passage("BNSS", "219"), _passage("HMA", "13")]
    kept = [(p.act, p.section) for p in _in_personal_law(passages, facts)]
    assert kept == [("IPC", "494"), ("HMA", "17"), ("BNSS", "219"), ("HMA", "13")]


def test_a_provision_the_question_cites_stays_whatever_its_act() -> None:
    facts = _facts("We are Hindus. Does section 10 of the Divorce Act help me?")
    kept = _in_personal_law([_passage("IDA", "10", Pin.CITED), _passage("DMMA", "2")], facts)
    assert [(p.act, p.section) for p in kept] == [("IDA", "10")]


def test_every_scoped_act_is_one_community_s() -> None:
    seen = [act for c in Community for act in community_acts(c)]
    assert len(seen) == len(set(seen))
    assert not set(seen) & CIVIL_ACTS


@pytest.mark.parametrize(("question", "told"), [
    ("I married in court last year.", True), ("It was a special marriage.", True),
    ("We married in the temple.", False), ("The court ordered maintenance.", False),
    ("Married in 2019, court case pending.", False),
])  # fmt: skip
def test_civil_marriage_words(question: str, told: bool) -> None:
    law = read_personal_law(question)
    assert law.civil is told and not law.communities
