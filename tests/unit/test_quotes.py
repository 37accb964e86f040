"""Quote fidelity on real India Code text: finding quotes, normalising, and checking them.

Every passage is read from the India Code subset (``data/corpus/indiacode``): the stored form is
``clean_text`` of the row, as the graph holds it, and "raw" quotes are copied from the row as India
Code prints it (hard line wraps, ``^1[`` markers). Each case names the provision it quotes and the
rule it exercises, so a failing case points at the rule that broke.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graph_schema.errors import ConfigurationError
from ingestion.footnotes import clean_text
from verification.check.quotes import Passage, QuoteChecker, find_quotes, normalise
from verification.model import QuoteStatus

CORPUS = Path(__file__).resolve().parents[2] / "data/corpus/indiacode/sections_fulltext_subset.jsonl"
ACTS = {
    "BNS": "the-bharatiya-nyaya-sanhita-2023",
    "BNSS": "the-bharatiya-nagarik-suraksha-sanhita-2023",
    "HMA": "the-hindu-marriage-act-1955",
    "NI": "the-negotiable-instruments-act-1881",
}
EXACT, NORMALISED, FUZZY = QuoteStatus.EXACT, QuoteStatus.NORMALISED, QuoteStatus.FUZZY
MISQUOTED, MISATTRIBUTED, UNCHECKED = QuoteStatus.MISQUOTED, QuoteStatus.MISATTRIBUTED, QuoteStatus.UNCHECKED


@cache
def _rows() -> dict[tuple[str, str], str]:
    with CORPUS.open(encoding="utf-8") as f:
        return {(r["act_slug"], r["section_no"]): r["text"] for r in map(json.loads, f)}


def raw(label: str) -> str:
    """India Code text of "BNS 103" as printed, markers and hard wraps included."""
    act, number = label.split(" ")
    return _rows()[(ACTS[act], number)]


def stored(label: str) -> str:
    """Stored text of "BNS 103" (whole section) or "BNS 103(1)" (one sub-section)."""
    m = re.fullmatch(r"(\w+ \w+)(?:\((\d+)\))?", label)
    assert m, label
    text = clean_text(raw(m.group(1)))
    if m.group(2) is None:
        return text
    keep, on = [], False
    for para in text.split("\n\n"):
        head = re.match(r"\((\d+)\)", para)
        if head:
            on = head.group(1) == m.group(2)
        if on:
            keep.append(para)
    assert keep, label
    return "\n\n".join(keep)


def passage(label: str) -> Passage:
    return Passage(label, stored(label))


@pytest.fixture(scope="module")
def checker() -> QuoteChecker:
    return QuoteChecker(0.9)


# ---------------------------------------------------------------------------------------------
# check(): one table, every rule
# ---------------------------------------------------------------------------------------------

# BNS s.318(4), as stored.
CHEAT = "Whoever cheats and thereby dishonestly induces the person deceived to deliver any property to any person"


@dataclass(frozen=True)
class Case:
    id: str
    quote: str
    cited: str | None  # a label for stored(); "raw:" + label for the raw India Code text
    status: QuoteStatus
    others: tuple[str, ...] = ()
    right_source: str | None = None
    message: str | None = None  # a fragment the message must contain
    closest: str | None = None  # exact expected closest text
    from_raw: str | None = None  # the quote must occur verbatim in this provision's raw text


CASES = [
    # exact
    Case("exact in the sub-section", CHEAT, "BNS 318(4)", EXACT, closest=CHEAT, message="verbatim"),
    Case("exact in the whole section", CHEAT, "BNS 318", EXACT),
    # normalised: hard wraps, markers, quotes, dashes, case, "fine.."
    Case(
        "raw hard-wrapped quote vs stored text", "Whoever commits murder shall be punished with death or\n"
        "imprisonment for life", "BNS 103(1)", NORMALISED, from_raw="BNS 103",
        closest="Whoever commits murder shall be punished with death or imprisonment for life",
    ),
    Case(
        "raw footnote markers vs stored text",
        "be punished with imprisonment for\n^2[a term which may be extended to two years], or with fine",
        "NI 138", NORMALISED, from_raw="NI 138",
        closest="be punished with imprisonment for a term which may be extended to two years, or with fine",
    ),
    Case(
        "raw omission marker vs stored text", "(v) has ^3* * * been suffering from venereal disease",
        "HMA 13", NORMALISED, from_raw="HMA 13", message="normalised",
    ),
    Case(
        "stored quote vs raw passage, closest from the raw text",
        "Where any cheque drawn by a person on an account maintained by him with a banker", "raw:NI 138",
        NORMALISED, closest="Where any cheque\ndrawn by a person on an account maintained by him with a banker",
    ),
    Case(
        "straight quotes for curly", 'and does thereby cause hurt to any person, is said "voluntarily to cause hurt"',
        "BNS 115(1)", NORMALISED,
    ),
    Case(
        "spaced en dash for an em dash", "without a warrant, arrest any person – (a) who commits, in the presence of "
        "a police officer, a cognizable offence", "BNSS 35", NORMALISED,
    ),
    Case(
        "em dashes for double hyphens", "Explanation.—In this clause,— (a) the expression mental disorder means "
        "mental illness", "HMA 13", NORMALISED,
    ),
    Case("case", "WHOEVER COMMITS MURDER SHALL BE PUNISHED WITH DEATH", "BNS 103(1)", NORMALISED),
    Case(
        "trailing double period", "shall also be liable to fine. (2) When a group of five or more persons",
        "BNS 103", NORMALISED,
    ),
    # ellipsis
    Case(
        "ellipsis: fragments in order", "Whoever cheats and thereby dishonestly induces the person deceived ... "
        "shall be punished with imprisonment of either description for a term which may extend to seven years",
        "BNS 318(4)", NORMALISED, message="ellipsis",
    ),
    Case(
        "ellipsis character", "Whoever cheats … shall be punished with imprisonment of either description",
        "BNS 318(4)", NORMALISED, message="ellipsis",
    ),
    Case(
        "India Code style omission as ellipsis", "Whoever cheats * * * shall be punished with imprisonment of "
        "either description", "BNS 318(4)", NORMALISED, message="ellipsis",
    ),
    Case(
        "ellipsis: fragments out of order", "shall be punished with imprisonment of either description ... Whoever "
        "cheats and thereby dishonestly induces", "BNS 318(4)", MISQUOTED,
    ),
    Case(
        "ellipsis does not excuse a changed number", "Whoever cheats and thereby dishonestly induces ... may extend "
        "to ten years", "BNS 318(4)", MISQUOTED,
    ),
    # fuzzy
    Case(
        "fuzzy: a dropped word", "Whoever cheats and dishonestly induces the person deceived to deliver any property "
        "to any person", "BNS 318(4)", FUZZY, closest=CHEAT, message="'and dishonestly' vs 'and thereby dishonestly'",
    ),
    Case(
        "fuzzy: a misspelt word", "fraudulently or dishonestly induces the person so decieved to deliver any "
        "property to any person", "BNS 318(1)", FUZZY,
    ),
    Case(
        "fuzzy: punctuation only", "Whoever voluntarily causes hurt for the purpose of extorting from the sufferer or "
        "from any person interested in the sufferer", "BNS 119", FUZZY,
    ),
    # misquotes
    Case(
        "misquote: seven years made ten", "Whoever attempts to commit robbery shall be punished with rigorous "
        "imprisonment for a term which may extend to ten years", "BNS 309", MISQUOTED,
        message="quote differs from BNS 309: 'ten years' vs 'seven years'",
        closest="Whoever attempts to commit robbery shall be punished with rigorous imprisonment for a term which "
        "may extend to seven years",
    ),
    Case(
        "misquote: negation added", "Whoever commits murder shall not be punished with death or imprisonment for "
        "life", "BNS 103(1)", MISQUOTED, message="'shall not be' vs 'shall be'",
    ),
    Case(
        "misquote: 'or' made 'and'", "shall be punished with imprisonment of either description for a term which may "
        "extend to three years, and with fine", "BNS 318(2)", MISQUOTED, message="'and with' vs 'or with'",
    ),
    Case(
        "misquote: 'otherwise than' dropped", "Whoever assaults or uses criminal force to any person on grave and "
        "sudden provocation given by that person", "BNS 131", MISQUOTED, message="otherwise than",
    ),
    Case(
        "misquote: a different word, not a spelling", "Whoever commits theft shall be punished with imprisonment of "
        "either description for a term which may extend to three years, or with fine, or with both",
        "BNS 318(2)", MISQUOTED, message="'commits theft shall' vs 'cheats shall'",
    ),
    Case(
        "misquote: fourteen years made ten", "ten years, and shall also be liable to fine", "BNS 99", MISQUOTED,
        message="'ten years' vs 'fourteen years'",
    ),
    Case(
        "misquote: 'lawful assembly' is not inside 'unlawful assembly'", "lawful assembly, if the common object of "
        "the persons composing that assembly", "BNS 189", MISQUOTED, message="'lawful assembly' vs 'unlawful assembly'",
    ),
    Case(
        "misquote: nothing shared", "the respondent shall pay maintenance to the petitioner every month", "BNS 103",
        MISQUOTED,
    ),
    # misattribution
    Case(
        "misattributed: BNS 318(4) quoted as BNS 316", CHEAT, "BNS 316", MISATTRIBUTED,
        others=("BNS 103", "BNS 318(4)"), right_source="BNS 318(4)",
        message="quote is not in BNS 316 but is found verbatim in BNS 318(4)",
    ),
    Case(
        "misattributed: the most specific passage is named", CHEAT, "BNS 316", MISATTRIBUTED,
        others=("BNS 318", "BNS 318(4)"), right_source="BNS 318(4)",
    ),
    Case(
        "misattributed: found once normalised", "Whoever commits murder shall be punished with death or\n"
        "imprisonment for life", "BNS 101", MISATTRIBUTED, others=("BNS 103(1)",), right_source="BNS 103(1)",
        message="once normalised",
    ),
    Case(
        "misattributed rather than fuzzy: BNS 120(1) quoted as BNS 119", "Whoever voluntarily causes hurt for the "
        "purpose of extorting from the sufferer or from any person interested in the sufferer", "BNS 119",
        MISATTRIBUTED, others=("BNS 120",), right_source="BNS 120",
    ),
    Case(
        "misattributed: the passage's words in another case", "shall forthwith transmit to the nearest magistrate "
        "a copy of the entries in the diary", "BNSS 35", MISATTRIBUTED, others=("BNSS 187",), right_source="BNSS 187",
    ),
    # no attribution
    Case("unattributed: found", CHEAT, None, EXACT, others=("BNS 103", "BNS 318(4)"), right_source="BNS 318(4)"),
    Case(
        "unattributed: found once normalised", "Whoever commits murder shall be punished with death or\nimprisonment",
        None, NORMALISED, others=("BNS 318(4)", "BNS 103(1)"), right_source="BNS 103(1)",
    ),
    Case(
        "unattributed: close to one passage", "Whoever cheats and dishonestly induces the person deceived to deliver "
        "any property", None, FUZZY, others=("BNS 103", "BNS 318(4)"), right_source="BNS 318(4)",
    ),
    Case(
        "unattributed: misquoted, closest named", "Whoever attempts to commit robbery shall be punished with rigorous "
        "imprisonment for a term which may extend to ten years", None, MISQUOTED, others=("BNS 103", "BNS 309"),
        message="closest is BNS 309",
    ),
    Case("unattributed: nothing to check against", CHEAT, None, UNCHECKED),
    Case("empty quote", " ... ", "BNS 318(4)", UNCHECKED),
]


def _cited(spec: str | None) -> Passage | None:
    if spec is None:
        return None
    if spec.startswith("raw:"):
        return Passage(spec[4:], raw(spec[4:]))
    return passage(spec)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_check(case: Case, checker: QuoteChecker) -> None:
    if case.from_raw:
        assert case.quote in raw(case.from_raw), "the quote must be copied from the raw India Code text"
    res = checker.check(case.quote, _cited(case.cited), [passage(o) for o in case.others])
    assert res.status is case.status, res.message
    assert res.right_source == case.right_source
    assert 0.0 <= res.score <= 1.0
    if case.message:
        assert case.message in res.message
    if case.closest is not None:
        assert res.closest == case.closest
    if case.status in {EXACT, NORMALISED, MISATTRIBUTED}:
        assert res.score == 1.0
    if case.status is FUZZY:
        assert 0.9 <= res.score < 1.0


def test_a_changed_number_scores_above_the_threshold_yet_is_misquoted(checker: QuoteChecker) -> None:
    """Character similarity alone would accept it: the substantive-word rule is what rejects it."""
    res = checker.check(
        "Whoever attempts to commit robbery shall be punished with rigorous imprisonment for a term which may "
        "extend to ten years", passage("BNS 309"), [],
    )
    assert res.status is MISQUOTED
    assert res.score >= 0.9
    assert res.closest is not None and "seven years" in res.closest


def test_closest_comes_from_the_original_passage_text(checker: QuoteChecker) -> None:
    """A quote with a dropped word against the raw India Code text: the closest keeps the hard wrap."""
    quote = "Whoever commits murder shall be punished with death or imprisonment for life, and shall be liable to fine"
    res = checker.check(quote, Passage("BNS 103", raw("BNS 103")), [])
    assert res.status is FUZZY
    assert res.closest == (
        "Whoever commits murder shall be punished with death or\nimprisonment for life, and shall also be liable to "
        "fine.."
    )


def test_a_passage_with_the_cited_label_is_not_another_source(checker: QuoteChecker) -> None:
    """The whole of BNS 318 offered as a candidate does not make a quote cited to "BNS 318" misattributed."""
    cited = Passage("BNS 318", stored("BNS 318(2)"))
    res = checker.check(CHEAT, cited, [Passage("BNS 318", stored("BNS 318")), passage("BNS 103")])
    assert res.status is MISQUOTED
    assert res.right_source is None


def test_cited_text_missing_is_unchecked(checker: QuoteChecker) -> None:
    res = checker.check(CHEAT, Passage("BNS 318(4)", "  "), [passage("BNS 318(4)")])
    assert res.status is UNCHECKED
    assert "not available" in res.message


def test_threshold_is_validated() -> None:
    with pytest.raises(ConfigurationError):
        QuoteChecker(1.5)
    with pytest.raises(ConfigurationError):
        QuoteChecker(0.0)


def test_threshold_decides_fuzzy(checker: QuoteChecker) -> None:
    quote = "Whoever cheats and dishonestly induces the person deceived to deliver any property to any person"
    assert checker.check(quote, passage("BNS 318(4)"), []).status is FUZZY
    assert QuoteChecker(0.99).check(quote, passage("BNS 318(4)"), []).status is MISQUOTED


def test_long_passages_align_in_windows(checker: QuoteChecker) -> None:
    """A quote from the end of BNSS s.187, against a passage over a thousand words long."""
    text = stored("BNSS 187")
    assert len(text.split()) > 1000
    tail = " ".join(text.split()[-30:])
    dropped = tail.replace(" the ", " ", 1)
    assert dropped != tail
    res = checker.check(dropped, Passage("BNSS 187", text), [])
    assert res.status is FUZZY
    assert res.closest is not None and res.closest.split() == tail.split()


def test_misattribution_search_covers_a_whole_act(checker: QuoteChecker) -> None:
    """Others may be every unit of the cited Act; the right one is still found."""
    units = [Passage(f"BNS {n}", stored(f"BNS {n}")) for n in map(str, range(300, 330))]
    res = checker.check(CHEAT, passage("BNS 316"), [u for u in units if u.source != "BNS 316"])
    assert res.status is MISATTRIBUTED
    assert res.right_source == "BNS 318"


# ---------------------------------------------------------------------------------------------
# find_quotes
# ---------------------------------------------------------------------------------------------

FIND_CASES = [
    (
        "straight double quotes",
        'Section 103(1) BNS reads "Whoever commits murder shall be punished with death or imprisonment for life" '
        "and nothing less.",
        ["Whoever commits murder shall be punished with death or imprisonment for life"],
    ),
    (
        "curly double quotes",
        "Under BNS 318(4), “Whoever cheats and thereby dishonestly induces the person deceived” is punishable.",
        ["Whoever cheats and thereby dishonestly induces the person deceived"],
    ),
    (
        "curly single quotes around an apostrophe",
        "The complaint says ‘the husband’s relatives demanded money after the marriage’ and nothing more.",
        ["the husband’s relatives demanded money after the marriage"],
    ),
    (
        "apostrophes outside quotes open nothing",
        "The husband’s family demanded Rs. 5 lakhs’ worth of gold; the court said ‘a demand need not be made "
        "before the marriage’ in that case.",
        ["a demand need not be made before the marriage"],
    ),
    (
        "nested: curly double around straight double",
        "BNS 115(1) ends: “and does thereby cause hurt to any person, is said \"voluntarily to cause hurt\"”.",
        ['and does thereby cause hurt to any person, is said "voluntarily to cause hurt"'],
    ),
    (
        "nested: curly single inside curly double",
        "The court held that “the words ‘shall be punished’ leave the court no discretion at all” on sentence.",
        ["the words ‘shall be punished’ leave the court no discretion at all"],
    ),
    ("terms shorter than min_words are skipped", 'It is "dowry" and “cruelty” within the meaning of the Act.', []),
    ("an unclosed quote is not a quote", 'He said "Whoever commits murder shall be punished', []),
    (
        "whitespace inside the marks is trimmed",
        '" Whoever commits murder shall be punished "',
        ["Whoever commits murder shall be punished"],
    ),
    (
        "several quotes, in order",
        "“Whoever commits murder shall be punished” and \"Whoever cheats shall be punished\" differ.",
        ["Whoever commits murder shall be punished", "Whoever cheats shall be punished"],
    ),
    (
        "a hard wrap inside a quote",
        "It reads “be punished with imprisonment for\na term which may be extended to two years” today.",
        ["be punished with imprisonment for\na term which may be extended to two years"],
    ),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in FIND_CASES], ids=[c[0] for c in FIND_CASES])
def test_find_quotes(text: str, expected: list[str]) -> None:
    spans = find_quotes(text)
    assert [s.text for s in spans] == expected
    for s in spans:
        assert text[s.start : s.end] == s.text


def test_find_quotes_min_words() -> None:
    text = 'It is "dowry" and “cruelty” within the meaning of the Act.'
    assert [s.text for s in find_quotes(text, min_words=1)] == ["dowry", "cruelty"]


# ---------------------------------------------------------------------------------------------
# normalise
# ---------------------------------------------------------------------------------------------

NORMALISE_CASES = [
    ("hard wrap (BNS 103)", "death or\nimprisonment for life", "death or imprisonment for life"),
    ("marker at the start (NI 138)", "^1[Where any cheque\ndrawn by a person", "where any cheque drawn by a person"),
    ("marker and its bracket (NI 138)", "the drawer of the cheque,\n^3[within thirty days] of the receipt",
     "the drawer of the cheque, within thirty days of the receipt"),
    ("marker between two words", "the words^1[within three months] of", "the words within three months of"),
    ("omission marker (HMA 13)", "(v) has ^3* * * been suffering", "(v) has been suffering"),
    ("omitted clause (HMA 13)", "or]\n\n^3* * * * *\n\n(v) has", "or (v) has"),
    ("double hyphen dash (HMA 13)", "Explanation.--In this clause,--", "explanation.-in this clause,-"),
    ("em dash and paragraph (BNSS 35)", "arrest any person—\n\n(a) who commits", "arrest any person-(a) who commits"),
    ("spaced en dash", "arrest any person – (a) who", "arrest any person-(a) who"),
    ("hyphen at a wrap", "(w.e.f.1-1-\n1964)", "(w.e.f.1-1-1964)"),
    ("curly quotes (BNS 115)", "is said “voluntarily to cause hurt”", 'is said "voluntarily to cause hurt"'),
    ("curly apostrophe (BNS 303)", "Z’s wife", "z's wife"),
    ("double period (BNS 103)", "liable to fine..", "liable to fine."),
    ("a period, a bracket, a period (Stamp Act 23A)", "with the like duty.].", "with the like duty."),
    ("an ellipsis is kept", "whoever ... shall", "whoever ... shall"),
    ("square brackets of an alteration", "[t]he accused", "the accused"),
    ("whitespace runs and ends", "  Whoever\t commits   murder \n", "whoever commits murder"),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in NORMALISE_CASES], ids=[c[0] for c in NORMALISE_CASES])
def test_normalise(text: str, expected: str) -> None:
    assert normalise(text) == expected


@pytest.mark.parametrize("act", sorted(ACTS))
def test_raw_and_stored_text_normalise_alike(act: str) -> None:
    """For every section of BNS, BNSS, HMA and the NI Act, India Code text and stored text agree."""
    rows = [(k, v) for k, v in _rows().items() if k[0] == ACTS[act]]
    assert rows
    differ = [k[1] for k, v in rows if normalise(v) != normalise(clean_text(v))]
    assert differ == []


@pytest.mark.timeout(60)
def test_a_megabyte_is_normalised_and_searched_without_blowing_up() -> None:
    """A hang guard (speed is ``benchmarks/bench_quotes.py``'s job): super-linear behaviour on a
    megabyte of statute text would run into the timeout."""
    text = "\n\n".join(raw(f"BNS {n}") for n in range(1, 359))
    text = (text * (1_000_000 // len(text) + 1))[:1_000_000]
    assert normalise(text)
    spans = find_quotes(text)
    assert all(text[q.start : q.end] for q in spans)


# ---------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------

# Characters the rules care about, mixed into arbitrary text so that hypothesis reaches them.
_SPECIAL = st.sampled_from(list("\"“”‘’'^[]*.-—–―\n\t …") + ["^1[", "^2* * * * *", "..", "--", "\u200b", "İ"])
_TEXT = st.lists(st.one_of(st.text(max_size=8), _SPECIAL), max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_find_quotes_spans_are_inside_the_text(text: str) -> None:
    for s in find_quotes(text, min_words=1):
        assert 0 <= s.start <= s.end <= len(text)
        assert text[s.start : s.end] == s.text


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_normalise_is_idempotent(text: str) -> None:
    once = normalise(text)
    assert normalise(once) == once


@settings(max_examples=300, deadline=None)
@given(_TEXT, _TEXT, st.lists(_TEXT, max_size=3))
def test_check_never_crashes(quote: str, cited: str, others: list[str]) -> None:
    res = QuoteChecker().check(quote, Passage("cited", cited), [Passage(f"o{i}", t) for i, t in enumerate(others)])
    assert 0.0 <= res.score <= 1.0
    assert res.message
    res = QuoteChecker().check(quote, None, [Passage(f"o{i}", t) for i, t in enumerate(others)])
    assert 0.0 <= res.score <= 1.0


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_a_passage_quoted_whole_is_exact(text: str) -> None:
    res = QuoteChecker().check(text, Passage("p", text), [])
    assert res.status in {EXACT, UNCHECKED}


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["BNS 103", "BNS 318", "BNS 64", "BNSS 35", "HMA 13", "NI 138"]), st.integers(0, 10**6),
       st.integers(4, 60))
def test_any_slice_of_a_real_provision_is_found(label: str, offset: int, n: int) -> None:
    """A word-aligned slice of a stored provision is EXACT; re-wrapped and upper-cased, NORMALISED."""
    text = stored(label)
    words = list(re.finditer(r"\S+", text))
    i = offset % max(1, len(words) - n)
    quote = text[words[i].start() : words[min(len(words), i + n) - 1].end()]
    checker = QuoteChecker()
    assert checker.check(quote, Passage(label, text), []).status is EXACT
    assert checker.check(quote.upper().replace(" ", "\n"), Passage(label, text), []).status is NORMALISED

