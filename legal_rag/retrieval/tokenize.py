"""The legal tokeniser behind BM25: text -> index terms that keep Indian legal references intact.

Lawyers search by reference as much as by words, so the tokeniser keeps what a generic analyser
destroys:

- Section numbers with letter suffixes are one term: ``"498A"``, ``"498-A"`` -> ``"498a"``;
  ``"304B"``, ``"65B"``, ``"28JA"`` likewise.
- Sub-unit references expand to every level: ``"13(1)(ia)"`` -> ``"13"``, ``"13(1)"``,
  ``"13(1)(ia)"``, so the query "13(1)(ia)" matches the clause best and "section 13" still matches it.
  A bare enumeration label ("(1)", "(a)", "(iii)") starting a clause is structure, not content: dropped.
- Reference markers are noise: "s.302", "S. 302", "sec. 302", "u/s 302", "section 302", "r/w 34" all
  leave just the number. ("section" itself is dropped: its idf is near zero in a statute corpus.)
- Every name of an Act in ``graph_schema.acts.CURATED`` becomes the Act's code, the code chunk headings
  use ("BNS s.103 ..."): "Cr.P.C.", "CrPC", "Cr. P.C.", "Code of Criminal Procedure" -> ``"crpc"``;
  "I.P.C." -> ``"ipc"``; "N.I. Act", "Negotiable Instruments Act" -> ``"nia"``; "B.N.S.S." -> ``"bnss"``.
  So "u/s 138 N.I. Act" meets "NIA s.138 Dishonour of cheque". Full names are replaced too, not kept
  beside the code: otherwise every query naming an Act in full is won by that Act's short-title
  section ("This Act may be called the Bharatiya Nyaya Sanhita"). Measured: exact references first
  20/27 replaced, 19/27 kept; AILA MAP unchanged.
- A section number next to an Act code adds a citation term: "u/s 138 N.I. Act" and the heading
  "NIA s.138" both yield ``"nia:138"``. Its idf is high, so the named provision outranks short sections
  of other Acts that merely share the number (IPC s.318 for "section 318 BNS"). On 24 lawyer-style
  references over the 7.7k-chunk benchmark corpus (``benchmarks/bench_bm25.py``), BM25 ranked the named
  provision first for 17 with citation terms, 8 without. What it cannot fix: a short provision that
  *cites* the named one still outranks it (CrPC s.198A, "offences under section 498A of the Indian
  Penal Code", for "u/s 498A IPC"); citation-aware retrieval resolves the reference through the graph.
- Lower case, English stopwords removed except words that carry legal meaning ("not", "no", "nor",
  "against", "before", "after", "under", ...); "shall" and "may" are never stopwords.
- Light stemming (:func:`light_stem`: Porter's step 1 for plurals, "-ed", "-ing", plus a final "e").
  Measured on the AILA 2019 training queries (197 statutes, 10 fact descriptions of 200-960 words; BM25
  lucene k1=1.5 b=0.75; MAP / Recall@10, query terms weighted 1 + ln(n) and, in brackets, counted once):

  ==============================  ===============  =======
  stemmer                         MAP (unique)     R@10
  ==============================  ===============  =======
  none                            0.124 (0.111)    0.143
  plural "s" only                 0.118 (0.111)    0.143
  light (this module)             0.122 (0.102)    0.143
  Snowball English (pip package)  0.123 (0.098)    0.143
  ==============================  ===============  =======

  Ten queries cannot separate these (a spread of 0.006), so the choice rests on cost and behaviour:
  the light stemmer needs no dependency, conflates what fact descriptions vary ("offences"/"offence",
  "cheated"/"cheating", "married"/"marry") and leaves legal terms of art readable. Act codes (every
  code is its own alias, so it never reaches the stemmer) and references are never stemmed ("bns"
  must not become "bn").

Deterministic (no locale, no hash seeds), linear in the input (every regex is bounded, the alias scan
looks ahead at most the longest alias), and total on any Unicode string.

``TOKENIZER_ID`` names this exact behaviour; an index records it and refuses to load under another one.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from graph_schema.acts import CURATED, normalise_alias
from verification.claims.terms import STOPWORDS, light_stem

Tokenizer = Callable[[str], list[str]]
"""Any text -> terms function an index can be built with."""


# "I.P.C.", "Cr.P.C", "B.N.S.S.", "N.I.Act" ("ni" "act"): pieces of one or two letters joined by dots, no
# spaces, so "s. 302" and "do so. A person" are not initialisms. "Cr. P.C." becomes "cr pc", an alias.
_INITIALISM = re.compile(r"\b(?:[a-z]{1,2}\.)+[a-z]{1,2}\b\.?")
_TOKEN = re.compile(
    r"""
    (?P<ref>\d+(?:[a-z]{1,3}(?![a-z])|-[a-z]{1,2}(?![a-z]))?      # 302, 498a, 498-a, 28ja
        (?:[ ]?\((?:\d{1,3}[a-z]{0,2}|[a-z]{1,2}|[ivxl]{1,5})\)){0,4})  # (1)(ia), at most 4 levels
    |(?P<label>\((?:\d{1,3}[a-z]?|[a-z]{1,2}|[ivxl]{1,5})\))       # a bare clause label: skipped
    |(?P<word>[^\W\d_](?:[^\W\d_]|[\u0300-\u036f\u0900-\u0dff])*)  # letters, with Indic vowel signs
    |(?P<amp>&)                                                    # "A&C Act" reads "a and c act"
    """,
    re.VERBOSE,
)
_SUB = re.compile(r"\([^)]*\)")


@dataclass(frozen=True, slots=True)
class _Alias:
    words: tuple[str, ...]
    code: str


def _alias_table() -> dict[str, tuple[_Alias, ...]]:
    """First word -> aliases starting with it, longest first. Aliases naming two Acts are left out."""
    found: dict[tuple[str, ...], set[str]] = {}
    for act in CURATED:
        for alias in (*act.aliases, act.code):
            words = tuple(normalise_alias(alias).split())
            if words:
                found.setdefault(words, set()).add(act.code.lower())
    table: dict[str, list[_Alias]] = {}
    for words, codes in found.items():
        if len(codes) == 1:
            table.setdefault(words[0], []).append(_Alias(words, codes.pop()))
    return {k: tuple(sorted(v, key=lambda a: (-len(a.words), a.words))) for k, v in table.items()}


_ALIASES = _alias_table()



def _collapse_initialism(match: re.Match[str]) -> str:
    return " " + re.sub(r"[.\s]", "", match.group(0)) + " "


def _ref_terms(ref: str) -> list[str]:
    """Expand a reference: "13 (1)(ia)" -> ["13", "13(1)", "13(1)(ia)"]; "498-a" -> ["498a"]."""
    ref = ref.replace(" ", "")
    head = ref.split("(", 1)[0].replace("-", "")
    terms = [head]
    for sub in _SUB.findall(ref):
        terms.append(terms[-1] + sub)
    return terms


def _raw_tokens(text: str) -> list[tuple[bool, str]]:
    """(is_reference, value) pairs in text order; bare clause labels are left out."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = _INITIALISM.sub(_collapse_initialism, text)
    out: list[tuple[bool, str]] = []
    for ref, _label, word, amp in _TOKEN.findall(text):
        if ref:
            out.append((True, ref))
        elif word:
            out.append((False, word))
        elif amp:
            out.append((False, "and"))
    return out


def _match_alias(raw: list[tuple[bool, str]], i: int) -> _Alias | None:
    for alias in _ALIASES[raw[i][1]]:
        n = len(alias.words)
        if i + n <= len(raw) and all(raw[i + j][1] == alias.words[j] for j in range(1, n)):
            return alias
    return None


@lru_cache(maxsize=1 << 16)
def _word_terms(word: str) -> tuple[str, ...]:
    # Cached: statute vocabulary is Zipfian, so most words are seen before (tokenising is ~2x faster).
    if len(word) < 2 or word in STOPWORDS:
        return ()
    stem = light_stem(word)
    # A plural or "-ing" form of a stopword ("others", "beings", "sses") is that stopword: dropped too.
    return () if stem in STOPWORDS else (stem,)


def _terms(is_ref: bool, value: str) -> Sequence[str]:
    return _ref_terms(value) if is_ref else _word_terms(value)


# A section and the Act named next to it form one more term, "bns:318": after the number within four
# raw tokens ("u/s 302 r/w 34 IPC", "section 13(1)(ia) of the Hindu Marriage Act"), or before it
# within two with only a marker between ("BNS s.318", the chunk heading; not "IPC and 65B").
_ACT_AFTER_REF = 4
_REF_AFTER_ACT = 2
_MARKERS = frozenset(("s", "ss", "sec", "secs", "section", "sections"))


class _Pairs:
    """Pairs each section number with an Act code written next to it, as ``"code:number"`` terms."""

    __slots__ = ("code", "code_end", "refs")

    def __init__(self) -> None:
        self.refs: list[tuple[int, str]] = []
        self.code = ""
        self.code_end = -_REF_AFTER_ACT - 1

    def ref(self, i: int, head: str) -> list[str]:
        self.refs = [r for r in self.refs if i - r[0] <= _ACT_AFTER_REF]
        code, self.code = self.code, ""  # only the first number after an Act: "Code, 1973 (2 of 1974)"
        if not head or (len(head) > 3 and head.isdigit()):
            # An Act's number ("(2 of 1974)") or a year ("Negotiable Instruments Act, 1881"; no Act
            # has a thousand sections) is not a section.
            return []
        if code and i - self.code_end <= _REF_AFTER_ACT:
            return [f"{code}:{head}"]  # paired already: a later Act does not claim it
        self.refs.append((i, head))
        return []

    def word(self, value: str) -> None:
        if value not in _MARKERS:  # "IPC and 65B": the Act is no longer "next to" the number
            self.code = ""

    def act(self, start: int, end: int, code: str) -> list[str]:
        out = [f"{code}:{head}" for j, head in self.refs if start - j <= _ACT_AFTER_REF]
        self.refs.clear()
        self.code, self.code_end = code, end
        return out


def _is_act_number(raw: list[tuple[bool, str]], i: int) -> bool:
    """ "2 of 1974": the number of an Act, not a section."""
    return (
        i + 2 < len(raw)
        and raw[i + 1] == (False, "of")
        and raw[i + 2][0]
        and len(raw[i + 2][1]) == 4
        and raw[i + 2][1].isdigit()
    )


def legal_tokens(text: str) -> list[str]:
    """Split ``text`` into BM25 terms (see the module docstring for the rules).

    >>> legal_tokens("u/s 498A I.P.C.")
    ['498a', 'ipc', 'ipc:498a']
    >>> legal_tokens("Section 13(1)(ia) of the Hindu Marriage Act")
    ['13', '13(1)', '13(1)(ia)', 'hma', 'hma:13']
    """
    raw = _raw_tokens(text)
    out: list[str] = []
    pairs = _Pairs()
    i = 0
    while i < len(raw):
        is_ref, value = raw[i]
        alias = _match_alias(raw, i) if not is_ref and value in _ALIASES else None
        if alias is None:
            terms = _terms(is_ref, value)
            out.extend(terms)
            if is_ref:
                out.extend(pairs.ref(i, "" if _is_act_number(raw, i) else terms[0]))
            else:
                pairs.word(value)
            i += 1
            continue
        # The longest alias wins: "indian penal code" is "ipc", not "indian" + "penal code".
        n = len(alias.words)
        out.append(alias.code)
        out.extend(pairs.act(i, i + n - 1, alias.code))
        i += n
    return out


_STEM_PROBES = (
    "offences", "parties", "married", "marrying", "harassed", "cheating", "committed", "killed", "passed",
    "agreed", "solemnized", "relating", "hopping", "caused", "status", "dismissed", "buses", "proceedings",
    "hearing", "accused", "trespass",
)  # fmt: skip


def _fingerprint() -> str:
    parts = [
        "legal-tokens/1 stopword-stems",  # change when a rule changes that the patterns and tables below do not show
        f"pairs {_ACT_AFTER_REF} {_REF_AFTER_ACT}",
        _INITIALISM.pattern,
        _TOKEN.pattern,
        " ".join(sorted(STOPWORDS)),
        repr(sorted((a.words, a.code) for g in _ALIASES.values() for a in g)),
        # The stemmer's behaviour, probed (its bytecode would change with the Python version).
        " ".join(light_stem(w) for w in _STEM_PROBES),
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:12]


TOKENIZER_ID = f"legal-tokens/1:{_fingerprint()}"
"""Changes whenever the rules, stopwords or alias table change; indexes store and check it."""

__all__ = ["STOPWORDS", "TOKENIZER_ID", "Tokenizer", "legal_tokens", "light_stem"]


ASK_VOCABULARY = (
    "punishment punished punishable punish penalty penalties penal sentence sentenced jail jailed imprisonment "
    "imprisoned prison fine fined maximum minimum much long time limit limitation period deadline days months "
    "years forum jurisdiction file filed filing procedure process bail remedy remedies definition define defined "
    "offence offences crime crimes criminal charge charged booked action kind type new old code get happen "
    "still valid applicable apply current"
)
"""Words of what a question asks for (a punishment, a time limit, a forum ...), not of what it is about: the extractive
generator's ``ASK_WORDS`` and the lay channel's query (``lay.py``) leave them out of the subject."""
