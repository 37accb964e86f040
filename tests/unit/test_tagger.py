"""The learned PRECEDENT tagger: its input encoding, decoding and the shipped ONNX weights on real sentences."""

from __future__ import annotations

import numpy as np
import pytest

from verification.extract import CitationExtractor
from verification.extract import tagger as tg
from verification.extract.precedents import find_precedents
from verification.model import Label


def test_decode_never_starts_a_span_with_i() -> None:
    # Argmax would read O I I: a span cannot start with I, so the best valid path is taken instead.
    scores = [[2.0, 0.0, -1.0], [0.0, 1.0, 1.5], [0.0, -1.0, 2.0], [3.0, 0.0, 0.0]]
    tags = tg.decode(scores)
    assert tags == ["O", "B", "I", "O"]
    assert tg.decode([[0.0, 1.0, 5.0]]) == ["B"]  # an I alone becomes the start of its span
    assert tg.decode([]) == []


def test_decode_follows_argmax_when_it_is_valid() -> None:
    rng = np.random.default_rng(3)
    for _ in range(50):
        scores = rng.normal(size=(12, 3)) * 4
        arg = ["OBI"[k] for k in scores.argmax(axis=1)]
        valid = all(t != "I" or (i and arg[i - 1] in "BI") for i, t in enumerate(arg))
        if valid:
            assert tg.decode(scores.tolist()) == arg


def test_marks_bracket_rule_spans_and_case_sets_the_token_type() -> None:
    words = ["relied", "on", "Ram", "v.", "Shyam", "in", "1990"]
    enc = tg.Encoder().encode(words, {(2, 5)})
    (win,) = enc.windows
    assert win.ids[0] == tg.CLS and win.ids[-1] == tg.SEP
    heads = dict((w, p) for p, w in win.heads)
    assert win.ids[heads[2] - 1] == tg.OPEN  # before "Ram"
    assert win.ids[heads[5] - 1] == tg.CLOSE  # before "in", after "Shyam"
    assert win.types[heads[2]] == 1 and win.types[heads[0]] == 0  # "Ram" capitalised, "relied" not
    plain = tg.Encoder(marks=False, case=False).encode(words, {(2, 5)}).windows[0]
    assert tg.OPEN not in plain.ids and tg.CLOSE not in plain.ids and set(plain.types) == {0}


def test_a_span_ending_the_input_is_closed() -> None:
    enc = tg.Encoder().encode(["in", "Ram", "v.", "Shyam"], {(1, 4)})
    assert enc.windows[0].ids[-2] == tg.CLOSE


def test_long_input_is_cut_into_overlapping_windows_that_own_every_word_once() -> None:
    words = [f"word{i} Ram v. Shyam," for i in range(300)]
    words = " ".join(words).split()
    enc = tg.Encoder().encode(words, set())
    assert len(enc.windows) > 2
    owners = [0] * len(words)
    for win in enc.windows:
        assert len(win.ids) <= tg.MAX_PIECES + 2
        for _, word in win.heads:
            owners[word] += win.owns(word)
    assert owners == [1] * len(words)


def test_trim_drops_joining_words_at_the_end() -> None:
    words = ["Kameswar", "Prosad", "v.", "State", "of", "Bihar", "and", "O.", "K.", "Ghose"]
    assert tg.trim(words, {(0, 7)}) == {(0, 6)}
    assert tg.trim(words, {(0, 6)}) == {(0, 6)}


@pytest.mark.parametrize("word", ["v.", "vs.", "Vs", "versus", "V/s", "-v.-", "AIR", "(2003)", "SCC", "[AIR"])
def test_cues(word: str) -> None:
    assert bool(tg._CUE.search(word)) is (word != "(2003)")


@pytest.mark.parametrize("word", ["all", "All", "visit", "Cal", "valid", "V", "(v)"])
def test_common_words_are_not_cues(word: str) -> None:
    assert not tg._CUE.search(word)


@pytest.fixture(scope="module")
def shipped() -> tg.PrecedentTagger:
    tagger = tg.shipped_tagger()
    assert tagger is not None, "the tagger's weights ship in verification/extract/models"
    return tagger


def test_text_without_a_cue_never_runs_the_model() -> None:
    tagger = tg.PrecedentTagger()
    text = "Whoever commits theft shall be punished with imprisonment which may extend to three years."
    assert tagger.retag(text, find_precedents(text)) == []
    assert tagger._session is None


def test_missing_weights_name_the_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "precedent_tagger.json").write_text('{"encoder": {"case": true, "marks": true}}')
    with pytest.raises(FileNotFoundError, match="precedent_tagger.onnx"):
        tg.PrecedentTagger(tmp_path)


def _precedents(ex: CitationExtractor, text: str) -> list[str]:
    return [c.text for c in ex.extract(text) if c.label is Label.PRECEDENT]


@pytest.fixture(scope="module")
def ex() -> CitationExtractor:
    return CitationExtractor()


# Sentences of the InLegalNER fit part where the rules' edges differ from the annotation and the tagger's match it.
TAGGED = [
    ("Per Abbott , C.J., in Webster v. Seekamp, 1821(4B) & Ald. 352 the term necessaries has been defined to mean "
     "such as are fit and proper for the vessel upon her voyage and such as a prudent owner himself, if present, "
     "would order.", ["Webster v. Seekamp, 1821(4B) & Ald. 352"]),
    ("This was so held by the Supreme Court in British Indian General Insurance Co. Ltd. v. Maya Banerjee, 1986 "
     "Ace CJ 946 : (AIR 1986 SC 2110 .",
     ["British Indian General Insurance Co. Ltd. v. Maya Banerjee, 1986 Ace CJ 946 : (AIR 1986 SC 2110"]),
    ("As per prosecution by doing so, the accused has committed the violation of permit condition as laid down by "
     "the Hon'ble Supreme Court in M.C. Mehta Vs. Union of India in Writ Petition No.13029 of 1985 .",
     ["M.C. Mehta Vs. Union of India in Writ Petition No.13029 of 1985"]),
    ("Afore elicited admissions of PW14 in respect of bringing RC No. ACI/2008/A0002/CBI/ACU\xadI/NEW DELHI CC No. "
     "31/12 57/78 CBI vs Dilip Kumar Thakur into motion",
     ["RC No. ACI/2008/A0002/CBI/ACU\xadI/NEW DELHI CC No. 31/12 57/78 CBI vs Dilip Kumar Thakur"]),
]


@pytest.mark.parametrize(("text", "expected"), TAGGED)
def test_tagger_redraws_the_rules_edges(ex: CitationExtractor, text: str, expected: list[str]) -> None:
    rules = CitationExtractor(precedent_tagger=None)
    assert _precedents(rules, text) != expected
    assert _precedents(ex, text) == expected


def test_glued_punctuation_is_not_part_of_a_tagged_span(ex: CitationExtractor) -> None:
    text = "Under Sections 302/34 IPC, see Arnesh Kumar v. State of Bihar, (2014) 8 SCC 273, and Maneka Gandhi v. " \
           "Union of India, (1978) 2 SCR 621."
    assert _precedents(ex, text) == ["Arnesh Kumar v. State of Bihar, (2014) 8 SCC 273",
                                     "Maneka Gandhi v. Union of India, (1978) 2 SCR 621"]


def test_a_citation_the_tagger_does_not_know_stays(ex: CitationExtractor) -> None:
    # Neutral citations are newer than the judgments the tagger learnt from; the rules' reading is kept.
    text = "The Court relied on 2023 SCC OnLine SC 890 and on 2024 INSC 123."
    assert "2024 INSC 123" in _precedents(ex, text)


def test_spans_of_the_tagger_carry_a_key(ex: CitationExtractor) -> None:
    text = TAGGED[2][0]
    (cit,) = [c for c in ex.extract(text) if c.label is Label.PRECEDENT]
    assert cit.kind == "name" and cit.normalised is None
    text = "In Rajasthan case ( AIR 1977 SC 1361 ) (supra), the Court said so."
    keys = [c.normalised for c in ex.extract(text) if c.label is Label.PRECEDENT]
    assert keys and all(k == "AIR 1977 SC 1361" for k in keys)


def test_two_cases_in_a_list_are_never_joined() -> None:
    words = ["See", "Lalita", "Kumari", "v.", "Union", "and", "2024", "INSC", "123", ":", "(AIR", "1986", "SC", "2110"]
    rule = [(1, 5), (6, 9), (10, 14)]
    # " and " between two of the rules' spans splits the tagged span; ":" between parallel citations does not.
    assert tg._unjoin(words, (1, 14), rule) == [(1, 5), (6, 14)]
    assert tg._unjoin(words, (6, 14), rule) == [(6, 14)]


@pytest.mark.parametrize(("gap", "joins"), [
    (["and"], True), (["&"], True), (["(para", "9);"], True), (["PC", "and"], True),
    ([], False), ([":"], False), ([","], False), (["reported", "in"], False),
])
def test_list_joins(gap: list[str], joins: bool) -> None:
    assert tg._list_join(gap) is joins


@pytest.mark.parametrize(("text", "span", "names_a_case"), [
    ("was chiefly placed on the observations in 1943 AC 627 (P).", (6, 7), False),  # "1943" cut from its citation
    ("was chiefly placed on the observations in 1943 AC 627 (P).", (6, 10), True),
    ("v. State of Punjab : (2005) 6 SCC 1 wherein", (0, 1), False),  # a "v." alone
    ("in Akloo v. Chief Executive Officer, Corporation, Calcutta", (1, 8), True),
    ("robbery [R V Lloyd, 4 C & P 233].", (1, 4), True),
])
def test_a_tagged_span_must_name_a_case(text: str, span: tuple[int, int], names_a_case: bool) -> None:
    offsets = tg.word_offsets(text)
    words = [text[s:e] for s, e in offsets]
    assert tg._is_citation(words, text, offsets, span) is names_a_case
