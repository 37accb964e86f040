"""The dates a question gives, each attached to the event it dates, and the two days the workflow needs from them.

The new criminal codes came into force on 2024-07-01. An offence committed before that day is governed by the
IPC (BNS 358(2)); proceedings pending on it continue under the CrPC (BNSS 531(2)(a)) and keep what was done
under the Evidence Act (BSA 170). ``read_dates`` finds the date words a user writes ("5th March, 2024",
"05-03-24", "Nov 2023", "in early 2023", "two years back", "before the new laws came in"), reads each as a span
of days and attaches it to the event its clause tells (an offence, a proceeding, a conviction, a life event, a
law); ``offence_day`` and ``pending_since`` derive from those events.

How: ``date_spans`` finds the date words and reads each as a span of days (our own patterns, parsed by
dateparser in Indian day-month order); here each span is attached to the nearest event word of its clause (a
verb before it, else after it, else a noun). Festivals ("on Diwali 2023") are left unread: the offence they
date is then undated, which means the new code.

Every doubt means the new code, because wrongly dating an offence before 2024-07-01 reports a repealed IPC
section verified: a span that reaches 2024-07-01 ("in 2024", "mid 2024", "two years ago" told in 2026), a
continuing offence ("since 2022", "has been harassing"), an offence told without a date beside a dated one,
a date whose clause also tells of a proceeding, all leave the offence undated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from enum import Enum

from legal_rag.workflow.date_spans import CUTOVER, OPEN_START, Span, find_spans

__all__ = ["BIGAMY", "CUTOVER", "OPEN_START", "DatedEvent", "EventKind", "goes_on", "offence_day", "pending_since",
           "read_dates"]


class EventKind(Enum):
    """What a date dates."""

    OFFENCE = "offence"
    PROCEEDING = "proceeding"  # FIR, complaint, arrest, investigation, charge sheet, trial, appeal, bail, summons
    CONVICTION = "conviction"  # a conviction, sentence or acquittal, or a past record ("a prior theft case")
    LIFE = "life"  # marriage, birth, purchase, employment, a deed, a death
    LAW = "law"  # enactment, notification, amendment, commencement
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class DatedEvent:
    """A date the question writes and the event it dates.

    ``start``..``end`` is the span of the date as written: a day ("5 Mar 2024") is one day, a month ("Nov 2023")
    its days, a year ("in 2023") the whole year, an approximate time ("two years back") a span around it, a
    bound ("before 1 July 2024") runs from ``OPEN_START``. ``ongoing`` marks an event that began in the span and
    continues ("since 2022", "has been harassing"). An offence told without a date is an event too, dated
    ``today`` with an empty ``phrase``: it may be today's.
    """

    start: date
    end: date
    kind: EventKind
    phrase: str
    clause: str
    ongoing: bool = False
    by: bool = False
    """Told without a date before a dated event that followed it: committed by ``end`` (``phrase`` "by March
    2024"), not within the span."""


# -- the events the clauses tell -----------------------------------------------------------------------------

def _i(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_DOING = (r"(?:\s+[^\s.?!;,]+){0,3}?\s+(?!(?:during|morning|evening|building|nothing|something|anything|"
          r"everything|being)\b)\w+ing\b|(?:\s+[^\s.?!;,]+){0,3}?\s+(?<!along\s)with\s+(?!(?:the\s+)?(?:help|aid|"
          r"assistance)\b)|\s+red-?handed|(?:\s+[^\s.?!;,]+){0,3}?\s+(?:carrying|in\s+possession)\b")
"""What someone was caught doing or holding, within four words ("caught in Dec 2023 riding a bike", "nabbed with
stolen phones"); not when or how ("caught him during a raid", "with the help of CCTV", "along with two others")."""
_CAUGHT_VERB = (r"(?:caught(?!\s+(?:an?\s+|the\s+)?(?:cold|fever|flu|covid|infection|fire|train|bus|flight|up)\b)|"
                r"nabbed|apprehended)")
_CAUGHT_WORDS = rf"{_CAUGHT_VERB}(?={_DOING})|red-?handed"
"""Being caught at an offence: it dates the offence caught; undated, it tells an arrest."""
_ARRESTED = rf"{_CAUGHT_VERB}(?!{_DOING})"
"""Caught with nothing told of what at ("The police caught him only last month"): an arrest."""
_AUX = r"(?:is|are|was|were|been|be|am|keeps|kept|keep|started|continues|continued|go(?:es)?\s+on)\s+(?:\w+\s+)?$"
_VEHICLE = (r"\b(?:car|cars|truck|lorry|bus|vehicle|bike|motorcycle|motorbike|scooter|scooty|tractor|van|tempo|auto|"
            r"jeep|suv|taxi|cab|train|dumper|trolley|driver)\b")
"""What runs someone over or knocks someone down ("a speeding van knocked my mother down"), as against a budget run
over or interest knocked down."""
_OFFENCE_NOUNS = (r"theft|robbery|dacoity|murder|offences?|crime|incident|fraud|cheating|assault|extortion|"
                  r"harassment|cruelty|kidnapping|rape|forgery|trespass|burglary|defamation|stalking|snatching")
"""The nouns by which a story names an offence ("the theft", "a cheating case")."""
_UNDER_SECTION = (r"(?:\s+(?:under|u/s\.?)\s+(?:sections?\s+|s\.\s*)?\d{1,3}[a-z]{0,2}(?:\(\w+\))*"
                  r"(?:\s+(?:of\s+(?:the\s+)?)?(?:IPC|BNS|I\.P\.C\.?|Indian\s+Penal\s+Code|Bharatiya\s+Nyaya\s+Sanhita))?"
                  r"|\s*\(\s*(?:s\.\s*|sec(?:tion)?\.?\s*|u/s\.?\s*)?\d{1,3}[a-z]{0,2}(?:\(\w+\))*\s*(?:IPC|BNS)?\s*\))?")
"""The section a proceeding's offence is told under, between the offence and the proceeding's verb ("under 420 IPC",
"(s.323 IPC)")."""
_TRIGGERS: tuple[tuple[EventKind | None, bool, re.Pattern[str]], ...] = (
    # (kind, is a verb, words); kind None is a verb that takes the kind of the noun it tells of ("began")
    (EventKind.CONVICTION, True, _i(
        r"\b(?:convicted|sentenced|acquitted|(?:previous|prior|earlier|past|old)\s+(?:\w+\s+)?(?:case|offence|crime|"
        r"incident|conviction|record|theft|FIR|complaint)s?)\b")),
    (EventKind.CONVICTION, False, _i(r"\b(?:conviction|sentence|acquittal|criminal\s+record|history(?:-sheeter)?)\b")),
    # a death told by the harm that caused it is the offence's day ("in 2021 she died of burns in their house",
    # "was found hanging"), not a death of age or illness, a life event
    (EventKind.OFFENCE, True, _i(
        r"\b(?:died|dies|death)\s+(?:of|from|due\s+to)\s+(?:(?:his|her|the|severe|serious|multiple)\s+)?"
        r"(?:burns?|burn\s+injuries|poison\w*|stab\s+wounds?|gunshot\s+wounds?|injuries|head\s+injur\w*)\b|"
        r"\b(?:died|death)\s+in\s+(?:police\s+|judicial\s+)?custody\b|"
        r"\bfound\s+(?:\w+\s+){0,3}?(?:dead|hanging)\b|\bbody\s+(?:of\s+(?:\w+\s+){1,3}?)?(?:was\s+)?found\b|"
        r"\b(?:burnt|burned)\s+to\s+death\b")),
    # a relationship on a promise to marry that was false is the offence told (BNS 69, IPC 376/417), not a marriage
    (EventKind.OFFENCE, True, _i(
        r"\b(?:false|fake|sham)\s+(?:promises?|assurances?)\s+(?:of|to)\s+marr(?:iage|y)\b|"
        r"\bon\s+(?:the|a|his|her)\s+(?:promise|assurance)\s+(?:of|to)\s+marr(?:iage|y)\b|"
        r"\b(?:on\s+the\s+)?(?:pretext|pretence|pretense)\s+of\s+marriage\b")),
    (EventKind.LIFE, True, _i(
        r"\b(?:(?:got\s+)?married|wed|bought|purchased|sold|born|joined|employed|hired|worked|appointed|retired|"
        r"shifted|met|known|knew|owned|rented|leased|lent|borrowed|divorced|separated|executed|signed|died|"
        r"passed\s+away|took\s+(?:a|the)\s+loan|gave\s+birth|graduated)\b")),
    (EventKind.LIFE, False, _i(r"\b(?:marriage|wedding|birth|employment|job|purchase|sale\s+deed|agreement|loan|"
                               r"lease|death|engagement)\b")),
    (EventKind.LAW, True, _i(r"\b(?:enacted|notified|amended|repealed|introduced|came\s+into\s+(?:force|effect)|"
                             r"(?:was|were)\s+passed|brought\s+into\s+force)\b")),
    (EventKind.LAW, False, _i(r"\b(?:notification|amendment|ordinance|gazette)\b")),
    (EventKind.PROCEEDING, True, _i(
        r"\b(?:lodged|filed|registered|arrest(?:ed)?|summoned|remanded|charge-?sheeted|instituted|detained|"
        r"charged|investigated|seized|raided|booked|"
        # moved a court or an application, not moved house ("till I moved out in April 2023")
        # taken by the police ("picked up by police after a fight", "taken into custody")
        r"(?:picked|taken|lifted|dragged)\s+(?:up\s+|away\s+)?by\s+(?:the\s+)?police|taken\s+into\s+(?:police\s+)?"
        r"custody|"
        r"moved\s+(?:(?:a|an|the|his|her|their|my|our)\s+)?(?:\w+\s+)?(?:application|petition|plea|bail|(?:high|"
        r"supreme|district|sessions|family)\s+court|court|magistrate|tribunal|commission)|"
        rf"granted\s+bail|applied\s+for\s+bail|took\s+cognizance|framed|{_ARRESTED}|"
        # a step of the police's investigation ("the police recorded my statement", "made me confess", "questioned
        # him"), which dates the investigation, not an offence by the police
        # (not impostors: "two men posing as police questioned me")
        r"(?<!\bas\s)(?<!\bfake\s)(?<!\bbogus\s)(?<!\bfrom\s)police\s+(?:\w+\s+){0,2}?(?:recorded|questioned|"
        r"interrogated|searched|took\s+(?:down\s+)?(?:\w+\s+)?"
        r"statements?|(?:made|forced|asked)\s+(?:me|him|her|them|us)\s+(?:\w+\s+)?(?:to\s+)?(?:confess|sign))|"
        r"confess(?:ed)?\s+(?:\w+\s+){0,3}?(?:to|before)\s+(?:the\s+)?police|statements?\s+(?:was\s+|were\s+)?"
        r"recorded)\b")),
    (EventKind.PROCEEDING, False, _i(
        r"\b(?:FIR|F\.I\.R\.?|complaint|case|trial|appeal|bail|charge-?sheet|investigation|inquiry|enquiry|hearing|"
        r"summons|warrant|proceedings?|revision|cognizance|remand|police\s+report|bail\s+application|"
        # a step of a prosecution taken before its trial ("a proclamation was issued against him in 2023", "sanction
        # to prosecute was granted in March 2024")
        r"proclamation|sanction\s+(?:to|for)\s+(?:prosecut\w*|the\s+prosecution)|prosecution\s+sanction)\b"
        # the offence a proceeding under way is for is what it is about, not an event of its own ("my father's trial
        # for cheating has been going on since 2022": the trial's day, not the cheating's); only where the proceeding's
        # own verb follows, not "a complaint for the fraud done to me in May 2024", "a case of theft happened"
        rf"(?:\s+for\s+(?:an?\s+|the\s+)?(?:{_OFFENCE_NOUNS})(?:\s+and\s+(?:{_OFFENCE_NOUNS}))?(?=(?:\s+(?:in|of)\s+#+)?"
        # the section it is under may stand between ("trial for cheating under 420 IPC has been going on since 2022")
        rf"{_UNDER_SECTION}"
        r",?\s+(?:has|have|had|is|are|was|were|began|begun|started|commenced|pending|going|still|since)\b))?")),
    # not "application", "petition", "suit" alone: a job application or a civil suit is no criminal proceeding
    (None, True, _i(r"\b(?:began|begun|begin|started|commenced|pending|took\s+place|happened|occurred|"
                    r"was\s+held)\b")),
    (EventKind.OFFENCE, True, _i(
        # (not "cheated on me": adultery, no offence since Joseph Shine (2018) struck down IPC 497)
        r"\b(?:committ(?:ed|ing)|cheat(?:ed|ing|s)?(?!\s+on\b)|stole|stolen|steal(?:s|ing)?|robbed|looted|kill(?:ed|ing)|"
        r"murder(?:ed|ing)|stabb(?:ed|ing)|shot|assault(?:ed|ing)|attack(?:ed|ing)|beat(?:en|ing|s)?|rap(?:ed|ing)|"
        r"kidnapp?(?:ed|ing)|abduct(?:ed|ing)|forged|defrauded|dup(?:ed|ing)|misappropriat(?:ed|ing)|"
        r"embezzl(?:ed|ing)|threaten(?:ed|ing|s)?|extort(?:ed|ing)|molest(?:ed|ing)|harass(?:ed|ing|es)?|"
        r"stalk(?:ed|ing)|trespass(?:ed|ing)|broke\s+into|broken\s+(?:into|open)|break(?:s|ing)?\s+into|burgled|"
        r"ransacked|induced|deceived|set\s+fire|defamed|bribed|"
        # demands pressed again and again, or for dowry ("her in-laws kept demanding money"), not a bank's demand
        r"(?:kept|keep|keeps|constantly|repeatedly|continuously|continually|always|started)\s+demanding\s+(?:more\s+)?"
        r"(?:money|cash|dowry|gold|jewell?e?ry|a\s+car|(?:a\s+|the\s+)?(?:flat|house|plot|bike)|rs\.?|₹|\d)|"
        r"demand(?:ed|ing|s)?\s+(?:more\s+|for\s+)?dowry|"
        r"hack(?:ed|ing)|pretend(?:ed|ing)|impersonat(?:ed|ing)|swindled|conned|scammed|snatch(?:ed|ing)|smashed|"
        r"vandali[sz]ed|slapp(?:ed|ing)|punch(?:ed|ing)|grop(?:ed|ing)|hit|abused|insulted|"
        # a touch of someone's body against their will ("touched me in the office cab"), not "touched base"
        r"touched\s+(?:me|her|him|my|his|our|their)\b(?!\s+(?:hearts?|feet|souls?|lives?|deeply|so)\b)|"
        # a vehicle driven into someone ("ran over a pedestrian in 03/2023")
        rf"{_VEHICLE}[^.;,]{{0,60}}?\b(?:r[au]n(?:ning)?\s+over|knock(?:ed|ing)\s+(?:\w+\s+){{0,3}}?down|"
        r"mow(?:ed|ing)\s+down)|\b(?:r[au]n|knocked\s+down|mowed\s+down)\s+(?:over\s+)?by\s+(?:\w+\s+){1,3}?"
        rf"{_VEHICLE}|"
        # caught at it ("caught in Dec 2023 riding a bike he knew was stolen"): the offence was committed by then
        rf"{_CAUGHT_WORDS}|"
        r"took\s+away|ran\s+away\s+with|took\s+(?:(?:my|his|her|our|their|the)\s+)?(?:money|cash|rs\.?|₹|rupees|"
        r"\d[\d,]*|gold|jewell?e?ry|ornaments|phone|mobile|wallet|purse|bag|laptop|car|bike|scooter))(?!\w)")),
    (EventKind.OFFENCE, False, _i(
        rf"\b(?:{_OFFENCE_NOUNS}|"
        # a road accident in which its sentence tells someone was hurt or killed (rash or negligent driving): its
        # day is the offence's; not one told for an insurance claim alone
        r"(?:(?:road\s+)?accident|hit[\s-]and[\s-]run|collision)(?=[^.?!]{0,80}?\b(?:died|dead|death|killed|"
        r"injur\w*|hurt|fractur\w*)\b)(?![^.?!]*\b(?:insur\w*|claims?|compensation)\b))\b")),
)
_STILL_MARRIED = (r"(?:(?:not|never)\s+(?:legally\s+)?divorced|without\s+(?:a\s+|any\s+)?divorc\w*|already\s+married|"
                  r"(?:while|when)\s+(?:(?:we|i|you|he|she|they)\s+(?:were|was|are|is|am)\s+)?still\s+married|"
                  r"(?:first|earlier|previous|former)\s+(?:husband|wife|spouse)\s+(?:was|is)\s+(?:still\s+)?"
                  r"(?:alive|living))")
"""Words that tell an earlier marriage still stood ("they were not divorced", "her first husband was alive")."""
MARRIED_WHILE_MARRIED = re.compile(rf"\b(?:marri\w+|wed)\b[^.;?!]{{0,80}}?\b{_STILL_MARRIED}\b"
                                   rf"|\b{_STILL_MARRIED}\b[^.;?!]{{0,80}}?\b(?:marri\w+|wed)\b", re.IGNORECASE)
"""A marriage told with the words that say the earlier one still stood ("married another woman without divorcing me"),
either way round in one sentence ("they were not divorced when she married me in 2020"): the offence itself, whatever is
asked; "married again" alone may follow a death or a divorce."""
BIGAMY = re.compile(r"\bmarried\s+(?:again|another|a\s+second|for\s+the\s+second|someone\s+else)\b"
                    rf"|{MARRIED_WHILE_MARRIED.pattern}", re.IGNORECASE)
"""The one life event that is itself an offence: a marriage while married."""
_TIMES = r"now|later|today|yesterday|recently|since|again|afterwards|subsequently"
"""Words by which a clause tells a time of its own, after another's."""
_GENERIC_DEFAULT = _i(r"took\s+place|happened|occurred")
_PENDING = _i(r"pending\b")


def _sentence_around(text: str, at: int) -> str:
    """The sentence of ``text`` that holds ``at``."""
    start = max((m.end() for m in _SENTENCE.finditer(text, 0, at)), default=0)
    end = next((m.start() for m in _SENTENCE.finditer(text, at)), len(text))
    return text[start:end]


_MATTER = _i(r"\b(?:petition|application|suit|case|appeal|complaint|proceedings?|trial|revision|plea|writ|bail|FIR|"
             r"court|tribunal|magistrate|commission|HC)\b")
_CAUGHT = _i(_CAUGHT_WORDS)
_HABIT_WORDS = r"kept\s+on|every\s+(?:day|week|month)|daily"
"""A habit: ongoing, unless told in the past of a year (``goes_on``)."""
# "still" that speaks of the law or the proceedings ("committed in 2023, still tried under the IPC?", "still an
# offence", "still pending") says nothing of the offence continuing. Nor does "continuous": it says how long, not
# that it goes on ("she died in 2023 after continuous harassment"); "is continuing", "has been ...ing" do.
_ONGOING = _i(r"\b(?:still(?!\s+(?:be\s+|being\s+)?(?:tried|pending|investigat\w*|prosecut\w*|charged|governed|"
              r"applicable|appl(?:y|ies)|punishable|heard|booked|valid|an?\s+offen[cs]e|a\s+crime|law|good\s+law|"
              # a state the story's time had, not an act going on ("married another woman in 2021 while we were
              # still married")
              r"married|unmarried|alive|a\s+minor|minors?)\b)|"
              r"continu(?:es|ing)|ongoing|till\s+date|to\s+date|till\s+now|until\s+now|so\s+far|"
              rf"keeps|{_HABIT_WORDS}|ha(?:s|ve)\s+been\s+\w+ing|(?:is|are)\s+\w+ing|"
              # Hindi's present progressive ("de raha hai", "maar rahe hain"): going on now
              r"(?:raha|rahi|rahe)\s+(?:hai|hain|ho))\b")


def goes_on(text: str, start: int = 0, end: int | None = None) -> bool:
    """Whether ``text`` tells of something still going on ("still", "keeps", "has been harassing"; not "can he still
    be prosecuted", which speaks of the law). A habit told in the past of a year ("Through most of 2018 a man kept
    following her ... every day") went on then, not now. ``start``..``end``: only what is told there (a clause)."""
    return any(not (_HABIT.fullmatch(m.group()) and _past_habit(text, m.start()))
               for m in _ONGOING.finditer(text, start, len(text) if end is None else end))


_HABIT = _i(_HABIT_WORDS)
_BOUNDED = _i(r"\b(?:19|20)\d\d\b")
_PAST_VERB = _i(r"\b(?:was|were|had|did|used\s+to|kept|would|beat|hit|took|threw|broke|stole|sent|told|said|made|"
                r"gave|got|came|went|left|caught|fought|brought|sold|paid|ran|drove|shot|cut|spent|held|met|"
                r"called|wrote|tore|slapped|abused)\b|\b\w{3,}ed\b")
_PRESENT = _i(r"\b(?:is|are|am|has|have|keeps|still|now|since|till\s+date|to\s+date|so\s+far|continues|continuing|"
              r"goes\s+on|going\s+on|ongoing|onwards|today|to\s+this\s+day)\b")


def _past_habit(text: str, at: int) -> bool:
    """The habit at ``at`` is told in a sentence of the past that names its year and nothing of the present."""
    sentence = _sentence_around(text, at)
    return bool(_BOUNDED.search(sentence) and _PAST_VERB.search(sentence)) and not _PRESENT.search(sentence)


_SENTENCE = re.compile(r"(?<!\b[Nn]o)(?<!\b[Nn]os)(?<!\bRs)(?<!\b[Ss]ec)(?<!\bu/s)(?<!\b[Ss])(?<!\b[Dd]r)(?<!\bM[rs])"
                       r"(?<!\bMrs)(?<!\bSmt)(?<!\b[Vv]s)(?<!\b[Vv])(?<!\b[Aa]rt)(?<!\bLtd)(?<!\bPvt)(?<!\b[Cc]o)"
                       r"(?<!\bi\.e)(?<!\be\.g)(?<!\b[Cc]rl)(?<!\b[Ss]t)[.?!]+(?=\s|$)|\n+")
"""A sentence's end; not the dot of an abbreviation ("FIR No. 234/2024", "Rs. 5,000", "u/s. 420", "Smt. Devi")."""
_CLAUSE = _i(r"[;:]\s+|,\s+|\s+-+\s+|\s+(?:and|but|while|whereas|although|though|then|whereafter|after\s+which)\s+")


@dataclass(frozen=True, slots=True)
class _Trigger:
    at: int
    kind: EventKind | None
    verb: bool


def _triggers(masked: str) -> list[_Trigger]:
    seen: list[tuple[int, int]] = []
    out: list[_Trigger] = []
    for kind, verb, pattern in _TRIGGERS:
        for m in pattern.finditer(masked):
            if any(m.start() < b and a < m.end() for a, b in seen):
                continue  # an earlier list owns these words ("prior theft case" is a record, not a theft)
            seen.append((m.start(), m.end()))
            is_verb = verb and not (m.group(0).lower().endswith("ing") and kind is EventKind.OFFENCE
                                    and not re.search(_AUX, masked[max(0, m.start() - 30):m.start()], re.IGNORECASE))
            out.append(_Trigger(m.start(), kind, is_verb))
    out.sort(key=lambda t: t.at)
    return out


def _kind(trigger: _Trigger, triggers: list[_Trigger], masked: str) -> EventKind:
    """The kind of the event a trigger tells. A verb of no kind takes the noun it tells of: what "began",
    "started", "is pending" is a proceeding when the clause names one ("my trial for an offence ... began in
    2019"), else the nearest noun; what "took place", "happened", "occurred" is the nearest noun, else an
    offence ("it happened on 5 March 2024")."""
    if trigger.kind is not None:
        return trigger.kind
    if _PENDING.match(masked, trigger.at) and _MATTER.search(_sentence_around(masked, trigger.at)):
        # a petition, an application, a suit pending before a court is a proceeding ("my maintenance petition has been
        # pending since 2023 in the family court"); a salary or a flat's possession pending is not
        return EventKind.PROCEEDING
    nouns = [t for t in triggers if t.kind is not None and not t.verb]
    incident = bool(_GENERIC_DEFAULT.match(masked, trigger.at))
    if not incident and any(t.kind is EventKind.PROCEEDING for t in nouns):
        nouns = [t for t in nouns if t.kind is EventKind.PROCEEDING]
    if nouns:
        return min(nouns, key=lambda t: abs(t.at - trigger.at)).kind or EventKind.UNKNOWN
    return EventKind.OFFENCE if incident else EventKind.UNKNOWN


_FILLER = frozenset(("on", "in", "at", "of", "the", "a", "during", "around", "about", "sometime", "month", "year",
                     "day", "morning", "evening", "night", "through", "throughout", "most", "much", "part", "parts"))


@dataclass(frozen=True, slots=True)
class _Clause:
    start: int
    end: int
    sentence: int
    asks: bool  # in a sentence that ends with "?"


def _clauses(masked: str) -> list[_Clause]:
    """Clauses split on sentence ends, semicolons, commas and conjunctions; date words are masked, so
    "5th March, 2024" is never split."""
    out: list[_Clause] = []
    start = 0
    for n, end_match in enumerate([*_SENTENCE.finditer(masked), None]):
        end = end_match.start() if end_match else len(masked)
        asks = bool(end_match and "?" in end_match.group(0))
        cut = start
        for m in _CLAUSE.finditer(masked, start, end):
            out.append(_Clause(cut, m.start(), n, asks))
            cut = m.end()
        out.append(_Clause(cut, end, n, asks))
        start = end_match.end() if end_match else len(masked)
        if start >= len(masked):
            break
    return [c for c in out if masked[c.start:c.end].strip()]


_SPACES = re.compile(r"[ \t\r\f\v]{2,}|\s*\n\s*")


def read_dates(question: str, today: date) -> tuple[DatedEvent, ...]:
    """Every date ``question`` writes, attached to the event its clause tells, in the order written; and every
    offence it tells without a date, dated ``today`` (it may be today's). Relative dates count from ``today``.
    Runs of white space are read as one space (the phrases and clauses returned are of that text): the clause and
    range patterns would otherwise take time quadratic in a long run of spaces."""
    question = _SPACES.sub(" ", question)
    spans = find_spans(question, today)
    masked = list(question)
    for s in spans:
        masked[s.start_at:s.end_at] = "#" * (s.end_at - s.start_at)
    text = "".join(masked)
    triggers = _triggers(text)
    clauses = _merged(_clauses(text), spans, triggers, text)
    told = [_told(question, text, c, spans, triggers, today) for c in clauses]
    events: list[DatedEvent] = []
    asks_of: list[bool] = []

    def dated_offence(j: int) -> bool:
        return any(e.kind is EventKind.OFFENCE and e.phrase and not e.ongoing for e in told[j])

    def occasion(j: int, *, death: bool) -> DatedEvent | None:
        """The date of a clause that tells no offence, only an occasion, or (``death``: the clause comes after the
        offence's) a death: "In 2019 a driver ran over", "and died in March 2023"; not "died in 2021 and was
        cheated by the insurer", which tells what came after the death."""
        dated = [e for e in told[j] if e.phrase and not e.ongoing]
        if len(dated) == 1 and len(told[j]) == 1 and (
                dated[0].kind is EventKind.UNKNOWN or (death and _is_death(dated[0]))):
            return dated[0]
        return None

    fronted = _fronted(text, clauses, told, spans)
    for i, (c, found) in enumerate(zip(clauses, told, strict=True)):
        undated = len(found) == 1 and not found[0].phrase and not found[0].ongoing
        before = i > 0 and (_shares_date(text, clauses[i - 1], c) or _participle(text, clauses[i - 1], c))
        after = i + 1 < len(clauses) and (_shares_date(text, c, clauses[i + 1])
                                          or _participle(text, c, clauses[i + 1], dated_second=True))
        if undated and ((after and dated_offence(i + 1)) or (before and dated_offence(i - 1))):
            continue  # "hit and killed a pedestrian on 15 May 2024", "broke in on 5 March and took cash": one date
        if undated:
            # "In 2019 a drunk driver ran over and killed our neighbour's son", "was harassed for years and died in
            # March 2023": one occasion, one date. "She died in January 2024 after constant dowry harassment": the
            # offence that led to a death was committed by the day of the death.
            shared = (occasion(i - 1, death=False) if before else None) or (
                occasion(i + 1, death=True) if after else None) or _death_after(text, c, clauses, told, i)
            front = fronted.get(c.sentence)
            if shared is None and front is not None and not _OWN_TIME.match(text, c.start):
                # "In 2019 a truck driver, driving carelessly, ran over a pedestrian and killed him": a date that
                # opens the sentence dates what the sentence tells
                shared = front
            if shared is not None:
                found = [DatedEvent(shared.start, shared.end, EventKind.OFFENCE, shared.phrase, found[0].clause)]
        events.extend(found)
        asks_of.extend([c.asks] * len(found))
    return _bounded(events, asks_of)


_TOLD_NOW = _i(r"\b(?:is|are|am|has|have|keeps?|beats|harasses|threatens|demands|refuses|continues|still|now|again|"
               r"since|today|yesterday|recently|these\s+days)\b")
"""What a clause tells in the present or of a time of its own: not bounded by the story's dates."""
_HAD_DONE = _i(r"\bhad\s+(?:already\s+|also\s+|never\s+|not\s+|earlier\s+)?(?:been\s+)?(?:[a-z]+(?:ed|en)|bought|"
               r"sold|paid|sent|lent|left|made|told|got|taken|given|met|kept|lost|built|spent|a|an|the)\b")
"""The past perfect ("I had bought it in 2019", "we had a fight"): what came before the story, not after it."""
_LOOKS_BACK_TO = _i(r"\b(?:earlier|previously|before\s+(?:that|this|then)|prior\s+to\s+(?:that|this)|back\s+in|"
                    r"in\s+the\s+past|once|also|too|already|last\s+time|history|record|used\s+to)\b")
"""Words by which a later sentence looks back to an earlier time ("Earlier, in 2023, he stole my gold", "he cheated my
father too"): not what followed."""
_SPAN_WORDS = _i(r"^(?:till|until|up\s+to|upto|since|from|between|before|after|by)\b")
"""A date told as a span's bound ("paid him rent till March 2024"): how long, not an event that followed."""


def _bounded(events: list[DatedEvent], asks_of: list[bool]) -> tuple[DatedEvent, ...]:
    """Each offence told without a date, in the past and of no time of its own, dated by the story: it was committed
    by the date of the next event the story tells after it that follows an offence (a proceeding for it, the victim's
    death, an event of no kind such as leaving or coming back) when that was before 2024-07-01: "her in-laws kept
    demanding a car and beating her, finally she came back to our home in March 2024". Not by what the question asks
    (a hypothetical "what if it happened in 2023?"), another offence or a conviction not told as for it (a separate
    incident or a record: "He assaulted me. He was previously convicted of theft in 2015."), what looks back
    ("Earlier, in 2023, ...", "we had a fight", a participle recalling "the dowry I failed to bring in 2015"), a life
    event told after it ("He beat me. I married him in 2015."), another's death, the bound of a span ("paid him rent
    till March 2024"), nor when the next such event is dated on or after 2024-07-01 (then the offence may be of either
    code: undated, the new one's)."""
    out = list(events)
    for i, e in enumerate(events):
        if e.kind is not EventKind.OFFENCE or e.phrase or e.ongoing or _TOLD_NOW.search(e.clause):
            continue
        after = [f for f, asked in zip(events[i + 1:], asks_of[i + 1:], strict=True)
                 if f.phrase and not f.ongoing and not asked and f.clause != e.clause
                 and (f.kind in _FOLLOWS_OFFENCE or _victim_died(f) or _FOR_IT.search(f.clause))
                 and not _HAD_DONE.search(f.clause)
                 and not _PARTICIPLE.match(f.clause) and not _LOOKS_BACK_TO.search(f.clause)
                 and not _SPAN_WORDS.match(f.phrase)]
        if not after or after[0].end >= CUTOVER:
            continue
        bound = after[0]
        out[i] = DatedEvent(OPEN_START, bound.end, EventKind.OFFENCE, f"by {bound.phrase}", e.clause, by=True)
    return tuple(out)


_FOLLOWS_OFFENCE = (EventKind.PROCEEDING, EventKind.UNKNOWN)
_FOR_IT = _i(r"\b(?:convicted|sentenced|punished)\s+(?:\w+\s+){0,3}?for\s+(?:it|this|that|the\s+same|the\s+(?:assault|"
             r"attack|offence|crime|theft|beating|killing|murder|cheating|fraud))\b")
"""A conviction told of the offence before it ("He was convicted for it in 2019"), not a record of another ("He was
previously convicted of theft in 2015")."""
_THEY_DIED = _i(r"^\W*(?:\S+\s+){0,6}?(?:she|he|they)\s+(?:\w+\s+)?(?:died|passed\s+away|expired)\b")


def _victim_died(e: DatedEvent) -> bool:
    """A death the story tells of the one it was telling of ("she died in hospital in February 2023") or of the harm
    done ("died of burns"), not another's ("My grandfather died in 2019")."""
    return tells_death(e.clause) and (e.kind is EventKind.OFFENCE or _THEY_DIED.match(e.clause) is not None)


_DEATH = _i(r"\b(?:died|dies|passed\s+away|expired|death)\b")
_LED_TO = _i(r"\b(?:(?:after|following)(?!\s+(?:which|that|this|whom|(?:his|her|their|the)\s+death|death)\b)|"
             r"due\s+to|because\s+of|owing\s+to|as\s+a\s+result\s+of)\b")
"""What led to a death told before it ("died ... after constant dowry harassment", "due to the beating"); not what
followed it ("after which his will was forged", "following her death")."""


def tells_death(clause: str) -> bool:
    """``clause`` tells of a death ("died", "passed away", "death")."""
    return _DEATH.search(clause) is not None


def _is_death(event: DatedEvent) -> bool:
    return event.kind is EventKind.LIFE and tells_death(event.clause)


def _death_after(text: str, c: _Clause, clauses: list[_Clause], told: list[list[DatedEvent]],
                 i: int) -> DatedEvent | None:
    """The dated death an undated offence led to, when the offence's clause says so ("died in January 2024, ...,
    after constant dowry harassment", "passed away in 2023 due to the beating"): a death told earlier in its
    sentence."""
    if not _LED_TO.match(text[c.start:c.end].lstrip()):
        return None
    deaths = [e for j in range(i) if clauses[j].sentence == c.sentence for e in told[j]
              if e.phrase and not e.ongoing and _is_death(e)]
    return deaths[-1] if deaths else None


_OWN_TIME = _i(rf"\W*(?:and\s+|but\s+|,\s*)?(?:{_TIMES}|then|last|this|next|every|still)\b")
"""A clause that tells its own time ("and now he has hacked our server")."""
_TIME_WORD = _i(rf"\b(?:{_TIMES}|then|every|still|daily)\b")
_LEAD_IN = _i(r"\W*(?:(?:way\s+)?back|sometime|somewhere|around|about|during|even)?\s*(?:in|on|during|around|by|"
              r"in\s+the\s+year|in\s+the\s+month\s+of)?\s*")
"""What may come before a date that opens a sentence ("Back in 2019", "Sometime in March 2023", "On 5.3.2022")."""


def _fronted(text: str, clauses: list[_Clause], told: list[list[DatedEvent]],
             spans: list[Span]) -> dict[int, DatedEvent]:
    """Per sentence, the date that opens it, when it is the sentence's only date, its clause tells no event of its
    own or an offence ("In 2019 a truck driver, ..."), and no other time is told in it ("and later his son ..."):
    it dates what the sentence tells."""
    out: dict[int, DatedEvent] = {}
    for n in {c.sentence for c in clauses}:
        mine = [j for j, c in enumerate(clauses) if c.sentence == n]
        dated = [e for j in mine for e in told[j] if e.phrase]
        first = clauses[mine[0]]
        opening = [s for s in spans if first.start <= s.start_at < first.end]
        told_times = _TIME_WORD.search(text, first.start, clauses[mine[-1]].end)
        if (len(dated) == 1 and len(opening) == 1 and dated[0] in told[mine[0]] and not dated[0].ongoing
                and told_times is None
                and dated[0].kind in (EventKind.UNKNOWN, EventKind.OFFENCE)
                and _LEAD_IN.fullmatch(text, first.start, opening[0].start_at)):
            out[n] = dated[0]
    return out


_AND = _i(r"(?:,\s*)?\s+and\s+")


def _shares_date(text: str, first: _Clause, second: _Clause) -> bool:
    """Two clauses of one sentence joined by "and" whose second has no subject of its own, or tells in the passive
    what was done then (``_PASSIVE_PAST``), so that they tell one occasion and the date of either is the other's: "He
    beat me and stole my phone on 5 March 2024"."""
    if first.sentence != second.sentence or not _AND.fullmatch(text, first.end, second.start):
        return False
    return _PASSIVE_PAST.match(text, second.start) is not None or not _OWN_SUBJECT.match(text[second.start:second.end])


_OWN_SUBJECT = _i(r"\s*(?:then\s+)?(?:the|a|an|my|his|her|our|their|i|he|she|we|they|it|police|someone|"
                  # a time of its own: "kicked out in 2023 and now he has hacked our server"
                  rf"{_TIMES}|last|this|next)\b")


_PASSIVE_PAST = _i(r"\s*(?:the|my|his|her|our|their|all\s+(?:the|my|our))\s+(?:[\w-]+\s+){0,3}?(?:was|were)\s+"
                   r"(?:also\s+)?(?!(?:seven|eleven|even|often|open|then|when|ten|given|golden|wooden|hidden)\b)"
                   r"(?:[a-z]{3,}(?:ed|en)|stolen|taken|broken|beaten|burnt|sold|lost|hit|cut|shot|torn|thrown|left|"
                   r"kept|sent|caught|hurt|struck|set\s+on\s+fire)\b")
"""A second clause told in the passive of the past with a subject of its own and no time ("Our flat was broken into
at night in March 2022 and the jewellery was stolen"): what was done on the occasion of the first."""


_NOT_PARTICIPLE = (r"(?!(?:during|according|including|regarding|concerning|considering|following|excluding|"
                   r"notwithstanding|pending|beginning|starting|assuming|something|nothing|anything|everything|"
                   r"morning|evening|building|wedding|being)\b)")
"""-ing words that are prepositions or nouns ("following which his brother ...", "during", "the wedding")."""
_PARTICIPLE = _i(rf"\s*,?\s*(?:while\s+)?{_NOT_PARTICIPLE}[a-z]+ing\b")
"""A clause that opens with a participle and no subject of its own ("..., threatening to burn my stall"): how the act
of the clause before it was done."""
_WHILE = _i(rf"\s*,?\s*while\s+{_NOT_PARTICIPLE}[a-z]+ing\b")
"""A participle of the time the act before it was done in ("knocked down while walking home in September 2022")."""


def _participle(text: str, first: _Clause, second: _Clause, *, dated_second: bool = False) -> bool:
    """``second`` continues ``first`` in one sentence as a participle: one occasion. The date of ``first`` is the
    participle's ("made me pay protection money from 2022 to mid-2023, threatening to burn my stall"); a date in the
    participle (``dated_second``) dates ``first`` only when it tells the time of the act ("while walking home in
    September 2022"), not an event of its own ("slapped me, reminding me of the dowry I failed to bring in 2015")."""
    pattern = _WHILE if dated_second else _PARTICIPLE
    # the clause splitter may have taken "while" as the joint between the two clauses
    return first.sentence == second.sentence and bool(pattern.match(text[first.end:second.end]))


def _told(question: str, text: str, c: _Clause, spans: list[Span], triggers: list[_Trigger],
          today: date) -> list[DatedEvent]:
    """The events one clause tells: one per date in it, or an undated offence (dated today)."""
    inside = [s for s in spans if c.start <= s.start_at < c.end]
    told = [t for t in triggers if c.start <= t.at < c.end]
    clause = question[c.start:c.end].strip()
    ongoing = goes_on(question, c.start, c.end)  # the words as written: a year masked in `text` bounds a habit
    if not inside:
        # being caught dates the offence caught; undated, it tells an arrest, not an offence ("the business rival who
        # paid them has also been caught")
        told = [t for t in told if not _CAUGHT.match(text, t.at)]
        verbs = [t for t in told if t.verb and t.kind is not None]
        offence = any(t.kind is EventKind.OFFENCE for t in verbs) or (
            not verbs and any(t.kind is EventKind.OFFENCE for t in told))
        return [DatedEvent(today, today, EventKind.OFFENCE, "", clause, ongoing)] if offence and not c.asks else []
    out = []
    for i, s in enumerate(inside):
        lo = inside[i - 1].end_at if i else c.start
        hi = inside[i + 1].start_at if i + 1 < len(inside) else c.end
        trigger = _nearest(s, told, lo, hi)
        kind = _kind(trigger, told, text) if trigger else EventKind.UNKNOWN
        if kind is EventKind.LIFE and MARRIED_WHILE_MARRIED.search(_sentence_around(question, s.start_at)):
            kind = EventKind.OFFENCE  # a marriage while married is the offence ("married another woman in Dec 2023")
        out.append(DatedEvent(s.first, s.last, kind, question[s.start_at:s.end_at], clause, s.ongoing or ongoing))
    for s, e in zip(inside, list(out), strict=True):
        if not _is_death(e):
            continue
        # "she died in 2022 after being beaten by her husband": the offence that led to the death, told after it,
        # by its day; not "After my father died in 2023 my brother forged his will"
        led = _LED_TO.search(text, s.end_at, c.end)
        if led and any(t.kind is EventKind.OFFENCE and t.at > led.start() for t in told):
            out.append(DatedEvent(e.start, e.end, EventKind.OFFENCE, e.phrase, clause))
            break
    return out


def _nearest(span: Span, told: list[_Trigger], lo: int, hi: int) -> _Trigger | None:
    """The event a date dates: the nearest verb before it in its part of the clause ("he stole my phone on
    15.03.2024"), else after it ("On 5 March 2024 he was arrested"), else the nearest noun, else the nearest
    event word anywhere in the clause ("he cheated me, my brother and my wife in March 2024")."""
    before = [t for t in told if lo <= t.at < span.start_at]
    after = [t for t in told if span.end_at <= t.at < hi]
    for group, pick in ((before, max), (after, min)):
        verbs = [t for t in group if t.verb]
        if verbs:
            return pick(verbs, key=lambda t: t.at)
    for group, pick in ((before, max), (after, min)):
        if group:
            return pick(group, key=lambda t: t.at)
    if told:
        return min(told, key=lambda t: min(abs(t.at - span.start_at), abs(t.at - span.end_at)))
    return None


def _merged(clauses: list[_Clause], spans: list[Span], triggers: list[_Trigger], masked: str) -> list[_Clause]:
    """A clause with a date and no event word joins the clause of its sentence it belongs to: the next one when
    that tells an event without a date ("On 5 March 2024, he cheated me"), else the one before ("he cheated me,
    on 5 March 2024")."""
    def has_date(c: _Clause) -> bool:
        return any(c.start <= s.start_at < c.end for s in spans)

    def has_event(c: _Clause) -> bool:
        return any(c.start <= t.at < c.end for t in triggers)

    def only_a_date(c: _Clause) -> bool:  # "In the month of March 2024", "my wife in March 2024"; not "He was
        # kicked out of the company in 2023", which tells an event of its own
        words = [w for w in re.findall(r"[^\W#]+", masked[c.start:c.end]) if w.lower() not in _FILLER]
        return has_date(c) and not has_event(c) and len(words) <= 2

    out = list(clauses)
    i = 0
    while i < len(out):
        c = out[i]
        if only_a_date(c):
            nxt = out[i + 1] if i + 1 < len(out) and out[i + 1].sentence == c.sentence else None
            prev = out[i - 1] if i and out[i - 1].sentence == c.sentence else None
            if nxt and has_event(nxt) and not has_date(nxt):
                out[i:i + 2] = [_Clause(c.start, nxt.end, c.sentence, c.asks)]
                continue
            if prev:
                out[i - 1:i + 1] = [_Clause(prev.start, c.end, c.sentence, c.asks)]
                i -= 1
                continue
        i += 1
    return out


# -- what the workflow needs ---------------------------------------------------------------------------------

def offence_day(events: tuple[DatedEvent, ...] | list[DatedEvent], today: date) -> date | None:
    """The day an offence was committed when the question plainly dates it before 2024-07-01 and the facts
    are on or after that day: the IPC governs it (BNS 358(2)). The latest offence day (the end of its span) when
    every offence the question tells is dated and ends before 2024-07-01; None when any offence continues, is
    undated (today's), or reaches 2024-07-01, and None before 2024-07-01 (then the old code is simply in force)."""
    if today < CUTOVER:
        return None
    offences = [e for e in events if e.kind is EventKind.OFFENCE]
    if not offences or any(e.ongoing or e.end >= CUTOVER for e in offences):
        return None
    return max(e.end for e in offences)


def pending_since(events: tuple[DatedEvent, ...] | list[DatedEvent], today: date) -> date | None:
    """The earliest day a proceeding the question dates began, when that was plainly before 2024-07-01 and
    today is on or after it: the CrPC governs it (BNSS 531(2)(a)). A bound ("the FIR was lodged before 1 July
    2024") gives its last day; a span that reaches 2024-07-01 ("in 2024") is no such proceeding."""
    if today < CUTOVER:
        return None
    days = [e.end if e.start == OPEN_START else e.start
            for e in events if e.kind is EventKind.PROCEEDING and e.end < CUTOVER]
    return min(days) if days else None
