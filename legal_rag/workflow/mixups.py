"""Old and new section numbers confused: "punishment for murder under section 302 BNS".

The 2024 codes renumbered almost everything, and the old numbers are what practitioners remember. A question that
names a section of one code while describing the subject of the same-numbered section of the other code (BNS 302
is "uttering words ... to wound religious feelings"; IPC 302 is "Punishment for murder", now BNS 103) rests on a
wrong premise. Quoting the section it names, as if it answered, would be a confident wrong answer; the answer
says which section the subject points to instead, and quotes that one (or, for facts after 2024-07-01, its
successor).

The test is deliberately strict, because telling a lawyer that a correct citation is wrong is worse than
missing a slip:

- the question's subject words (its words without the citations and without words every heading or question
  has) share no stem with the named section's heading;
- and the question is closer in meaning (the embedder's cosine) to the other code's heading than to the named
  section's: by any margin when it shares a subject word with that heading, by ``MEANING_ONLY_MARGIN`` when it
  shares none (a client's words: "slapped" for hurt). Without an embedder, a shared word alone decides.

When the headings decide nothing (no shared word, no margin in meaning), the sections' texts may: the question's
subject words are not in the named section's text at all, at least ``TEXT_MIN_SHARED`` of them (beyond words any
long section holds: "police", "station", "court") are in the other code's same-numbered section, and the question is
closer in meaning to that section's text ("default bail u/s 167 BNSS" after 60 days: BNSS 167, local inquiry, says
none of "arrest", "accused", "bail"; CrPC 167 says all three). A heading is a few words; a client asks in the words
of the text.

A named section that does not exist ("section 379 BNS") has no heading of its own: a shared word, or a cosine of
``MISSING_MIN_SIMILARITY`` to the other code's heading, decides. Measured on a grid of every section number both
codes hold and on development questions (``tests/integration/test_mixups.py``); the thresholds were chosen on a
first blind set of 44 questions (now a development set) and measured on a second.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from legal_rag.retrieval.hybrid import NEW_TO_OLD, OLD_TO_NEW
from legal_rag.workflow.coverage import subject_words
from legal_rag.workflow.generators.extractive import content_stems
from verification.model import CitationCheck, CitationStatus, Label

PARTNER_CODE = {**OLD_TO_NEW, **NEW_TO_OLD}
"""Each criminal code and the code that replaced it (or that it replaced): numbers are confused between them."""
OLD_CODES = frozenset(OLD_TO_NEW)
MIXUP_WARNING = "may be an old/new section number mix-up"
"""The words of the warning that flags one (the evaluation harness looks for them)."""

_GENERIC = content_stems(
    "punishment punishments punishable penalty penalties section sections provision provisions law laws code codes "
    "sanhita adhiniyam offence offences definition definitions chapter general explanation illustration sentence "
    "imprisonment fine commit committed committing abetment attempt being other than with without under from into "
    "such same certain cases case person persons act acts what which where when does still apply applies applicable "
    "governed govern now new old read covered cover deal deals dealt say says said please text mean means meaning "
    "relevant correct right permissible allowed whether can could would should "
    "order orders "
    "against after before within during between among through upon over towards beyond except "
    "ipc crpc cr.p.c bns bnss bsa iea bharatiya nyaya nagarik suraksha sakshya indian penal evidence criminal procedure"
)
"""Stems every heading or question may hold ("punishment", "section", "governed"), prepositions (IPC 85's "against his
will" is not what "an FIR against the husband ... u/s 85 IPC" is about), the codes' own names, and "order",
which any court or officer makes ("can the magistrate order interim maintenance ... u/s 144 CrPC" shares it with
"Power to issue order in urgent cases of nuisance" and is about maintenance): they name no subject. The actors of
procedure ("police", "officer", "powers") stay subject words: "Powers of superior officers of police" (CrPC 36) is
about them."""


@dataclass(frozen=True, slots=True)
class Side:
    """A section of one code: its act code, number and heading (None: the code has no such section)."""

    act: str
    section: str
    title: str | None

    def name(self) -> str:
        heading = f' ("{self.title.rstrip(".")}")' if self.title else ""
        return f"{self.act} s.{self.section}{heading}"


@dataclass(frozen=True, slots=True)
class NumberMixup:
    """A section the question names whose number belongs, for the subject it describes, to the other code."""

    named_as: str
    """The question's words for it ("section 302", "u/s 25")."""
    named: Side
    meant: Side
    targets: tuple[tuple[str, str], ...]
    """What answers the subject on the question's date: ``meant`` itself, or what replaced it."""

    def _answered_by(self) -> str:
        if self.targets == ((self.meant.act, self.meant.section),):
            return f"The answer below is from {self.meant.act} s.{self.meant.section}."
        listed = ", ".join(f"{a} s.{s}" for a, s in self.targets)
        that = "that" if len(self.targets) == 1 else "those"
        if self.meant.act in OLD_CODES:
            return (f"{self.meant.act} s.{self.meant.section} was replaced by {listed} on 2024-07-01; the answer below "
                    f"is from {that}.")
        return (f"{self.meant.act} s.{self.meant.section} replaced {listed} on 2024-07-01, and the older law governs "
                f"these facts; the answer below is from {that}.")

    def statement(self) -> str:
        """One or two sentences for the top of the answer: what the named section is, and what was meant."""
        if self.named.title is None:
            said = f"The {self.named.act} has no section {self.named.section}"
        else:
            said = f"{self.named.name()} is not about what the question describes"
        return (f"{said}: the subject matches {self.meant.name()}, the same number in the "
                f"{'old' if self.meant.act in OLD_CODES else 'new'} code. {self._answered_by()}")

    def warning(self) -> str:
        return (f"{self.named.act} s.{self.named.section} {MIXUP_WARNING}: the question "
                f"describes {self.meant.name()}.")


def subject_stems(text: str) -> set[str]:
    return content_stems(text) - _GENERIC


def _without_spans(text: str, spans: Sequence[tuple[int, int]]) -> str:
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + " " + text[end:]
    return text


MEANING_ONLY_MARGIN = 0.2
"""How much closer in meaning (cosine) the question must be to the other code's heading than to the named section's
when it shares no word with either ("neighbour slapped my father ... u/s 323 BNS": hurt, BNS 323 is removal of
property). Chosen on development questions: right citations among them reach 0.156 (BNS 304 for a snatching)."""
TEXT_MIN_SHARED = 3
"""Subject words of the question the other code's section text must hold, when the named section's text holds none,
for the texts to call a number confused (words every procedure section holds, ``_COMMONPLACE``, not counted). A
review found right citations with two such words in a longer section of the other code ("FIR quashed under section
482 CrPC": "police", "station" in BNSS 482; "hid a friend wanted for murder, section 212 IPC": "house", "murder"
in BNS 212); the development mix-ups the texts alone catch share three or more ("default bail u/s 167 BNSS":
"arrest", "accused", "bail", "days")."""
_COMMONPLACE = content_stems(
    "police station officer court magistrate state states statement used use using person persons case cases "
    "public government house jail custody time day days year years made make given give"
)
"""Words any long section of the procedure or penal codes is likely to hold, whatever it is about."""
MISSING_MIN_SIMILARITY = 0.25
"""A number the named code does not hold, described in other words than the other code's heading: the question must
be at least this close to that heading ("FIR u/s 363 BNS" for taking a 17-year-old girl: 0.56)."""

Similarity = Callable[[str, Sequence[str]], Sequence[float]]
"""Cosine similarity of a text to each of several texts (the product's embedder)."""


def find_mixups(
    question: str,
    checks: Sequence[CitationCheck],
    *,
    title: Callable[[str, str], str | None],
    exists: Callable[[str, str], bool],
    targets: Callable[[Side], tuple[tuple[str, str], ...]],
    similarity: Similarity | None = None,
    text: Callable[[str, str], str] | None = None,
) -> tuple[NumberMixup, ...]:
    """The question's provisions of the six criminal codes whose number it seems to take from the other code.
    ``title(act, section)``: a section's heading (None when unknown); ``exists``: whether the code has it;
    ``targets(meant)``: what answers the meant section's subject on the question's date; ``text(act, section)``: a
    section's whole text ("" when unknown), for when the headings decide nothing."""
    spans = [(c.start, c.end) for c in checks]
    rest = _without_spans(question, spans)
    subject = subject_stems(rest)
    if not subject:
        return ()
    out: dict[tuple[str, str], NumberMixup] = {}
    for c in checks:
        if c.label is not Label.PROVISION or not c.act or not c.section or c.act not in PARTNER_CODE:
            continue
        number = c.section.split("(")[0]
        other = PARTNER_CODE[c.act]
        if (c.act, number) in out:
            continue
        meant_title = title(other, number)
        if not meant_title or not exists(other, number):
            continue
        found = exists(c.act, number)  # "103(4) BNS" is NOT_FOUND for its sub-section, but s.103 exists
        named_title = title(c.act, number) if found else None
        if found and not (named_title and subject_stems(named_title)):
            continue  # a heading unknown, or naming no subject ("General explanations", BNS 3): nothing to contrast
        if found and c.status is CitationStatus.NOT_FOUND:
            continue  # the section exists but not the sub-unit cited: the checker's own warning says so
        shared = bool(subject & subject_stems(meant_title))
        if named_title is None:
            if not shared and (similarity is None or similarity(rest, [meant_title])[0] < MISSING_MIN_SIMILARITY):
                continue
        elif subject & subject_stems(named_title) or not (
                _by_headings(rest, c.section, named_title, meant_title, shared, similarity)
                or ("(" not in c.section and _by_texts(subject, rest, c.act, other, number, text, similarity))):
            continue  # a word of its own heading keeps the named section; else the headings, then the texts, decide
        meant = Side(other, number, meant_title)
        out[(c.act, number)] = NumberMixup(
            named_as=c.text, named=Side(c.act, number, named_title), meant=meant, targets=targets(meant),
        )  # fmt: skip
    return tuple(out.values())


def _by_headings(rest: str, cited: str, named_title: str, meant_title: str, shared: bool,
                 similarity: Similarity | None) -> bool:
    """The headings say the number is confused: the other code's heading shares a subject word (and, with an
    embedder, is the closer in meaning), or it is closer by ``MEANING_ONLY_MARGIN`` without one."""
    if similarity is None:
        return shared
    to_named, to_meant = similarity(rest, [named_title, meant_title])
    # A sub-section ("3(5) BNS", common intention) is about its own words, not its section's heading: only a shared
    # word lets the other code's heading claim it.
    margin = 0.0 if shared else MEANING_ONLY_MARGIN if "(" not in cited else None
    return margin is not None and to_meant - to_named >= margin and to_meant > to_named


def _by_texts(subject: set[str], rest: str, act: str, other: str, number: str,
              text: Callable[[str, str], str] | None, similarity: Similarity | None) -> bool:
    """The texts say the number is confused: none of the question's subject words is in the named section's text,
    ``TEXT_MIN_SHARED`` of them (not commonplace) are in the other code's same-numbered section, and the question is
    closer in meaning to that text than to the named one."""
    if text is None:
        return False
    named, meant = text(act, number), text(other, number)
    if subject & subject_stems(named):
        return False
    if len((subject - _COMMONPLACE) & subject_stems(meant)) < TEXT_MIN_SHARED:
        return False
    if similarity is None:
        return True
    to_named, to_meant = similarity(rest, [named[:TEXT_CHARS], meant[:TEXT_CHARS]])
    return to_meant > to_named


TEXT_CHARS = 1200
"""How much of each section's text the meaning check reads (the embedder reads about 256 word pieces)."""


def embedding_similarity(embedder: Any) -> Similarity:
    """``Similarity`` by an ``Embedder`` (its vectors are L2-normalised: the dot product is the cosine)."""

    def similarity(text: str, others: Sequence[str]) -> list[float]:
        vectors = embedder.embed([text, *others])
        return [float(vectors[0] @ v) for v in vectors[1:]]

    return similarity


UNCONFIRMED_MIN_SUBJECT = 4
"""Words of its own a question must tell, beyond its citations, for a cited section to be unconfirmed (``unconfirmed``):
"What does section 41A CrPC provide?" tells nothing a section could hold."""
UNCONFIRMED_MAX_SIMILARITY = 0.30
"""And the question must be this far in meaning (cosine) from the section's text: a story in lay words ("slapped my
daughter" for voluntarily causing hurt, 0.34) is near the right section though it shares no word with it. Chosen on
development questions: the three wrong answers at High whose cited section shares no word sat at 0.17-0.28, the right
ones at 0.10-0.44 (five of fifteen below 0.30)."""


_ASKING = content_stems(
    "someone somebody anyone anybody everyone everybody approach approached remedy remedies option options action "
    "told tell telling said asked want wants wanted help happen happens happened next legal legally lawyer advocate"
)
"""Words of asking and telling ("someone told me to approach ... what remedy"), not of the facts told."""


def unconfirmed(question: str, checks: Sequence[CitationCheck], text: Callable[[str, str], str], *,
                similarity: Similarity | None = None, skip: Collection[tuple[str, str]] = ()) -> tuple[str, ...]:
    """The sections the question cites ("Act s.N") whose heading and text hold none of the at least
    ``UNCONFIRMED_MIN_SUBJECT`` words it tells beyond its citations, and (with an embedder) are far from it in meaning
    (``UNCONFIRMED_MAX_SIMILARITY``): "Victim told the treating doctor who set her on fire shortly before she died.
    Admissible as a dying declaration under s. 32 BSA?" (BSA 32: statements of law in law books). Quoting such a
    section answers what it says, not whether it fits what the question tells, so the answer is not High. The words
    counted are the question's own: not the words of asking ("remedy", "approach", "someone"), those any long
    section holds (``_COMMONPLACE``) or stems of three letters. ``skip``: (act, section) said already not to be law
    (a premise), whose text is only the note of its repeal."""
    rest = _without_spans(question, [(c.start, c.end) for c in checks])
    subject = {s for s in subject_stems(rest) & set(subject_words(rest)) - _COMMONPLACE - _ASKING if len(s) > 3}
    if len(subject) < UNCONFIRMED_MIN_SUBJECT:
        return ()
    out: dict[str, None] = {}
    for c in checks:
        if c.label is not Label.PROVISION or not c.act or not c.section:
            continue
        number = c.section.split("(")[0]
        if (c.act, number) in skip:
            continue
        held = text(c.act, number)
        if not held or subject & subject_stems(held):
            continue
        if similarity is not None and similarity(rest, [held[:TEXT_CHARS]])[0] >= UNCONFIRMED_MAX_SIMILARITY:
            continue
        out.setdefault(f"{c.act} s.{number}")
    return tuple(out)


_SPANS = content_stems("day days week weeks month months year years time period")
"""Spans of time a story tells ("last month") and any punishing section holds ("six months"): no sign of its subject."""


FITS_ELSEWHERE_MIN = 2
"""Words of the story another Act's section must hold to be the one a number names (``fits_elsewhere``): one word in
common is chance ("property" in BNSS 506, "Irregularities which do not vitiate proceedings")."""


def fits_elsewhere(question: str, check: CitationCheck, text: Callable[[str, str], str],
                   others: Iterable[str]) -> str | None:
    """Another Act of ``others`` whose section of the number ``check`` reads holds a word the question tells, where the
    section ``check`` names holds none: "a 138 case notice for a cheque that bounced" is the NI Act's s.138 (which
    holds "cheque" and "notice"), not the IPC's; "my wife filed a 125 case for maintenance" the CrPC's. None when the
    question tells nothing of its own or the section named holds a word of it."""
    if not check.act or not check.section:
        return None
    rest = _without_spans(question, [(check.start, check.end)])
    subject = {s for s in subject_stems(rest) & set(subject_words(rest)) - _COMMONPLACE - _ASKING - _SPANS
               if len(s) > 3}
    number = check.section.split("(")[0]
    if not subject or subject & subject_stems(text(check.act, number)):
        return None
    for act in others:
        if act != check.act and len(subject & subject_stems(text(act, number) or "")) >= FITS_ELSEWHERE_MIN:
            return act
    return None


