"""Sub-units of the repealed codes, on the real rows of ``data/corpus/legacy`` (labels restored from the layout)."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from graph_schema.model import Section
from ingestion.sources.legacy import read_legacy
from ingestion.sources.legacy_layout import restore_labels
from legal_rag.retrieval.chunking import SectionText, chunk_section

LEGACY = Path(__file__).resolve().parents[2] / "data/corpus/legacy"
FILES = {"IPC": "ipc.json", "CRPC": "crpc.json", "IEA": "iea.json"}


@cache
def _sections(act: str) -> dict[str, Section]:
    return {s.number: s for s in read_legacy(LEGACY / FILES[act]).sections}


def section(act: str, number: str) -> Section:
    return _sections(act)[number]


def paths(act: str, number: str) -> list[str]:
    return ["/".join(u.path) for u in section(act, number).subunits]


def _seq(parent: str, labels: str) -> list[str]:
    return [f"{parent}/{x}" for x in labels.split()]


STRUCTURE = [
    # (2A) was inserted by hand-numbered text ("2A. Notwithstanding ..."); the proviso's clauses (a) to (c)
    # and the sub-clauses (i), (ii) of (a) belong to sub-section (2).
    ("CRPC", "167", ["1", "2", "2/a", "2/a/i", "2/a/ii", "2/b", "2/c", "2A", "3", "4", "5", "6"]),
    ("CRPC", "438", ["1", *_seq("1", "a b c d"), "1A", "1B", "2", *_seq("2", "a b c d"), "3", "4"]),
    # its proviso names "clause (i) or clause (ii)": (1)'s clauses are roman, (3)'s are letters
    ("CRPC", "437", ["1", "1/i", "1/ii", "2", "3", *_seq("3", "a b c"), "4", "5", "6", "7"]),
    # "In this Code, unless the context otherwise requires;" is a lead-in: the items are clauses, "(e) High
    # Court" has sub-clauses; "(wa) victim" is not in this copy, so (x) and (y) keep their letters.
    ("CRPC", "2", [*"abcde", *_seq("e", "i ii iii"), *"fghijklmnopqrstuvwxy"]),
    # "(1) ... delay.1A. The investigation ...": (1A) run into (1) is split off
    ("CRPC", "173", ["1", "1A", "2", "2/a", *_seq("2/a", "i ii iii iv v vi vii viii"), "2/b", "3", "4", "5",
                     "5/a", "5/b", "6", "7", "8"]),  # fmt: skip
    # (i) to (vi) come after a paragraph, a level deeper than (a) to (f): roman, placed by the parser under
    # (f) as it places them in BNSS s.152(1)
    ("CRPC", "133", ["1", *_seq("1", "a b c d e f"), *_seq("1/f", "i ii iii iv v vi"), "2"]),
    ("CRPC", "482", []),
    # "va. section 364A ..." printed by hand between (v) and (vi): the list is roman and (va) sits in it
    ("CRPC", "39", ["1", *_seq("1", "i ii iii iv v va vi vii viii ix x xi xii"), "2"]),
    # the table of compoundable offences is drawn as a list of rows and cells: no sub-units from it
    ("CRPC", "320", []),
    ("IEA", "65B", ["1", "2", *_seq("2", "a b c d"), "3", *_seq("3", "a b c d"), "4", *_seq("4", "a b c"), "5",
                    *_seq("5", "a b c")]),  # fmt: skip
    # the Evidence Act numbers the items under a lead-in: "(1) All laws in force ..." (s.57), "(1) documents
    # forming the acts ... (i) of the sovereign authority" (s.74)
    ("IEA", "57", [str(n) for n in range(1, 14)]),
    ("IEA", "74", ["1", "1/i", "1/ii", "1/iii", "2"]),
    # s.27 is itself a proviso ("Provided that, when any fact is deposed to ..."): no sub-units
    ("IEA", "27", []),
    # clause lists of several definitions, each restarting: no one sequence of labels, left whole
    ("IEA", "3", []),
    # printed labels on lines of their own
    ("IPC", "354D", ["1", "2"]),
    ("IPC", "498A", []),
]


@pytest.mark.parametrize(("act", "number", "expected"), STRUCTURE, ids=[f"{a} {n}" for a, n, _ in STRUCTURE])
def test_structure_of_real_sections(act: str, number: str, expected: list[str]) -> None:
    assert paths(act, number) == expected


TEXT_STARTS = [
    ("CRPC", "167", "1", "(1) Whenever any person is arrested and detained in custody"),
    ("CRPC", "167", "2", "(2) The Magistrate to whom an accused person is forwarded under this section may"),
    ("CRPC", "167", "2/a", "(a) the Magistrate may authorise the detention of the accused person, otherwise than"),
    ("CRPC", "167", "2/a/i", "(i) ninety days, where the investigation relates to an offence punishable with death"),
    ("CRPC", "167", "2A", "(2A) Notwithstanding anything contained in Sub-Section (1) or Sub-Section (2)"),
    ("CRPC", "167", "6", "(6) Where any order stopping further investigation into an offence has been made"),
    ("CRPC", "438", "1", "(1) Where any person has reason to believe that he may be arrested on accusation"),
    ("CRPC", "438", "1B", "(1B) The presence of the applicant seeking anticipatory bail shall be obligatory"),
    ("CRPC", "438", "2/c", "(c) a condition that the person shall not leave India without the previous permission"),
    ("CRPC", "437", "1/ii", "(ii) such person shall not be so released if such offence is a cognizable offence"),
    ("CRPC", "2", "y", "(y) words and expressions used herein and not defined but defined in the Indian Penal Code"),
    ("CRPC", "39", "1/va", "(va) section 364A (that is to say, offence relating to kidnapping for ransom"),
    ("CRPC", "39", "1/vi", "(vi) section 382 (that is to say, offence of theft after preparation"),
    ("CRPC", "173", "1A", "(1A) The investigation in relation to an offence under sections 376, 376A"),
    ("IEA", "65B", "4", "(4) In any proceedings where it is desired to give a statement in evidence by virtue"),
    ("IEA", "65B", "2/d", "(d) the information contained in the electronic record reproduces or is derived"),
    ("IEA", "57", "13", "(13) The rule of the road"),
    ("IPC", "354D", "2", "(2) Whoever commits the offence of stalking shall be punished on first conviction"),
]


@pytest.mark.parametrize(("act", "number", "path", "start"), TEXT_STARTS,
                         ids=[f"{a} {n}({p})" for a, n, p, _ in TEXT_STARTS])  # fmt: skip
def test_text_of_each_unit(act: str, number: str, path: str, start: str) -> None:
    units = {"/".join(u.path): u.text for u in section(act, number).subunits}
    assert units[path].startswith(start)


def test_a_unit_holds_its_proviso_and_clauses_and_stops_at_the_next_subsection() -> None:
    units = {"/".join(u.path): u.text for u in section("CRPC", "167").subunits}
    assert "\n\nProvided that—\n\n(a) the Magistrate may authorise" in units["2"]
    assert units["2"].rstrip().endswith("shall authorise detention in the custody of the police.")
    assert "2A" not in units["2"] and "Notwithstanding" not in units["2"]


def test_the_words_are_the_sources_and_only_labels_and_paragraph_breaks_are_added() -> None:
    raw = {str(r["section"]): r["section_desc"] for r in json.loads((LEGACY / "crpc.json").read_text("utf-8"))}
    for number in ("167", "437", "2", "41"):
        restored = section("CRPC", number).text or ""
        assert restored.split() != raw[number].split()  # labels were added ...
        # ... at paragraph starts, and nothing else (the hand-numbered "2A." became "(2A)")
        unlabelled = re.sub(r"(?:^|(?<=\n\n))\(\w{1,4}\) ", "", restored).split()
        assert unlabelled == [w for w in raw[number].split() if not re.fullmatch(r"\d+[A-Z]\.", w)]


def test_footnote_remnants_are_dropped() -> None:
    # "1 Criminal Law (Amendment) Act, 2018": the footnote of a superscript left after s.327's last line
    text = section("CRPC", "327").text or ""
    assert "Criminal Law (Amendment) Act, 2018" not in text
    assert text.endswith("maintaining confidentiality of name and address of the parties.")


def test_text_without_the_layout_is_unchanged() -> None:
    assert restore_labels("Whoever commits murder shall be punished with death.") == (
        "Whoever commits murder shall be punished with death."
    )
    ipc_375 = section("IPC", "375")
    assert ipc_375.subunits == () and ipc_375.text and "(a)" not in ipc_375.text


def test_the_index_chunks_a_legacy_section_by_its_subsections() -> None:
    chunks = {c.id: c for c in chunk_section(SectionText.of(section("CRPC", "167")))}
    two = chunks["CRPC:167:2:0"]
    assert two.heading.startswith("CRPC s.167(2) ")
    assert two.text.startswith("(2) The Magistrate to whom an accused person is forwarded")
    assert "Notwithstanding anything contained in Sub-Section (1)" not in two.text
    assert "CRPC:167:2A:0" in chunks and "CRPC:167:-:0" not in chunks
