"""The offence channel on real statute text: which sections are offences, what their cards carry, which
words of a real fact description it keeps, and what it finds.

The corpus: the legacy IPC and CrPC, and every section of the India Code subset (43 Acts, BNS, BNSS and
BSA among them) under its curated code; the queries: the AILA 2019 training fact descriptions.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from graph_schema.acts import CURATED_BY_SLUG
from ingestion.footnotes import clean_text
from legal_rag.retrieval.lexical import BM25Index
from legal_rag.retrieval.offences import (
    OffenceCard,
    OffenceChannel,
    enforced_sections,
    is_offence,
    offence_cards,
    offence_partners,
    punishes,
    read_with,
)
from legal_rag.retrieval.tokenize import legal_tokens
from legal_rag.retrieval.types import Chunk

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "data" / "corpus"
AILA = ROOT / "tests" / "data" / "aila2019-train"


def _chunk(act: str, no: str, title: str, text: str) -> Chunk:
    return Chunk(id=f"{act}:{no}:-:0", act=act, section=no, sub=None, part=0, title=title,
                 heading=f"{act} s.{no} {title}", text=text, status="in_force", in_force_from=None,
                 in_force_to=None, source=None)  # fmt: skip


@cache
def statutes() -> tuple[Chunk, ...]:
    out = [_chunk("IPC", str(d["Section"]).strip(), d["section_title"], d["section_desc"])
           for d in json.loads((CORPUS / "legacy" / "ipc.json").read_text(encoding="utf-8"))]  # fmt: skip
    out += [_chunk("CRPC", str(d["section"]).strip(), d["section_title"], d["section_desc"])
            for d in json.loads((CORPUS / "legacy" / "crpc.json").read_text(encoding="utf-8"))]  # fmt: skip
    for line in (CORPUS / "indiacode" / "sections_fulltext_subset.jsonl").open(encoding="utf-8"):
        d = json.loads(line)
        act = CURATED_BY_SLUG[d["act_slug"]].code if d["act_slug"] in CURATED_BY_SLUG else d["act_slug"]
        if d.get("text"):
            out.append(_chunk(act, d["section_no"], d["title"] or "", clean_text(d["text"])))
    return tuple(out)


def section(act: str, no: str) -> Chunk:
    return next(c for c in statutes() if c.act == act and c.section == no)


@cache
def channel() -> tuple[OffenceChannel, BM25Index, tuple[OffenceCard, ...]]:
    whole = BM25Index(None).open()
    whole.upsert([(c.id, c.indexed_text) for c in statutes()])
    cards = tuple(offence_cards(statutes()))
    return OffenceChannel(cards, whole), whole, cards


def query(qid: str) -> str:
    lines = (AILA / "queries.jsonl").read_text(encoding="utf-8").splitlines()
    return next(str(q["text"]) for q in map(json.loads, lines) if q["id"] == qid)


def top(hits: list, n: int) -> list[str]:  # type: ignore[type-arg]
    return [h.chunk_id.rsplit(":", 2)[0] for h in hits[:n]]


@pytest.mark.parametrize(
    ("act", "no", "expected"),
    [
        ("IPC", "1", True),  # every penal-code section: IPC 1 is cited as the IPC's reach
        ("IPC", "34", True),  # common intention: charged with the offence ("302 read with 34")
        ("BNS", "103", True),
        ("DPA", "3", True),  # "Penalty for giving or taking dowry"
        ("ITA", "66C", True),  # "Whoever, fraudulently ... make use of the electronic signature"
        ("NIA", "138", True),  # "shall, without prejudice to any other provision of this Act, be punished"
        ("CRPC", "354", False),  # contents of a judgment: "offence punishable with death" is procedure
        ("BSA", "104", False),  # burden of proof: "Whoever desires any Court ..." is evidence law
        ("HMA", "13", False),  # divorce
        ("TPA", "54", False),  # sale of immovable property
    ],
)
def test_which_sections_are_offences(act: str, no: str, expected: bool) -> None:
    c = section(act, no)
    assert is_offence(c.act, c.title, c.text) is expected


def test_a_punishment_card_carries_the_offence_its_heading_names() -> None:
    cards = {c.key: c.text for c in channel()[2]}
    # "Punishment for murder" says only "Whoever commits murder shall be punished ..."; s.300 says what murder is.
    assert "culpable homicide is murder" in cards["IPC:302"]
    assert "culpable homicide is murder" in cards["IPC:300"]
    assert "shall be punished with death" not in cards["IPC:300"]  # the link runs one way
    assert section("IPC", "321").text[:60] in cards["IPC:323"]  # "Voluntarily causing hurt"
    assert "CRPC:354" not in cards and "BSA:104" not in cards


def test_offence_terms_keep_the_conduct_and_drop_the_litigation() -> None:
    # AILA_Q9: a murder by seven armed men, told through the trial and the appeal.
    facts = query("AILA_Q9")
    kept = set(channel()[0].offence_terms(facts))
    assert {"murder", "assault", "weapon", "arm"} <= kept
    litigation = {"appeal", "appellant", "court", "complainant", "prosecution", "witness", "judgment", "acquit"}
    assert litigation <= set(legal_tokens(facts))
    assert not litigation & kept


@pytest.mark.parametrize(
    ("qid", "expected"),
    [
        ("AILA_Q10", {"IPC:147", "IPC:149"}),  # rioting, unlawful assembly (the query's IPC gold)
        ("AILA_Q4", {"DPA:3", "DPA:4", "IPC:304B"}),  # dowry demands and a dowry death
    ],
)
def test_channel_finds_the_offences_that_bm25_over_everything_misses(qid: str, expected: set[str]) -> None:
    ch, whole, _ = channel()
    facts = query(qid)
    found = top(ch.search(facts, 10), 10)
    assert expected & set(found[:5]), found
    assert not any(s.split(":")[0] in {"CRPC", "BNSS", "BSA"} for s in found)
    everything = top(whole.search(facts, 10), 10)
    assert len(expected & set(everything)) < len(expected & set(found)), everything


def test_allow_filters_the_channel() -> None:
    ch, _, cards = channel()
    facts = query("AILA_Q10")
    ipc_only = {c.chunk_id for c in cards if c.key.startswith("IPC:")}
    hits = ch.search(facts, 10, ipc_only)
    assert hits and all(h.chunk_id in ipc_only for h in hits)


def test_offence_partners_pair_a_definition_with_its_punishment_one_to_one() -> None:
    titles = {  # real headings
        "IPC:405": "Criminal breach of trust.", "IPC:406": "Punishment for criminal breach of trust.",
        "IPC:409": "Criminal breach of trust by public servant, or by banker, merchant or agent.",
        "IPC:300": "Murder.", "IPC:302": "Punishment for murder.", "IPC:303": "Punishment for murder by life-convict.",
        "IPC:415": "Cheating.", "IPC:417": "Punishment for cheating.",
        "BNS:303": "Theft.",  # defines and punishes in one section: no partner
        "BNS:318": "Cheating.",
        "NIA:138": "Dishonour of cheque for insufficiency, etc., of funds in the account.",
        # a subject punished twice in one Act pairs nothing
        "XYZ:1": "Trespass.", "XYZ:2": "Punishment for trespass.", "XYZ:3": "Punishment for trespass.",
    }  # fmt: skip
    got = offence_partners(titles)
    assert got["IPC:405"] == "IPC:406" and got["IPC:406"] == "IPC:405"
    assert got["IPC:300"] == "IPC:302" and got["IPC:415"] == "IPC:417"
    assert "IPC:409" not in got and "IPC:303" not in got  # "murder by life-convict" is another subject
    assert "BNS:303" not in got and "BNS:318" not in got  # the IPC's punishment is not the BNS's partner
    assert not {"XYZ:1", "XYZ:2", "XYZ:3"} & set(got)


def test_a_penalty_is_read_with_the_rule_it_enforces() -> None:
    # real sections: the Arms Act's penalty for carrying a firearm "in contravention of section 3"
    arms = section("ARMS", "25")
    assert "3" in enforced_sections(arms.title, arms.text)
    mva = section("MVA", "181")  # "in contravention of section 3 or section 4"
    assert enforced_sections(mva.title, mva.text) == ["3", "4"]
    # a rule that punishes nothing enforces nothing; nor does a time limit that names the offence's section
    rule = section("ARMS", "3")
    assert enforced_sections(rule.title, rule.text) == []
    nia = section("NIA", "142")
    assert "section 138" in nia.text and enforced_sections(nia.title, nia.text) == []

    def groups(*keys: str) -> dict[str, tuple[str | None, list[str]]]:
        return {k: (section(*k.split(":")).title, [section(*k.split(":")).text]) for k in keys}

    assert read_with(groups("MVA:181", "MVA:3")) == {"MVA:181": "MVA:3"}
    # both rules retrieved: the one retrieval put first, the one the facts fit best
    assert read_with(groups("MVA:181", "MVA:3", "MVA:4")) == {"MVA:181": "MVA:3"}
    assert read_with(groups("MVA:4", "MVA:181", "MVA:3")) == {"MVA:181": "MVA:4"}
    assert read_with(groups("MVA:181", "MVA:182")) == {}, "the rule itself was not retrieved"
    got = read_with({"ARMS:25": (arms.title, ["(1B) Whoever-- (a) acquires, has in his possession or carries any "
                                                "firearm or ammunition in contravention of section 3; shall be "
                                                "punishable with imprisonment"]), **groups("ARMS:3", "ARMS:29")})
    assert got == {"ARMS:25": "ARMS:3"}


@pytest.mark.parametrize(("title", "text", "expected"), [
    ("Punishment for theft", "Whoever commits theft shall be punished with imprisonment ...", True),
    ("Lurking house-trespass by night", "Whoever commits lurking house-trespass after sunset and before sunrise, is "
     "said to commit \u201clurking house-trespass by night\u201d.", False),
    ("Dishonour of cheque for insufficiency, etc., of funds in the account", "... such person shall be deemed to have "
     "committed an offence and shall, without prejudice to any other provision of this Act, be punished with "
     "imprisonment for a term which may be extended to two years", True),
    ("Offence", "Except in the Chapters and sections mentioned in clauses 2 and 3 of this section, the word "
     "\u201coffence\u201d denotes a thing made punishable by this Code.", False),
])  # fmt: skip
def test_a_section_punishes_when_its_heading_or_text_sets_a_punishment(title: str, text: str, expected: bool) -> None:
    assert punishes(title, text) is expected
