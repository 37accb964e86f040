"""Questions asked before (``legal_rag/retrieval/asked.py``): labelled development questions as situations of the
provisions that decided them, added to the lay channel.

The stories of the channel test below were written for it, none taken from an evaluation set.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from graph_schema.errors import ConfigurationError, IngestError, InvalidInputError
from legal_rag.evaluation.answers import held_out_sets
from legal_rag.evaluation.relevance import measuring_questions
from legal_rag.retrieval.asked import (
    AskedQuestion,
    answers_from_itself,
    as_cards,
    asked_rows,
    merge_cards,
    normalised,
    read_asked,
    write_asked,
)
from legal_rag.retrieval.hybrid import query_sentences
from legal_rag.retrieval.lay import LayCard, LayChannel, read_lay_cards
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
    cards = as_cards(rows)
    assert cards == [LayCard("BNS", "318", (rows[0].question,)), LayCard("BNSS", "173", (rows[0].question,)),
                     LayCard("NIA", "142", (rows[1].question,))]  # fmt: skip


def test_a_set_left_out_leaves_its_rows_and_any_asking_its_questions(tmp_path: Path) -> None:
    rows = [AskedQuestion("1", "p.jsonl", "First question?", (("BNS", "1"),)),
            AskedQuestion("2", "q.jsonl", "Second  QUESTION?", (("BNS", "2"),)),
            AskedQuestion("3", "q.jsonl", "Third question?", (("BNS", "3"),))]  # fmt: skip
    path = tmp_path / "asked.jsonl"
    write_asked(path, rows)
    other = tmp_path / "copy" / "renamed.jsonl"
    other.parent.mkdir()
    other.write_text(json.dumps({"id": "x", "question": "second question?"}) + "\n", encoding="utf-8")
    (tmp_path / "p.jsonl").write_text("", encoding="utf-8")
    assert [r.id for r in read_asked(path, [tmp_path / "p.jsonl"])] == ["2", "3"]  # by its name
    assert [r.id for r in read_asked(path, [other])] == ["1", "3"]  # by its questions, whatever it is called
    assert answers_from_itself(path, [], other) and not answers_from_itself(path, [other], other)
    assert not answers_from_itself(None, [], other)


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


def test_no_file_adds_nothing_and_an_unreadable_set_to_leave_out_is_an_error(tmp_path: Path) -> None:
    assert read_asked(tmp_path / "absent.jsonl") == []
    path = tmp_path / "asked.jsonl"
    write_asked(path, [AskedQuestion("1", "p.jsonl", "q?", (("BNS", "1"),))])
    (tmp_path / "dir.jsonl").mkdir()
    with pytest.raises(IngestError, match="dir.jsonl"):
        read_asked(path, [tmp_path / "dir.jsonl"])


def test_merged_cards_keep_each_situation_once() -> None:
    cards = [LayCard("BNS", "1", ("a", "b")), LayCard("BNS", "2", ("c",))]
    more = [LayCard("BNS", "2", ("c", "d", "d")), LayCard("NIA", "142", ("e",))]
    assert merge_cards(cards, more) == [LayCard("BNS", "1", ("a", "b")), LayCard("BNS", "2", ("c", "d")),
                                        LayCard("NIA", "142", ("e",))]  # fmt: skip


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


def test_every_shipped_question_has_its_vector() -> None:
    emb = OnnxMiniLMEmbedder()
    texts = [r.question for r in read_asked(SHIPPED)]
    found, _ = ShippedVectors(Settings().retrieval.vectors_dir, emb.model_id).lookup(texts)
    assert len(found) == len(texts)


def test_a_story_finds_the_provision_a_question_like_it_was_answered_from() -> None:
    """Told in words that no card of the section shares, a story finds it through a question asked before in
    similar words; without that question it does not."""
    emb = OnnxMiniLMEmbedder()
    emb.open()
    cards = read_lay_cards(PROJECT_ROOT / "data" / "retrieval" / "lay_cards.jsonl")
    asked = [AskedQuestion("x1", "x.jsonl", "The society secretary keeps our flat's share certificate locked away "
                           "and will not hand it over until we pay his personal fee", (("BNS", "316"),))]
    story = ("Our housing society secretary is holding back the share certificate of my flat and says he will only "
             "release it if I pay him a private fee")
    vectors = np.asarray(emb.embed([*query_sentences(story), story]), dtype=np.float32)
    shipped = ShippedVectors(Settings().retrieval.vectors_dir, emb.model_id)

    def first(cs: list[LayCard]) -> list[str]:
        ch = LayChannel(cs, lambda a, s: f"{a}:{s}:-:0", lambda a, s: [], emb, shipped)
        return [":".join(h.chunk_id.split(":")[:2]) for h in ch.search(story, vectors, 3)]

    assert "BNS:316" not in first(cards)
    assert first(merge_cards(cards, as_cards(asked)))[0] == "BNS:316"


def test_scoring_or_training_refuses_to_answer_a_set_from_itself(tmp_path: Path) -> None:
    """The CLI leaves out the sets it asks; an ``Application`` given settings that do not is refused."""
    from legal_rag.app import Application

    probe = EVAL / "probe9.jsonl"
    assert answers_from_itself(SHIPPED, [], probe)
    with Application(Settings(state_dir=tmp_path / "state")) as application:
        with pytest.raises(ConfigurationError, match="hold questions of probe9.jsonl"):
            application.evaluate_answers(probe)
        with pytest.raises(ConfigurationError, match="hold questions of probe9.jsonl"):
            application.train_relevance([probe], tmp_path / "r.json")


@pytest.mark.parametrize("name", sorted(held_out_sets(EVAL)) + ["sealed5.jsonl"])
def test_building_refuses_a_measuring_set(tmp_path: Path, name: str) -> None:
    from legal_rag.app import Application

    with Application(Settings(state_dir=tmp_path / "state")) as application:
        with pytest.raises(InvalidInputError, match="is held out|is sealed"):
            application.build_asked([EVAL / "probe9.jsonl", EVAL / name], tmp_path / "a.jsonl")
        with pytest.raises(InvalidInputError, match="must be a .jsonl file"):
            application.build_asked([EVAL / "probe9.jsonl"], tmp_path / "a.json")
        (tmp_path / "x").mkdir()
        (tmp_path / "x" / "probe9.jsonl").write_text("")
        with pytest.raises(InvalidInputError, match="two files are called probe9.jsonl"):
            application.build_asked([EVAL / "probe9.jsonl", tmp_path / "x" / "probe9.jsonl"], tmp_path / "a.jsonl")
    assert not (tmp_path / "a.jsonl").exists()
