"""Questions asked before (``legal_rag/retrieval/asked.py``): labelled development questions as situations of the
provisions that decided them, added to the lay channel.

The stories of the channel test below were written for it, none taken from an evaluation set.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from graph_schema.errors import IngestError, InvalidInputError
from legal_rag.evaluation.answers import held_out_sets
from legal_rag.evaluation.relevance import measuring_questions
from legal_rag.retrieval.asked import (
    NEAR_COPY,
    AskedQuestion,
    LeaveOut,
    asked_rows,
    normalised,
    read_asked,
    write_asked,
)
from legal_rag.retrieval.hybrid import query_sentences
from legal_rag.retrieval.lay import LayChannel, read_lay_cards
from legal_rag.retrieval.onnx_minilm import OnnxMiniLMEmbedder
from legal_rag.retrieval.vectors import ShippedVectors
from legal_rag.settings import PROJECT_ROOT, Settings

EVAL = PROJECT_ROOT / "data" / "eval"
SHIPPED = PROJECT_ROOT / "data" / "retrieval" / "asked.jsonl"


@dataclass(frozen=True)
class Row:
    id: str
    question: str
    expect_cited: tuple[tuple[str, str], ...]
    as_of: str | None = None
    answerable: bool = True


def test_a_question_adds_the_provisions_of_todays_law_it_must_cite() -> None:
    rows = asked_rows([("a.jsonl", [
        Row("1", "My  cheque bounced,\nhow long to file?", (("NIA", "142(1)(b)"), ("NIA", "138"), ("NIA", "142"))),
        Row("2", "Theft in 2023: which code?", (("IPC", "379"),), as_of=None),  # only old-code labels: nothing
        Row("3", "Punishment for theft?", (("BNS", "303"),), as_of="2024-03-01"),  # dated before 2024-07-01
        Row("4", "Who is the best lawyer in Pune?", (("BNS", "1"),), answerable=False),
        Row("5", "Murder in 2022 and bail now?", (("IPC", "302"), ("BNSS", "480"))),
        Row("6", "my cheque bounced, how long to file?", (("NIA", "142"),)),  # asked again (another case and space)
    ]), ("b.jsonl", [Row("1", "Punishment for theft?", (("BNS", "303(2)"),), as_of="2025-01-01")])])
    assert rows == [
        AskedQuestion("1", "a.jsonl", "My cheque bounced, how long to file?", (("NIA", "142"), ("NIA", "138"))),
        AskedQuestion("5", "a.jsonl", "Murder in 2022 and bail now?", (("BNSS", "480"),)),
        AskedQuestion("1", "b.jsonl", "Punishment for theft?", (("BNS", "303"),)),
    ]


def test_written_and_read_back_whole(tmp_path: Path) -> None:
    rows = [AskedQuestion("q1", "p.jsonl", "Kya yeh legal hai? ₹50,000", (("BNS", "318"), ("BNSS", "173"))),
            AskedQuestion("q2", "r.jsonl", "Time limit for a cheque complaint?", (("NIA", "142"),))]  # fmt: skip
    path = tmp_path / "deep" / "asked.jsonl"
    write_asked(path, rows)
    assert read_asked(path) == rows
    assert [p.name for p in path.parent.iterdir()] == ["asked.jsonl"]  # no temporary file left behind


def test_a_file_that_cannot_be_written_leaves_the_one_there_whole(tmp_path: Path) -> None:
    path = tmp_path / "asked.jsonl"
    rows = [AskedQuestion("q1", "p.jsonl", "First question?", (("BNS", "1"),))]
    write_asked(path, rows)
    with pytest.raises(TypeError):  # a row that cannot be written as JSON: nothing replaced, nothing left over
        write_asked(path, [AskedQuestion("q2", "p.jsonl", "Second?", (("BNS", object()),))])  # type: ignore[arg-type]
    assert read_asked(path) == rows and [p.name for p in tmp_path.iterdir()] == ["asked.jsonl"]


def test_a_leave_out_covers_its_sets_rows_and_any_asking_its_questions() -> None:
    leave_out = LeaveOut.of({"p.jsonl"}, ["Second  QUESTION?"])
    assert leave_out.covers(AskedQuestion("1", "p.jsonl", "First question?", (("BNS", "1"),)))
    assert leave_out.covers(AskedQuestion("2", "q.jsonl", "second question?", (("BNS", "2"),)))
    assert not leave_out.covers(AskedQuestion("3", "q.jsonl", "Third question?", (("BNS", "3"),)))
    assert LeaveOut.of({"p.jsonl"}, ["second question?"]) == leave_out


@pytest.mark.parametrize(("line", "problem"), [
    ("not json", "malformed JSON"),
    ('{"id": "1", "from": "p", "question": "q?"}', "exactly"),
    ('{"id": "1", "from": "", "question": "q?", "cited": [["BNS", "1"]]}', "non-empty strings"),
    ('{"id": "1", "from": "p", "question": "q?", "cited": []}', "non-empty list"),
    ('{"id": "1", "from": "p", "question": "q?", "cited": [["BNS"]]}', "pairs"),
    ('{"id": "1", "from": "p", "question": "q?", "cited": [["BNS", 1]]}', "pairs"),
    ('{"id": "1", "from": "p", "question": "Q?", "cited": [["BNS", "1"]]}\n'
     '{"id": "2", "from": "r", "question": "q?", "cited": [["BNS", "2"]]}', "asked a second time"),
])  # fmt: skip
def test_a_malformed_file_is_named_with_its_line(tmp_path: Path, line: str, problem: str) -> None:
    path = tmp_path / "asked.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(IngestError, match=problem) as err:
        read_asked(path)
    assert str(path) in str(err.value)


def test_no_file_adds_nothing_and_one_not_in_utf8_is_named(tmp_path: Path) -> None:
    assert read_asked(tmp_path / "absent.jsonl") == []
    path = tmp_path / "latin.jsonl"
    path.write_bytes('{"id": "1", "from": "p", "question": "caf\u00e9?", "cited": [["BNS", "1"]]}\n'.encode("latin-1"))
    with pytest.raises(IngestError, match="latin.jsonl: cannot be read"):
        read_asked(path)


def test_the_settings_turn_them_off(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().retrieval.asked == SHIPPED
    for value in ("off", "none", ""):
        monkeypatch.setenv("LEGAL_RAG_RETRIEVAL__ASKED", value)
        assert Settings().retrieval.asked is None


def test_the_shipped_questions_hold_no_question_that_measures() -> None:
    """Never a sealed or held-out set's question, nor a held-out split's row, whatever set it was copied into."""
    rows = read_asked(SHIPPED)
    assert len(rows) >= 1500
    measuring = measuring_questions(EVAL)
    assert not [r.id for r in rows if normalised(r.question) in measuring]
    held = held_out_sets(EVAL)
    assert not {r.source for r in rows} & held and not any(r.source.startswith("sealed") for r in rows)
    assert not {a for r in rows for a, _ in r.cited} & {"IPC", "CRPC", "IEA"}


def test_the_shipped_questions_hold_no_near_copy_of_one_that_measures() -> None:
    """"What is the punishment ..." and "What's the punishment ..." are one question: the file holds none within
    ``NEAR_COPY`` of a question that measures (only the count is shown, never a measuring question)."""
    emb = OnnxMiniLMEmbedder()
    emb.open()
    ours = np.asarray(emb.embed([r.question for r in read_asked(SHIPPED)]), dtype=np.float32)
    theirs = np.asarray(emb.embed(sorted(measuring_questions(EVAL))), dtype=np.float32)
    assert int(((ours @ theirs.T).max(axis=1) >= NEAR_COPY).sum()) == 0


def test_every_shipped_question_has_its_vector() -> None:
    emb = OnnxMiniLMEmbedder()
    texts = [r.question for r in read_asked(SHIPPED)]
    found, _ = ShippedVectors(Settings().retrieval.vectors_dir, emb.model_id).lookup(texts)
    assert len(found) == len(texts)


def test_a_story_finds_the_provision_a_question_like_it_was_answered_from() -> None:
    """Told in words that no card of the section shares, a story finds it through a question asked before in
    similar words; without that question, or with it left out (by its set or by its text), it does not."""
    emb = OnnxMiniLMEmbedder()
    emb.open()
    cards = read_lay_cards(PROJECT_ROOT / "data" / "retrieval" / "lay_cards.jsonl")
    asked = [AskedQuestion("x1", "x.jsonl", "The society secretary keeps our flat's share certificate locked away "
                           "and will not hand it over until we pay his personal fee", (("BNS", "316"),))]
    story = ("Our housing society secretary is holding back the share certificate of my flat and says he will only "
             "release it if I pay him a private fee")
    vectors = np.asarray(emb.embed([*query_sentences(story), story]), dtype=np.float32)
    shipped = ShippedVectors(Settings().retrieval.vectors_dir, emb.model_id)

    def first(qs: list[AskedQuestion], leave_out: LeaveOut | None = None) -> list[str]:
        ch = LayChannel(cards, lambda a, s: f"{a}:{s}:-:0", lambda a, s: [], emb, shipped, asked=qs)
        return [":".join(h.chunk_id.split(":")[:2]) for h in ch.search(story, vectors, 3, leave_out=leave_out)]

    assert "BNS:316" not in first([])
    assert first(asked)[0] == "BNS:316"
    assert "BNS:316" not in first(asked, LeaveOut.of({"x.jsonl"}))
    assert "BNS:316" not in first(asked, LeaveOut.of(questions=[asked[0].question.upper()]))
    assert first(asked, LeaveOut.of({"y.jsonl"}, ["another question"]))[0] == "BNS:316"


def test_a_question_left_out_scores_as_if_it_had_never_been_held() -> None:
    """Its own row would be a labelled question's best word match: left out, it takes no part in the BM25 scores the
    others are measured against either. A second scope is not the first one's (the remembered mask is per scope)."""
    emb = OnnxMiniLMEmbedder()
    emb.open()
    cards = read_lay_cards(PROJECT_ROOT / "data" / "retrieval" / "lay_cards.jsonl")
    rows = read_asked(SHIPPED)
    shipped = ShippedVectors(Settings().retrieval.vectors_dir, emb.model_id)

    def channel(qs: list[AskedQuestion]) -> LayChannel:
        return LayChannel(cards, lambda a, s: f"{a}:{s}:-:0", lambda a, s: [], emb, shipped, asked=qs)

    full = channel(rows)
    for source in ("probe12.jsonl", "probe15.jsonl"):
        without = channel([r for r in rows if r.source != source])
        for q in [r for r in rows if r.source == source and len(r.question.split()) >= 15][:8]:
            vectors = np.asarray(emb.embed([*query_sentences(q.question), q.question]), dtype=np.float32)
            got = full.search(q.question, vectors, 10, leave_out=LeaveOut.of({source}))
            want = without.search(q.question, vectors, 10)
            assert [(h.chunk_id, h.told) for h in got] == [(h.chunk_id, h.told) for h in want]
            assert [h.score for h in got] == pytest.approx([h.score for h in want], abs=1e-5)


def test_a_question_of_a_section_without_text_is_not_held() -> None:
    emb = OnnxMiniLMEmbedder()
    qs = [AskedQuestion("1", "p.jsonl", "a man grabbed the chain from my neck and ran away", (("BNS", "304"),
                                                                                           ("XYZ", "1")))]
    ch = LayChannel([], lambda a, s: None if a == "XYZ" else f"{a}:{s}:-:0", lambda a, s: [], emb, asked=qs)
    assert len(ch) == 1 and ch.asked() == qs


@pytest.mark.parametrize("name", sorted(held_out_sets(EVAL)) + ["sealed5.jsonl"])
def test_building_refuses_a_measuring_set_before_reading_any(tmp_path: Path, name: str) -> None:
    from legal_rag.app import Application

    with Application(Settings(state_dir=tmp_path / "state"), first_run=False) as application, \
            pytest.raises(InvalidInputError, match="is held out|is sealed"):
        application.build_asked([EVAL / "probe9.jsonl", EVAL / name], tmp_path / "a.jsonl")
    assert not (tmp_path / "a.jsonl").exists() and not (tmp_path / "state" / "falkordb").exists()  # no server


def test_building_refuses_an_out_that_is_no_jsonl_or_would_write_over_the_sets(tmp_path: Path) -> None:
    from legal_rag.app import Application

    with Application(Settings(state_dir=tmp_path / "state"), first_run=False) as application:
        with pytest.raises(InvalidInputError, match="must be a .jsonl file"):
            application.build_asked([EVAL / "probe9.jsonl"], tmp_path / "a.json")
        with pytest.raises(InvalidInputError, match="would write over the evaluation sets"):
            application.build_asked([EVAL / "probe9.jsonl"], EVAL / "asked.jsonl")
        copy = tmp_path / "probe9.jsonl"
        copy.write_text((EVAL / "probe9.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
        with pytest.raises(InvalidInputError, match="would write over the evaluation sets"):
            application.build_asked([copy], copy)
        (tmp_path / "x").mkdir()
        (tmp_path / "x" / "probe9.jsonl").write_text("")
        with pytest.raises(InvalidInputError, match="two files are called probe9.jsonl"):
            application.build_asked([EVAL / "probe9.jsonl", tmp_path / "x" / "probe9.jsonl"], tmp_path / "a.jsonl")
    assert not (tmp_path / "a.jsonl").exists() and not (EVAL / "asked.jsonl").exists()
