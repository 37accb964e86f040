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
from datetime import date
from enum import StrEnum

from legal_rag.retrieval.types import Chunk

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


class Kind(StrEnum):
    PUNISHMENT = "punishment"
    DEFINITION = "definition"
    RULE = "rule"


_HOUSEKEEPING = re.compile(r"(?i)^(?:definitions?|interpretation|short title|extent|commencement|repeal|"
                          r"savings?|power to make rules|power of .* to make rules|rules|regulations|omitted)\b")
_TERM = re.compile(r"[“\"]([^”\"]{2,40})[”\"]\s+(?:means|includes|shall mean|shall include)")
_PUNISH = re.compile(r"\bshall be punished\b|\bpunishable\b|\bshall be liable to (?:fine|imprisonment)\b")
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
    if m:
        return Kind.PUNISHMENT, _lower(m.group(1))
    if _PUNISH.search(text):
        return Kind.PUNISHMENT, low
    if _DEFINE.search(text) and len(t.split()) <= 5:
        return Kind.DEFINITION, low
    return Kind.RULE, low


def _lower(s: str) -> str:
    first = s.split(" ", 1)[0]
    return s if len(first) > 1 and (first.isupper() or any(ch.isupper() for ch in first[1:])) else s[:1].lower() + s[1:]


def _topic(chunk: Chunk) -> tuple[Kind, str]:
    return topic_of(chunk.title, chunk.text) or (Kind.RULE, "this subject")


def human_date(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.day} {d.strftime('%B')} {d.year}"


def about(chunk: Chunk, act_title: str, chapter: str | None, chapter_title: str | None, rng: random.Random,
          *, name_section: bool | None = None) -> str:
    """A question whose answer is ``chunk``. ``name_section``: True names the section, False never, None either."""
    kind, topic = _topic(chunk)
    label = chunk.section + "".join(f"({p})" for p in chunk.sub.split("/")) if chunk.sub else chunk.section
    fields = {"label": label, "act": act_name(chunk.act, act_title, rng), "abbr": abbr(chunk.act, act_title),
              "topic": topic}  # fmt: skip
    if name_section is None:
        name_section = rng.random() < 0.3
    if name_section:
        pool = _BY_SECTION + (_BY_SECTION_CRIMINAL if chunk.act in ("BNS", "IPC", "BNSS", "CRPC") else ())
        return rng.choice(pool).format(**fields)
    if chapter and chapter_title and rng.random() < 0.15:
        return rng.choice(_CHAPTER).format(chapter=chapter, chapter_title=chapter_title.strip().rstrip("."),
                                           chapter_title_lower=_lower(chapter_title.strip().rstrip(".")), **fields)
    definition = _TERM_QUESTIONS if topic.startswith("the term ") else _DEFINITION
    templates = {Kind.PUNISHMENT: _PUNISHMENT, Kind.DEFINITION: definition, Kind.RULE: _RULE}[kind]
    return rng.choice(templates).format(**fields)


def across_2024(old: Chunk, new: Chunk, titles: dict[str, str], day: str, rng: random.Random) -> str:
    """A question about facts on ``day`` that straddles the 2024 replacement of ``old`` by ``new``."""
    found = topic_of(new.title, new.text) or topic_of(old.title, old.text)
    topic = found[1] if found else "this subject"
    old_label = old.section + "".join(f"({p})" for p in old.sub.split("/")) if old.sub else old.section
    new_label = new.section + "".join(f"({p})" for p in new.sub.split("/")) if new.sub else new.section
    fields = {"old": old_label, "new": new_label, "topic": topic, "day": human_date(day),
              "old_act": act_name(old.act, titles[old.act], rng), "old_abbr": abbr(old.act, titles[old.act]),
              "new_act": act_name(new.act, titles[new.act], rng),
              "new_abbr": abbr(new.act, titles[new.act])}  # fmt: skip
    templates = (_AFTER + (_AFTER_IPC if old.act == "IPC" else ())) if day >= "2024-07-01" else _BEFORE
    return rng.choice(templates).format(**fields)


def missing_phrase(chunk: Chunk) -> str:
    """What an insufficient context lacks, in words: "a provision on the punishment for theft"."""
    kind, topic = _topic(chunk)
    if kind is Kind.PUNISHMENT:
        return f"a provision on the punishment for {topic}"
    if kind is Kind.DEFINITION:
        return f"a provision defining {topic}"
    return f"a provision on {topic}"
