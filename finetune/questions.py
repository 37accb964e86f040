"""Questions from the graph, phrased the way lawyers and paralegals ask them.

The subject comes from the section's title ("Punishment for theft" -> "theft"), its text (a section
that says "shall be punished" is asked about as a punishment, one that says "is said to commit" as a
definition), its chapter, or its replacement (IPC 379 -> BNS 303(2)). Each kind has several
phrasings, and the Act is named the several ways practitioners write it ("BNS", "the Bharatiya
Nyaya Sanhita", "the BNS"). Deterministic given the ``random.Random``.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from graph_schema.chunking import Chunk

ACT_NAMES: dict[str, tuple[str, ...]] = {
    "BNS": ("BNS", "the BNS", "the Bharatiya Nyaya Sanhita", "the Bharatiya Nyaya Sanhita, 2023"),
    "BNSS": ("BNSS", "the BNSS", "the Bharatiya Nagarik Suraksha Sanhita"),
    "BSA": ("BSA", "the BSA", "the Bharatiya Sakshya Adhiniyam"),
    "IPC": ("IPC", "the IPC", "the Indian Penal Code"),
    "CRPC": ("CrPC", "Cr.P.C.", "the Code of Criminal Procedure"),
    "IEA": ("the Evidence Act", "the Indian Evidence Act"),
    "HMA": ("HMA", "the Hindu Marriage Act"),
    "NIA": ("the NI Act", "the Negotiable Instruments Act"),
    "CPC": ("CPC", "the Code of Civil Procedure"),
}
"""Names that read naturally after "Section 12"; other Acts are named by their title."""


_WORD = re.compile(r"[a-z]{3,}")
_STOP = frozenset({"the", "and", "for", "any", "such", "shall", "which", "with", "from", "that", "this",
    "under", "other", "than", "into", "upon", "has", "have", "been", "being", "may", "who", "whom", "whose",
    "his", "her", "their", "its", "not", "all", "are", "was", "were", "by", "of", "or", "in", "to", "on",
    "as", "be", "is", "section", "act", "punishment"})  # fmt: skip


def words(text: str) -> frozenset[str]:
    """Content words of ``text`` (lower case, three letters or more, no function words)."""
    return frozenset(w for w in _WORD.findall(text.lower()) if w not in _STOP)


class Kind(StrEnum):
    PUNISHMENT = "punishment"
    DEFINITION = "definition"
    RULE = "rule"


_HOUSEKEEPING = re.compile(r"(?i)^(?:definitions?|interpretation|short title|extent|commencement|repeal|"
                          r"savings?|power to make rules|power of .* to make rules|rules|regulations|omitted)\b")
_TERM = re.compile(r"[“\"]([^”\"]{2,40})[”\"]\s+(?:means|includes|shall mean|shall include)")
_PUNISH = re.compile(r"\bshall be punished\b|\bshall be liable to (?:fine|imprisonment)\b")
_NOT_OFFENCE = re.compile(r"(?i)^(?:power|procedure|powers|cognizance|trial|jurisdiction|application|sentence|"
                          r"court|courts|compounding|appeal|summary|period|limitation|offences? by|saving|"
                          r"nothing|general|exception|exemption|duty|duties|presumption|when|what|mode|manner)\b")
"""Headings of sections that mention a punishment without punishing an offence ("Power of court to ...",
"Offences by companies", "Period of limitation ..."): never asked about as "the punishment for ...".""" 
_DEFINE = re.compile(r"\bis said to commit\b|\bis said to\b|\bmeans\b|\bshall be deemed\b")

_BY_SECTION = (
    "What does Section {label} of {act} provide?",
    "Can you pull up Section {label} {abbr} and tell me what it says?",
    "What is the wording of s. {label} {abbr}?",
    "I need the exact text of Section {label} of {act} for a written submission.",
    "Section {label} {abbr} - what does it lay down?",
)
_BY_SECTION_CRIMINAL = (
    "My client is proceeded against under Section {label} {abbr}. What does that provision say?",
    "The charge sheet invokes Section {label} {abbr}. What does the section say?",
)
_TERM_QUESTIONS = (
    "How does {act} define {topic}?",
    "What does {topic} mean under {act}?",
    "Is {topic} defined in {act}? What is the definition?",
)
_PUNISHMENT = (
    "What is the punishment for {topic} under {act}?",
    "What sentence can a court impose for {topic}?",
    "My client is accused of {topic}. What punishment does he face?",
    "Under {act}, how is {topic} punished?",
    "What is the maximum sentence for {topic}, and is fine also imposed?",
    "Is {topic} punishable with imprisonment under {act}?",
)
_DEFINITION = (
    "How does {act} define {topic}?",
    "When is a person said to commit {topic}?",
    "What are the ingredients of {topic} under {act}?",
    "What does the law mean by {topic}?",
)
_RULE = (
    "What does {act} say about {topic}?",
    "Which provision of {act} deals with {topic}, and what does it require?",
    "I am advising a client on {topic}. What does the statute say?",
    "What is the rule on {topic} under {act}?",
    "Is there a provision on {topic} in {act}? What does it say?",
)
_CHAPTER = (
    "Chapter {chapter} of {act} ({chapter_title}): what does it say about {topic}?",
    "Looking at the chapter of {act} on {chapter_title_lower}, what is the rule on {topic}?",
)
_AFTER = (
    "Counsel relies on Section {old} {old_abbr} in a matter whose facts are of {day}. Is that the right provision?",
    "What replaced Section {old} {old_abbr}, and what does it provide for facts of {day}?",
    "The facts are of {day}. What is the law on {topic}?",
    "For events on {day}, what does the law say about {topic}? The application cites Section {old} {old_abbr}.",
)
_AFTER_IPC = (
    "The FIR invokes Section {old} {old_abbr} for an incident on {day}. Which provision applies, and what does it say?",
    "My client was charged under Section {old} of {old_act} for events on {day}. Is that the right provision?",
)
_BEFORE = (
    "The offence was committed on {day}. Does Section {new} of {new_act} apply?",
    "For an incident on {day}, what was the law on {topic}?",
    "The petition, on facts of {day}, invokes Section {new} {new_abbr}. Is that correct?",
    "The facts are of {day}, before the new codes. Which provision governs {topic}, and what does it say?",
)


def act_name(act: str, title: str, rng: random.Random) -> str:
    names = ACT_NAMES.get(act)
    return rng.choice(names) if names else f"the {title}"


def abbr(act: str, title: str) -> str:
    """What follows "Section 12": "BNS", "of the Evidence Act", "of the Divorce Act, 1869"."""
    names = ACT_NAMES.get(act)
    if not names:
        return f"of the {title}"
    return names[0] if not names[0].startswith("the ") else f"of {names[0]}"


def topic_of(title: str | None, text: str) -> tuple[Kind, str] | None:
    """What a section is about, as a noun phrase, and how to ask about it (None: nothing to ask about)."""
    t = (title or "").strip().rstrip(".").strip()
    t = re.sub(r"^\d+[A-Z]?\.\s*", "", t)
    if not t or _HOUSEKEEPING.match(t):
        term = _TERM.search(text)
        if term and re.match(r"(?i)definition|interpretation", t):
            return Kind.DEFINITION, f"the term “{term.group(1).strip()}”"
        return None  # "Definitions" without a defined term, "Short title", "Repeal and savings": not questions
    low = _lower(t)
    m = re.match(r"(?i)punishment (?:for|of) (.+)", t)
    if m and _PUNISH.search(text):
        return Kind.PUNISHMENT, _lower(m.group(1))
    if m:
        return Kind.RULE, low  # a sub-unit of a punishment section that punishes nothing itself
    if punishes(t, text):
        return Kind.PUNISHMENT, low
    if _DEFINE.search(text) and len(t.split()) <= 5:
        return Kind.DEFINITION, low
    return Kind.RULE, low


def punishes(title: str | None, text: str) -> bool:
    """Whether a section punishes an offence: its text says "shall be punished" (or liable to fine or
    imprisonment) and its heading is not a procedural one that merely mentions a punishment."""
    t = re.sub(r"^\d+[A-Z]?\.\s*", "", (title or "").strip())
    if re.match(r"(?i)punishment (?:for|of) ", t):
        return True
    return bool(_PUNISH.search(text)) and not _NOT_OFFENCE.match(t)


def _lower(s: str) -> str:
    first = s.split(" ", 1)[0]
    return s if len(first) > 1 and (first.isupper() or any(ch.isupper() for ch in first[1:])) else s[:1].lower() + s[1:]


def _topic(chunk: Chunk) -> tuple[Kind, str]:
    return topic_of(chunk.title, chunk.text) or (Kind.RULE, "this subject")


def human_date(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.day} {d.strftime('%B')} {d.year}"


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    template: str
    """Its template, "punishment:3": eval rows use templates train rows never see (:func:`held_out`)."""


_FACT = (
    "If someone {clause}, what punishment can the court impose?",
    "A person who {clause}: what does {act} say he faces?",
    "What happens under {act} to a person who {clause}?",
    "Suppose a man {clause}. What sentence is he looking at?",
)
_KEYWORDS = (
    "Which provision of {act} deals with {keywords}, and what does it say?",
    "Is there anything in {act} about {keywords}? What does it provide?",
    "I need the rule in {act} on {keywords}. What does the statute say?",
)
_PREMISE = (
    "I was told that {topic} under {act} is punishable with {wrong} at most. Is that right?",
    "Opposing counsel says the sentence for {topic} can go up to {wrong}. Is that what {act} provides?",
    "Is it correct that {act} punishes {topic} with {wrong}?",
)
POOLS: dict[str, tuple[str, ...]] = {
    "by_section": _BY_SECTION, "by_section_criminal": _BY_SECTION_CRIMINAL, "term": _TERM_QUESTIONS,
    "punishment": _PUNISHMENT, "definition": _DEFINITION, "rule": _RULE, "chapter": _CHAPTER, "after": _AFTER,
    "after_ipc": _AFTER_IPC, "before": _BEFORE, "fact": _FACT, "keywords": _KEYWORDS, "premise": _PREMISE,
}  # fmt: skip


def held_out(pool: str, index: int) -> bool:
    """Eval-only templates: the last of every pool of three or more (train never sees its wording)."""
    return len(POOLS[pool]) >= 3 and index == len(POOLS[pool]) - 1


def pick(pool: str, rng: random.Random, split: str, **fields: str) -> Question:
    """A template of ``pool`` allowed in ``split`` (held-out ones only in eval, the rest only in train), filled."""
    templates = POOLS[pool]
    allowed = [i for i in range(len(templates)) if (split == "eval") == held_out(pool, i)]
    allowed = allowed or list(range(len(templates)))
    i = rng.choice(allowed)
    return Question(templates[i].format(**fields), f"{pool}:{i}")


_WHOEVER = re.compile(r"^(?:\(\w+\)\s*)?Whoever,?\s+(?P<clause>[^;:\u2014]{12,200}?),?\s+shall be punished\b")


def fact_clause(text: str) -> str | None:
    """The conduct a punishing section describes, as a lay fact ("dishonestly ... causes ..."), or None."""
    m = _WHOEVER.match(text.strip())
    if not m:
        return None
    clause = " ".join(m.group("clause").split()).strip(" ,")
    return None if re.search(r"\b(?:section|sub-section|clause|this Sanhita|this Act|this Code)\b", clause) else clause


def keywords_of(chunk: Chunk, avoid: str, n: int = 3) -> str | None:
    """Content words of the text that its heading does not use ("custody", "wages", "employer"), as a phrase."""
    banned = words(avoid) | words(chunk.title or "")
    seen: list[str] = []
    for w in re.findall(r"[a-z]{5,}", chunk.text.lower()):
        if w not in _STOP and w not in banned and w not in seen and w not in _VAGUE:
            seen.append(w)
        if len(seen) == n:
            break
    if len(seen) < n:
        return None
    return f"{', '.join(seen[:-1])} and {seen[-1]}"


_VAGUE = frozenset({"whoever", "person", "persons", "thereof", "therein", "whether", "provided", "shall",
                    "either", "description", "extend", "imprisonment", "liable", "punished", "punishable",
                    "which", "where", "there", "court", "under", "subject", "respect", "those", "being", "within",
                    "having", "against", "otherwise", "unless", "without", "another", "means", "includes"})


def about(chunk: Chunk, act_title: str, chapter: str | None, chapter_title: str | None, rng: random.Random,
          *, name_section: bool | None = None, split: str = "train", heading_free: bool = False) -> Question:
    """A question whose answer is ``chunk``. ``name_section``: True names the section, False never, None either.
    ``heading_free``: never the heading's words as the subject (a fact pattern or the text's own words)."""
    kind, topic = _topic(chunk)
    label = chunk.section + "".join(f"({p})" for p in chunk.sub.split("/")) if chunk.sub else chunk.section
    fields = {"label": label, "act": act_name(chunk.act, act_title, rng), "abbr": abbr(chunk.act, act_title),
              "topic": topic}  # fmt: skip
    if name_section is None:
        name_section = rng.random() < 0.25
    if name_section:
        pool = "by_section_criminal" if chunk.act in ("BNS", "IPC", "BNSS", "CRPC") and rng.random() < 0.3 \
            else "by_section"
        return pick(pool, rng, split, **fields)
    clause = fact_clause(chunk.text) if kind is Kind.PUNISHMENT else None
    if clause and (heading_free or rng.random() < 0.4):
        return pick("fact", rng, split, clause=clause, **fields)
    keywords = keywords_of(chunk, topic)
    if keywords and (heading_free or rng.random() < 0.25):
        return pick("keywords", rng, split, keywords=keywords, **fields)
    if heading_free:
        return pick("keywords", rng, split, keywords=keywords, **fields) if keywords else \
            Question("", "none")
    if chapter and chapter_title and rng.random() < 0.15:
        return pick("chapter", rng, split, chapter=chapter, chapter_title=chapter_title.strip().rstrip("."),
                    chapter_title_lower=_lower(chapter_title.strip().rstrip(".")), **fields)
    pool = {Kind.PUNISHMENT: "punishment", Kind.DEFINITION: "term" if topic.startswith("the term ") else "definition",
            Kind.RULE: "rule"}[kind]
    return pick(pool, rng, split, **fields)


def premise(chunk: Chunk, act_title: str, wrong: str, rng: random.Random, split: str) -> Question:
    """A question resting on a false premise: that ``chunk``'s offence is punished with ``wrong``."""
    _, topic = _topic(chunk)
    return pick("premise", rng, split, topic=topic, act=act_name(chunk.act, act_title, rng), wrong=wrong)


def across_2024(old: Chunk, new: Chunk, titles: dict[str, str], day: str, rng: random.Random,
                split: str = "train") -> Question:
    """A question about facts on ``day`` that straddles the 2024 replacement of ``old`` by ``new``."""
    found = topic_of(new.title, new.text) or topic_of(old.title, old.text)
    topic = found[1] if found else "this subject"
    old_label = old.section + "".join(f"({p})" for p in old.sub.split("/")) if old.sub else old.section
    new_label = new.section + "".join(f"({p})" for p in new.sub.split("/")) if new.sub else new.section
    fields = {"old": old_label, "new": new_label, "topic": topic, "day": human_date(day),
              "old_act": act_name(old.act, titles[old.act], rng), "old_abbr": abbr(old.act, titles[old.act]),
              "new_act": act_name(new.act, titles[new.act], rng),
              "new_abbr": abbr(new.act, titles[new.act])}  # fmt: skip
    pool = "before"
    if day >= "2024-07-01":
        pool = "after_ipc" if old.act == "IPC" and rng.random() < 0.3 else "after"
    return pick(pool, rng, split, **fields)


def missing_phrase(chunk: Chunk) -> str:
    """What an insufficient context lacks, in words: "a provision on the punishment for theft"."""
    kind, topic = _topic(chunk)
    if kind is Kind.PUNISHMENT:
        return f"a provision on the punishment for {topic}"
    if kind is Kind.DEFINITION:
        return f"a provision defining {topic}"
    return f"a provision on {topic}"
