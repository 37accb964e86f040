"""Hard contradictions between a claim and a statute passage: numbers, negation, modality.

These are the checks the offline aligner (``verification.claims.align``) runs on the evidence a claim
is about; each conflict carries a sentence a lawyer can read ("claim says 'ten years', BNS s.318(4)
says 'seven years'"). They are deliberately one-sided: a check fires only when the evidence says the
opposite of the claim on the same point, never because the evidence is silent on it (silence is a
matter for coverage, not contradiction).

How the text is read
--------------------
``Reading`` normalises once and is shared by all checks (the aligner caches one per evidence window):

* Numbers in words and digits are one value: "seven", "7", "twenty-four", "10,000", "1,00,000",
  "one lakh", "Rs. 5,000", "₹5000", "one-half", "twice". A number is a *quantity* when a unit word
  follows it ("years", "days", "rupees", "persons", "times") or, for amounts, when "fine",
  "compensation" or "rupees" stands just before it. Numbers after "section", "clause", "sub-section",
  bracketed labels ("(1)") and years of Acts ("2023") are references, not quantities.
* Bounds are read from the words before a number ("not less than", "at least", "minimum": a floor;
  "may extend to", "up to", "not exceeding", "within": a ceiling) and after it ("or more", "or above").
  These phrases are then *neutralised* before negation and modality are read, so "shall not be less
  than seven years" is a floor, not a negation, and "may extend to" is not a permissive "may".
* Negation cues are "not", "never", "cannot", "n't" after a verb group ("shall not be punished", "is
  not liable") and the determiners "no", "nothing", "none" ("no Magistrate shall authorise",
  "nothing is an offence"). The *head* of a negation is the first content word after the cue
  (auxiliaries skipped); a determiner negates both its noun and the verb of its clause.
* A modal's head is likewise the first content word after "shall", "must", "will" (obligation) or
  "may", "can" (permission), skipping "not", "be", "also" and a parenthetical between commas
  ("shall, on conviction, be punished").

Why these rules
---------------
* Numbers: a claim's quantity contradicts the evidence when the evidence states quantities *of the
  same unit* and none has the claim's value ("seven years" in BNS s.318(4) against a claimed "ten
  years"); a unit the evidence never mentions is unsupported detail, not a contradiction. Equal
  values with opposite bounds conflict too ("up to seven years" against "not less than seven years",
  BNS s.80(2)).
* Negation: the claim negates a head the evidence affirms after a verb group, or the reverse, and the
  passage nowhere states it the claim's way. Anchoring on the head keeps legitimate rewordings
  ("is not an offence" for "nothing is an offence") from firing.
* Modality: "shall" and "may" on the same head verb conflict when both are affirmed (a duty is not
  a discretion: BNSS s.480(6) "shall ... be released on bail" against "may be released"); negated,
  they all forbid ("no Magistrate shall" = "a Magistrate cannot"); a claim without a modal ("is
  punishable") never conflicts with "shall be punished".
* Terms of art that exclude each other (simple/rigorous imprisonment, bailable/non-bailable,
  cognizable/non-cognizable, void/voidable), and a fine the claim makes optional ("or fine, or
  both") where the provision adds it ("and shall also be liable to fine").

One module for all the checks because they share one reading of the text (tokens, quantities,
polarity marks), computed once per evidence window and cached by the aligner.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from functools import lru_cache

from graph_schema.markers import strip_markers
from verification.claims.terms import STOPWORDS, light_stem

__all__ = ["Bound", "Conflict", "ConflictKind", "Quantity", "Reading", "conflicts", "is_number_word", "lemma", "read"]


class ConflictKind(StrEnum):
    NUMBER = "number"
    NEGATION = "negation"
    MODALITY = "modality"
    CITATION = "citation"
    TERM = "term"


@dataclass(frozen=True, slots=True)
class Conflict:
    kind: ConflictKind
    message: str
    """ "claim says 'ten years', BNS s.318(4) says 'seven years'"."""


class Bound(Enum):
    EXACT = "exact"
    """No bound word: "within seven years of her marriage", "a fine of Rs. 5,000"."""
    MIN = "at least"
    MAX = "at most"


@dataclass(frozen=True, slots=True)
class Quantity:
    value: float
    unit: str
    bound: Bound
    surface: str
    """As written, with its bound words: "not less than seven years"."""


# -- numbers ---------------------------------------------------------------------------------------

_SMALL = {w: i for i, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
))}  # fmt: skip
_TENS = {w: 10 * (i + 2) for i, w in enumerate(("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
                                                 "ninety"))}  # fmt: skip
_SCALES = {"hundred": 100, "thousand": 1000, "lakh": 100_000, "lakhs": 100_000, "lac": 100_000,
           "lacs": 100_000, "crore": 10_000_000, "crores": 10_000_000, "million": 1_000_000}  # fmt: skip
_FRACTIONS = {
    "half": 2,
    "halves": 2,
    "third": 3,
    "thirds": 3,
    "fourth": 4,
    "fourths": 4,
    "quarter": 4,
    "quarters": 4,
    "fifth": 5,
    "fifths": 5,
}  # denominators: "one-half", "two-thirds"
_TIMES = {"twice": 2, "thrice": 3, "double": 2}
_NUMBER_WORDS = frozenset(_SMALL) | frozenset(_TENS) | frozenset(_SCALES)

# Tokens a quantity may sit between: "five or more persons", "seven years' imprisonment".
_BETWEEN = frozenset(("or", "more", "and", "above", "upwards", "less", "calendar", "clear", "full", "whole",
                      "complete", "consecutive", "successive", "continuous", "further", "additional"))  # fmt: skip
_MONEY_CONTEXT = frozenset(("fine", "fines", "rupees", "rupee", "rs", "compensation", "penalty", "amount", "sum"))
_REFERENCE_BEFORE = frozenset(("section", "sections", "s", "ss", "sec", "clause", "clauses", "article", "chapter",
                               "schedule", "rule", "order", "no", "paragraph", "form", "item", "entry", "part",
                               "regulation", "sub", "act", "page", "para", "proviso"))  # fmt: skip
_UNIT_ALIASES = {"yr": "year", "yrs": "year", "rs": "rupee", "inr": "rupee", "₹": "rupee", "rupe": "rupee",
                 "percent": "percent", "%": "percent", "time": "times", "tim": "times"}  # fmt: skip
_MAX_BEFORE = ("may extend to", "may be extended to", "be extended to", "extend to", "extending to", "extendable to",
               "up to", "upto", "not exceeding", "not exceed", "does not exceed", "no more than", "not more than",
               "at most", "maximum of", "maximum", "a maximum of", "within", "less than", "below", "no longer than",
               "not later than", "no later than", "till")  # fmt: skip
_MIN_BEFORE = ("not less than", "not be less than", "no less than", "at least", "minimum of", "a minimum of",
               "minimum", "more than", "exceeding", "above", "over", "not earlier than", "no earlier than",
               "beyond")  # fmt: skip
_MIN_AFTER = ("or more", "or above", "or upwards", "and above", "and upwards", "or over")
_MAX_AFTER = ("or less", "or below", "and below", "or under")

_TOKEN = re.compile(
    r"""
    (?P<label>\((?:\d{1,3}[a-z]?|[a-z]{1,3}|[ivxl]{1,6})\))     # (1), (a), (iv): structure, dropped
    |(?P<num>\d{1,3}(?:,\d{2,3})+(?:\.\d+)?|\d+(?:\.\d+)?)      # 7, 10,000, 1,00,000, 2.5
    |(?P<word>[a-z]+(?:'[a-z]+)?)
    |(?P<sym>[₹%])
    |(?P<punct>[.,;:!?—–()\[\]"“”])
    """,
    re.VERBOSE,
)


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", strip_markers(text)).lower()  # "^1[Where any cheque": India Code's markers
    text = text.replace("’", "'").replace("‘", "'").replace("**", " ")
    text = re.sub(r"\brs\s*\.", "rs ", text)
    text = re.sub(r"(\w)-(?=[a-z])", r"\1 ", text)  # "twenty-four", "sub-section", "one-half"
    return text


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    for m in _TOKEN.finditer(_normalise(text)):
        kind = m.lastgroup
        if kind == "label":
            continue
        tok = m.group(0)
        if kind == "num":
            tok = tok.replace(",", "")
        elif kind == "word" and tok.endswith("n't"):
            out.extend((tok[:-3] or "not", "not"))
            continue
        elif kind == "word" and tok == "cannot":
            out.extend(("can", "not"))
            continue
        elif kind == "word" and tok.endswith("'s"):
            tok = tok[:-2]
        out.append(tok)
    return out


def _is_number(tok: str) -> bool:
    return tok[0].isdigit() or tok in _NUMBER_WORDS


def is_number_word(tok: str) -> bool:
    """ "seven", "lakh", "half", "twice": words that only make up a quantity."""
    return tok in _NUMBER_WORDS or tok in _FRACTIONS or tok in _TIMES


def _number_value(toks: list[str], i: int) -> tuple[float, int] | None:
    """The number starting at ``toks[i]`` and the index after it ("one hundred and twenty" is one)."""
    if toks[i] in _TIMES:
        return float(_TIMES[toks[i]]), i + 1
    if toks[i] == "half":
        return 0.5, i + 1
    if not _is_number(toks[i]):
        return None
    total, current, j = 0.0, 0.0, i
    while j < len(toks):
        t = toks[j]
        if j > i and t == "and" and j + 1 < len(toks) and (toks[j + 1] in _SMALL or toks[j + 1] in _TENS):
            j += 1  # "one hundred and twenty"
            continue
        step = _number_step(t, current, first=j == i)
        if step is None:
            break
        current, scaled = step
        total += scaled
        j += 1
    value = total + current
    if j < len(toks) and toks[j] in _FRACTIONS and value < 10:  # "one half", "two thirds"
        value /= _FRACTIONS[toks[j]]
        j += 1
    return value, j


def _number_step(t: str, current: float, *, first: bool) -> tuple[float, float] | None:
    """Read one more word of a number: the new running value and what moved to the total (thousands
    and up), or None when ``t`` does not continue the number ("seven years", "two seven")."""
    if t[0].isdigit():
        return (current + float(t), 0.0) if first or not current else None
    if t in _SMALL:
        # "twenty four" continues; "two seven" does not.
        if not first and current % 100 != 0 and not (current >= 20 and current % 10 == 0 and _SMALL[t] < 10):
            return None
        return current + _SMALL[t], 0.0
    if t in _TENS:
        return (current + _TENS[t], 0.0) if first or current % 100 == 0 else None
    if t in _SCALES and not first:
        scale = _SCALES[t]
        return (0.0, (current or 1) * scale) if scale >= 1000 else ((current or 1) * scale, 0.0)
    return None


_FILLERS = frozenset(
    (
        "a",
        "the",
        "of",
        "term",
        "period",
        "sum",
        "fine",
        "rs",
        "₹",
        "imprisonment",
        "for",
        "an",
        "amount",
        "sentence",
        "jail",
        "prison",
        "punishment",
        "custody",
        "detention",
    )
)


def _bound_before(toks: list[str], i: int) -> tuple[Bound, int]:
    """The bound phrase ending just before ``toks[i]`` (up to three filler words between: "at least a
    term of seven years") and where it starts; the longest phrase wins ("not exceeding" over "exceeding")."""
    best: tuple[int, int, Bound] | None = None
    for bound, phrases in ((Bound.MIN, _MIN_BEFORE), (Bound.MAX, _MAX_BEFORE)):
        for p in phrases:
            words = p.split()
            for gap in (0, 1, 2, 3):
                k = i - gap - len(words)
                if k < 0:
                    break
                if toks[k : k + len(words)] == words and all(t in _FILLERS for t in toks[k + len(words) : i]):
                    if best is None or len(words) > best[0]:
                        best = (len(words), k, bound)
                    break
    return (best[2], best[1]) if best else (Bound.EXACT, i)


def _quantities(toks: list[str]) -> list[Quantity]:
    out: list[Quantity] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        prev = toks[i - 1] if i else ""
        if tok in ("rs", "₹") and i + 1 < len(toks) and toks[i + 1][0].isdigit():
            i += 1
            continue
        parsed = _number_value(toks, i)
        if parsed is None or prev in _REFERENCE_BEFORE or (prev == "," and tok.isdigit() and len(tok) == 4):
            i += 1
            continue
        value, j = parsed
        if tok.isdigit() and len(tok) == 4 and 1800 <= value <= 2100 and (j >= len(toks) or toks[j] in "(),"):
            i = j  # the year of an Act: "Sanhita, 2023"
            continue
        bound, bstart = _bound_before(toks, i)
        k = j
        while k < len(toks) and toks[k] in _BETWEEN and k - j < 3:
            k += 1
        after = " ".join(toks[j:k])
        if bound is Bound.EXACT:
            bound = Bound.MIN if after in _MIN_AFTER else Bound.MAX if after in _MAX_AFTER else Bound.EXACT
        unit = None
        if toks[j - 1] in _FRACTIONS or tok == "half":
            unit = "fraction"  # "one-half of the maximum period"
        elif prev in ("rs", "₹"):
            unit = "rupee"
        elif (
            k < len(toks)
            and (toks[k].isalpha() or toks[k] == "%")
            and toks[k] not in STOPWORDS
            and toks[k] not in _NUMBER_WORDS
            and toks[k] not in _MODALS
        ):
            raw = toks[k].rstrip("'")
            unit = _UNIT_ALIASES.get(raw) or _UNIT_ALIASES.get(light_stem(raw)) or light_stem(raw)
            k += 1
        elif tok in _TIMES:
            unit = "times"
        if unit is None and any(t in _MONEY_CONTEXT for t in toks[max(0, i - 6) : i]):
            unit = "rupee"
        if unit is not None:
            tail = " ".join(toks[k : k + 2])  # "three years or more"
            if bound is Bound.EXACT and tail in _MIN_AFTER + _MAX_AFTER:
                bound = Bound.MIN if tail in _MIN_AFTER else Bound.MAX
                k += 2
            surface = " ".join(toks[bstart:k])
            out.append(Quantity(value, unit, bound, surface))
        i = max(j, i + 1)
    return out


# -- negation and modality ---------------------------------------------------------------------------

_OBLIGATION = frozenset(("shall", "must", "will"))
_PERMISSION = frozenset(("may", "can"))
_MODALS = _OBLIGATION | _PERMISSION | frozenset(("should", "would", "could", "might"))
_VERB_GROUP = _MODALS | frozenset(("is", "are", "was", "were", "be", "been", "does", "do", "did", "has", "have",
                                   "had", "need"))  # fmt: skip
_NEG_ADVERBS = frozenset(("not", "never"))
_NEG_DETERMINERS = frozenset(("no", "nothing", "none", "neither"))
_SKIP = frozenset(("be", "been", "being", "also", "not", "only", "further", "forthwith", "thereupon", "thereby",
                   "so", "then", "ordinarily", "either", "to", "have", "has", "had", "a", "an", "the",
                   "any", "in", "all", "such", "said", "immediately", "hereafter", "therefore", "thus", "still",
                   "otherwise", "always", "generally", "both", "is", "are", "get", "got", "deemed", "already", "yet",
                   "ever", "again", "hereby", "hitherto", "first", "above", "below", "under", "over", "between",
                   "before", "after", "during", "against", "within", "without", "upon", "beyond", "about"))  # fmt: skip
_LY_VERBS = frozenset(("apply", "supply", "reply", "rely", "comply", "imply", "multiply", "family", "assembly", "ally",
                       "early", "fly"))  # fmt: skip
_CLAUSE_END = frozenset((".", ";", ":", "!", "?", "—", "–", ",", "(", ")", "but", "unless", "except", "which",
                         "who", "where", "when", "if", "whether", "or", "and"))  # fmt: skip
_BOUND_PHRASES = sorted({*_MAX_BEFORE, *_MIN_BEFORE, *_MIN_AFTER, *_MAX_AFTER, "shall not be less than",
                         "shall not exceed", "not be less than", "whether or not", "or not", "as the case may be",
                         "as may be", "may be prescribed", "if any", "not below the rank of", "not below",
                         "not being", "not amounting to", "notwithstanding"}, key=len, reverse=True)  # fmt: skip
# Extra meaningless-for-polarity heads: a boilerplate reference after "no"/"nothing" ("nothing in this section").
_BOILERPLATE = frozenset(("section", "sub", "act", "sanhita", "adhiniyam", "code", "chapter", "clause", "provision",
                          "provisions", "contained", "herein", "this", "these", "thereof", "hereinafter"))  # fmt: skip


def _neutralise(toks: list[str]) -> list[str]:
    """Replace bound phrases ("not less than", "may extend to") by a placeholder: they are not
    negations or modals."""
    out: list[str] = []
    i = 0
    n = len(toks)
    while i < n:
        for p in _BOUND_PHRASES:
            words = p.split()
            if toks[i : i + len(words)] == words and (" " in p or p in ("notwithstanding",)):
                out.append("<bound>")
                i += len(words)
                break
        else:
            out.append(toks[i])
            i += 1
    return out


_LEGAL_CONTENT = frozenset(("just",))
"""Stop words of ordinary English that carry a rule in a statute: "such fine shall be just and reasonable"."""


def _is_head(t: str) -> bool:
    """A content word that can head a verb phrase or a noun phrase (not an auxiliary, adverb or reference)."""
    adverb = t.endswith("ly") and len(t) > 4 and t not in _LY_VERBS
    return (
        t.isalpha()
        and not adverb
        and t not in _SKIP
        and (t not in STOPWORDS or t in _LEGAL_CONTENT)
        and t not in _MODALS
        and t not in _BOILERPLATE
    )


def _head(toks: list[str], i: int) -> tuple[str, int] | None:
    """First content word at or after ``i`` in the same clause, as a lemma, with its index."""
    j = i
    # "shall, if he is in custody during the said period, be released"; "may, on demand of the officer,
    # and on production of the warrant, allow": skip the parentheticals.
    for _ in range(3):
        if j < len(toks) and (toks[j] == "," or (toks[j] in ("and", "or") and j > i)):
            close = next((k for k in range(j + 1, min(len(toks), j + 24)) if toks[k] == ","), None)
            if close is None:
                break
            j = close + 1
        else:
            break
    start = j
    while j < len(toks) and j - start < 8:
        t = toks[j]
        if t in _CLAUSE_END and t != "," or t == "<bound>":
            return None
        if _is_head(t):
            return lemma(t), j
        j += 1
    return None


@dataclass(frozen=True, slots=True)
class _Marked:
    lemma: str
    negated: bool
    after_verb_group: bool
    surface: str
    modal: str | None = None


_RELATIVE = frozenset(("which", "who", "whom", "whose", "that", "if", "unless", "where", "when", "whether"))


def _surface(toks: list[str], start: int, group_end: int, head: int) -> str:
    """ "shall be released" for "shall, if he is in custody ..., be released": the verb group and
    the head, without a parenthetical between them."""
    between = toks[group_end:head]
    if "," in between:
        between = [w for w in between if w in ("be", "been", "not", "also")]
    return " ".join([*toks[start:group_end], *between, toks[head]])


_GROUP_WORDS = _VERB_GROUP | _NEG_ADVERBS | frozenset(("also", "only", "so"))


def _verb_group_end(toks: list[str], j: int) -> tuple[int, bool]:
    """Index after the verb group continuing at ``j`` ("shall not be", "is also") and whether it has "not"."""
    negated = False
    while j < len(toks) and toks[j] in _GROUP_WORDS:
        negated |= toks[j] in _NEG_ADVERBS
        j += 1
    return j, negated


def _clause_verb(toks: list[str], start: int) -> int | None:
    """The first verb group after a negative determiner's noun, in the same clause ("no Magistrate of
    the second class, not specially empowered ..., shall authorise"; "no maker ..., and no drawer ...
    shall"), or None."""
    for k in range(start, min(len(toks), start + 40)):
        if toks[k] in (".", ";", ":", "—", "–") or toks[k] in _RELATIVE:
            return None
        if toks[k] in _VERB_GROUP and not (k > 0 and toks[k - 1] in _NEG_ADVERBS):
            return k
    return None


def _polarity_marks(toks: list[str]) -> list[_Marked]:
    """Every head that follows a verb group or a negation cue, with its polarity and modal."""
    marks: list[_Marked] = []
    negated_groups: set[int] = set()  # verb groups negated by a determiner before them
    negated_groups_surface: dict[int, str] = {}
    i = 0
    n = len(toks)
    while i < n:
        t = toks[i]
        if t in _VERB_GROUP:
            j, negated = _verb_group_end(toks, i + 1)
            head = _head(toks, j)
            if head is not None:
                modal = t if t in _OBLIGATION | _PERMISSION else None
                surface = _surface(toks, i, j, head[1])
                if i in negated_groups:
                    negated, surface = True, f"{negated_groups_surface[i]} … {surface}"
                marks.append(_Marked(head[0], negated, True, surface, modal))
                i = head[1] + 1
                continue
        elif t in _NEG_DETERMINERS:
            k = i + 1
            while (
                k < n
                and k - i < 8
                and toks[k] not in _VERB_GROUP
                and not _is_head(toks[k])
                and toks[k] not in (".", ";", ":")
            ):
                k += 1
            if k < n and toks[k] in _VERB_GROUP:
                # "nothing is an offence", "nothing in this section shall apply": the determiner is the
                # subject, its verb group is negated.
                negated_groups.add(k)
                negated_groups_surface[k] = t
            elif k < n and _is_head(toks[k]):
                # "no Magistrate [of the second class, ...] shall authorise": the noun and the verb.
                marks.append(_Marked(lemma(toks[k]), True, False, " ".join(toks[i : k + 1])))
                verb = _clause_verb(toks, k + 1)
                if verb is not None:
                    negated_groups.add(verb)
                    negated_groups_surface[verb] = f"{t} {toks[k]}"
                i = k + 1
                continue
        i += 1
    return marks


# -- lemmas ------------------------------------------------------------------------------------------

_IRREGULAR = {"punishable": "punish", "punishment": "punish", "punished": "punish", "punishes": "punish",
              "imprisonment": "imprison", "imprisoned": "imprison", "liable": "liabl", "liability": "liabl",
              "children": "child", "men": "man", "women": "woman", "wives": "wife", "gave": "give", "given": "give",
              "made": "make", "done": "do", "did": "do", "taken": "take", "took": "take", "brought": "bring",
              "caused": "caus", "causes": "caus", "causing": "caus", "cause": "caus", "committed": "commit",
              "commission": "commit", "conviction": "convict", "convicted": "convict", "proved": "prov",
              "proof": "prov", "deceived": "deceiv", "deceiving": "deceiv", "deceive": "deceiv", "died": "die",
              "death": "death", "dead": "death", "sentenced": "sentenc", "fined": "fine"}  # fmt: skip


@lru_cache(maxsize=1 << 16)
def lemma(word: str) -> str:
    """A light lemma: the retrieval stemmer plus "-ment"/"-able"/"-ible" and a few irregular forms,
    so "punishable", "punishment" and "punished" meet."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    stem = light_stem(word)
    for suffix in ("ment", "able", "ible"):
        if stem.endswith(suffix) and len(stem) - len(suffix) >= 4:
            stem = light_stem(stem[: -len(suffix)])
            break
    return _IRREGULAR.get(stem, stem)


# -- reading and checking ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reading:
    """What the checks need of one text, computed once (evidence windows are read once and cached)."""

    tokens: tuple[str, ...]
    quantities: tuple[Quantity, ...]
    marks: tuple[_Marked, ...]

    @property
    def restrictive(self) -> bool:
        """Says "only", "unless", "except": a negative rule restated as a condition."""
        return any(t in _RESTRICTIVE for t in self.tokens)

    @property
    def excepting(self) -> bool:
        """Carries an exception ("except", "unless", "without", "save"): "no X shall ... except Y"."""
        return any(t in _EXCEPTIONS for t in self.tokens)


_RESTRICTIVE = frozenset(("only", "unless", "except", "until", "till", "provided", "solely", "exclusively"))
_EXCEPTIONS = frozenset(("except", "unless", "without", "save", "otherwise", "until", "till", "excepting"))


def read(text: str) -> Reading:
    """Tokens, quantities and polarity marks of ``text`` (see the module docstring)."""
    toks = _tokens(text)
    return Reading(tuple(toks), tuple(_quantities(toks)), tuple(_polarity_marks(_neutralise(toks))))


def _fmt(q: Quantity) -> str:
    return f"'{q.surface}'"


def _number_conflicts(claim: Reading, window: Reading, passage: Reading, where: str) -> list[Conflict]:
    """A claimed quantity whose unit the evidence states only with other values, or with the same value
    under the opposite bound."""
    out: list[Conflict] = []
    for q in claim.quantities:
        same_unit = [e for e in window.quantities if e.unit == q.unit]
        in_passage = [e for e in passage.quantities if e.unit == q.unit]
        if not same_unit:
            same_unit = in_passage
        if not same_unit:
            continue  # the evidence is silent on this unit: unsupported detail, not a contradiction
        equal = [e for e in in_passage if abs(e.value - q.value) < 1e-9]
        if not equal:
            said = ", ".join(dict.fromkeys(_fmt(e) for e in same_unit))
            out.append(Conflict(ConflictKind.NUMBER, f"claim says {_fmt(q)}, {where} says {said}"))
            continue
        if q.bound is not Bound.EXACT and all(e.bound not in (q.bound, Bound.EXACT) for e in equal):
            out.append(Conflict(
                ConflictKind.NUMBER,
                f"claim says {_fmt(q)} ({q.bound.value}), {where} says {_fmt(equal[0])} ({equal[0].bound.value})",
            ))  # fmt: skip
    return out


def _count(marks: Sequence[_Marked], lem: str, negated: bool, modal: str | None) -> int:
    """Occurrences of ``lem`` with this polarity after a verb group. Affirmed ones must also match the
    modal force ("may be made" is not "shall be made"); negated ones all forbid ("no arrest shall be
    made", "may not be made") and match any."""
    return sum(
        1 for e in marks
        if e.lemma == lem and e.negated == negated and e.after_verb_group
        and (negated or modal is None or e.modal is None or _group(e.modal) == _group(modal))
    )  # fmt: skip


def _negation_conflicts(claim: Reading, window: Reading, passage: Reading, where: str) -> list[Conflict]:
    """The claim negates a head the evidence affirms, or affirms one it negates, more often than the
    passage allows: counting occurrences catches a long claim that drops one "not" of three."""
    out: list[Conflict] = []
    seen: set[str] = set()
    for m in claim.marks:
        if m.lemma in seen or not m.after_verb_group:
            continue
        cn, ca = _count(claim.marks, m.lemma, True, m.modal), _count(claim.marks, m.lemma, False, m.modal)
        if not m.negated and claim.restrictive and window.excepting:
            # "no court shall take cognizance ... except upon a complaint" is restated, not denied, by "a
            # court can take cognizance only on a complaint".
            continue
        if m.negated:
            opposite = [e for e in window.marks if e.lemma == m.lemma and not e.negated and e.after_verb_group]
            flipped = (
                cn > _count(passage.marks, m.lemma, True, m.modal)
                and _count(window.marks, m.lemma, False, m.modal) > ca
            )
        else:
            opposite = [e for e in window.marks if e.lemma == m.lemma and e.negated and e.after_verb_group]
            flipped = _count(window.marks, m.lemma, True, m.modal) > cn and ca > _count(
                passage.marks, m.lemma, False, m.modal
            )
        if opposite and flipped:
            seen.add(m.lemma)
            said = f"claim says '{m.surface}', {where} says '{opposite[0].surface}'"
            out.append(Conflict(ConflictKind.NEGATION, said))
    return out


def _group(modal: str) -> str:
    return "obligation" if modal in _OBLIGATION else "permission"


def _modality_conflicts(claim: Reading, window: Reading, passage: Reading, where: str) -> list[Conflict]:
    """An affirmed "shall" where the evidence says "may" on the same verb, or the reverse, and the
    passage nowhere uses the claim's force on it."""
    out: list[Conflict] = []
    for m in claim.marks:
        if m.modal is None or m.negated:
            continue  # "shall not", "may not", "cannot": all forbid; only affirmed modals differ in force
        if any(e.lemma == m.lemma and not e.negated and e.modal and _group(e.modal) == _group(m.modal)
               for e in passage.marks):  # fmt: skip
            continue
        other = [e for e in window.marks if e.lemma == m.lemma and not e.negated and e.modal is not None]
        if other:
            out.append(Conflict(ConflictKind.MODALITY, f"claim says '{m.surface}', {where} says '{other[0].surface}'"))
            break
    return out


# Terms of art that exclude each other: a claim using one where the evidence uses the other (and never
# the claim's) misstates the provision. "non-bailable" is read as one term.
_EXCLUSIVE = (("simple", "rigorous"), ("bailable", "non bailable"), ("cognizable", "non cognizable"),
              ("compoundable", "non compoundable"), ("void", "voidable"))  # fmt: skip
_FINE_OPTIONAL = re.compile(r"\bor (?:with )?(?:a )?fine\b")
_FINE_ADDED = re.compile(r"\b(?:also be liable to|and with|and shall also be liable to) fine\b")


def _has_term(text: str, term: str) -> bool:
    if " " in term:
        return f" {term} " in text
    return re.search(rf"(?<!non )\b{term}\b", text) is not None


def _term_conflicts(claim: Reading, window: Reading, passage: Reading, where: str) -> list[Conflict]:
    """Exclusive terms of art, and a fine made optional that the provision adds."""
    out: list[Conflict] = []
    c, w, p = (" " + " ".join(r.tokens) + " " for r in (claim, window, passage))
    for a, b in _EXCLUSIVE:
        for mine, theirs in ((a, b), (b, a)):
            if _has_term(c, mine) and _has_term(w, theirs) and not _has_term(p, mine):
                out.append(Conflict(ConflictKind.TERM, f"claim says '{mine.replace(' ', '-')}', {where} says "
                                                       f"'{theirs.replace(' ', '-')}'"))  # fmt: skip
    # "up to seven years, or fine, or both" against "... seven years, and shall also be liable to fine":
    # the claim makes optional a fine the provision adds to imprisonment.
    if _FINE_OPTIONAL.search(c) and _FINE_ADDED.search(w) and not _FINE_OPTIONAL.search(p):
        out.append(Conflict(ConflictKind.TERM, f"claim makes the fine an alternative, {where} adds it to imprisonment"))
    return out


def conflicts(claim: Reading, window: Reading, context: Reading, section: Reading, where: str) -> list[Conflict]:
    """Number, negation, modality and term-of-art conflicts of ``claim`` against the evidence it is about.

    Args:
        claim: The claim, read.
        window: The sentence (window) of the passage that best matches the claim: the evidence must
            state the opposite here.
        context: The window and the sentences of the same section about as close to the claim: if
            they state the claim's polarity or modal force, there is no negation or modality conflict.
        section: Everything the evidence holds of that section: a number or term stated anywhere in
            it is not contradicted (the values of a list are spread over its clauses).
        where: How to name the passage in messages ("BNS s.318(4)").
    """
    return [
        *_number_conflicts(claim, window, section, where),
        *_negation_conflicts(claim, window, context, where),
        *_modality_conflicts(claim, window, context, where),
        *_term_conflicts(claim, window, section, where),
    ]
