"""One contract suite for every GraphStore: FalkorDB always, Neo4j when NEO4J_URI is set."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph_schema.embedded import EmbeddedFalkorDB
from graph_schema.errors import StoreUnavailableError
from graph_schema.model import (
    Act,
    Amendment,
    AmendmentKind,
    Case,
    Chapter,
    CitationKey,
    Relation,
    Replacement,
    Section,
    SectionStatus,
    SubUnit,
)
from graph_schema.store import FalkorGraphStore, GraphStore, Neo4jGraphStore

# Real text: BNS s.103 and IPC s.302 (India Code / legacy copies in data/corpus).
BNS_103_1 = (
    "Whoever commits murder shall be punished with death or imprisonment for life, and shall also be liable to fine."
)
BNS_103_2 = (
    "When a group of five or more persons acting in concert commits murder on the ground of race, caste or "
    "community, sex, place of birth, language, personal belief or any other similar ground each member of such "
    "group shall be punished with death or with imprisonment for life, and shall also be liable to fine."
)
IPC_302 = (
    "Whoever commits murder shall be punished with death, or imprisonment for life, and shall also be liable to fine."
)

ACTS = [
    Act(
        code="IPC",
        title="The Indian Penal Code, 1860",
        in_force_from="1862-01-01",
        in_force_to="2024-07-01",
        status=SectionStatus.REPEALED,
        aliases=("I.P.C.", "Penal Code"),
    ),
    Act(code="BNS", title="The Bharatiya Nyaya Sanhita, 2023", in_force_from="2024-07-01", aliases=("B.N.S.",)),
]
BNS103 = Section(
    act="BNS",
    number="103",
    title="Punishment for murder.",
    text=f"(1) {BNS_103_1}\n\n(2) {BNS_103_2}",
    chapter="BNS:CH:VI",
    subunits=(SubUnit(("1",), BNS_103_1), SubUnit(("2",), BNS_103_2)),
)
IPC302 = Section(
    act="IPC",
    number="302",
    title="Punishment for murder",
    text=IPC_302,
    status=SectionStatus.REPEALED,
    in_force_to="2024-07-01",
)


def _load(store: GraphStore) -> None:
    store.upsert_acts(ACTS)
    store.upsert_chapters([Chapter("BNS", "VI", "Of offences affecting the human body")])
    store.upsert_sections([BNS103, IPC302])
    store.upsert_replacements(
        [
            Replacement(
                CitationKey("IPC", "302"),
                CitationKey("BNS", "103", ("1",)),
                Relation.SAME,
                "No Change, except IPC section is included as subsection in BNS.",
            )
        ]
    )


def test_round_trip_section_with_subunits_and_chapter(graph_store: GraphStore) -> None:
    _load(graph_store)
    rec = graph_store.get_section("BNS", "103")
    assert rec is not None
    assert rec.act_title == "The Bharatiya Nyaya Sanhita, 2023"
    assert rec.subunits == {"1": BNS_103_1, "2": BNS_103_2}
    assert (rec.chapter, rec.chapter_title) == ("VI", "Of offences affecting the human body")
    assert rec.in_force_from == "2024-07-01"  # inherited from the Act
    assert [(p.act, p.section, p.relation) for p in rec.predecessors] == [("IPC", "302", "same")]


def test_replacement_edges_read_from_both_ends(graph_store: GraphStore) -> None:
    _load(graph_store)
    old = graph_store.get_section("IPC", "302")
    assert old is not None
    assert [(p.act, p.section, p.relation, p.via) for p in old.successors] == [("BNS", "103(1)", "same", "302")]
    assert old.status is SectionStatus.REPEALED
    assert old.in_force_to == "2024-07-01"


def test_missing_section_is_none_not_an_error(graph_store: GraphStore) -> None:
    _load(graph_store)
    assert graph_store.get_section("BNS", "377") is None
    assert graph_store.get_section("NOSUCH", "1") is None


def test_rewrite_is_idempotent_and_hashes_are_stable(graph_store: GraphStore) -> None:
    _load(graph_store)
    before = graph_store.counts()
    hashes = graph_store.existing_hashes("section", [BNS103.key, IPC302.key, "BNS:999"])
    assert hashes == {BNS103.key: BNS103.row()["row_hash"], IPC302.key: IPC302.row()["row_hash"]}
    _load(graph_store)
    assert graph_store.counts() == before
    assert before["SubUnit"] == 2 and before["REPLACED_BY"] == 1


def test_changed_text_updates_in_place_and_replaces_subunits(graph_store: GraphStore) -> None:
    _load(graph_store)
    changed = Section(
        act="BNS",
        number="103",
        title="Punishment for murder.",
        text=BNS_103_1,
        subunits=(SubUnit(("1",), BNS_103_1),),
        chapter="BNS:CH:VI",
    )
    graph_store.upsert_sections([changed])
    rec = graph_store.get_section("BNS", "103")
    assert rec is not None and rec.text == BNS_103_1
    assert rec.subunits == {"1": BNS_103_1}
    assert graph_store.counts()["Section"] == 2
    # The predecessor edge survives the update.
    assert [p.section for p in rec.predecessors] == ["302"]


def test_amendments_and_act_repeal(graph_store: GraphStore) -> None:
    _load(graph_store)
    graph_store.upsert_amendments(
        [
            Amendment(
                "BNS", "103", "1", AmendmentKind.SUBSTITUTED, "Act 1 of 2025", "2025-01-01", "Subs. by Act 1 of 2025"
            )
        ]
    )
    graph_store.upsert_act_repeals([("IPC", "BNS", "2024-07-01", "BNS s.358")])
    rec = graph_store.get_section("BNS", "103")
    assert rec is not None
    assert rec.amendments[0]["effective"] == "2025-01-01"
    assert graph_store.act_repealed_by("IPC") == ("BNS", "2024-07-01", "BNS s.358")
    assert graph_store.act_repealed_by("BNS") is None


def test_primary_keys_and_section_numbers(graph_store: GraphStore) -> None:
    _load(graph_store)
    graph_store.upsert_sections(
        [
            Section(act="BNS", number="358", title=None, text=None, existence_only=True),
            Section(act="BNS", number="114", title="Hurt.", text=None),  # a primary record without text
        ]
    )
    assert graph_store.primary_keys(["BNS:103", "BNS:358", "BNS:114", "BNS:1"]) == {"BNS:103", "BNS:114"}
    assert graph_store.section_numbers("BNS") == {"103", "114", "358"}


def test_all_acts_round_trip_aliases(graph_store: GraphStore) -> None:
    _load(graph_store)
    acts = {a.code: a for a in graph_store.all_acts()}
    assert acts["IPC"].aliases == ("I.P.C.", "Penal Code")
    assert acts["IPC"].in_force_to == "2024-07-01"


def test_a_failing_batch_writes_nothing(graph_store: GraphStore) -> None:
    """One statement per batch: a row the engine refuses aborts the whole batch."""
    graph_store.upsert_acts(ACTS)
    good = Section(act="BNS", number="1", title="Short title", text="(1) This Act may be called ...")
    bad = Section(act="BNS", number="2", title="Definitions", text="x")
    rows = [good.row(), {**bad.row(), "title": {"not": "a primitive"}}]  # maps are not property values
    with pytest.raises(Exception):  # noqa: B017 - each engine raises its own client error type
        graph_store._write(__import__("graph_schema.cypher").cypher.UPSERT_SECTIONS, {"rows": rows})  # type: ignore[attr-defined]
    assert graph_store.get_section("BNS", "1") is None


def test_unreachable_falkordb_is_retryable_not_not_found(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = FalkorGraphStore(unix_socket_path=str(tmp_path / "nobody.sock"))
    with pytest.raises(StoreUnavailableError):
        store.open()


def test_unreachable_neo4j_is_retryable() -> None:
    store = Neo4jGraphStore(uri="bolt://127.0.0.1:1", user="neo4j", password="x")
    with pytest.raises(StoreUnavailableError):
        store.open()


def test_server_stopped_mid_run_raises_unavailable(tmp_path) -> None:  # type: ignore[no-untyped-def]
    server = EmbeddedFalkorDB(tmp_path / "g")
    server.start()
    try:
        store = FalkorGraphStore(unix_socket_path=server.socket_path)
        store.open()
        store.ensure_schema()
        _load(store)
        assert store.get_section("BNS", "103") is not None
        server.stop()
        with pytest.raises(StoreUnavailableError):
            store.get_section("BNS", "103")

    finally:
        server.stop()  # idempotent: a no-op when the test already stopped it

def test_lapsed_sections_are_those_with_a_no_successor_record(graph_store: GraphStore) -> None:
    _load(graph_store)
    assert graph_store.lapsed_sections() == []
    adultery = Section(act="IPC", number="497", title="Adultery", text="Whoever has sexual intercourse ...",
                       status=SectionStatus.REPEALED, in_force_to="2024-07-01")
    graph_store.upsert_sections([adultery])
    # The shipped curation row (data/corpus/curation/no_successor.jsonl), as ingestion writes it.
    graph_store.set_no_successor([("IPC:497", "Adultery; struck down before the BNS and not re-enacted.",
                                   "Joseph Shine v. Union of India, (2019) 3 SCC 39", ["HMA 13(1)(i)"])])
    assert graph_store.lapsed_sections() == [{
        "act": "IPC", "section": "497", "title": "Adultery", "text": "Whoever has sexual intercourse ...",
        "reason": "Adultery; struck down before the BNS and not re-enacted.",
        "authority": "Joseph Shine v. Union of India, (2019) 3 SCC 39", "today": ["HMA 13(1)(i)"],
    }]  # fmt: skip
    # a record naming nothing that governs the subject today reads back as an empty list
    graph_store.set_no_successor([("IPC:497", "Adultery; struck down.", "Joseph Shine", [])])
    assert graph_store.lapsed_sections()[0]["today"] == []


# Real registry row: data/corpus/cases/landmark_cases.jsonl line 2, as ingestion/sources/cases.py reads it.
MANEKA = Case(citations=("(1978) 1 SCC 248", "AIR 1978 SC 597"), parties="Maneka Gandhi v. Union of India",
              court="Supreme Court of India", date="1978-01-25", source="landmark_cases.jsonl:2")  # fmt: skip


def test_cases_are_found_by_any_parallel_citation(graph_store: GraphStore) -> None:
    assert graph_store.find_cases(["AIR 1978 SC 597"]) == {}
    graph_store.upsert_cases([MANEKA])
    graph_store.upsert_cases([MANEKA])  # MERGE on the key: a second ingest adds nothing
    found = graph_store.find_cases(["AIR 1978 SC 597", "(1978) 1 SCC 248", "(2014) 8 SCC 273"])
    assert set(found) == {"AIR 1978 SC 597", "(1978) 1 SCC 248"}  # an unknown citation is simply absent
    row = found["AIR 1978 SC 597"]
    assert row["key"] == "(1978) 1 SCC 248"
    assert (row["parties"], row["court"], row["date"]) == (MANEKA.parties, MANEKA.court, "1978-01-25")
    assert sorted(row["citations"]) == sorted(MANEKA.citations)
    assert graph_store.counts()["Case"] == 1
    assert graph_store.existing_hashes("case", [MANEKA.key]) == {MANEKA.key: MANEKA.row()["row_hash"]}
    assert graph_store.find_cases([]) == {}


def test_act_texts_key_sections_and_their_subunits(graph_store: GraphStore) -> None:
    _load(graph_store)
    graph_store.upsert_sections([Section(act="BNS", number="358", title=None, text=None, existence_only=True)])
    assert graph_store.act_texts("BNS") == {"103": BNS103.text, "103(1)": BNS_103_1, "103(2)": BNS_103_2}
    assert graph_store.act_texts("IPC") == {"302": IPC_302}
    assert graph_store.act_texts("NOSUCH") == {}


def test_text_sections_carry_units_and_the_acts_dates(graph_store: GraphStore) -> None:
    _load(graph_store)
    graph_store.upsert_sections([Section(act="BNS", number="358", title=None, text=None, existence_only=True)])
    rows = {(r["act"], r["number"]): r for r in graph_store.text_sections()}
    assert set(rows) == {("BNS", "103"), ("IPC", "302")}  # the section without text is not indexed
    bns = rows[("BNS", "103")]
    assert bns["units"] == {"1": BNS_103_1, "2": BNS_103_2}
    assert (bns["title"], bns["text"]) == ("Punishment for murder.", BNS103.text)
    assert (bns["in_force_from"], bns["in_force_to"]) == ("2024-07-01", None)  # the Act's date as default
    ipc = rows[("IPC", "302")]
    assert (ipc["status"], ipc["in_force_from"], ipc["in_force_to"]) == ("repealed", "1862-01-01", "2024-07-01")
    assert ipc["units"] == {}


def test_get_sections_reads_many_in_one_call(graph_store: GraphStore) -> None:
    _load(graph_store)
    recs = graph_store.get_sections([("BNS", "103"), ("IPC", "302"), ("BNS", "999"), ("BNS", "103")])
    assert sorted(recs) == ["BNS:103", "IPC:302"]
    assert recs["BNS:103"].subunits == {"1": BNS_103_1, "2": BNS_103_2}
    assert recs["IPC:302"].text == IPC_302 and recs["IPC:302"].status is SectionStatus.REPEALED
    assert graph_store.get_sections([]) == {}


def test_section_enrichment_returns_what_curation_contributed(graph_store: GraphStore) -> None:
    _load(graph_store)
    # NI Act s.139 as the shipped curation row (data/corpus/curation/commencement.jsonl) dates it.
    nia = Section(act="NIA", number="139", title="Presumption in favour of holder.", text="It shall be presumed",
                  chapter="NIA:CH:XVII", in_force_from="1989-04-01", source="curation/commencement.jsonl:1")
    graph_store.upsert_acts([Act(code="NIA", title="The Negotiable Instruments Act, 1881", in_force_from="1882-03-01")])
    graph_store.upsert_sections([nia])
    got = graph_store.section_enrichment(["NIA:139", "BNS:103", "BNS:999"])
    assert sorted(got) == ["BNS:103", "NIA:139"]
    assert got["NIA:139"]["in_force_from"] == "1989-04-01"
    assert (got["NIA:139"]["chapter"], got["NIA:139"]["source"]) == ("NIA:CH:XVII", "curation/commencement.jsonl:1")
    assert (got["BNS:103"]["chapter"], got["BNS:103"]["title"]) == ("BNS:CH:VI", "Punishment for murder.")
    assert got["BNS:103"]["text"] == BNS103.text
    assert graph_store.section_enrichment([]) == {}


def test_set_no_successor_shows_on_the_section_record(graph_store: GraphStore) -> None:
    _load(graph_store)
    graph_store.set_no_successor([("IPC:302", "test reason", "test authority", []), ("IPC:999", "absent", "none", [])])
    rec = graph_store.get_section("IPC", "302")
    assert rec is not None and rec.no_successor == "test reason"
    assert graph_store.get_section("IPC", "999") is None  # a row for a section that is not stored creates nothing


def test_clear_removes_everything(graph_store: GraphStore) -> None:
    _load(graph_store)
    graph_store.upsert_cases([MANEKA])
    assert graph_store.counts()["Section"] == 2
    graph_store.clear()
    assert not any(graph_store.counts().values())
    assert graph_store.get_section("BNS", "103") is None
    assert graph_store.all_acts() == [] and graph_store.find_cases(["AIR 1978 SC 597"]) == {}


def test_compact_keeps_the_data_and_rewrites_falkordbs_log(graph_store: GraphStore,
                                                           falkor_server: EmbeddedFalkorDB) -> None:
    _load(graph_store)
    before = graph_store.counts()
    rewrites = _aof_rewrites(falkor_server) if isinstance(graph_store, FalkorGraphStore) else None
    graph_store.compact()
    assert graph_store.counts() == before
    rec = graph_store.get_section("BNS", "103")
    assert rec is not None and rec.subunits == {"1": BNS_103_1, "2": BNS_103_2}
    if rewrites is not None:  # FalkorDB: the append-only file was rewritten as a snapshot (Neo4j: nothing to do)
        assert _aof_rewrites(falkor_server) > rewrites


def _aof_rewrites(server: EmbeddedFalkorDB) -> int:
    """Completed AOF rewrites, once none is running or scheduled (bounded wait: at most ~30 s of polling)."""
    import time

    import redis

    client = redis.Redis(unix_socket_path=server.socket_path)
    try:
        for _ in range(300):
            info = client.info("persistence")
            if not info["aof_rewrite_in_progress"] and not info["aof_rewrite_scheduled"]:
                return int(info["aof_rewrites"])
            time.sleep(0.1)
        raise AssertionError("an AOF rewrite was still running after 300 polls")
    finally:
        client.close()


def test_the_suite_calls_every_method_of_the_store_protocols() -> None:
    """Contract coverage: each method of ``GraphReader``, ``GraphWriter`` and ``GraphStore`` is called here
    (open/close/ensure_schema by the fixtures in tests/conftest.py)."""
    import inspect
    import re
    import sys

    from graph_schema.store import GraphReader, GraphWriter

    methods = {
        name
        for proto in (GraphReader, GraphWriter, GraphStore)
        for name, _ in inspect.getmembers(proto, inspect.isfunction)
        if not name.startswith("_")
    }
    here = inspect.getsource(sys.modules[__name__])
    fixtures = (Path(__file__).resolve().parents[1] / "conftest.py").read_text(encoding="utf-8")
    called = {m for m in methods if re.search(rf"\.{m}\(", here) or re.search(rf"\.{m}\(", fixtures)}
    assert len(methods) >= 26
    assert sorted(methods - called) == []
