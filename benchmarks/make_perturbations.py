"""Build ``tests/data/aligner_perturbations.jsonl``: labelled claims against real statute passages.

Every evidence passage is a real chunk of the shipped corpus, made the way the retrieval index
makes them (India Code text for BNS, BNSS, BSA, HMA and the NI Act, the legacy JSON for the IPC,
read by ``ingestion`` and cut by ``legal_rag.retrieval.chunking``). For each source sentence the
script writes:

* ``supported`` claims: a rule-based paraphrase (clauses reordered, "Whoever ... shall be punished"
  turned into "Anyone who ... is punishable" / "The punishment for ... is", legal phrases swapped
  for plain ones, numbers written as digits or words) and the same paraphrase introduced by its
  correct citation ("Under Section 318(4) of the BNS, ...");
* ``contradicted`` claims: one number, duration or fine changed; a negation inserted or removed;
  "shall" and "may" swapped; the citation's section number swapped for another section of the same
  Act that is not in the evidence; the citation's Act swapped (BNS -> BNSS, ...);
* ``unsupported`` claims: the paraphrase of a sentence from another provision, against this
  evidence.

On top of that, hand-written paraphrases, contradictions and plausible-but-unaddressed claims for
well-known provisions (``HAND``). The perturbations use this script's own regular expressions, not
the aligner's parser, so that the set can catch what the parser misses. Deterministic: a fixed
seed and sorted inputs. Run:

    .venv/bin/python benchmarks/make_perturbations.py [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingestion.sources.indiacode import act_codes_for_catalog, read_fulltext  # noqa: E402
from ingestion.sources.legacy import read_legacy  # noqa: E402
from legal_rag.retrieval.chunking import SectionText, chunk_section  # noqa: E402
from legal_rag.retrieval.types import Chunk  # noqa: E402

CORPUS = ROOT / "data" / "corpus"
OUT = ROOT / "tests" / "data" / "aligner_perturbations.jsonl"
SEED = 20240701
ACTS = ("BNS", "BNSS", "BSA", "HMA", "NIA", "IPC")
PER_ACT = {"BNS": 24, "BNSS": 18, "BSA": 8, "HMA": 7, "NIA": 7, "IPC": 12}
DISTRACTORS = 4  # five passages per claim, as the workflow re-retrieves (WorkflowSettings.claim_k)

ACT_NAMES = {
    "BNS": ("BNS", "the Bharatiya Nyaya Sanhita", "the Bharatiya Nyaya Sanhita, 2023"),
    "BNSS": ("BNSS", "the Bharatiya Nagarik Suraksha Sanhita", "the BNSS"),
    "BSA": ("BSA", "the Bharatiya Sakshya Adhiniyam", "the Bharatiya Sakshya Adhiniyam, 2023"),
    "HMA": ("the Hindu Marriage Act", "the Hindu Marriage Act, 1955"),
    "NIA": ("the Negotiable Instruments Act", "the NI Act", "the Negotiable Instruments Act, 1881"),
    "IPC": ("IPC", "the Indian Penal Code", "the IPC"),
}
# The Act a misattributed claim names instead (a plausible confusion, not a random one).
SWAP_ACT = {"BNS": "BNSS", "BNSS": "BNS", "BSA": "BNSS", "HMA": "SMA", "NIA": "ICA", "IPC": "CRPC"}
SWAP_NAMES = {"BNSS": "the Bharatiya Nagarik Suraksha Sanhita", "BNS": "the Bharatiya Nyaya Sanhita",
              "SMA": "the Special Marriage Act, 1954", "ICA": "the Indian Contract Act, 1872",
              "CRPC": "the Code of Criminal Procedure"}  # fmt: skip

# -- reading the corpus ----------------------------------------------------------------------------


def load_chunks() -> dict[str, Chunk]:
    """Every chunk of the six Acts, by id, exactly as the index would cut them."""
    rows = [json.loads(line) for line in (CORPUS / "indiacode" / "acts_catalog.jsonl").open(encoding="utf-8")]
    parsed = read_fulltext(CORPUS / "indiacode" / "sections_fulltext_subset.jsonl", act_codes_for_catalog(rows))
    sections = [s for s in parsed.sections if s.act in ACTS] + read_legacy(CORPUS / "legacy" / "ipc.json").sections
    out: dict[str, Chunk] = {}
    for s in sections:
        if not s.text:
            continue
        for c in chunk_section(SectionText.of(s)):
            out[c.id] = c
    return out


def evidence_row(c: Chunk) -> dict[str, str]:
    return {"chunk_id": c.id, "act": c.act, "section": c.section, "heading": c.heading, "text": c.text}


def label_of(c: Chunk) -> str:
    """ "318(4)" for BNS:318:4:0, "35(1)(b)" for BNSS:35:1/b:0."""
    return c.section + "".join(f"({p})" for p in c.sub.split("/")) if c.sub else c.section


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


def _value(num: str, scale: str | None) -> int | None:
    n = num.lower()
    v = int(n.replace(",", "")) if n[0].isdigit() else NUMBER_WORDS.get(n)
    if v is None:
        return None
    if scale:
        v *= 1000 if "thousand" in scale else 100_000
    return v


def _unit(u: str) -> str:
    u = u.lower()
    return "rupee" if u.startswith("rupee") else "person" if u.startswith("person") else u.rstrip("s")


def _render(v: int, like_digits: bool, unit: str) -> str:
    if unit == "rupee":
        if like_digits:
            return f"{v:,}"
        if v % 100_000 == 0:
            return f"{WORD_OF[v // 100_000]} lakh"
        return f"{WORD_OF[v // 1000]} thousand" if v % 1000 == 0 and v // 1000 in WORD_OF else f"{v:,}"
    return str(v) if like_digits or v not in WORD_OF else WORD_OF[v]


def change_number(text: str, passage: str, rng: random.Random) -> str | None:
    """One quantity of ``text`` changed to a value of the same unit the passage does not state."""
    stated = {(_unit(m["unit"]), _value(m["num"], m["scale"])) for m in QUANTITY.finditer(passage)}
    found = [m for m in QUANTITY.finditer(text) if _value(m["num"], m["scale"]) is not None]
    if not found:
        return None
    m = rng.choice(found)
    unit = _unit(m["unit"])
    old = _value(m["num"], m["scale"])
    choices = [v for v in ALTERNATIVES.get(unit, ()) if v != old and (unit, v) not in stated]
    if not choices:
        return None
    new = rng.choice(choices)
    plural = m["unit"] if new != 1 else m["unit"].rstrip("s")
    if new == 1 and old == 1:
        plural = m["unit"]
    elif old == 1 and new != 1 and not m["unit"].endswith("s"):
        plural = m["unit"] + "s"
    rendered = _render(new, m["num"][0].isdigit(), unit)
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


def _clean(text: str) -> str:
    text = re.sub(r"^\(\w{1,4}\)\s*", "", " ".join(text.split()))
    return re.sub(r"\.{2,}$", ".", text).rstrip(";, ")


def _digits(text: str) -> str:
    """ "seven years" -> "7 years" (amounts of money keep their words)."""
    return QUANTITY.sub(lambda m: (str(_value(m["num"], m["scale"])) if not m["num"][0].isdigit()
                                   and _unit(m["unit"]) != "rupee" else m.group("num") + (m["scale"] or ""))
                        + m["gap"] + m["unit"], text)  # fmt: skip


def _lexical(text: str, rng: random.Random) -> str:
    for pattern, repl in LEXICAL:
        if rng.random() < 0.85:
            text = re.sub(pattern, repl, text)
    text = re.sub(r"\s{2,}", " ", text)
    return _digits(text) if rng.random() < 0.5 else text


def _lower_first(s: str) -> str:
    first = s.split(" ", 1)[0]
    return s if len(first) > 1 and first.isupper() else s[:1].lower() + s[1:]


def paraphrase(sentence: str, rng: random.Random) -> str:
    """A meaning-preserving rewording of one statute sentence."""
    text = _clean(sentence)
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
        return _finish(_lexical(text, rng))
    m = DEFINE.match(text)
    if m:
        who = m["who"].strip(" ,")
        if rng.random() < 0.5:
            text = f"A person commits {m['what']} if he {who}"
        else:
            text = f"{m['what'][:1].upper()}{m['what'][1:]} is committed by anyone who {who}"
        return _finish(_lexical(text, rng))
    m = CONDITION.match(text)
    if m and rng.random() < 0.8:
        main = m["main"].strip()
        text = f"{main[:1].upper()}{main[1:]} {m['word'].lower()} {_lower_first(m['cond'])}"
    out = _finish(_lexical(text, rng))
    if _flat(out) == _flat(text):  # nothing applied: at least change the modal verbs or the number style
        out = _finish(_digits(re.sub(r"\bshall\b(?! be punished)", "must", text)))
    return out


def _flat(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", s.lower()).strip()


def _finish(text: str) -> str:
    text = " ".join(text.split()).strip(" ,;:—-")
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def cite(text: str, act: str, label: str, rng: random.Random, names: tuple[str, ...] | None = None) -> str:
    name = rng.choice(names or ACT_NAMES[act])
    form = rng.randrange(3)
    body = _lower_first(text)
    if form == 0:
        return f"Under Section {label} of {name}, {body}"
    if form == 1:
        return f"Section {label} of {name} provides that {body}"
    return f"As per Section {label} {name}, {body}" if name.isupper() else f"As per Section {label} of {name}, {body}"


# -- hand-written claims -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Hand:
    chunk: str
    supported: tuple[str, ...] = ()
    contradicted: tuple[tuple[str, str], ...] = ()
    """(kind, claim)"""
    unsupported: tuple[str, ...] = ()


HAND = (
    Hand("BNS:103:1:0",
         ("Murder is punishable with death or life imprisonment, and the murderer is also liable to pay a fine.",
          "The punishment for murder under the BNS is either death or imprisonment for life, together with a fine.",
          "Under Section 103(1) of the Bharatiya Nyaya Sanhita, a person who commits murder faces death or "
          "imprisonment for life and a fine."),
         (("modality", "A person who commits murder may be punished with death or imprisonment for life."),
          ("negation", "Murder is not punishable with death under the BNS."),
          ("section_swap", "Under Section 101 BNS, murder is punishable with death or imprisonment for life.")),
         ("A person convicted of murder is not eligible for parole for the first twenty years of the sentence.",)),
    Hand("BNS:318:4:0",
         ("Cheating that dishonestly induces the victim to deliver property, or to make or destroy a valuable "
          "security, carries imprisonment of either description of up to seven years and a fine.",
          "The maximum sentence for cheating and dishonestly inducing delivery of property is seven years' "
          "imprisonment, and the offender is also liable to a fine."),
         (("number", "Cheating and dishonestly inducing delivery of property is punishable with imprisonment of up "
                     "to ten years and a fine."),
          ("number", "Cheating and dishonestly inducing delivery of property attracts a minimum sentence of seven "
                     "years."),
          ("act_swap", "Under Section 318(4) of the BNSS, cheating and dishonestly inducing delivery of property "
                       "carries up to seven years and a fine.")),
         ("Cheating is a compoundable offence that the victim can settle out of court.",)),
    Hand("BNS:318:2:0",
         ("Simple cheating carries up to three years in prison, a fine, or both.",),
         (("number", "Simple cheating carries up to five years in prison, a fine, or both."),)),
    Hand("BNS:303:2:0",
         ("Theft is punishable with up to three years' imprisonment, a fine, or both.",
          "A second or later conviction for theft attracts rigorous imprisonment of at least one year and up to "
          "five years, together with a fine."),
         (("number", "A second or later conviction for theft attracts rigorous imprisonment of at least two years "
                     "and up to five years, together with a fine."),
          ("number", "Theft is punishable with up to seven years' imprisonment, a fine, or both.")),
         ("Theft of electricity is punishable under this provision with a fine of one lakh rupees.",)),
    Hand("BNS:64:1:0",
         ("Rape, outside the aggravated cases of sub-section (2), carries rigorous imprisonment for at least ten "
          "years, which may extend to life imprisonment, and a fine.",),
         (("number", "Rape carries rigorous imprisonment for at least seven years, which may extend to life "
                     "imprisonment, and a fine."),
          ("number", "Rape is punishable with rigorous imprisonment of up to ten years and a fine.")),
         ("A rape trial must be held in camera before a woman judge.",)),
    Hand("BNS:80:2:0",
         ("The sentence for dowry death is a minimum of seven years' imprisonment and may go up to life "
          "imprisonment.",),
         (("number", "Dowry death carries imprisonment of not less than ten years, which may extend to life."),),
         ("Dowry death is a non-bailable offence triable by a Court of Session.",)),
    Hand("BNS:80:1:0",
         ("When a woman dies of burns or bodily injury, or in abnormal circumstances, within seven years of her "
          "marriage, after being subjected to cruelty or harassment for dowry by her husband or his relatives soon "
          "before her death, the death is called a dowry death and the husband or relative is deemed to have "
          "caused it.",),
         (("number", "A woman's unnatural death within ten years of marriage, after dowry harassment by her husband "
                     "or his relatives soon before her death, is called a dowry death."),)),
    Hand("BNS:85:-:0",
         ("A husband or a relative of the husband who subjects a woman to cruelty faces imprisonment of up to "
          "three years and is also liable to a fine.",),
         (("number", "A husband who subjects his wife to cruelty faces imprisonment of up to seven years and a "
                     "fine."),
          ("negation", "A husband who subjects his wife to cruelty is not liable to a fine.")),
         ("Cruelty by a husband is a bailable and non-cognizable offence.",)),
    Hand("BNS:20:-:0",
         ("Acts done by a child below seven years of age are not offences.",
          "A child under the age of seven cannot commit an offence."),
         (("negation", "An act done by a child under seven years of age is an offence."),
          ("number", "Nothing done by a child under twelve years of age is an offence.")),
         ("A child between seven and twelve years of age is presumed to lack the maturity to commit an offence.",)),
    Hand("BNS:115:2:0",
         ("Voluntarily causing hurt is punishable with imprisonment of up to one year, a fine of up to ten "
          "thousand rupees, or both.",
          "For voluntarily causing hurt, the court can impose up to 1 year of imprisonment or a fine not "
          "exceeding Rs. 10,000, or both."),
         (("number", "Voluntarily causing hurt is punishable with imprisonment of up to one year, a fine of up to "
                     "five thousand rupees, or both."),
          ("number", "Voluntarily causing hurt is punishable with imprisonment of up to three years or a fine, or "
                     "both.")),
         ("Hurt caused by a public servant in the discharge of his duty is exempt from punishment.",)),
    Hand("BNS:117:2:0",
         ("Voluntarily causing grievous hurt is punishable with up to seven years of imprisonment of either "
          "description and a fine.",),
         (("number", "Voluntarily causing grievous hurt is punishable with up to ten years of imprisonment and a "
                     "fine."),)),
    Hand("BNS:309:4:0",
         ("Robbery is punishable with rigorous imprisonment of up to ten years and a fine; if committed on a "
          "highway between sunset and sunrise, the term can go up to fourteen years.",),
         (("number", "Robbery committed on a highway between sunset and sunrise is punishable with imprisonment of "
                     "up to twenty years."),),
         ("Robbery committed by a person armed with a deadly weapon is punishable with death.",)),
    Hand("BNS:351:2:0",
         ("Criminal intimidation carries imprisonment of up to two years, or a fine, or both.",),
         (("number", "Criminal intimidation carries imprisonment of up to five years, or a fine, or both."),)),
    Hand("BNS:356:2:0",
         ("Defamation is punishable with simple imprisonment of up to two years, a fine, both, or community "
          "service.",),
         (("number", "Defamation is punishable with simple imprisonment of up to three years, a fine, or both."),)),
    Hand("BNSS:480:6:0",
         ("If the trial of a person accused of a non-bailable offence before a Magistrate is not finished within "
          "sixty days from the first date fixed for evidence, an accused who has been in custody throughout must "
          "be released on bail, unless the Magistrate records reasons for directing otherwise.",),
         (("number", "An accused in custody must be released on bail if a Magistrate's trial for a non-bailable "
                     "offence is not concluded within ninety days from the first date fixed for evidence."),
          ("modality", "An accused in custody may be released on bail if a Magistrate's trial for a non-bailable "
                       "offence is not concluded within sixty days from the first date fixed for taking evidence.")),
         ("Bail granted because the trial was delayed requires the accused to furnish two sureties.",)),
    Hand("BNSS:187:3:0",
         ("Detention during investigation cannot exceed ninety days in total where the offence is punishable "
          "with death, life imprisonment or imprisonment of ten years or more, and sixty days for other "
          "offences.",),
         (("number", "Detention during investigation cannot exceed one hundred and eighty days in total where the "
                     "offence is punishable with death or imprisonment for life."),)),
    Hand("NIA:138:b:0",
         ("The payee must send the drawer a written notice demanding payment within thirty days of learning from "
          "the bank that the cheque was returned unpaid.",),
         (("number", "The payee must send the drawer a written notice demanding payment within fifteen days of "
                     "learning from the bank that the cheque was returned unpaid."),),
         ("The notice demanding payment of a dishonoured cheque must be sent by registered post.",)),
    Hand("NIA:138:c:0",
         ("The offence is made out only if the drawer fails to pay the amount to the payee within fifteen days "
          "of receiving the notice.",),
         (("number", "The drawer has thirty days from receiving the notice to pay the cheque amount."),)),
    Hand("NIA:138:a:0",
         ("The cheque must have been presented to the bank within six months of the date on which it was drawn, "
          "or within its period of validity, whichever is earlier.",),
         (("number", "The cheque must have been presented to the bank within three months of the date on which it "
                     "was drawn."),)),
    Hand("NIA:138:-:0",
         ("When a cheque is returned unpaid because the account has insufficient funds, the drawer is deemed to "
          "have committed an offence punishable with imprisonment of up to two years, or a fine of up to twice "
          "the cheque amount, or both.",),
         (("number", "Dishonour of a cheque for insufficient funds is punishable with imprisonment of up to three "
                     "years, or a fine of up to twice the cheque amount, or both."),
          ("number", "Dishonour of a cheque for insufficient funds is punishable with a fine of up to three times "
                     "the amount of the cheque.")),
         ("A complaint for dishonour of a cheque must be filed within one month of the cause of action.",)),
    Hand("HMA:13B:1:0",
         ("Spouses can jointly petition the district court for divorce by mutual consent if they have lived "
          "separately for one year or more, cannot live together, and have agreed that the marriage should be "
          "dissolved.",),
         (("number", "Spouses can jointly petition the district court for divorce by mutual consent if they have "
                     "lived separately for two years or more."),),
         ("The waiting period for a divorce by mutual consent can be waived by the court.",)),
    Hand("HMA:13B:2:0",
         ("The joint motion for a divorce by mutual consent can be made no earlier than six months and no later "
          "than eighteen months after the petition is presented.",),
         (("number", "The joint motion for a divorce by mutual consent can be made no earlier than three months "
                     "after the petition is presented."),)),
    Hand("HMA:5:iii:0",
         ("For a valid Hindu marriage, the bridegroom must be at least twenty-one years old and the bride at "
          "least eighteen at the time of the marriage.",),
         (("number", "For a valid Hindu marriage, the bride must have completed the age of sixteen years."),),
         ("A Hindu marriage solemnised in breach of the age condition is void.",)),
    Hand("HMA:13:1/ib:0",
         ("Desertion of the petitioner for a continuous period of at least two years immediately before the "
          "petition is a ground for divorce.",),
         (("number", "Desertion of the petitioner for a continuous period of at least three years immediately "
                     "before the petition is a ground for divorce."),)),
    Hand("BNSS:173:2:0",
         ("The informant or the victim must be given a copy of the recorded information immediately and free of "
          "charge.",),
         (("modality", "The informant may be given a copy of the recorded information."),
          ("negation", "A copy of the recorded information shall not be given to the victim.")),
         ("The first information report must be registered within twenty-four hours of the complaint.",)),
    Hand("BNSS:35:7:0",
         ("Where the offence carries less than three years' imprisonment and the person is infirm or over sixty "
          "years old, an arrest needs the previous permission of an officer of at least the rank of Deputy "
          "Superintendent of Police.",),
         (("number", "Where the offence carries less than three years' imprisonment and the person is over seventy "
                     "years old, an arrest needs the permission of a Deputy Superintendent of Police."),
          ("negation", "An arrest may be made without prior permission even if the person is above sixty years of "
                       "age.")),
         ("A woman may not be arrested after sunset and before sunrise except in exceptional circumstances.",)),
    Hand("IPC:302:-:0",
         ("Under Section 302 IPC, murder was punishable with death or life imprisonment, along with a fine.",),
         (("act_swap", "Under Section 302 of the Code of Criminal Procedure, murder is punishable with death or "
                       "imprisonment for life."),)),
    Hand("IPC:420:-:0",
         ("Section 420 of the Indian Penal Code punished cheating and dishonestly inducing delivery of property "
          "with imprisonment of up to seven years and a fine.",),
         (("section_swap", "Section 415 of the Indian Penal Code punished cheating and dishonestly inducing delivery "
                           "of property with imprisonment of up to seven years and a fine."),)),
    Hand("IPC:379:-:0",
         ("Theft under Section 379 IPC was punishable with up to three years' imprisonment, a fine, or both.",),
         (("number", "Theft under Section 379 IPC was punishable with up to five years' imprisonment."),)),
    Hand("IPC:498A:-:0",
         ("Under Section 498A IPC, cruelty to a woman by her husband or his relatives was punishable with "
          "imprisonment for up to three years and a fine.",),
         (("number", "Under Section 498A IPC, cruelty to a woman by her husband was punishable with imprisonment "
                     "for up to seven years."),)),
)  # fmt: skip


# Free-form claims written as an answer generator would write them, after the aligner's rules were
# settled (a first, untuned look at paraphrase and contradiction it had not seen): (evidence chunks, the
# first being the one the claim is about; label; kind; claim). Several are beyond a lexical aligner
# ("a mandatory death sentence" against "death or imprisonment for life") and stay in the set as such.
FREE: tuple[tuple[tuple[str, ...], str, str, str], ...] = (
    (('BNSS:173:2:0',), "supported", "free_paraphrase",
     'Under Section 173(2) of the BNSS, the police must give a copy of the FIR to the informant or victim '
     'free of cost immediately.'),
    (('BNSS:35:1:0', 'BNSS:35:1/a:0'), "supported", "free_paraphrase",
     'The BNSS allows a police officer to arrest without a warrant a person who commits a cognizable '
     'offence in his presence.'),
    (('NIA:142:1:0',), "supported", "free_paraphrase",
     'A court can take cognizance of a cheque dishonour offence under section 138 only upon a written '
     'complaint by the payee or holder in due course.'),
    (('NIA:138:-:0',), "supported", "free_paraphrase",
     'Section 138 of the NI Act makes the dishonour of a cheque for insufficient funds an offence '
     "punishable with up to two years' imprisonment or a fine up to twice the cheque amount."),
    (('HMA:13B:2:0',), "supported", "free_paraphrase",
     'Under Section 13B(2) HMA, the court shall pass a decree of divorce if the motion is made between six'
     ' and eighteen months after the petition and the court is satisfied that the averments are true.'),
    (('BNS:303:2:0',), "supported", "free_paraphrase",
     'The punishment for theft is imprisonment up to three years, or fine, or both; a repeat offender '
     'faces rigorous imprisonment from one to five years.'),
    (('BNS:2:3:0',), "supported", "free_paraphrase",
     'A child is any person below the age of eighteen years.'),
    (('BSA:63:1:0',), "supported", "free_paraphrase",
     'Under the BSA, an electronic record is treated as a document and is admissible in evidence without '
     'further proof, if the conditions in Section 63 are met.'),
    (('BNSS:187:2:0',), "supported", "free_paraphrase",
     'The Magistrate may authorise detention of the accused in custody for a maximum of fifteen days at a '
     'time.'),
    (('BNSS:187:9:0',), "supported", "free_paraphrase",
     'The investigation in a summons case must be stopped if not concluded within six months from the '
     'arrest, unless the officer shows special reasons.'),
    (('BNSS:187:4:0',), "supported", "free_paraphrase",
     'No Magistrate can authorise police custody unless the accused is produced before him in person.'),
    (('BNSS:187:4:0',), "supported", "free_paraphrase",
     'A Magistrate may authorise police custody only if the accused is produced before him in person.'),
    (('HMA:5:iii:0',), "supported", "free_paraphrase",
     'The minimum marriageable age under the Hindu Marriage Act is 21 for the groom and 18 for the bride.'),
    (('BNS:64:1:0',), "supported", "free_paraphrase",
     'Rape is punishable with rigorous imprisonment for not less than ten years, extendable to life '
     'imprisonment, and fine.'),
    (('BNS:80:1:0',), "supported", "free_paraphrase",
     'When a woman dies within seven years of marriage in suspicious circumstances after dowry harassment '
     'by her husband, it is treated as a dowry death.'),
    (('BNS:309:6:0',), "supported", "free_paraphrase",
     'If hurt is caused during a robbery, each person jointly concerned can be given life imprisonment or '
     'rigorous imprisonment up to ten years, plus fine.'),
    (('BNS:316:5:0',), "supported", "free_paraphrase",
     'Criminal breach of trust by a public servant or banker carries life imprisonment or up to ten years '
     'and a fine.'),
    (('BNS:20:-:0',), "supported", "free_paraphrase",
     'Children below seven are completely exempt from criminal liability under the BNS.'),
    (('BNSS:480:1:0', 'BNSS:480:1/i:0'), "supported", "free_paraphrase",
     'A person accused of a non-bailable offence may be released on bail, but not if there are reasonable '
     'grounds to believe he is guilty of an offence punishable with death or life imprisonment.'),
    (('BNSS:479:1:0',), "supported", "free_paraphrase",
     'An undertrial who has been detained for up to half of the maximum sentence for the offence shall be '
     'released on bail by the court.'),
    (('BNSS:479:1:0',), "supported", "free_paraphrase",
     'A first-time offender must be released on bond after undergoing one-third of the maximum period of '
     'imprisonment.'),
    (('BNSS:35:3:0',), "supported", "free_paraphrase",
     'Where arrest is not required, the police officer shall issue a notice to the person to appear before'
     ' him.'),
    (('BNSS:35:5:0',), "supported", "free_paraphrase",
     'A person who complies with the notice shall not be arrested for that offence unless the officer '
     'records reasons that he ought to be arrested.'),
    (('BNSS:35:5:0',), "supported", "free_paraphrase",
     'A person who complies with the notice cannot be arrested for the offence mentioned in it, except for'
     ' recorded reasons.'),
    (('IPC:302:-:0',), "supported", "free_paraphrase",
     'Section 302 IPC prescribed death or imprisonment for life for murder.'),
    (('BNS:85:-:0',), "supported", "free_paraphrase",
     'Cruelty by the husband or his relatives is punishable with a jail term of up to 3 years plus fine.'),
    (('BNS:318:4:0',), "supported", "free_paraphrase",
     'Cheating with dishonest inducement to deliver property is punishable with a maximum of seven years '
     'and a fine.'),
    (('BNS:115:2:0',), "supported", "free_paraphrase",
     'Causing hurt voluntarily carries up to a year in jail or a fine of Rs 10,000 or both.'),
    (('BNS:303:2:0',), "contradicted", "free_number",
     'Under BNS 303(2), theft is punishable with imprisonment of up to five years.'),
    (('BNS:103:1:0',), "contradicted", "free_semantic",
     'Murder under the BNS carries a mandatory death sentence.'),
    (('NIA:138:a:0',), "contradicted", "free_number",
     'A cheque must be presented to the bank within three months of its date.'),
    (('NIA:138:c:0',), "contradicted", "free_number",
     'The drawer gets thirty days after receiving the notice to make the payment.'),
    (('BNSS:35:1/c:0',), "contradicted", "free_number",
     'The police may arrest without warrant on credible information of a cognizable offence punishable '
     'with more than ten years.'),
    (('BNSS:173:2:0',), "contradicted", "free_semantic",
     'The informant is given a copy of the recorded information on payment of a fee.'),
    (('BNSS:187:5:0',), "contradicted", "free_negation",
     'A Magistrate of the second class may authorise detention in police custody.'),
    (('BNSS:187:4:0',), "contradicted", "free_negation",
     'Detention in police custody can be authorised even if the accused is not produced before the '
     'Magistrate.'),
    (('HMA:13B:1:0',), "contradicted", "free_number",
     'Divorce by mutual consent requires the spouses to have lived apart for at least two years.'),
    (('BNS:80:2:0',), "contradicted", "free_number",
     'Dowry death is punishable with imprisonment of at least five years.'),
    (('BNS:117:2:0',), "contradicted", "free_term",
     'Voluntarily causing grievous hurt is punishable with up to seven years, or fine, or both.'),
    (('BNS:309:4:0',), "contradicted", "free_term",
     'Robbery is punishable with simple imprisonment of up to ten years.'),
    (('BNS:107:-:0',), "contradicted", "free_modality",
     'Abetment of suicide of a child may be punished with death.'),
    (('BNS:64:1:0',), "contradicted", "free_act_swap",
     'Under Section 64 BNSS, rape is punishable with at least ten years of rigorous imprisonment.'),
    (('BNS:318:4:0',), "contradicted", "free_section_swap",
     'Section 420 BNS deals with cheating and dishonestly inducing delivery of property.'),
    (('BNS:318:4:0',), "contradicted", "free_act_swap",
     'Under the IPC, cheating and dishonestly inducing delivery of property is punishable with up to seven'
     ' years.'),
    (('BNSS:35:7:0',), "contradicted", "free_semantic",
     'A woman cannot be arrested without prior permission if the offence carries less than three years.'),
    (('BNSS:480:6:0',), "contradicted", "free_negation",
     'The Court shall not release the accused on bail if the trial is not concluded within sixty days.'),
    (('BNSS:173:1:0',), "contradicted", "free_modality",
     'Every information about a cognizable offence must be given in writing to the officer in charge of a '
     'police station.'),
    (('BNS:303:2:0',), "contradicted", "free_number",
     'A repeat theft conviction carries rigorous imprisonment of not less than two years.'),
    (('BNS:351:3:0',), "contradicted", "free_number",
     'Criminal intimidation by threatening to cause death is punishable with up to ten years.'),
    (('BNS:356:2:0',), "contradicted", "free_semantic",
     'Defamation carries simple imprisonment of up to two years, fine, or both, but not community service.'),
    (('HMA:5:iii:0',), "contradicted", "free_number",
     'Under the Hindu Marriage Act the bride must have completed twenty-one years of age.'),
    (('BNS:2:3:0',), "contradicted", "free_number",
     'A child means any person below the age of sixteen years.'),
    (('BNSS:479:1:0',), "contradicted", "free_semantic",
     'An undertrial must be released on bail after serving one-third of the maximum sentence, whatever his'
     ' record.'),
)  # fmt: skip


# -- assembling ----------------------------------------------------------------------------------------


def _features(text: str) -> set[str]:
    out = set()
    if QUANTITY.search(text):
        out.add("number")
    if MODAL.search(text):
        out.add("modality")
    if any(p.search(text) for p, _ in NEGATABLE) or any(p.search(text) for p, _ in NEGATED):
        out.add("negation")
    return out


def _eligible(c: Chunk) -> bool:
    text = _clean(c.text)
    words = len(text.split())
    return (c.part == 0 and 12 <= words <= 70 and not re.search(r"Illustration|Explanation|Provided|Omitted|\[|:|—",
                                                                 text)
            and text[:1].isupper() and bool(_features(text)))  # fmt: skip


def choose_sources(chunks: dict[str, Chunk], rng: random.Random) -> list[Chunk]:
    hand = {h.chunk for h in HAND}
    out: list[Chunk] = []
    for act in ACTS:
        pool = sorted((c for c in chunks.values() if c.act == act and _eligible(c) and c.id not in hand),
                      key=lambda c: c.id)  # fmt: skip
        rng.shuffle(pool)
        seen_sections: set[str] = set()
        for c in pool:
            if c.section in seen_sections:
                continue
            seen_sections.add(c.section)
            out.append(c)
            if len(seen_sections) >= PER_ACT[act]:
                break
    return out


class Builder:
    def __init__(self, chunks: dict[str, Chunk], rng: random.Random) -> None:
        self.chunks = chunks
        self.rng = rng
        self.rows: list[dict[str, object]] = []
        self.by_act: dict[str, list[Chunk]] = {}
        for c in sorted(chunks.values(), key=lambda c: c.id):
            if c.part == 0 and len(c.text.split()) >= 8:
                self.by_act.setdefault(c.act, []).append(c)

    def evidence(self, source: Chunk, avoid: set[str]) -> list[dict[str, str]]:
        """The source chunk and distractors from other sections of the same Act, shuffled."""
        pool = [c for c in self.by_act[source.act] if c.section != source.section and c.section not in avoid]
        picked = [source, *self.rng.sample(pool, DISTRACTORS)]
        self.rng.shuffle(picked)
        return [evidence_row(c) for c in picked]

    def add(
        self,
        claim: str,
        label: str,
        kind: str,
        source: Chunk,
        avoid: set[str] = frozenset(),
        also: tuple[Chunk, ...] = (),
    ) -> None:
        evidence = self.evidence(source, avoid | {c.section for c in also})
        evidence += [evidence_row(c) for c in also]
        self.rows.append({"id": f"{len(self.rows):04d}", "claim": claim, "label": label, "kind": kind,
                          "source": source.id, "evidence": evidence})  # fmt: skip

    def other_section(self, c: Chunk) -> str:
        numbers = sorted({x.section for x in self.by_act[c.act] if x.section != c.section},
                         key=lambda s: (abs(_num(s) - _num(c.section)), s))  # fmt: skip
        return self.rng.choice(numbers[:6])


def _num(section: str) -> int:
    m = re.match(r"\d+", section)
    return int(m.group(0)) if m else 0


def build(chunks: dict[str, Chunk]) -> list[dict[str, object]]:
    rng = random.Random(SEED)
    b = Builder(chunks, rng)
    sources = choose_sources(chunks, rng)
    paraphrases = {c.id: paraphrase(c.text, rng) for c in sources}
    # A paraphrase the rules could not reword would test the verbatim rule, not paraphrase: drop its source.
    sources = [c for c in sources if _flat(paraphrases[c.id]) != _flat(_clean(c.text))]
    for c in sources:
        text = _clean(c.text)
        para = paraphrases[c.id]
        b.add(para, "supported", "paraphrase", c)
        label = label_of(c)
        b.add(cite(para, c.act, label, rng), "supported", "cited_paraphrase", c)
        feats = sorted(_features(text))
        # Perturb the paraphrase where the feature survived paraphrasing, else the source sentence.
        for kind in feats:
            fn = {"number": lambda t, c=c: change_number(t, c.text, rng), "negation": lambda t: flip_negation(t, rng),
                  "modality": lambda t: swap_modal(t, rng)}[kind]  # fmt: skip
            claim = fn(para) or fn(_finish(_lexical(text, rng)))
            if claim and claim not in (para, text):
                b.add(claim, "contradicted", kind, c)
        if rng.random() < 0.6:
            other = b.other_section(c)
            sub = label[len(c.section) :]
            b.add(cite(para, c.act, other + sub, rng), "contradicted", "section_swap", c, {other})
        else:
            swapped = SWAP_ACT[c.act]
            b.add(cite(para, c.act, label, rng, (SWAP_NAMES[swapped],)), "contradicted", "act_swap", c)
        # An unsupported claim: another provision's paraphrase (a different section) against this evidence.
        others = [o for o in sources if o.section != c.section or o.act != c.act]
        o = rng.choice(others)
        b.add(paraphrases[o.id], "unsupported", "other_provision", c, {o.section} if o.act == c.act else set())
    for h in HAND:
        c = chunks[h.chunk]
        for claim in h.supported:
            b.add(claim, "supported", "hand_paraphrase", c)
        for kind, claim in h.contradicted:
            avoid = set(re.findall(r"Section (\d+\w*)", claim))
            b.add(claim, "contradicted", kind, c, avoid)
        for claim in h.unsupported:
            b.add(claim, "unsupported", "hand_unaddressed", c)
    for ids, label, kind, claim in FREE:
        avoid = set(re.findall(r"Section (\d+\w*)", claim))
        b.add(claim, label, kind, chunks[ids[0]], avoid, tuple(chunks[i] for i in ids[1:]))
    return b.rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    rows = build(load_chunks())
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    labels = Counter(str(r["label"]) for r in rows)
    kinds = Counter(str(r["kind"]) for r in rows)
    print(f"{len(rows)} claims -> {args.out}: {dict(labels)}; {dict(sorted(kinds.items()))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
