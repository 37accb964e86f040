"""Perturbations of statute text: every rule in the project that turns a true statement of the law into a false one.

Two rule sets, one per measurement, kept apart on purpose (merging them would move the measured figures):

* **Sentence rules** (``change_number``, ``flip_negation``, ``swap_modal``, ``paraphrase``): one
  quantity changed to a plausible wrong value *of the same unit* that the passage does not state; a
  negation inserted or removed (tables of verb groups that take one); "shall" and "may" swapped outside
  negative clauses; and a meaning-preserving paraphrase. They build the aligner's test set
  (``benchmarks/make_perturbations.py`` -> ``tests/data/aligner_perturbations.jsonl``) and the
  fine-tuning data's rejected answers (``finetune.examples``).
* **Fault rules** (``change_words``, ``contradict``): what ``legal-rag eval faults``
  (``legal_rag.evaluation.faults``) injects into a generator's draft. ``change_words`` is a misquote:
  any of a short list of number words, any bare number, "shall" -> "may" or "shall not"; ``contradict``
  changes only quantities with a unit, and negates or weakens only an affirmed "shall".

The rules use their own regular expressions, not the aligner's parser, so data built with them can catch
what the parser misses. Every function is deterministic given its ``random.Random``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

__all__ = [
    "MODAL", "NEGATABLE", "NEGATED", "QUANTITY", "change_number", "change_words", "clean_sentence", "contradict",
    "digits", "features", "finish", "flat", "flip_negation", "lexical", "lower_first", "paraphrase", "quantity_value",
    "swap_modal", "unit_of",
]  # fmt: skip

# -- the perturbation rules ------------------------------------------------------------------------

NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "fourteen": 14, "fifteen": 15, "sixteen": 16, "eighteen": 18, "twenty": 20,
    "twenty-one": 21, "twenty-four": 24, "thirty": 30, "forty": 40, "forty-five": 45, "fifty": 50, "sixty": 60,
    "ninety": 90, "hundred": 100, "one hundred and eighty": 180,
}  # fmt: skip
WORD_OF = {v: k for k, v in NUMBER_WORDS.items()}
_NUM_ALT = "|".join(sorted((re.escape(w) for w in NUMBER_WORDS), key=len, reverse=True))
QUANTITY = re.compile(
    rf"\b(?P<num>{_NUM_ALT}|\d[\d,]*)(?P<scale>[ -](?:thousand|lakh))?(?P<gap>\s+)"
    r"(?P<unit>years?|months?|days?|hours?|weeks?|rupees|persons)\b",
    re.IGNORECASE,
)
# Plausible wrong values, by unit: a perturbed claim must not pick a value the passage also states.
ALTERNATIVES = {
    "year": (1, 2, 3, 5, 7, 10, 14, 20), "month": (1, 2, 3, 6, 12, 18), "day": (7, 14, 15, 30, 45, 60, 90, 180),
    "hour": (12, 24, 48, 72), "week": (1, 2, 4, 6), "rupee": (1000, 5000, 10000, 50000, 100000),
    "person": (2, 3, 5, 10, 20),
}  # fmt: skip
MODAL = re.compile(
    r"\b(shall|may)\b(?!\s+(?:extend|be extended|be prescribed|think|specify|have|be,|be\.|"
    r"not be less|not exceed|not be held))(?<!case may)(?<!as may)"
)
NEGATABLE = (
    (re.compile(r"\bshall be\b"), "shall not be"),
    (re.compile(r"\bis punishable\b"), "is not punishable"),
    (re.compile(r"\bis liable\b"), "is not liable"),
    (re.compile(r"(?<!as )\bmay be\b(?! prescribed)"), "may not be"),
    (re.compile(r"\bshall (?!not|be)(\w+)"), r"shall not \1"),
    (re.compile(r"\b(is|are) (?!not|said|punishable|liable)(\w+ed)\b"), r"\1 not \2"),
)
NEGATED = (
    (re.compile(r"\bshall not (?!be less|exceed)"), "shall "),
    (re.compile(r"\b(is|are|was|has|have) not (?!less|more|below|exceeding|being|amounting)"), r"\1 "),
    (re.compile(r"^Nothing in (this|that) (\w+(?:-\w+)?) (shall|is|does|must)\b"), r"This \2 \3"),
    (re.compile(r"\bno (person|court|Magistrate|officer|arrest|woman|child|police officer) shall\b"), r"a \1 shall"),
)
# A sentence opening "No X ..., and no Y ... shall": every "no" before the verb becomes "every".
NO_LIST = re.compile(r"^No\b(?P<subject>.*?)\b(?P<verb>shall|may|must|is|are)\b", re.S)
NEGATIVE_OPENING = re.compile(r"^(?:No|Nothing|None|Neither)\b")


def quantity_value(num: str, scale: str | None) -> int | None:
    n = num.lower()
    v = int(n.replace(",", "")) if n[0].isdigit() else NUMBER_WORDS.get(n)
    if v is None:
        return None
    if scale:
        v *= 1000 if "thousand" in scale else 100_000
    return v


def unit_of(u: str) -> str:
    u = u.lower()
    return "rupee" if u.startswith("rupee") else "person" if u.startswith("person") else u.rstrip("s")


def render_quantity(v: int, like_digits: bool, unit: str) -> str:
    if unit == "rupee":
        if like_digits:
            return f"{v:,}"
        if v % 100_000 == 0:
            return f"{WORD_OF[v // 100_000]} lakh"
        return f"{WORD_OF[v // 1000]} thousand" if v % 1000 == 0 and v // 1000 in WORD_OF else f"{v:,}"
    return str(v) if like_digits or v not in WORD_OF else WORD_OF[v]


def change_number(text: str, passage: str, rng: random.Random) -> str | None:
    """One quantity of ``text`` changed to a value of the same unit the passage does not state."""
    stated = {(unit_of(m["unit"]), quantity_value(m["num"], m["scale"])) for m in QUANTITY.finditer(passage)}
    found = [m for m in QUANTITY.finditer(text) if quantity_value(m["num"], m["scale"]) is not None]
    if not found:
        return None
    m = rng.choice(found)
    unit = unit_of(m["unit"])
    old = quantity_value(m["num"], m["scale"])
    choices = [v for v in ALTERNATIVES.get(unit, ()) if v != old and (unit, v) not in stated]
    if not choices:
        return None
    new = rng.choice(choices)
    plural = m["unit"] if new != 1 else m["unit"].rstrip("s")
    if new == 1 and old == 1:
        plural = m["unit"]
    elif old == 1 and new != 1 and not m["unit"].endswith("s"):
        plural = m["unit"] + "s"
    rendered = render_quantity(new, m["num"][0].isdigit(), unit)
    return text[: m.start()] + rendered + m["gap"] + plural + text[m.end() :]


def flip_negation(text: str, rng: random.Random) -> str | None:
    """Remove a negation if there is one, else insert one after the first verb group that takes it."""
    for pattern, repl in NEGATED:
        if pattern.search(text):
            return pattern.sub(repl, text, count=1)
    m = NO_LIST.match(text)
    if m:
        subject = re.sub(r"\bno\b", "every", m["subject"])
        return f"Every{subject}{m['verb']}{text[m.end() :]}"
    if NEGATIVE_OPENING.match(text):
        return None  # "Nothing ... is an offence": inserting "not" would make a double negative, not a flip
    options = [(p, r) for p, r in NEGATABLE if p.search(text)]
    if not options:
        return None
    pattern, repl = options[0] if rng.random() < 0.7 else rng.choice(options)
    return pattern.sub(repl, text, count=1)


def swap_modal(text: str, rng: random.Random) -> str | None:
    """ "shall" <-> "may" on one verb. Not in a negative clause: "no X shall" and "no X may" both forbid."""
    if NEGATIVE_OPENING.match(text):
        return None
    found = [m for m in MODAL.finditer(text) if not re.match(r"\s*,?\s*not\b", text[m.end() :])]
    if not found:
        return None
    m = rng.choice(found)
    new = "may" if m.group(1) == "shall" else "shall"
    return text[: m.start()] + new + text[m.end() :]


# -- paraphrasing ------------------------------------------------------------------------------------

LEXICAL = (
    (r"\bthe said\b", "the"), (r"\bforthwith\b", "immediately"), (r"\bhereinafter\b", "below"),
    (r"\bNotwithstanding anything contained in\b", "Despite anything in"), (r"\bimprisonment for life\b",
    "life imprisonment"), (r"\bwhich may extend to\b", "of up to"), (r"\bnot less than\b", "at least"),
    (r"\bnot exceeding\b", "of no more than"), (r"\bshall also be liable to fine\b", "is also liable to a fine"),
    (r"\bor with fine, or with both\b", "or a fine, or both"), (r"\bin writing\b", "in written form"),
    (r"\bany person\b", "anyone"), (r"\bfree of cost\b", "free of charge"), (r"\bsuch person\b", "that person"),
    (r"\bthe Court\b", "the court"),
    (r"\bunless the context otherwise requires\b", "unless the context says otherwise"),
    (r"\bfor a term\b", ""), (r"\bimprisonment of either description\b", "imprisonment (simple or rigorous)"),
    (r"\bthereof\b", "of it"), (r"\bprior to\b", "before"), (r"\bin respect of\b", "regarding"),
    (r"\bfor the purposes of\b", "for"), (r"\bon receipt of\b", "on receiving"), (r"\bcommencement\b", "start"),
    (r"\bshall be deemed to\b", "is deemed to"), (r"\bevery\b", "each"), (r"\bEvery\b", "Each"),
    (r"\bshall(?= (?:not )?(?!be punished|be less|exceed)\w)", "must"),
    (r"\bmay(?= (?:not )?(?!extend|be extended|be prescribed|have|think|specify)\w)(?<!case may)(?<!as may)", "can"),
)  # fmt: skip
PUNISH = re.compile(r"^Whoever,?\s+(?P<who>.+?),?\s+shall be punished with (?P<how>.+?)\.*$", re.S)
DEFINE = re.compile(r"^Whoever,?\s+(?P<who>[^;]+?),?\s+(?:commits|is said to commit) (?P<what>[^,;]+?)\.*$", re.S)
CONDITION = re.compile(
    r"^(?P<word>When|Where|If)\s+(?P<cond>[^,]{12,160}?[a-z]),\s+"
    r"(?P<main>(?:the|such|it|he|she|they|a|an|any|every|no|that|this)\s[^,].{12,}?)\.*$",
    re.S | re.I,
)
# The sentence of punishment, read as a noun phrase: "with imprisonment ..., or with fine, or with both".
HOW = (
    (r"\bimprisonment of either description for a term which may extend to\b",
     "imprisonment of either description of up to"),
    (r"\bfor a term which shall not be less than (\w+ \w+) but which may extend to\b",
     r"of at least \1, extendable to"),
    (r"\b(or|and) with (fine|imprisonment|rigorous|simple|death)", r"\1 \2"), (r"^with ", ""),
    (r"\bor with both\b", "or both"), (r"\bwith fine\b", "a fine"), (r"\bor fine\b", "or a fine"),
    (r"\bshall also be liable to fine\b", "also a fine"), (r"\bimprisonment for life\b", "life imprisonment"),
    (r"\bwhich may extend to\b", "of up to"),
)  # fmt: skip


def clean_sentence(text: str) -> str:
    text = re.sub(r"^\(\w{1,4}\)\s*", "", " ".join(text.split()))
    return re.sub(r"\.{2,}$", ".", text).rstrip(";, ")


def digits(text: str) -> str:
    """ "seven years" -> "7 years" (amounts of money keep their words)."""
    return QUANTITY.sub(lambda m: (str(quantity_value(m["num"], m["scale"])) if not m["num"][0].isdigit()
                                   and unit_of(m["unit"]) != "rupee" else m.group("num") + (m["scale"] or ""))
                        + m["gap"] + m["unit"], text)  # fmt: skip


def lexical(text: str, rng: random.Random) -> str:
    for pattern, repl in LEXICAL:
        if rng.random() < 0.85:
            text = re.sub(pattern, repl, text)
    text = re.sub(r"\s{2,}", " ", text)
    return digits(text) if rng.random() < 0.5 else text


def lower_first(s: str) -> str:
    first = s.split(" ", 1)[0]
    return s if len(first) > 1 and first.isupper() else s[:1].lower() + s[1:]


def paraphrase(sentence: str, rng: random.Random) -> str:
    """A meaning-preserving rewording of one statute sentence."""
    text = clean_sentence(sentence)
    m = PUNISH.match(text)
    if m:
        who, how = m["who"].strip(" ,"), m["how"].strip(" ,.")
        for pattern, repl in HOW:
            how = re.sub(pattern, repl, how)
        how = re.sub(r",? and also a fine$", "; the offender is also liable to a fine", how)
        form = rng.randrange(3)
        if form == 0:
            text = f"Anyone who {who} is punishable with {how}"
        elif form == 1:
            text = f"The punishment for a person who {who} is {how}"
        else:
            text = f"A person who {who} faces {how}"
        return finish(lexical(text, rng))
    m = DEFINE.match(text)
    if m:
        who = m["who"].strip(" ,")
        if rng.random() < 0.5:
            text = f"A person commits {m['what']} if he {who}"
        else:
            text = f"{m['what'][:1].upper()}{m['what'][1:]} is committed by anyone who {who}"
        return finish(lexical(text, rng))
    m = CONDITION.match(text)
    if m and rng.random() < 0.8:
        main = m["main"].strip()
        text = f"{main[:1].upper()}{main[1:]} {m['word'].lower()} {lower_first(m['cond'])}"
    out = finish(lexical(text, rng))
    if flat(out) == flat(text):  # nothing applied: at least change the modal verbs or the number style
        out = finish(digits(re.sub(r"\bshall\b(?! be punished)", "must", text)))
    return out


def flat(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", s.lower()).strip()


def finish(text: str) -> str:
    text = " ".join(text.split()).strip(" ,;:—-")
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def features(text: str) -> set[str]:
    out: set[str] = set()
    if QUANTITY.search(text):
        out.add("number")
    if MODAL.search(text):
        out.add("modality")
    if any(p.search(text) for p, _ in NEGATABLE) or any(p.search(text) for p, _ in NEGATED):
        out.add("negation")
    return out


# -- the fault rules (``legal-rag eval faults``) -------------------------------------------------------

_NUMBER_WORDS = ["one", "two", "three", "five", "seven", "ten", "fourteen", "twenty", "thirty", "sixty", "ninety"]
_NUM_WORD = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")\b")
_DIGITS = re.compile(r"(?<![\w(])\d{1,5}(?![\w)])")
_SHALL = re.compile(r"\bshall\b")
_MAY = re.compile(r"\bmay\b")


def change_words(text: str, rng: random.Random) -> str | None:
    """One substantive change inside a provision's words: a number, shall -> may, or a negation."""
    options: list[Callable[[], str]] = []
    if m := _NUM_WORD.search(text):
        other = rng.choice([w for w in _NUMBER_WORDS if w != m.group(1)])
        options.append(lambda: text[: m.start()] + other + text[m.end():])
    if d := _DIGITS.search(text):
        n = int(d.group(0))
        options.append(lambda: text[: d.start()] + str(n + rng.choice([1, 2, 5, 10])) + text[d.end():])
    if s := _SHALL.search(text):
        options.append(lambda: text[: s.start()] + "may" + text[s.end():])
        options.append(lambda: text[: s.end()] + " not" + text[s.end():])
    elif y := _MAY.search(text):
        options.append(lambda: text[: y.start()] + "shall" + text[y.end():])
    if not options:
        return None
    return rng.choice(options)()


_UNIT = r"(?:years?|months?|days?|hours?|rupees|lakhs?|thousand|hundred|crores?|times)"
_QUANTITY_WORD = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")\b(?=\s+" + _UNIT + r")")
_QUANTITY_DIGITS = re.compile(r"(?<![\w(])(\d{1,3}(?:,\d{3})*)(?=\s+" + _UNIT + r")")
_AFFIRMED_SHALL = re.compile(r"\bshall\b(?! not)")
_NEGATIVE_SUBJECT = re.compile(r"\b(no|nothing|not|none|neither|nor)\b[^,;:.]{0,60}$", re.IGNORECASE)


def contradict(text: str, rng: random.Random) -> str | None:
    """A change that contradicts a provision's rule (not merely garbles its words): a penalty or period
    changed, an affirmed duty negated, or a duty ("shall") weakened to a permission ("may"). Years, Act
    numbers ("39 of 1925") and negated modals ("no Court shall" = "no Court may") are left alone."""
    options: list[Callable[[], str]] = []
    if m := _QUANTITY_WORD.search(text):
        other = rng.choice([w for w in _NUMBER_WORDS if w != m.group(1)])
        options.append(lambda: text[: m.start()] + other + text[m.end():])
    if d := _QUANTITY_DIGITS.search(text):
        n = int(d.group(1).replace(",", ""))
        options.append(lambda: text[: d.start()] + f"{n * rng.choice([2, 3, 10]):,}" + text[d.end():])
    shall = next((s for s in _AFFIRMED_SHALL.finditer(text)  # "no Magistrate ... shall" is a prohibition
                  if not _NEGATIVE_SUBJECT.search(text[: s.start()])), None)  # fmt: skip
    if shall is not None:
        a, b = shall.start(), shall.end()
        options.append(lambda: text[:b] + " not" + text[b:])
        options.append(lambda: text[:a] + "may" + text[b:])
    if not options:
        return None
    return rng.choice(options)()
