"""Quote fidelity: find quoted passages in an answer and check each against the source it cites.

:func:`find_quotes` finds the quotations in an answer; :class:`QuoteChecker` decides, for one quote
and the passage it is attributed to, which :class:`~verification.model.QuoteStatus` it earns. The
checks run from strictest to loosest and stop at the first that holds:

1. exact: the quote is a substring of the cited passage, at word boundaries -> ``EXACT``;
2. normalised: both sides through :func:`normalise` (whitespace and hard wraps, quotes, dashes,
   case, India Code footnote markers) -> ``NORMALISED``;
3. ellipsis-aware: every fragment between ``...``, ``…`` or ``* * *`` found in order -> ``NORMALISED``;
4. the quote is found by 1-3 in another passage -> ``MISATTRIBUTED`` with the right source (a verbatim
   quote of the wrong provision is a worse error than a near miss of the right one);
5. fuzzy: rapidfuzz similarity of the quote to the aligned passage text at or above the threshold,
   *and* no material change: no substantive word added, dropped or changed (numbers, negations,
   modals, "and"/"or", limits, penalties), no word replaced by a different word rather than a
   variant spelling, no negating prefix gained or lost ("lawful" for "unlawful") -> ``FUZZY``;
6. otherwise ``MISQUOTED`` with the closest real text and a short word-level diff.

Character similarity alone cannot tell a typo from a changed sentence: "may extend to ten years" for
"seven years" in BNS s.309(5) scores 0.98, and "shall not be punished" for "shall be punished" about
as much. Step 5 therefore aligns the quote word by word with the passage and refuses a material
change whatever the score.

Speed: normalised passages are cached per checker, keyed by their text; many passages are searched
as one joined string; fuzzy alignment runs only in a few windows of the passage that share the most
words with the quote at a consistent offset (diagonal voting), never over the whole of a long passage.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from itertools import accumulate, islice
from operator import add

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from graph_schema.errors import ConfigurationError
from verification.model import QuoteStatus

__all__ = ["Passage", "QuoteChecker", "QuoteResult", "QuoteSpan", "find_quotes", "normalise"]


# ---------------------------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Passage:
    """A text a quote may have been taken from.

    Attributes:
        source: A chunk id or a provision label ("BNS 103(1)").
        text: The stored text, India Code text cleaned or raw.
    """

    source: str
    text: str


@dataclass(frozen=True, slots=True)
class QuoteSpan:
    """One quotation in an answer: the quoted content, without its quote marks.

    Attributes:
        start: Offset of the first quoted character.
        end: Offset just past the last quoted character; ``text == source[start:end]``.
        text: The quoted content.
    """

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class QuoteResult:
    """The verdict on one quote.

    Attributes:
        status: How the quote matched (or failed to match) its source.
        score: Similarity of the quote to ``closest``, 0..1 (1.0 for exact, normalised and
            ellipsis matches, 0.0 when nothing comparable was found).
        closest: The real passage text the quote was matched or aligned to, taken from the
            passage as stored; None when there is nothing to show.
        right_source: For a quote found in a passage other than the cited one (or in one of the
            candidates when none was cited), that passage's source.
        message: A sentence for the user.
    """

    status: QuoteStatus
    score: float
    closest: str | None
    right_source: str | None
    message: str


# ---------------------------------------------------------------------------------------------
# Normalisation
# ---------------------------------------------------------------------------------------------

# One character for one character, so that offsets survive: curly and straight quotes, every dash.
# NUL becomes a space so that normalised text never contains the separator of joined passages.
_FOLD = {
    **dict.fromkeys("“”„‟″〝〞＂«»", '"'),
    **dict.fromkeys("‘’‚‛′`", "'"),
    **dict.fromkeys("‐‑‒–—―−﹘﹣－", "-"),
    "\x00": " ",
}
_FOLD_RE = re.compile("[" + "".join(_FOLD) + "]")
# A "gap" is a run of whitespace, dashes, square brackets, stars, carets, zero-width characters
# and the footnote number after a caret: every India Code marker (``^1[``, its ``]``, the bare
# ``^2``, ``^2* * * * *``) is one, and so are markdown stars around a quoted word. Only runs that
# change are edited: one space or one hyphen between words stays as it is.
_GAP_CLASS = "\\s\\[\\]\\-*\u00ad\u200b-\u200d\u2060\ufeff"
_RUN = re.compile(rf"(?:\^+[ \t]?\d{{0,3}}|[{_GAP_CLASS}]+)+")
# Every gap that changes holds a trigger: whitespace other than a single space, a bracket, caret,
# star or zero-width character, or two of space and hyphen in a row; ".." is the other edit. The
# pattern starts with a character class, which lets the regex engine skip plain text in C, so a
# passage costs one fast scan plus a step per line wrap or marker.
_OTHER_SPACE = "\t\n\x0b\x0c\r\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_TRIG = _OTHER_SPACE + "\u00ad\u200b-\u200d\u2060\ufeff\\[\\]\\^*"
_TRIGGER = re.compile(rf"[{_TRIG} \-.](?:(?<=[{_TRIG}])|(?<=[ \-])[ \-]|(?<=\.)\.)")
_HAS_SPACE = re.compile(r"\s")
_WORD = re.compile(r"\w+")
_SEP = "\n\x00\n"  # joins passages; normalised text never contains NUL
_NSEP = " \x00 "
_MAX_PASSES = 4
_PAIRS = ("..", "  ", " -", "- ", "--")


def _fold(text: str) -> str:
    if text.isascii() and "\x00" not in text:
        return text
    return _FOLD_RE.sub(lambda m: _FOLD[m.group()], text)


def _gap(t: str, a: int, b: int) -> str:
    s = t[a:b]
    if "-" in s:
        return "-"  # "--", " — ", "-\n" and "—" all read as one dash with no space around it
    if a == 0 or b == len(t):
        return ""
    if _HAS_SPACE.search(s):
        return " "
    if ("^" in s or "*" in s) and t[a - 1].isalnum() and t[b].isalnum():
        return " "  # "within^1[three months]": the marker sat between two words
    return ""  # "[t]he", "cheque],", a zero-width space inside a word


def _edits(low: str) -> list[tuple[int, int, str]]:
    """``(start, end, replacement)`` for every run of ``low`` that normalisation changes, in order."""
    out: list[tuple[int, int, str]] = []
    pos = i = 0
    while (m := _TRIGGER.search(low, i)) is not None:
        t = m.start()
        if low[t] == ".":  # exactly two dots: "fine.." in BNS s.103(1); an ellipsis stays
            if (t == 0 or low[t - 1] != ".") and low[t + 2 : t + 3] != ".":
                out.append((t, t + 2, "."))
                pos = t + 2
            i = t + 2
            continue
        a = t
        while a > pos and low[a - 1] in " -":
            a -= 1
        run = _RUN.match(low, a)
        b = run.end() if run else t + 1
        out.append((a, b, _gap(low, a, b)))
        pos = i = b
    return out


class _Pass:
    """One pass of edits over a text, with the map from its output back to its input.

    The output is cut into pieces: runs copied unchanged, and gaps replaced by "", " ", "-" or ".".
    ``n[k]`` is where piece k starts in the output, ``o[k]`` where it starts in the input, and
    ``e[k]`` where a replaced piece ends in the input (-1 for a copied run).
    """

    __slots__ = ("e", "in_len", "n", "o", "out_len")

    def __init__(self, text: str, edits: list[tuple[int, int, str]], pieces: list[str]) -> None:
        self.n: list[int] = []
        self.o: list[int] = []
        self.e: list[int] = []
        n = pos = 0
        for a, b, rep in edits:
            if a > pos:
                self._add(pieces, text[pos:a], n, pos, -1)
                n += a - pos
            self._add(pieces, rep, n, a, b)
            n += len(rep)
            pos = b
        if pos < len(text) or not pieces:
            self._add(pieces, text[pos:], n, pos, -1)
            n += len(text) - pos
        self.in_len, self.out_len = len(text), n

    def _add(self, pieces: list[str], piece: str, n: int, o: int, e: int) -> None:
        pieces.append(piece)
        self.n.append(n)
        self.o.append(o)
        self.e.append(e)

    def start(self, x: int) -> int:
        if x >= self.out_len:
            return self.in_len
        k = bisect_right(self.n, x) - 1
        return self.o[k] + (x - self.n[k]) if self.e[k] < 0 else self.o[k]

    def end(self, x: int) -> int:
        if x <= 0:
            return 0
        k = bisect_right(self.n, x - 1) - 1
        return self.o[k] + (x - self.n[k]) if self.e[k] < 0 else self.e[k]


class _Norm:
    """Normalised text with a map back to the original offsets.

    Folding quotes and dashes and lower-casing keep every offset; the edits of gaps and double
    periods run in passes until nothing changes (removing ``]`` from ``duty.].`` makes the ``..``
    that a second pass reduces), each pass keeping its own map.
    """

    __slots__ = ("_passes", "original", "text")

    def __init__(self, original: str) -> None:
        self.original = original
        t = _fold(original)
        text = t.lower()
        if len(text) != len(t):  # "İ".lower() is two characters: keep such letters as they are
            text = "".join(c.lower() if len(c.lower()) == 1 else c for c in t)
        self._passes: list[_Pass] = []
        for k in range(_MAX_PASSES):
            # After the first pass only single spaces and hyphens remain, so a later pass has work
            # only where removing a marker brought two dots, spaces or dashes together.
            if k and not any(pair in text for pair in _PAIRS):
                break
            edits = _edits(text)
            if not edits:
                break
            pieces: list[str] = []
            self._passes.append(_Pass(text, edits, pieces))
            text = "".join(pieces)
        self.text = text

    def orig_start(self, x: int) -> int:
        """Original offset of normalised offset ``x`` (a start)."""
        for p in reversed(self._passes):
            x = p.start(x)
        return x

    def orig_end(self, x: int) -> int:
        """Original offset of normalised offset ``x`` (an exclusive end)."""
        for p in reversed(self._passes):
            x = p.end(x)
        return x

    def orig_text(self, start: int, end: int) -> str:
        """The original text behind normalised ``[start, end)``, trimmed of whitespace."""
        return self.original[self.orig_start(start) : self.orig_end(end)].strip()


def normalise(text: str) -> str:
    """Text in the form quotes are compared in.

    Lower-cased; curly quotes made straight; every dash (``—``, ``–``, ``‐``, ``--``) one ``-`` with
    no space around it; whitespace runs and hard line wraps one space; India Code footnote markers
    (``^1[``, the matching ``]``, ``^2* * * * *``, stray ``* * *``) and all square brackets removed,
    leaving a space where a marker sat between two words; ``..`` one ``.``; no space at either end.
    Deterministic, one regex pass, linear in the length of ``text``.

    Args:
        text: Any text.

    Returns:
        The normalised text.
    """
    return _Norm(text).text


# ---------------------------------------------------------------------------------------------
# Finding quotes
# ---------------------------------------------------------------------------------------------

_QUOTE_MARK = re.compile("[\"“”‘’]")
_STRAIGHT_PAIR = re.compile('"[^"]*"')
_CLOSER_OF = {"”": "“", "’": "‘", '"': '"'}


def find_quotes(text: str, min_words: int = 4) -> list[QuoteSpan]:
    """Quoted passages in ``text``, outermost only, in order.

    Straight double quotes pair with the next straight double quote; curly double and single
    quotes pair by direction. A right single quote between two letters or digits ("husband’s") is
    an apostrophe, and one with no open left single quote ("Rs. 5 lakhs’") is ignored. A closing
    mark closes the nearest matching open mark, dropping any unclosed marks inside it. Quotes nested
    in another quote are part of it and are not reported on their own. Linear in ``len(text)``.

    Args:
        text: The answer.
        min_words: Shorter quotations (in runs of letters and digits) are terms ("dowry"), not
            quoted passages, and are skipped.

    Returns:
        One span per quotation, offsets pointing at the content without the quote marks and with
        surrounding whitespace trimmed, so that ``span.text == text[span.start:span.end]``.
    """
    if not any(c in text for c in "“”‘’"):  # straight quotes only: they cannot nest
        return _spans(text, [(m.start() + 1, m.end() - 1) for m in _STRAIGHT_PAIR.finditer(text)], min_words)
    stack: list[tuple[str, int]] = []  # open marks, innermost last
    depths: dict[str, list[int]] = {'"': [], "“": [], "‘": []}  # stack depths of each kind of open mark
    pairs: list[tuple[int, int]] = []  # closed quotes, outermost so far, in order
    last = len(text) - 1
    for m in _QUOTE_MARK.finditer(text):
        c, i = m[0], m.start()
        if c == "“" or c == "‘" or (c == '"' and not depths['"']):
            depths[c].append(len(stack))
            stack.append((c, i))
            continue
        if c == "’" and 0 < i < last and text[i - 1].isalnum() and text[i + 1].isalnum():
            continue  # an apostrophe
        opened = depths[_CLOSER_OF[c]]
        if not opened:
            continue  # a closing mark with nothing open: "lakhs’"
        k = opened[-1]
        start = stack[k][1] + 1
        for mark, _ in stack[k:]:
            depths[mark].pop()
        del stack[k:]
        while pairs and pairs[-1][0] > start:
            pairs.pop()  # nested in the quote just closed
        pairs.append((start, i))
    return _spans(text, pairs, min_words)


def _spans(text: str, pairs: list[tuple[int, int]], min_words: int) -> list[QuoteSpan]:
    out: list[QuoteSpan] = []
    for start, end in pairs:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if sum(1 for _ in islice(_WORD.finditer(text, start, end), min_words)) >= min_words:
            out.append(QuoteSpan(start, end, text[start:end]))
    return out


# ---------------------------------------------------------------------------------------------
# Checking quotes
# ---------------------------------------------------------------------------------------------

_ELLIPSIS = re.compile(r"\.(?:[ \t]*\.){2,}|…|\*(?:\s*\*){2,}")
_EDGE = " ,;:.-'\""
# Words whose change alters what a provision says. A fuzzy match may drop "the" or "thereby"; it
# may not turn "seven years" into "ten years", "shall" into "shall not" or "may", "or" into "and",
# "less than" into "more than", or "fine" into "death".
_SUBSTANTIVE_WORDS = """
    zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
    seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand
    lakh lakhs crore crores million billion half quarter twice thrice double
    first second third fourth fifth sixth seventh eighth ninth tenth
    not no nor neither never nothing none nobody without unless except cannot non otherwise than save
    notwithstanding shall may must should will would might can could and or
    less more least most exceed exceeds exceeding minimum maximum only death life fine rigorous simple
"""
_SUBSTANTIVE = frozenset(_SUBSTANTIVE_WORDS.split())
_NEGATING_PREFIXES = ("un", "non", "in", "im", "il", "ir", "dis", "mis")
_SPELLING = 75  # rapidfuzz ratio above which a replaced word is a variant spelling ("authorised")
_MAX_OCCURRENCES = 64  # words more frequent than this in a passage do not vote for a window
_VOTE_BUDGET = 4096  # votes cast per alignment at most
_PARTIAL_MAX = 400  # longer quotes are aligned word by word only
_DIFFLIB_MAX = 50_000  # matching word pairs above which the word diff uses rapidfuzz, not difflib
_KEYS = 4  # longest words of a quote that a candidate passage must contain
_MAX_HITS = 64  # occurrences examined when choosing the most specific passage
_SCAN_CHARS = 12_000  # a single passage this short is scanned whole by partial_ratio for a short quote
_SHORT_PASSAGE_WORDS = 40  # a passage of up to 3x the quote's words plus this many is aligned whole


def _has_text(p: Passage) -> bool:
    return bool(p.text) and not p.text.isspace()


def _substantive(word: str) -> bool:
    return word in _SUBSTANTIVE or any(ch.isdigit() for ch in word)


def _negated(a: str, b: str) -> bool:
    short, long = sorted((a, b), key=len)
    return any(long == prefix + short for prefix in _NEGATING_PREFIXES)


def _find_bounded(hay: str, needle: str, start: int = 0, end: int | None = None) -> int:
    """First occurrence of ``needle`` in ``hay[start:end]`` that does not cut a word in two.

    "lawful assembly, if the common object" must not match inside "unlawful assembly, ..." (BNS s.189).
    """
    stop = len(hay) if end is None else end
    left, right = needle[0].isalnum(), needle[-1].isalnum()
    i = hay.find(needle, start, stop)
    while i >= 0:
        j = i + len(needle)
        if (not left or i == 0 or not hay[i - 1].isalnum()) and (not right or j == len(hay) or not hay[j].isalnum()):
            return i
        i = hay.find(needle, i + 1, stop)
    return -1


class _Quote:
    """A quote prepared once: stripped raw text, normalised core, ellipsis fragments, words."""

    __slots__ = ("core", "fragments", "keys", "norm", "raw", "words")

    def __init__(self, quote: str) -> None:
        self.raw = quote.strip()
        self.norm = _Norm(self.raw)
        full = self.norm.text
        stripped = full.lstrip(_EDGE)
        self.core = stripped.rstrip(_EDGE)
        parts = _ELLIPSIS.split(self.raw)
        frags = tuple(f for f in (normalise(p).strip(_EDGE) for p in parts) if f) if len(parts) > 1 else ()
        self.fragments = frags
        self.words = [(m.group(), m.start(), m.end()) for m in _WORD.finditer(full)]
        # Words any passage holding the quote must hold: the longest ones, and any with a digit.
        distinct = sorted({w for w, _, _ in self.words if w.isascii()}, key=lambda w: (-len(w), w))
        self.keys = tuple(distinct[:_KEYS]) + tuple(w for w in distinct[_KEYS:] if any(c.isdigit() for c in w))

    def orig(self, i: int, j: int) -> str:
        """Original text of quote words ``[i, j)``."""
        if i >= j:
            return ""
        return self.norm.orig_text(self.words[i][1], self.words[j - 1][2])


class _Corpus:
    """One or more passages searched as one string, raw and normalised, with maps back."""

    __slots__ = ("_index", "_words", "norm_starts", "norms", "raw", "raw_starts", "text")

    def __init__(self, norms: tuple[_Norm, ...]) -> None:
        self.norms = norms
        self.raw = _SEP.join(n.original for n in norms)
        self.text = _NSEP.join(n.text for n in norms)
        self.raw_starts = list(accumulate((len(n.original) + len(_SEP) for n in norms[:-1]), initial=0))
        self.norm_starts = list(accumulate((len(n.text) + len(_NSEP) for n in norms[:-1]), initial=0))
        self._words: tuple[list[str], list[int], list[int]] | None = None
        self._index: dict[str, list[int]] | None = None

    def passage_at(self, norm_pos: int) -> int:
        return bisect_right(self.norm_starts, norm_pos) - 1

    def orig_text(self, start: int, end: int) -> tuple[int, str]:
        """Passage index and original text behind corpus-normalised ``[start, end)``."""
        k = self.passage_at(start)
        base = self.norm_starts[k]
        return k, self.norms[k].orig_text(start - base, end - base)

    def words(self) -> tuple[list[str], list[int], list[int]]:
        if self._words is None:
            ws = _WORD.findall(self.text)
            ss = [m.start() for m in _WORD.finditer(self.text)]
            self._words = (ws, ss, list(map(add, ss, map(len, ws))))
        return self._words

    def index(self) -> dict[str, list[int]]:
        if self._index is None:
            index: defaultdict[str, list[int]] = defaultdict(list)
            for j, w in enumerate(self.words()[0]):
                index[w].append(j)
            self._index = dict(index)
        return self._index

    def word_range(self, k: int) -> tuple[int, int]:
        """Indices of the first and one past the last word of passage ``k``."""
        starts = self.words()[1]
        end = self.norm_starts[k] + len(self.norms[k].text)
        return bisect_left(starts, self.norm_starts[k]), bisect_left(starts, end)


@dataclass(frozen=True, slots=True)
class _Hit:
    rank: int  # 0 exact, 1 normalised, 2 ellipsis
    passage: int
    text: str
    fragments: int = 0

    @property
    def status(self) -> QuoteStatus:
        return QuoteStatus.EXACT if self.rank == 0 else QuoteStatus.NORMALISED


@dataclass(frozen=True, slots=True)
class _Diff:
    quote: str
    passage: str
    material: bool  # a change a fuzzy match may not contain


@dataclass(frozen=True, slots=True)
class _Alignment:
    passage: int
    score: float
    closest: str
    diffs: tuple[_Diff, ...]

    @property
    def material(self) -> bool:
        return any(d.material for d in self.diffs)


class QuoteChecker:
    """Checks quotes against the passages they are attributed to.

    Build one per process and reuse it: normalised passages are cached by text (an LRU of
    ``cache_size`` passages), and sets of passages searched together by their texts. The checker
    is safe to share between threads.

    Args:
        fuzzy_threshold: Minimum rapidfuzz similarity (0..1) for a near miss to count as FUZZY.
        cache_size: Normalised passages kept.

    Raises:
        ConfigurationError: If ``fuzzy_threshold`` is not in (0, 1].
    """

    def __init__(self, fuzzy_threshold: float = 0.9, *, cache_size: int = 16384) -> None:
        if not 0.0 < fuzzy_threshold <= 1.0:
            raise ConfigurationError(f"fuzzy_threshold must be in (0, 1], got {fuzzy_threshold!r}")
        self.fuzzy_threshold = fuzzy_threshold
        # Closures, not bound methods: a cache holding the checker would make a reference cycle,
        # and a dropped checker would then wait for the cyclic garbage collector.
        norm = lru_cache(maxsize=cache_size)(_Norm)

        def corpus(texts: tuple[str, ...]) -> _Corpus:
            return _Corpus(tuple(norm(t) for t in texts))

        self._corpus_of = lru_cache(maxsize=64)(corpus)
        self._lower = lru_cache(maxsize=cache_size)(str.lower)

    def _may_contain(self, q: _Quote, passages: Sequence[Passage]) -> list[Passage]:
        """The passages that hold the quote's key words: the others cannot contain the quote.

        Normalisation never creates a word, so a passage without one of them (lower-cased) cannot
        match exactly, once normalised or with an ellipsis, and need not be normalised at all.
        """
        keys, lower, out = q.keys, self._lower, []
        for p in passages:  # a plain loop: a generator per passage was half of the cost
            if not _has_text(p):
                continue
            text = lower(p.text)
            for k in keys:
                if k not in text:
                    break
            else:
                out.append(p)
        return out

    def check(self, quote: str, cited: Passage | None, others: Sequence[Passage] = ()) -> QuoteResult:
        """Check one quote against the passage it is attributed to, and the other candidates.

        Args:
            quote: The quoted text, raw or cleaned India Code text, possibly with ellipses.
            cited: The passage the answer attributes the quote to, or None when it names none.
            others: Other passages in reach (retrieved chunks, other units of the cited Act), in
                order of preference; searched for misattribution, or for the source when
                ``cited`` is None.

        Returns:
            The verdict; see the module docstring for the order of the checks.
        """
        q = _Quote(quote)
        if not q.core:
            return QuoteResult(QuoteStatus.UNCHECKED, 0.0, None, None, "nothing to check: the quote is empty")
        if cited is None:
            return self._check_unattributed(q, others)
        if not _has_text(cited):
            return QuoteResult(
                QuoteStatus.UNCHECKED, 0.0, None, None,
                f"the text of {cited.source} is not available, so the quote could not be checked",
            )
        if "\x00" not in q.raw and _find_bounded(cited.text, q.raw) >= 0:  # before normalising anything
            return QuoteResult(QuoteStatus.EXACT, 1.0, q.raw, None, f"quote found verbatim in {cited.source}")
        own = self._corpus_of((cited.text,))
        hit = self._locate(q, own)
        if hit is not None:
            return QuoteResult(hit.status, 1.0, hit.text, None, _found_message(hit, cited.source))
        rest = self._may_contain(q, [p for p in others if p.source != cited.source and p.text != cited.text])
        if rest:
            elsewhere = self._locate(q, self._corpus_of(tuple(p.text for p in rest)))
            if elsewhere is not None:
                right = rest[elsewhere.passage].source
                how = ("verbatim", "once normalised", "with ellipsis")[elsewhere.rank]
                return QuoteResult(
                    QuoteStatus.MISATTRIBUTED, 1.0, elsewhere.text, right,
                    f"quote is not in {cited.source} but is found {how} in {right}",
                )
        return self._near_miss(self._align(q, own), [cited.source], cited=True)

    def _check_unattributed(self, q: _Quote, others: Sequence[Passage]) -> QuoteResult:
        cands = [p for p in others if _has_text(p)]
        if not cands:
            return QuoteResult(
                QuoteStatus.UNCHECKED, 0.0, None, None,
                "the quote names no source and there is no passage to check it against",
            )
        near = self._may_contain(q, cands)
        hit = self._locate(q, self._corpus_of(tuple(p.text for p in near))) if near else None
        if hit is not None:
            right = near[hit.passage].source
            return QuoteResult(hit.status, 1.0, hit.text, right, _found_message(hit, right) + " (no source was cited)")
        al = self._align(q, self._corpus_of(tuple(p.text for p in cands)))
        return self._near_miss(al, [p.source for p in cands], cited=False)

    def _near_miss(self, al: _Alignment | None, sources: list[str], *, cited: bool) -> QuoteResult:
        """FUZZY or MISQUOTED, from the best alignment in the cited passage or the candidates."""
        where = sources[0] if cited else f"any of the {len(sources)} passages checked"
        if al is None:
            return QuoteResult(
                QuoteStatus.MISQUOTED, 0.0, None, None, f"quote not found in {where}, nor anything like it"
            )
        src = sources[al.passage]
        if al.score >= self.fuzzy_threshold and not al.material:
            uncited = "" if cited else "; no source was cited"
            return QuoteResult(
                QuoteStatus.FUZZY, al.score, al.closest, None if cited else src,
                f"quote is close to {src} but not verbatim (score {_two(al.score)}{uncited}): {_describe(al)}",
            )
        lead = f"quote differs from {src}" if cited else f"quote not found in {where}; closest is {src}"
        return QuoteResult(QuoteStatus.MISQUOTED, al.score, al.closest, None, f"{lead}: {_describe(al)}")

    # -- exact, normalised, ellipsis --

    def _locate(self, q: _Quote, corpus: _Corpus) -> _Hit | None:
        """The best way ``q`` is found in ``corpus``; among equals, the shortest passage."""
        if "\x00" not in q.raw:  # NUL separates the joined passages
            hit = self._best(corpus, corpus.raw, corpus.raw_starts, q.raw, 0)
        else:
            found = [k for k, n in enumerate(corpus.norms) if _find_bounded(n.original, q.raw) >= 0]
            hit = _Hit(0, min(found, key=lambda k: len(corpus.norms[k].original)), q.raw) if found else None
        if hit is not None:
            return hit
        hit = self._best(corpus, corpus.text, corpus.norm_starts, q.core, 1)
        if hit is not None or not q.fragments:
            return hit
        return self._ellipsis(q, corpus)

    @staticmethod
    def _best(corpus: _Corpus, hay: str, starts: list[int], needle: str, rank: int) -> _Hit | None:
        best: tuple[int, int, int] | None = None  # (passage length, passage, offset)
        i = _find_bounded(hay, needle)
        seen = 0
        while i >= 0 and seen < _MAX_HITS:
            k = bisect_right(starts, i) - 1
            size = len(corpus.norms[k].original)
            if best is None or size < best[0]:
                best = (size, k, i)
            seen += 1
            i = _find_bounded(hay, needle, i + 1)
        if best is None:
            return None
        _, k, i = best
        if rank == 0:
            return _Hit(0, k, needle)
        return _Hit(rank, k, corpus.orig_text(i, i + len(needle))[1])

    @staticmethod
    def _ellipsis(q: _Quote, corpus: _Corpus) -> _Hit | None:
        first, rest = q.fragments[0], q.fragments[1:]
        hay = corpus.text
        i = _find_bounded(hay, first)
        seen = 0
        while i >= 0 and seen < _MAX_HITS:
            k = corpus.passage_at(i)
            end = corpus.norm_starts[k] + len(corpus.norms[k].text)
            pos = i + len(first)
            for frag in rest:
                j = _find_bounded(hay, frag, pos, end)
                if j < 0:
                    break
                pos = j + len(frag)
            else:
                return _Hit(2, k, corpus.orig_text(i, pos)[1], fragments=len(q.fragments))
            seen += 1
            i = _find_bounded(hay, first, i + 1)
        return None

    # -- fuzzy --

    def _windows(self, q: _Quote, corpus: _Corpus) -> list[tuple[int, int]]:
        """Word ranges of ``corpus`` worth aligning ``q`` against, each inside one passage."""
        words = corpus.words()[0]
        nq = len(q.words)
        if len(corpus.norms) == 1 and (
            len(words) <= 3 * nq + _SHORT_PASSAGE_WORDS
            or (len(q.core) <= _PARTIAL_MAX and len(corpus.text) <= _SCAN_CHARS)
        ):
            return [(0, len(words))] if words else []  # rapidfuzz scans a short passage faster than we vote
        # Diagonal voting: quote word i found at passage word j votes for an alignment starting
        # near j - i. The true alignment collects most votes even with words dropped or changed.
        bucket = max(4, nq // 4)
        index = corpus.index()
        votes: Counter[int] = Counter()
        # Rarest words first, within a budget of votes: a common word votes only when no rarer word
        # is shared, so repetitive text cannot make voting quadratic.
        budget = _VOTE_BUDGET
        shared = sorted((len(occ), i, occ) for i, (w, _, _) in enumerate(q.words) if (occ := index.get(w)))
        for n, i, occ in shared:
            if budget <= 0 or (n > _MAX_OCCURRENCES and votes):
                break
            for j in occ[:budget]:
                votes[(j - i) // bucket] += 1
            budget -= n
        slack = max(5, nq // 3)
        spans: list[tuple[int, int]] = []
        for b, _ in votes.most_common(3):
            centre = min(max(b * bucket + nq // 2, 0), len(words) - 1)
            lo, hi = corpus.word_range(corpus.passage_at(corpus.words()[1][centre]))
            spans.append((max(lo, b * bucket - slack), min(hi, b * bucket + bucket + nq + slack)))
        spans.sort()
        merged: list[tuple[int, int]] = []
        for a, b in spans:  # each inside one passage, so only spans of the same passage overlap
            if a >= b:
                continue
            if merged and a <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
            else:
                merged.append((a, b))
        return merged

    def _align(self, q: _Quote, corpus: _Corpus) -> _Alignment | None:
        """The best word-level alignment of ``q`` in ``corpus``, or None if no words are shared."""
        if not q.words:
            return None
        ws, starts, ends = corpus.words()
        windows = self._windows(q, corpus)
        if len(q.core) > _PARTIAL_MAX:
            regions = windows  # partial_ratio is quadratic in a long quote: align words directly
        else:
            best: tuple[float, int, int] | None = None
            for a, b in windows:
                cs = starts[a]
                r = fuzz.partial_ratio_alignment(q.core, corpus.text[cs : ends[b - 1]])
                if r is not None and (best is None or r.score > best[0]):
                    best = (r.score, cs + r.dest_start, cs + r.dest_end)
            if best is None:
                return None
            # A little wider than the character alignment, so that dropped or added words are seen
            # whole; _trim takes the slack off again.
            _, ds, de = best
            lo, hi = corpus.word_range(corpus.passage_at(ds))
            slack = max(3, len(q.words) // 4)
            regions = [(max(lo, bisect_right(ends, ds) - slack), min(hi, bisect_left(starts, de) + slack))]
        found: tuple[float, int, int, int, list[tuple[str, int, int, int, int]]] | None = None
        for a, b in regions:
            ops = _trim(_word_diff([w for w, _, _ in q.words], ws[a:b]))
            if not ops or ops[0][3] == ops[-1][4]:
                continue
            s, e = self._span(corpus, starts[a + ops[0][3]], ends[a + ops[-1][4] - 1])
            score = fuzz.ratio(q.core, corpus.text[s:e]) / 100.0
            if found is None or score > found[0]:
                found = (score, s, e, a, ops)
        if found is None:
            return None
        score, s, e, a, ops = found
        diffs = tuple(_diff(q, corpus, ws, a, op) for op in ops if op[0] != "equal")
        k, closest = corpus.orig_text(s, e)
        return _Alignment(k, score, closest.rstrip(",;:"), diffs)

    @staticmethod
    def _span(corpus: _Corpus, s: int, e: int) -> tuple[int, int]:
        """Take in the punctuation attached to the first and last words: "(19 of 1952)", "fine."."""
        text = corpus.text
        for _ in range(8):
            if s == 0 or text[s - 1].isspace():
                break
            s -= 1
        for _ in range(8):
            if e == len(text) or text[e].isspace():
                break
            e += 1
        return s, e


def _word_diff(quote: list[str], passage: list[str]) -> list[tuple[str, int, int, int, int]]:
    """difflib opcodes turning the quote's words into the passage's.

    difflib matches the longest contiguous blocks first, which gives the diffs a reader expects
    where a word repeats ("the Magistrate ... the Magistrate"), but it is quadratic or worse on long
    repetitive input. Past ``_DIFFLIB_MAX`` word pairs in common the opcodes come from a longest common
    subsequence computed bit-parallel by rapidfuzz, with adjacent insertions and deletions merged
    into one "replace", so that "ten" against "seven" still reads as one change.
    """
    counts = Counter(passage)
    if sum(counts[w] for w in quote) <= _DIFFLIB_MAX:  # difflib's work per matching block
        return list(SequenceMatcher(None, quote, passage, autojunk=False).get_opcodes())
    ops: list[tuple[str, int, int, int, int]] = []
    for op in Indel.opcodes(quote, passage):
        tag, i1, i2, j1, j2 = op.tag, op.src_start, op.src_end, op.dest_start, op.dest_end
        if tag != "equal" and ops and ops[-1][0] != "equal":
            _, i1, _, j1, _ = ops.pop()
            tag = "replace" if i1 < i2 and j1 < j2 else ("delete" if i1 < i2 else "insert")
        ops.append((tag, i1, i2, j1, j2))
    return ops


def _trim(ops: list[tuple[str, int, int, int, int]]) -> list[tuple[str, int, int, int, int]]:
    """Drop the passage words around the quote that were only there as window slack."""
    ops = list(ops)
    while ops and ops[0][0] == "insert":
        ops.pop(0)
    while ops and ops[-1][0] == "insert":
        ops.pop()
    if ops and ops[0][0] == "replace":
        tag, i1, i2, j1, j2 = ops[0]
        ops[0] = (tag, i1, i2, max(j1, j2 - (i2 - i1)), j2)
    if ops and ops[-1][0] == "replace":
        tag, i1, i2, j1, j2 = ops[-1]
        ops[-1] = (tag, i1, i2, j1, min(j2, j1 + (i2 - i1)))
    return ops


def _diff(q: _Quote, corpus: _Corpus, ws: list[str], a: int, op: tuple[str, int, int, int, int]) -> _Diff:
    tag, i1, i2, j1, j2 = op
    qs, ps = [w for w, _, _ in q.words[i1:i2]], ws[a + j1 : a + j2]
    material = Counter(w for w in qs if _substantive(w)) != Counter(w for w in ps if _substantive(w))
    if tag == "replace" and fuzz.ratio(" ".join(qs), " ".join(ps)) < _SPELLING:
        material = True  # a different word, not a variant spelling of the same one
    if tag == "replace" and any(_negated(x, y) for x, y in zip(qs, ps, strict=False)):
        material = True  # "lawful" for "unlawful" is close in spelling and opposite in meaning
    # Show one word of context after the change, and one before when a side is empty.
    before = 1 if tag in {"insert", "delete"} else 0
    qi, qj = max(0, i1 - before), min(len(q.words), i2 + 1)
    pi, pj = max(0, a + j1 - before), min(len(ws), a + j2 + 1)
    starts, ends = corpus.words()[1], corpus.words()[2]
    passage = corpus.orig_text(starts[pi], ends[pj - 1])[1] if pi < pj else ""
    return _Diff(q.orig(qi, qj), passage, material)


def _two(score: float) -> str:
    """A score to two places, rounded down: 0.998 is not shown as a perfect 1.00."""
    return f"{math.floor(score * 100) / 100:.2f}"


def _show(s: str, limit: int = 60) -> str:
    s = " ".join(s.split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _describe(al: _Alignment) -> str:
    diffs = sorted(al.diffs, key=lambda d: not d.material)
    shown = [f"'{_show(d.quote)}' vs '{_show(d.passage)}'" for d in diffs[:3]]
    more = f" (and {len(diffs) - 3} more differences)" if len(diffs) > 3 else ""
    if not shown:
        return "punctuation differs"
    return "; ".join(shown) + more


def _found_message(hit: _Hit, source: str) -> str:
    if hit.rank == 0:
        return f"quote found verbatim in {source}"
    if hit.rank == 1:
        return f"quote matches {source} once whitespace, quotes, dashes, case and footnote markers are normalised"
    return f"quote matches {source} with omissions marked by an ellipsis ({hit.fragments} fragments, in order)"
