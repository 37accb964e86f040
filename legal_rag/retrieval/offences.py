"""The offence channel: a long fact description matched against the provisions that make out offences.

A fact description narrates a case (witnesses, evidence, the trial, the appeal), so over the whole index
its words pull in procedure and evidence provisions ("Appeal from conviction", "Giving false evidence")
while the offences the facts make out rank below them. This channel ranks offence provisions only:
every section of the penal codes (their general principles, common intention, abetment, unlawful
assembly, are charged alongside the offences) and, in any other Act, a section that punishes (its heading
says "Punishment"/"Penalty", or its text "Whoever ..." / "shall ... be punished"). Each is a *card*: its
heading and text, plus the text of the section its punishment heading names ("Punishment for murder" ->
"Murder"), since a punishment section rarely describes the conduct. The query keeps only its offence
words: a term is dropped when offence provisions use it relatively less than the whole index does
("appellant", "prosecution", "evidence"), which leaves the conduct ("stab", "dowry", "forged").

Measured on the AILA 2019 training queries against the whole statute index (``legal-rag eval offences``).
``offence_partners`` reads the same headings to pair the section that defines an offence with the one that
punishes it ("Criminal breach of trust", "Punishment for criminal breach of trust").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from legal_rag.retrieval.chunking import referred_sections
from legal_rag.retrieval.lexical import BM25Index
from legal_rag.retrieval.tokenize import legal_tokens, light_stem
from legal_rag.retrieval.types import Chunk, Hit

PENAL_CODES = frozenset({"IPC", "BNS"})
"""Acts all of whose sections count: a charge under IPC 302 read with 34 cites both."""
PROCEDURE_CODES = frozenset({"CRPC", "BNSS", "IEA", "BSA", "CPC"})
"""Acts none of whose sections count: their "offence punishable with death" (CrPC 354, contents of a
judgment) and "Whoever desires any Court ..." (IEA 101, burden of proof) are procedure and evidence."""

_PUNISHING_HEADING = re.compile(r"^\W*(?:punishment|penalty|penalties|punishable)\b", re.IGNORECASE)
# "shall, without prejudice to any other provision of this Act, be punished" (NI Act s.138): an aside
# between commas may part "shall" from "be punished". Any wording looser than that ("shall ... be
# punishable" anywhere in a clause) let in registration and adoption sections with a penalty proviso
# and cost both AILA checks (MAP 0.223 -> 0.209, offences recall@10 0.229 -> 0.167).
_SHALL_BE_PUNISHED = r"\bshall(?:,[^.;:]{0,120}?,)?\s+be\s+punished\b"
_PUNISHING_TEXT = re.compile(rf"\bwhoever\b|{_SHALL_BE_PUNISHED}", re.IGNORECASE)
_PUNISHMENT_FOR = re.compile(r"^\W*(?:punishment|penalty|penalties)\s+(?:for|of)\s+", re.IGNORECASE)
_WORD = re.compile(r"[a-z]+")


def is_punishment_heading(title: str | None) -> bool:
    """ "Punishment for murder", "Penalty for ...": a heading that punishes rather than defines."""
    return bool(_PUNISHING_HEADING.match(title or ""))


def is_offence(act: str, title: str | None, text: str) -> bool:
    """Whether a section defines or punishes an offence (every penal-code section does)."""
    if act in PROCEDURE_CODES:
        return False
    return act in PENAL_CODES or is_punishment_heading(title) or bool(_PUNISHING_TEXT.search(text))


def punishes(title: str | None, text: str) -> bool:
    """Whether a section sets a punishment (its heading says so, or its text "shall ... be punished"), as
    against one that only defines ("Whoever commits ... is said to commit theft")."""
    return is_punishment_heading(title) or bool(_SETS_PUNISHMENT.search(text))


_SETS_PUNISHMENT = re.compile(_SHALL_BE_PUNISHED, re.IGNORECASE)
_DEFINES_OFFENCE = re.compile(
    r"\b(?:is\s+said\s+to\s+commit|is\s+guilty\s+of\s+the\s+offence|commits\s+the\s+offence)\b", re.IGNORECASE)


def makes_offence(title: str | None, text: str) -> bool:
    """Whether a section, whatever its Act, creates an offence: it punishes, or it defines what one commits."""
    return punishes(title, text) or bool(_DEFINES_OFFENCE.search(text))


def _subject(title: str, punishment: bool) -> str | None:
    """ "Punishment for murder." -> "murder" (``punishment``), "Murder." -> "murder"; else None."""
    t = title.strip()
    if punishment:
        rest = _PUNISHMENT_FOR.sub("", t)
        if rest == t:
            return None
        t = rest
    words = _WORD.findall(t.lower())
    return " ".join(light_stem(w) for w in words) if words else None


def offence_partners(titles: Mapping[str, str]) -> dict[str, str]:
    """Section key ("IPC:405") -> its partner in the same Act: the section headed "Punishment for X" for the one
    headed "X", and back. The old codes define an offence in one section and punish it in another (IPC 405
    "Criminal breach of trust", 406 "Punishment for criminal breach of trust"; 378/379 theft, 300/302 murder); an
    answer about the offence needs both. ``titles`` maps section keys to their headings. Only one-to-one pairs:
    a subject defined or punished twice in an Act pairs nothing."""
    defined: dict[tuple[str, str], list[str]] = {}
    punished: dict[tuple[str, str], list[str]] = {}
    for key, title in titles.items():
        act = key.split(":")[0]
        if _PUNISHMENT_FOR.match(title):
            subject = _subject(title, punishment=True)
            if subject:
                punished.setdefault((act, subject), []).append(key)
        elif (subject := _subject(title, punishment=False)) is not None:
            defined.setdefault((act, subject), []).append(key)
    out: dict[str, str] = {}
    for pair, keys in punished.items():
        other = defined.get(pair, [])
        if len(keys) == 1 and len(other) == 1 and keys[0] != other[0]:
            out[keys[0]], out[other[0]] = other[0], keys[0]
    return out


_PUNISHABLE = re.compile(r"\b(?:shall\s+be\s+punishable|shall\s+be\s+liable\s+to\s+(?:a\s+)?(?:penalty|fine))\b",
                         re.IGNORECASE)
_ENFORCES = re.compile(r"\b(?:in\s+contravention\s+of|contravenes|in\s+breach\s+of|in\s+violation\s+of|"
                       r"fails?\s+to\s+comply\s+with)\s+(?:(?:the\s+)?provisions?\s+of\s+)?", re.IGNORECASE)


def enforced_sections(title: str | None, text: str) -> list[str]:
    """The sections of its own Act whose rule a punishing provision enforces ("carries any firearm ... in
    contravention of section 3": ["3"]): a charge is framed under the punishment read with the rule (Arms Act
    s.25(1B)(a) r/w s.3; MV Act s.181 r/w s.3). Empty for a provision that punishes nothing, or names another law's
    section."""
    if not (punishes(title, text) or _PUNISHABLE.search(text)):
        return []
    out: list[str] = []
    for m in _ENFORCES.finditer(text):
        out.extend(n for n in referred_sections(text[m.end(): m.end() + 120].split(";")[0])[:2] if n not in out)
    return out


def read_with(groups: Mapping[str, tuple[str | None, Sequence[str]]]) -> dict[str, str]:
    """Section key -> the retrieved section of its Act whose rule it enforces (``enforced_sections`` over the texts
    retrieved of it); ``groups`` maps section keys, in retrieval order, to their heading and retrieved texts. Of
    several rules retrieved (the Arms Act's s.25 enforces ss.3, 5, 7 ...), the one retrieval put first: the one the
    question's facts fit best."""
    out: dict[str, str] = {}
    for key, (title, texts) in groups.items():
        act, number = key.split(":", 1)
        found = {f"{act}:{n}" for t in texts for n in enforced_sections(title, t) if n != number}
        first = next((k for k in groups if k in found), None)
        if first is not None:
            out[key] = first
    return out


@dataclass(frozen=True, slots=True)
class OffenceCard:
    key: str
    """ "BNS:103": act and section."""
    chunk_id: str
    """The section's first chunk: the id its hits carry (as the heading index does)."""
    text: str


def offence_cards(chunks: Iterable[Chunk]) -> list[OffenceCard]:
    """One card per offence section of ``chunks``: heading, text, and the defined offence's text."""
    parts: dict[str, list[Chunk]] = {}
    for c in chunks:
        parts.setdefault(f"{c.act}:{c.section}", []).append(c)
    sections = {k: sorted(v, key=lambda c: (c.sub or "", c.part)) for k, v in parts.items()}
    text = {k: " ".join(c.text for c in v) for k, v in sections.items()}
    title = {k: v[0].title or "" for k, v in sections.items()}
    defined: dict[tuple[str, str], str] = {}
    for k, t in title.items():
        subject = _subject(t, punishment=False)
        if subject and not _PUNISHMENT_FOR.match(t):
            defined.setdefault((k.split(":")[0], subject), k)
    out = []
    for k, v in sections.items():
        if not is_offence(v[0].act, title[k], text[k]):
            continue
        subject = _subject(title[k], punishment=True)
        named = defined.get((v[0].act, subject)) if subject else None
        extra = text[named] if named and named != k else ""
        out.append(OffenceCard(k, v[0].id, "\n".join(p for p in (title[k], text[k], extra) if p)))
    return out


class OffenceChannel:
    """BM25 over offence cards, for a query reduced to its offence words.

    Args:
        cards: The offence cards (``offence_cards``).
        whole: The index over every chunk, whose document frequencies say which words are
            ordinary across all provisions.
    """

    def __init__(self, cards: Sequence[OffenceCard], whole: BM25Index) -> None:
        self.cards = BM25Index(None).open()
        self.cards.upsert([(c.chunk_id, c.text) for c in cards])
        self._whole = whole
        self._size = len(cards)

    def offence_terms(self, query: str) -> list[str]:
        """The query's terms (repeats kept) that offence cards use at least as often, relatively, as
        the whole index: ``df_cards(t) / N_cards >= df_all(t) / N_all``."""
        terms = legal_tokens(query)
        distinct = list(dict.fromkeys(terms))
        n_all = len(self._whole)
        if not distinct or not self._size or not n_all:
            return []
        in_cards = self.cards.doc_freq(distinct)
        in_all = self._whole.doc_freq(distinct)
        keep = {t for t, dc, da in zip(distinct, in_cards, in_all, strict=True)
                if dc and dc * n_all >= da * self._size}  # fmt: skip
        return [t for t in terms if t in keep]

    def search(self, query: str, k: int, allow: Collection[str] | None = None) -> list[Hit]:
        """The ``k`` best offence sections for ``query``, as hits on their first chunk ids."""
        return self.cards.search_terms(self.offence_terms(query), k, allow)
