"""Which provision of an Act decides an ask: the one whose heading names what the ask wants.

Statutes give the provision that settles where a matter is brought, or within what time, a heading that says so:
"Jurisdiction" (Domestic Violence Act s.27), "Jurisdiction and procedure" (Senior Citizens Act s.6), "Person
arrested not to be detained more than twenty-four hours" (BNSS s.58), "Bar to taking cognizance after lapse of
period of limitation" (BNSS s.514). Retrieval by the question's subject finds the right Act and quotes its
neighbours ("the maintenance application" brings the sections that grant maintenance; "where should they file it"
is decided by the one headed "Jurisdiction"). So each ask for a forum or a time limit is searched again inside the
Acts the question retrieved, among the provisions so headed, and the best one is quoted (``Pin.ASK``).

The patterns are the statutes' own heading words for the kind, not the words of any question: they are tested
against the real headings of the corpus (``tests/unit/test_forms.py``). Remedies were tried the same way
("Application for compensation", "Mandatory injunctions") and left out: on the development questions the remedy
so headed was as often another remedy of the Act ("Relief against forfeiture" for an encroaching wall) as the one
asked for, and it displaced provisions that answered.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from legal_rag.workflow.coverage import subject_words
from legal_rag.workflow.facts import Ask, AskKind
from legal_rag.workflow.generators.extractive import content_stems, heading_title

_SETS_UP = (r"^(?:constitution|establishment|designation)\s+of\s+(?:\w+\s+){0,2}(?:courts?|tribunals?|commissions?|"
            r"boards?)\b|^special\s+courts?\b|\btriable\s+by\s+special\b|^power\s+to\s+appoint\s+special\s+judges")
"""The court or body an Act sets up to hear its matters ("Special Court and Exclusive Special Court", "Constitution of
Maintenance Tribunal", "Designation of Special Courts"); not its procedure ("Procedure and powers of Special Court")."""

_SETS_UP_RE = re.compile(_SETS_UP, re.IGNORECASE)

FORM_HEADINGS: dict[AskKind, re.Pattern[str]] = {k: re.compile(p, re.IGNORECASE) for k, p in (
    # not "execution outside jurisdiction", "guardian for property beyond jurisdiction", "Removal of ward from
    # jurisdiction", "Power to confer jurisdiction", "Bar of jurisdiction", "Jurisdiction of civil courts barred"
    (AskKind.FORUM, r"(?<!outside\s)(?<!beyond\s)(?<!from\s)(?<!confer\s)(?<!bar\sof\s)\b(?:"
                    r"jurisdictions?(?!\s+(?:of\s+\w+\s+courts?\s+)?barred)|"
                    r"place\s+of\s+(?:inquiry|trial|suing|institution|sitting|filing)|local\s+limits|venue|"
                    r"courts?\s+(?:by\s+which|to\s+which|competent|to\s+try|of\s+competent)|"
                    r"where\s+(?:suits?|complaints?|applications?|petitions?)\b|"
                    # where an appeal lies ("Appeal against order of District Commission", "Appeal to High Court"),
                    # who decides a claim ("Power to adjudicate")
                    rf"^appeals?\s+(?:to|against|from)\b|^power\s+to\s+adjudicate|{_SETS_UP})"),
    # not "words of limitation" (of an estate), "Limitation of powers of guardian"
    (AskKind.TIME_LIMIT, r"(?<!words\sof\s)\b(?:limitation(?!\s+of\s+(?:powers?|liability))|"
                         r"time\s+(?:limit|for|within)|period\s+(?:of|for|within)|"
                         r"(?:twenty-?four|\w+)\s+hours|extension\s+of\s+(?:time|prescribed\s+period)|"
                         r"condonation\s+of\s+delay|"
                         # a bar before a time has run ("No petition for divorce to be presented within one year of
                         # marriage", "... when marriage not solemnized within three months"), not a span that says
                         # what else ("Offences of same kind within year may be charged together")
                         r"(?:^no\b|\bnot\s+\w+)[^.;]{0,60}?\bwithin\s+(?:[\w-]+\s+){0,3}?(?:years?|months?|weeks?|"
                         r"days?))\b"),
)}  # fmt: skip
"""Ask kind -> the words a provision's heading uses when it decides that kind of ask."""


FORM_TERMS: dict[AskKind, str] = {
    AskKind.FORUM: "jurisdiction court place",
    AskKind.TIME_LIMIT: "period of limitation time",
}
"""The statutes' own words for a kind, searched with the ask: "is it too late to file a criminal complaint?" asks for
a period of limitation in words no provision uses."""


def form_query(ask: str, kind: AskKind) -> str:
    """What is searched for the provision that decides ``ask`` as to ``kind``."""
    return f"{ask} {FORM_TERMS.get(kind, '')}".strip()


def sets_up(heading: str) -> bool:
    """A provision so headed sets up the court or body that hears an Act's matters (``_SETS_UP``): it answers where
    a matter goes when the Act says nothing of jurisdiction, but "Jurisdiction and procedure" says where to file."""
    return _SETS_UP_RE.search(heading_title(heading)) is not None


def decides(kind: AskKind, heading: str) -> bool:
    """Whether a provision so headed ("Jurisdiction", or as a chunk carries it: "PWDVA s.27 Jurisdiction") is the
    kind that decides an ask of ``kind``."""
    pattern = FORM_HEADINGS.get(kind)
    return pattern is not None and pattern.search(heading_title(heading)) is not None


_KIND_WORDS: dict[AskKind, frozenset[str]] = {
    AskKind.FORUM: frozenset(content_stems(
        "where which what court courts jurisdiction forum tribunal commission authority place file filed filing "
        "lodge lodged institute instituted before whom local limits complain complaint against approach")),
    AskKind.TIME_LIMIT: frozenset(content_stems(
        "time limit limitation period periods hour hours day days month months year years within how long many "
        "when deadline late delay soon last date")),
}  # fmt: skip
"""The words that ask for a forum or a time, as against the words that say what it is for."""


def about(asking: str, kind: AskKind, heading: str, act_title: str) -> bool:
    """Whether a provision so headed, of the Act so titled, is about what ``asking`` (the words that ask, without the
    story told before them) asks the ``kind`` of: it shares a word of its subject ("arrested" for "Person arrested not
    to be detained more than twenty-four hours"; "domestic violence" through its Act for "Jurisdiction").
    "Commencement of period of limitation" shares nothing but the asking words with "within how many days must the
    IO update the victim": a period, not this one; nor "Reasonable time for transmitting such notice" (of dishonour)
    with "by when must he pay, and when can the supplier file a complaint?", whatever notice the story told of. A
    forum ask of nothing but its kind ("Where can I complain?") is about the story, for which the Acts were chosen."""
    if of_the_story(asking, kind) or (kind is AskKind.FORUM and names_no_matter(heading)):
        return True
    subject = set(subject_words(asking)) - _KIND_WORDS.get(kind, frozenset())
    return bool(subject & content_stems(f"{heading_title(heading)} {act_title}"))


_FORUM_ONLY = frozenset(content_stems(
    "court courts which whom petition petitions application applications suit suits complaint complaints appeal "
    "appeals presented present made filed file instituted institution lie lies lay jurisdiction place local limits "
    "competent shall should may be to"))
"""The words of a heading that says where an Act's matters are brought and nothing of which matter."""


def names_no_matter(heading: str) -> bool:
    """A forum provision headed in forum words alone ("Court to which petition shall be presented" in the Hindu
    Marriage Act, "Court to which petition should be made" in the Special Marriage Act) is where every petition under
    its Act is brought, whatever the petition is for: it is about any matter of its Act, as "Jurisdiction" is. Only a
    heading that decides a forum (``decides``): "Appeal" or "Application of Act" says nothing of where."""
    words = content_stems(heading_title(heading))
    return bool(words) and words <= _FORUM_ONLY and decides(AskKind.FORUM, heading)


def of_the_story(asking: str, kind: AskKind) -> bool:
    """A forum ask of nothing but its kind ("Where can I complain against them?", "Whom should I approach?"): where
    the matter the story tells is brought, which the Act that governs the story decides. Not a time ask so put
    ("By when do I have to go to court?"), which may ask of any of the story's periods (a notice's, a reply's)."""
    return kind is AskKind.FORUM and not set(subject_words(asking)) - _KIND_WORDS[kind]


_PROSECUTION = re.compile(r"\b(?:limitation|cognizance|inquiry|trial|triable|offen[cs]es?)\b", re.IGNORECASE)


def prosecutes(heading: str) -> bool:
    """A procedure code's provision for prosecuting an offence ("Bar to taking cognizance after lapse of period of
    limitation", "Courts by which offences are triable", "Ordinary place of inquiry and trial"): the forum and the
    time limit of whatever offence the question tells of, in words its telling never uses."""
    return _PROSECUTION.search(heading_title(heading)) is not None


def formed_asks(asks: Iterable[Ask]) -> list[tuple[Ask, AskKind]]:
    """Each ask with each of its kinds that a provision's heading can name, in the ask's order."""
    return [(a, k) for a in asks for k in a.kinds if k in FORM_HEADINGS]
