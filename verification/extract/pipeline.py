"""The spaCy pipeline: a fast tokenizer, one rule component per citation type, and an overlap resolver.

``spacy.blank("en")`` with its tokenizer replaced: the stock English tokenizer spent 1.5 s on 1 MB of
judgment text here (prefix/suffix/exception rules we do not need); a regex tokenizer that splits words and
punctuation takes about 0.25 s and makes "Cr.P.C." and "Cr. P. C." the same token sequence, which is what
the abbreviation PhraseMatcher wants.

Every component appends character-offset candidates to ``doc._.candidates``: the regex scanners keep exact
offsets even where a span does not fall on token boundaries. ``citation_resolver`` keeps the best
non-overlapping set there, sorted by start, and mirrors it in ``doc.spans["citations"]`` (token-aligned,
widened where a span starts or ends inside a token).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import spacy
from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc
from spacy.vocab import Vocab

from graph_schema.acts import CURATED
from verification.extract.notifications import find_notifications
from verification.extract.precedents import find_precedents
from verification.extract.provisions import ProvisionMatch, find_provisions
from verification.extract.statutes import ABBREVIATIONS, NEEDS_YEAR, find_named_statutes, find_said, year_tail
from verification.extract.tagger import PrecedentRetagger, RulesOnly, shipped_tagger
from verification.model import Label

_TOKEN = re.compile(r"([^\W_]+|_+|[^\w\s])( )?|(\s+)")
_YEAR = re.compile(r"\d{4}")
_TEXT_KEY = "citation_source_text"


def source_text(doc: Doc) -> str:
    """The text a doc was made from. ``doc.text`` rebuilds it token by token, which costs seconds per MB."""
    text = doc.user_data.get(_TEXT_KEY)
    return text if isinstance(text, str) else doc.text


class FastTokenizer:
    """Words and single punctuation marks; whitespace other than one trailing space becomes a token."""

    def __init__(self, vocab: Vocab) -> None:
        self.vocab = vocab

    def __call__(self, text: str) -> Doc:
        parts = _TOKEN.findall(text)
        words = [word or ws for word, _, ws in parts]
        spaces = [bool(space) for _, space, _ in parts]
        doc = Doc(self.vocab, words=words, spaces=spaces)
        doc.user_data[_TEXT_KEY] = text
        return doc

    # spaCy calls these when it serialises a pipeline; the tokenizer has no state to save.
    def to_bytes(self, **_: object) -> bytes:
        return b""

    def from_bytes(self, _data: bytes, **__: object) -> FastTokenizer:
        return self

    def to_disk(self, _path: object, **__: object) -> None:
        return None

    def from_disk(self, _path: object, **__: object) -> FastTokenizer:
        return self


@dataclass(slots=True)
class Candidate:
    """A span proposed by one component, in character offsets."""

    start: int
    end: int
    label: Label
    kind: str
    name: str | None = None
    said: bool = False
    normalised: str | None = None
    provision: ProvisionMatch | None = None
    extra: dict[str, str] = field(default_factory=dict)


# Which label wins when two spans overlap and are equally long.
_PRIORITY = {Label.PRECEDENT: 0, Label.PROVISION: 1, Label.STATUTE: 2, Label.NOTIFICATION: 3}


def _ensure_extensions() -> None:
    if not Doc.has_extension("candidates"):
        Doc.set_extension("candidates", default=None)
    if not Doc.has_extension("citations"):
        Doc.set_extension("citations", default=None)


def _add(doc: Doc, cands: Iterable[Candidate]) -> None:
    if doc._.candidates is None:
        doc._.candidates = []
    doc._.candidates.extend(cands)


@Language.component("citation_provisions")
def provisions_component(doc: Doc) -> Doc:
    """PROVISION candidates from the provision scanner."""
    found = find_provisions(source_text(doc))
    _add(doc, (Candidate(m.start, m.end, Label.PROVISION, m.kind, provision=m) for m in found))
    return doc


class StatuteComponent:
    """STATUTE candidates: named Acts (head-word scanner), abbreviations (PhraseMatcher), "the said Act"."""

    def __init__(self, nlp: Language) -> None:
        # In any case: lawyers write "crpc", "Crpc" and "CrPc" as often as "CrPC".
        self.matcher = PhraseMatcher(nlp.vocab, attr="LOWER")
        self.names: dict[int, str] = {}
        for canonical, variants in ABBREVIATIONS:
            key = nlp.vocab.strings.add(canonical)
            self.names[key] = canonical
            self.matcher.add(canonical, [nlp.make_doc(v) for v in variants])
        # The names of the Acts we ship, typed in lower case ("under the senior citizens act"): the head-word
        # scanner reads capitalised names only.
        self.lowercase = PhraseMatcher(nlp.vocab, attr="LOWER")
        for name in LOWERCASE_NAMES:
            key = nlp.vocab.strings.add(name)
            self.names[key] = name
            self.lowercase.add(name, [nlp.make_doc(name)])

    def __call__(self, doc: Doc) -> Doc:
        text = source_text(doc)
        cands = [Candidate(m.start, m.end, Label.STATUTE, m.kind, name=m.name) for m in find_named_statutes(text)]
        cands.extend(Candidate(m.start, m.end, Label.STATUTE, "said", name=m.name, said=True) for m in find_said(text))
        for match_id, start, end in self.matcher(doc):
            span = doc[start:end]
            s, e = span.start_char, span.end_char
            # The matcher ignores spaces between tokens: "Cr.PC ." is "Cr.PC" and a full stop.
            while e - s > 1 and text[e - 1] == "." and text[e - 2].isspace():
                e = len(text[:e - 1].rstrip())
            if not _standalone(text, s, e):
                continue
            name = self.names[match_id]
            end = year_tail(text, e)
            year = _YEAR.search(text, e, end)
            if year is None and name in NEEDS_YEAR:
                continue
            # The year as written goes to the resolver: "Cr.P.C. 1898" is not the Code of 1973.
            cands.append(Candidate(s, end, Label.STATUTE, "abbreviation",
                                   name=f"{name}, {year.group()}" if year else name))
        for match_id, start, end in self.lowercase(doc):
            span = doc[start:end]
            s, e = span.start_char, span.end_char
            if not text[s].islower() or not _standalone(text, s, e) or any(
                    c.start < e and s < c.end for c in cands):
                continue  # written with capitals, the scanner has it
            if not _NAMED_BEFORE.search(text[max(0, s - 12):s]):
                continue  # "does the arbitration clause ... act as a bar", "the new penal code"
            end = year_tail(text, e)
            year = _YEAR.search(text, e, end)
            name = self.names[match_id]
            cands.append(Candidate(s, end, Label.STATUTE, "name", name=f"{name}, {year.group()}" if year else name))
        _add(doc, cands)
        return doc


LOWERCASE_NAMES: tuple[str, ...] = tuple(sorted({
    alias for act in CURATED for alias in act.aliases
    if alias.endswith((" Act", " Code", " Sanhita", " Adhiniyam")) and "." not in alias and len(alias.split()) >= 3
    and not any(w.isupper() and len(w) > 1 for w in alias.split())}))
"""The curated names of the Acts we ship, spelt out in three words or more and ending in their head word ("Senior
Citizens Act", "Hindu Marriage Act", "Bharatiya Nyaya Sanhita"; not "NI Act", nor "Contract Act", "Evidence Act" or
"Penal Code", which lower case makes ordinary words: "the contract act as a bar", "the new penal code"): a client
types them in lower case."""
_NAMED_BEFORE = re.compile(r"(?<![\w-])(?<!new\s)(?:the|under|of|per|u/s)\s+$", re.IGNORECASE)
"""What comes before an Act's name typed in lower case: "under the senior citizens act", "of the hindu marriage
act"; not "the new ..." nor a name inside another ("the marriage registration act")."""


def _standalone(text: str, start: int, end: int) -> bool:
    """An abbreviation is a whole word: not "IPC" in "IPCs", not "C.P.C." inside "S.C.P.C.R."."""
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    if before.isalnum() or before in "._/-" or after.isalnum() or after in "_/-":
        return False
    return not (after == "." and end + 1 < len(text) and text[end + 1].isalpha())


@Language.factory("citation_statutes")
def make_statute_component(nlp: Language, name: str) -> StatuteComponent:
    return StatuteComponent(nlp)


class PrecedentComponent:
    """PRECEDENT candidates: case names, citation chains, and both joined (``precedents``), their edges re-drawn
    by ``retagger`` (``build_pipeline`` sets the learned tagger; the rules' spans as they are otherwise)."""

    def __init__(self, retagger: PrecedentRetagger) -> None:
        self.retagger = retagger

    def __call__(self, doc: Doc) -> Doc:
        text = source_text(doc)
        found = self.retagger.retag(text, find_precedents(text))
        _add(doc, (Candidate(m.start, m.end, Label.PRECEDENT, m.kind, normalised=m.normalised) for m in found))
        return doc


@Language.factory("citation_precedents")
def make_precedent_component(nlp: Language, name: str) -> PrecedentComponent:
    return PrecedentComponent(RulesOnly())


@Language.component("citation_notifications")
def notifications_component(doc: Doc) -> Doc:
    """NOTIFICATION candidates: Gazette notification numbers and RBI circulars."""
    _add(doc, (Candidate(m.start, m.end, Label.NOTIFICATION, m.kind, normalised=m.normalised)
               for m in find_notifications(source_text(doc))))
    return doc


@Language.component("citation_resolver")
def resolver_component(doc: Doc) -> Doc:
    """Keep a non-overlapping set of candidates (longest first, then by label priority), sorted by start."""
    cands: list[Candidate] = doc._.candidates or []
    cands = [c for c in cands if c.end > c.start]
    cands.sort(key=lambda c: (-(c.end - c.start), _PRIORITY[c.label], c.start))
    taken: list[Candidate] = []
    starts: list[int] = []  # sorted starts of taken spans; taken spans never overlap
    ends: list[int] = []
    for c in cands:
        i = bisect.bisect_right(starts, c.start)
        if (i and ends[i - 1] > c.start) or (i < len(starts) and starts[i] < c.end):
            continue
        starts.insert(i, c.start)
        ends.insert(i, c.end)
        taken.append(c)
    taken.sort(key=lambda c: c.start)
    doc._.candidates = taken
    spans = [doc.char_span(c.start, c.end, label=c.label.value, alignment_mode="expand") for c in taken]
    doc.spans["citations"] = [s for s in spans if s is not None]
    return doc


def build_pipeline(precedent_retagger: PrecedentRetagger | None = None) -> Language:
    """``spacy.blank("en")`` with the fast tokenizer and the citation components, in order.

    ``precedent_retagger`` re-draws the rules' PRECEDENT spans: the shipped learned tagger by default,
    ``tagger.RulesOnly()`` for the rules alone.
    """
    _ensure_extensions()
    nlp = spacy.blank("en")
    nlp.tokenizer = FastTokenizer(nlp.vocab)
    nlp.add_pipe("citation_provisions")
    nlp.add_pipe("citation_statutes")
    precedents = nlp.add_pipe("citation_precedents")
    assert isinstance(precedents, PrecedentComponent)
    precedents.retagger = precedent_retagger or shipped_tagger()
    nlp.add_pipe("citation_notifications")
    nlp.add_pipe("citation_resolver")
    return nlp
