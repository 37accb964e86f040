"""The lay channel (``legal_rag/retrieval/lay.py``) on the shipped cards, the shipped vectors and the real encoder.

The stories below were written for these tests, none taken from an evaluation set; each tells a situation in everyday
words that share no word with the deciding section's heading.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from graph_schema.acts import CURATED_BY_SLUG
from graph_schema.errors import IngestError
from legal_rag.retrieval.hybrid import FusionConfig, fuse, query_sentences
from legal_rag.retrieval.lay import FLOOR, LayCard, LayChannel, LayHit, read_lay_cards
from legal_rag.retrieval.onnx_minilm import OnnxMiniLMEmbedder
from legal_rag.retrieval.types import Hit
from legal_rag.retrieval.vectors import ShippedVectors
from legal_rag.settings import PROJECT_ROOT, Settings

CARDS = PROJECT_ROOT / "data" / "retrieval" / "lay_cards.jsonl"
SECTIONS_FILE = PROJECT_ROOT / "data" / "corpus" / "indiacode" / "sections_fulltext_subset.jsonl"


@cache
def corpus_sections() -> frozenset[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    with SECTIONS_FILE.open(encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            act = CURATED_BY_SLUG[d["act_slug"]].code if d["act_slug"] in CURATED_BY_SLUG else d["act_slug"]
            # India Code writes "68-I" where the ingested graph has "68I"
            out.add((act.upper(), re.sub(r"(?<=\d)-(?=[A-Z])", "", str(d["section_no"]).strip())))
    return frozenset(out)


@pytest.fixture(scope="module")
def embedder() -> OnnxMiniLMEmbedder:
    emb = OnnxMiniLMEmbedder()
    emb.open()
    return emb


@pytest.fixture(scope="module")
def channel(embedder: OnnxMiniLMEmbedder) -> LayChannel:
    cards = read_lay_cards(CARDS)
    shipped = ShippedVectors(Settings().retrieval.vectors_dir, embedder.model_id)
    old = {("BNS", "78"): ["IPC:354D:-:0"]}  # what the graph's correspondence gives (tested in test_retrieval)
    return LayChannel(cards, lambda act, section: f"{act}:{section}:-:0", lambda a, s: old.get((a, s), []),
                      embedder, shipped)  # fmt: skip


def _story(emb: OnnxMiniLMEmbedder, text: str) -> np.ndarray:
    return np.asarray(emb.embed([*query_sentences(text), text]), dtype=np.float32)


def _sections(hits: Sequence[LayHit]) -> list[str]:
    return [":".join(h.chunk_id.split(":")[:2]) for h in hits]


def test_the_shipped_cards_name_real_sections_of_current_law() -> None:
    cards = read_lay_cards(CARDS)
    assert len(cards) >= 3000
    keys = {(c.act, c.section) for c in cards}
    assert not {a for a, _ in keys} & {"IPC", "CRPC", "IEA"}, "cards are written for the law in force"
    missing = keys - corpus_sections()
    assert not missing, sorted(missing)[:10]
    assert all(1 <= len(c.situations) <= 3 for c in cards)


def test_every_shipped_situation_has_its_vector(embedder: OnnxMiniLMEmbedder) -> None:
    texts = [s for c in read_lay_cards(CARDS) for s in c.situations]
    found, _ = ShippedVectors(Settings().retrieval.vectors_dir, embedder.model_id).lookup(texts)
    assert len(found) == len(texts)


@pytest.mark.parametrize(("story", "section"), [
    ("Yesterday a man on a scooter rode past my aunt at the bus stop, tore her handbag off her shoulder and raced "
     "away.", "BNS:304"),
    ("My landlord has switched off the water and electricity to force us out though we pay rent on time every "
     "month.", None),
    ("My tenant has not paid rent for five months and refuses to leave the flat. We only have an oral arrangement "
     "with him. How much notice must I give?", "TPA"),
    ("The car dealer sold me a vehicle saying it was new but the service records show it was already driven "
     "12,000 km by someone else. Where do I complain?", None),
    ("A man keeps calling my sister from different numbers and waits outside her college every day though she has "
     "told him to stop.", "BNS:78"),
])  # fmt: skip
def test_a_story_in_everyday_words_finds_its_provision(
    channel: LayChannel, embedder: OnnxMiniLMEmbedder, story: str, section: str | None
) -> None:
    hits = channel.search(story, _story(embedder, story), 5)
    assert hits and all(h.score > 0 and h.told for h in hits) and hits[0].score > 0.3
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    if section is not None:  # a section, or an Act (a tenancy story finds the property law's lease sections)
        found = _sections(hits[:3]) if ":" in section else [s.split(":")[0] for s in _sections(hits[:3])]
        assert section in found, (_sections(hits), [h.told for h in hits])


def test_a_text_about_nothing_legal_gets_little(channel: LayChannel, embedder: OnnxMiniLMEmbedder) -> None:
    """A shared word lifts a situation a little ("rice" in a complaint about the wrong rice delivered); it never
    comes near what a story of the situation gets (above 0.3 in the tests above)."""
    text = "The recipe needs two cups of rice, a pinch of salt and slow cooking over a low flame for twenty minutes."
    hits = channel.search(text, _story(embedder, text), 10)
    assert all(h.score < 0.2 for h in hits), [(h.chunk_id, h.score, h.told) for h in hits]
    text = "The monsoon clouds arrived over the hills late in the evening and the birds flew home."
    assert channel.search(text, _story(embedder, text), 10) == []


def test_what_a_question_asks_for_is_no_fact_of_a_story(channel: LayChannel, embedder: OnnxMiniLMEmbedder) -> None:
    """ "How many days" is shared by every situation told as a question about a deadline; it does not decide which."""
    ask = "How many days? What is the time limit? What is the punishment and the fine?"
    hits = channel.search(ask, _story(embedder, ask), 10)
    assert all(h.score < 0.3 for h in hits), [(h.chunk_id, h.score, h.told) for h in hits]


def test_a_card_for_a_new_code_section_speaks_for_the_old_sections_it_replaced(
    channel: LayChannel, embedder: OnnxMiniLMEmbedder
) -> None:
    story = "In 2022 a boy followed my daughter from tuition class every day and kept phoning her though she said no."
    now = channel.search(story, _story(embedder, story), 3)
    assert "BNS:78" in _sections(now)
    then = channel.search(story, _story(embedder, story), 3, allow={"IPC:354D:-:0", "IPC:302:-:0"})
    assert [h.chunk_id for h in then] == ["IPC:354D:-:0"]


def test_an_old_code_lookup_that_found_nothing_is_asked_again(embedder: OnnxMiniLMEmbedder) -> None:
    """None may mean the graph did not answer: it is not remembered for the index version."""
    answers = [[], ["IPC:354D:-:0"]]
    asked: list[tuple[str, str]] = []

    def related(act: str, section: str) -> list[str]:
        asked.append((act, section))
        return answers[min(len(asked), len(answers)) - 1]

    ch = LayChannel([LayCard("BNS", "78", ("a boy follows my daughter every day and keeps phoning her",))],
                    lambda a, s: f"{a}:{s}:-:0", related, embedder)  # fmt: skip
    story = "a boy follows my daughter from school every day and keeps phoning her though she told him to stop"
    allow = {"IPC:354D:-:0"}
    assert ch.search(story, _story(embedder, story), 3, allow=allow) == []
    assert [h.chunk_id for h in ch.search(story, _story(embedder, story), 3, allow=allow)] == ["IPC:354D:-:0"]
    ch.search(story, _story(embedder, story), 3, allow=allow)
    assert asked == [("BNS", "78"), ("BNS", "78")]  # found once, remembered


def test_a_section_without_text_in_the_index_is_left_out(embedder: OnnxMiniLMEmbedder) -> None:
    cards = [LayCard("BNS", "304", ("a man grabbed the chain from my neck and ran away",)),
             LayCard("XYZ", "1", ("a man grabbed the chain from my neck and ran away",))]  # fmt: skip
    ch = LayChannel(cards, lambda a, s: None if a == "XYZ" else f"{a}:{s}:-:0", lambda a, s: [], embedder)
    story = "someone grabbed the gold chain off my neck and ran"
    hits = ch.search(story, _story(embedder, story), 5)
    assert [h.chunk_id for h in hits] == ["BNS:304:-:0"] and hits[0].score > 1 - FLOOR - 0.2


@pytest.mark.parametrize(("line", "problem"), [
    ("not json", "malformed JSON"),
    ('["BNS", "1"]', "expected a JSON object"),
    ('{"act": "BNS", "section": "1"}', 'exactly "act", "section" and "lay"'),
    ('{"act": "", "section": "1", "lay": ["a b c d e f g h"]}', "non-empty strings"),
    ('{"act": "BNS", "section": "1", "lay": []}', "non-empty list"),
    ('{"act": "BNS", "section": "1", "lay": ["' + "word " * 45 + '"]}', "runs past"),
    ('{"act": "BNS", "section": "1", "lay": ["x y z"]}\n{"act": "bns", "section": "1", "lay": ["x y z"]}',
     "second card for BNS 1"),
])  # fmt: skip
def test_a_malformed_card_file_is_named_with_its_line(tmp_path: Path, line: str, problem: str) -> None:
    path = tmp_path / "cards.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(IngestError, match=problem) as err:
        read_lay_cards(path)
    assert str(path) in str(err.value)


def test_no_card_file_turns_the_channel_off(tmp_path: Path) -> None:
    assert read_lay_cards(tmp_path / "absent.jsonl") == []


def test_the_lay_run_is_fused_on_its_absolute_score_the_others_min_max() -> None:
    """A weak best situation adds little; a min-max run gives its best hit the whole weight however weak."""
    cfg = FusionConfig(weights={"bm25": 1.0, "lay": 3.0})
    runs = {"bm25": [Hit("a", 9.0), Hit("b", 3.0)], "lay": [LayHit("b", 0.05, "x"), LayHit("c", 0.02, "y")]}
    fused = dict(fuse(runs, cfg))
    assert fused["a"] == pytest.approx(1.0) and fused["b"] == pytest.approx(0.15) and fused["c"] == pytest.approx(0.06)
    strong = dict(fuse({"bm25": runs["bm25"], "lay": [LayHit("b", 0.4, "x")]}, cfg))
    assert strong["b"] == pytest.approx(1.2) and strong["b"] > strong["a"]
    assert dict(fuse(runs, FusionConfig(weights={"bm25": 1.0, "lay": 3.0}, absolute=frozenset())))["b"] == 3.0


def test_the_old_sections_a_section_replaced_share_its_score(embedder: OnnxMiniLMEmbedder) -> None:
    """One new section that replaced four old ones gives each half its score (1/sqrt(4)), not all of it."""
    olds = ["IPC:454:-:0", "IPC:456:-:0", "IPC:457:-:0", "IPC:458:-:0"]
    ch = LayChannel([LayCard("BNS", "331", ("thieves broke the lock of our house at night and took the jewellery",))],
                    lambda a, s: f"{a}:{s}:-:0", lambda a, s: olds, embedder)  # fmt: skip
    story = "at night thieves broke open the lock of our house and took away all the jewellery"
    now = ch.search(story, _story(embedder, story), 5)
    then = ch.search(story, _story(embedder, story), 5, allow=set(olds))
    assert [h.chunk_id for h in now] == ["BNS:331:-:0"] and {h.chunk_id for h in then} == set(olds)
    assert all(h.score == pytest.approx(now[0].score / 2, abs=1e-5) for h in then)
