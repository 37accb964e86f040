"""Which headings decide an ask of a kind (``forms.decides``), on the real headings of the India Code subset (43 Acts,
BNS, BNSS and BSA among them): the provisions a lawyer would cite for a forum or a time limit are so
headed, the offences and procedures around them are not, and each pattern picks out a small share of the corpus."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from graph_schema.acts import CURATED_BY_SLUG
from legal_rag.workflow.facts import Ask, AskKind
from legal_rag.workflow.forms import (
    FORM_HEADINGS,
    about,
    decides,
    form_query,
    formed_asks,
    names_no_matter,
    of_the_story,
    prosecutes,
    sets_up,
)

CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus"


@cache
def headings() -> dict[tuple[str, str], str]:
    out = {}
    for line in (CORPUS / "indiacode" / "sections_fulltext_subset.jsonl").open(encoding="utf-8"):
        d = json.loads(line)
        act = CURATED_BY_SLUG[d["act_slug"]].code if d["act_slug"] in CURATED_BY_SLUG else d["act_slug"]
        if d.get("title"):
            out[(act, d["section_no"])] = d["title"]
    return out


def heading(act: str, section: str) -> str:
    return headings()[(act, section)]


@pytest.mark.parametrize(("kind", "act", "section"), [
    (AskKind.FORUM, "PWDVA", "27"),  # Jurisdiction
    (AskKind.FORUM, "MWPSCA", "6"),  # Jurisdiction and procedure
    (AskKind.FORUM, "CPA", "34"),  # Jurisdiction of District Commission
    (AskKind.FORUM, "BNSS", "197"),  # Ordinary place of inquiry and trial
    (AskKind.FORUM, "GWA", "9"),  # Court having jurisdiction to entertain application
    (AskKind.FORUM, "HMA", "19"),  # Court to which petition shall be presented
    (AskKind.FORUM, "CCA", "6"),  # Jurisdiction of Commercial Court
    (AskKind.FORUM, "CPA", "41"),  # Appeal against order of District Commission
    (AskKind.FORUM, "ITA", "62"),  # Appeal to High Court
    (AskKind.FORUM, "HMA", "28"),  # Appeals from decrees and orders
    (AskKind.FORUM, "ITA", "46"),  # Power to adjudicate
    (AskKind.FORUM, "SCSTA", "14"),  # Special Court and Exclusive Special Court
    (AskKind.FORUM, "NDPS", "36"),  # Constitution of Special Court
    (AskKind.FORUM, "MWPSCA", "7"),  # Constitution of Maintenance Tribunal
    (AskKind.FORUM, "POCSO", "28"),  # Designation of Special Courts
    (AskKind.FORUM, "FCA", "3"),  # Establishment of Family Courts
    (AskKind.FORUM, "PCA", "4"),  # Cases triable by special Judges
    (AskKind.TIME_LIMIT, "BNSS", "479"),  # Maximum period for which under-trial prisoner can be detained
    (AskKind.TIME_LIMIT, "BNSS", "58"),  # Person arrested not to be detained more than twenty-four hours
    (AskKind.TIME_LIMIT, "BNSS", "514"),  # Limitation for taking cognizance in certain offences
    (AskKind.TIME_LIMIT, "HMA", "14"),  # No petition for divorce to be presented within one year of marriage
    (AskKind.TIME_LIMIT, "SMA", "14"),  # New notice when marriage not solemnized within three months
    (AskKind.TIME_LIMIT, "LIMA", "5"),  # Extension of prescribed period in certain cases
])  # fmt: skip
def test_the_deciding_provision_is_so_headed(kind: AskKind, act: str, section: str) -> None:
    assert decides(kind, heading(act, section)), heading(act, section)


@pytest.mark.parametrize(("kind", "act", "section"), [
    (AskKind.TIME_LIMIT, "BNSS", "78"),  # Person arrested to be brought before Court without delay: no period
    (AskKind.TIME_LIMIT, "BNS", "303"),  # Theft
    (AskKind.TIME_LIMIT, "ISA", "95"),  # Bequest without words of limitation: a limit on an estate, not of time
    (AskKind.TIME_LIMIT, "GWA", "29"),  # Limitation of powers of guardian ...
    (AskKind.TIME_LIMIT, "BNSS", "242"),  # Offences of same kind within year may be charged together
    (AskKind.TIME_LIMIT, "BSA", "110"),  # Burden of proving death of person known to have been alive within thirty ...
    (AskKind.FORUM, "BNSS", "81"),  # Warrant directed to police officer for execution outside jurisdiction
    (AskKind.FORUM, "POCSO", "33"),  # Procedure and powers of Special Court
    (AskKind.FORUM, "NDPS", "36C"),  # Application of Code to proceedings before a Special Court
    (AskKind.FORUM, "NDPS", "73"),  # Bar of jurisdiction
    (AskKind.FORUM, "MWPSCA", "27"),  # Jurisdiction of civil courts barred
    (AskKind.FORUM, "GWA", "16"),  # Appointment or declaration of guardian for property beyond jurisdiction ...
    (AskKind.FORUM, "GWA", "44"),  # Penalty for removal of ward from jurisdiction
    (AskKind.FORUM, "BNS", "103"),  # Punishment for murder
    (AskKind.FORUM, "MWPSCA", "5"),  # Application for maintenance: a remedy, not where to make it
    (AskKind.FORUM, "BNSS", "413"),  # No appeal to lie unless otherwise provided: that none lies, not where one does
    (AskKind.FORUM, "BNSS", "431"),  # Arrest of accused in appeal from acquittal
    (AskKind.FORUM, "NIA", "148"),  # Power of Appellate Court to order payment pending appeal against conviction
    (AskKind.REMEDY, "MVA", "166"),  # Application for compensation: remedies are not searched by heading
])  # fmt: skip
def test_other_provisions_are_not(kind: AskKind, act: str, section: str) -> None:
    assert not decides(kind, heading(act, section)), heading(act, section)


def test_a_chunk_heading_is_read_without_its_citation() -> None:
    assert decides(AskKind.FORUM, "PWDVA s.27 Jurisdiction")
    assert decides(AskKind.FORUM, "CPA s.41 Appeal against order of District Commission")  # at the heading's start
    # the citation's words are not the heading's: an Act coded like a kind's word is not about it
    assert not about("Within how many days must the tenant quit?", AskKind.TIME_LIMIT, "TENANT s.3 Definitions",
                     "The Rent Act")
    assert not prosecutes("TRIAL s.3 Definitions")
    assert prosecutes("BNSS s.514 Bar to taking cognizance after lapse of period of limitation")


# the forum pattern takes 91 of 4,141 headings (2.2%) since it names the courts and tribunals Acts set up
@pytest.mark.parametrize(("kind", "most"), [(AskKind.FORUM, 0.025), (AskKind.TIME_LIMIT, 0.01)])
def test_each_kind_picks_out_few_provisions(kind: AskKind, most: float) -> None:
    """A pattern that matched most headings would put forward whatever retrieval ranked first."""
    matched = [h for h in headings().values() if decides(kind, h)]
    assert 0 < len(matched) / len(headings()) <= most, (len(matched), len(headings()))


def test_only_the_kinds_with_a_heading_form_are_searched() -> None:
    asks = (
        Ask("Where should they file the application, and what is the punishment?", (AskKind.PUNISHMENT, AskKind.FORUM)),
        Ask("What can I do?", (AskKind.REMEDY,)),
    )
    assert formed_asks(asks) == [(asks[0], AskKind.FORUM)]
    assert set(FORM_HEADINGS) == {AskKind.FORUM, AskKind.TIME_LIMIT}


@pytest.mark.parametrize(("ask", "kind", "act", "section", "title", "expected"), [
    # the subject through the heading ("arrested")
    ("Within how many hours must the police produce an arrested person before a magistrate?", AskKind.TIME_LIMIT,
     "BNSS", "58", "The Bharatiya Nagarik Suraksha Sanhita, 2023", True),
    # through the Act: "Jurisdiction" alone says nothing of domestic violence
    ("Where can a woman file a domestic violence case?", AskKind.FORUM, "PWDVA", "27",
     "The Protection of Women from Domestic Violence Act, 2005", True),
    # only the asking words in common: a period, not this one
    ("Within how many days must the IO update the victim on the progress of the investigation?", AskKind.TIME_LIMIT,
     "BNSS", "515", "The Bharatiya Nagarik Suraksha Sanhita, 2023", False),
    ("By when must he pay, and when can the supplier file a complaint?", AskKind.TIME_LIMIT, "NIA", "107",
     "The Negotiable Instruments Act, 1881", False),
    ("What is the limitation period for taking cognizance of an offence punishable with fine only?",
     AskKind.TIME_LIMIT, "CPA", "69", "The Consumer Protection Act, 2019", False),
    # a forum ask of nothing but its kind asks where the story's matter goes: the Act the story points to decides it
    ("Where can I complain?", AskKind.FORUM, "CPA", "34", "The Consumer Protection Act, 2019", True),
    ("Whom should I approach, and where can I complain against them?", AskKind.FORUM, "CPA", "34",
     "The Consumer Protection Act, 2019", True),
    ("Where do I file it?", AskKind.FORUM, "PWDVA", "27",
     "The Protection of Women from Domestic Violence Act, 2005", True),
    # a time ask of nothing but its kind may ask of any of the story's periods: not taken on the heading alone
    ("By when do I have to go to court?", AskKind.TIME_LIMIT, "NIA", "107", "The Negotiable Instruments Act, 1881",
     False),
])  # fmt: skip
def test_the_provision_must_be_about_what_the_ask_asks(ask: str, kind: AskKind, act: str, section: str, title: str,
                                                      expected: bool) -> None:
    assert about(ask, kind, heading(act, section), title) is expected


def test_the_search_adds_the_statutes_words_for_the_kind() -> None:
    """"Too late to file a complaint" is a question of limitation in words no provision uses."""
    query = form_query("Is it too late to file a criminal complaint?", AskKind.TIME_LIMIT)
    assert query.startswith("Is it too late to file a criminal complaint?") and "limitation" in query
    assert "jurisdiction" in form_query("Where do I file it?", AskKind.FORUM)
    assert form_query("What is the punishment?", AskKind.PUNISHMENT) == "What is the punishment?"


@pytest.mark.parametrize(("act", "section", "expected"), [
    ("BNSS", "514", True),  # Bar to taking cognizance after lapse of period of limitation
    ("BNSS", "201", True),  # Place of trial in case of certain offences
    ("BNSS", "21", True),  # Courts by which offences are triable
    ("BNSS", "58", False),  # Person arrested not to be detained more than twenty-four hours: about the arrested
    ("BNSS", "187", False),  # Procedure when investigation cannot be completed in twenty-four hours
])  # fmt: skip
def test_the_procedure_codes_provisions_for_prosecuting_an_offence(act: str, section: str, expected: bool) -> None:
    """They decide the forum or time limit of any offence without a word of its telling."""
    assert prosecutes(heading(act, section)) is expected


def test_a_body_set_up_is_told_from_where_a_matter_is_brought() -> None:
    assert sets_up(heading("MWPSCA", "7")) and sets_up(heading("SCSTA", "14"))
    assert not sets_up(heading("MWPSCA", "6")) and not sets_up(heading("PWDVA", "27"))


@pytest.mark.parametrize(("asking", "kind", "story"), [
    # none of these is a question of an evaluation set
    ("Where can I complain against them?", AskKind.FORUM, True),
    ("Whom should I approach?", AskKind.FORUM, True),
    ("Where do I file a complaint against the builder?", AskKind.FORUM, False),  # its subject: the builder
    ("By when do I have to go to court?", AskKind.TIME_LIMIT, False),  # a time: of any of the story's periods
])  # fmt: skip
def test_a_forum_ask_of_nothing_but_its_kind_asks_of_the_story(asking: str, kind: AskKind, story: bool) -> None:
    assert of_the_story(asking, kind) is story


@pytest.mark.parametrize(("act", "section", "general"), [
    ("HMA", "19", True),  # Court to which petition shall be presented
    ("SMA", "31", True),  # Court to which petition should be made
    ("PWDVA", "27", True),  # Jurisdiction
    ("CPC", "15", False),  # Court in which suits to be instituted: no heading form of a forum (review)
    ("CPC", "96", False),  # Appeal from original decree
    ("CPA", "34", False),  # Jurisdiction of District Commission: the Commission's, by value
    ("BNSS", "197", False),  # Ordinary place of inquiry and trial
    ("HMA", "21A", False),  # Power to transfer petitions in certain cases
    ("GWA", "9", False),  # Court having jurisdiction to entertain application
])  # fmt: skip
def test_a_forum_headed_in_forum_words_alone_is_where_every_matter_of_its_act_goes(act: str, section: str,
                                                                                   general: bool) -> None:
    assert names_no_matter(heading(act, section)) is general


@pytest.mark.parametrize("ask", [
    "Can I file for divorce in Jaipur?",
    "Can my wife file for restitution of conjugal rights in Indore?",
    "Can I ask for judicial separation in the town where I live now?",
])  # fmt: skip
def test_the_general_forum_of_an_act_is_about_any_of_its_petitions(ask: str) -> None:
    # "divorce" is nowhere in "Court to which petition shall be presented" nor in "The Hindu Marriage Act, 1955"
    assert about(ask, AskKind.FORUM, heading("HMA", "19"), "The Hindu Marriage Act, 1955")
    assert not about(ask, AskKind.FORUM, heading("HMA", "21A"), "The Hindu Marriage Act, 1955")
