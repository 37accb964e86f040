"""A person's age, read from a question, put in the words the statutes use for it.

People tell ages ("I am 74", "my father, 70,", "a 72-year-old widow"); the statute that protects them names the
status the age gives: a *senior citizen* has attained sixty years (Maintenance and Welfare of Parents and Senior
Citizens Act, 2007, s.2(h)). When the question is about that person's maintenance, care or property, the status is
appended to what retrieval and the answer's relevance read (``TermsOfArt.expand``), so that "I am 74 ... my son took
my house, can I get it back?" meets the Act that protects senior citizens. A reading of the facts by the statute's
own definition.

Only the senior citizen. A review of the first version, which also called anyone under eighteen a *child* (BNS s.2(3))
and appended each definition's words, found it pulling age-threshold sections (JJA s.6, BNS s.20) into questions about
custody, a 17-year-old's driving and a kidnapping, and reading "a 10 year old case" or "my 3 year old car" as
people: a child's age is told beside words the statutes already use ("minor", "daughter", "girl").
"""

from __future__ import annotations

import re

SENIOR_AGE = 60
"""MWPSCA s.2(h): "senior citizen" means any person ... who has attained the age of sixty years or above."""
SENIOR = "senior citizen"

_N = r"(\d{1,3})"
_PERSON = (r"(?:father|mother|dad|mom|mum|grandfather|grandmother|grandpa|grandma|parents?|husband|wife|uncle|aunt|"
           r"man|woman|lady|gentleman|person|citizen|widow|widower|pensioner|client|i)")
"""Who an age is told of; a thing ("a 99 year old lease", "my 3 year old car") is no person."""
_AGE = re.compile(
    rf"\b{_N}[ \t]*[- ]?[ \t]*(?:years?|yrs?|yr)[- \t]*old[ \t]+(?:\w+[ \t]+)?{_PERSON}\b"  # "a 72-year-old widow"
    rf"|\b{_PERSON}[ \t]+(?:is|was|am|aged)[ \t]+(?:now[ \t]+|about[ \t]+)?{_N}\b(?![ \t]*(?:days?|weeks?|months?|%))"
    rf"|\baged[ \t]+(?:about[ \t]+)?{_N}\b"  # "aged 70", "aged about 65"
    rf"|\b{_N}[ \t]+years[ \t]+of[ \t]+age\b"  # "70 years of age"
    rf"|\bI(?:'m|\u2019m|[ \t]+am)[ \t]+{_N}(?=[ \t]*(?:[.,;!?]|years\b|yrs\b|now\b|and\b|$))"  # "I am 74.", "I’m 70"
    rf"|\b{_PERSON}[ \t]*,[ \t]*{_N}[ \t]*,",  # "my father, 70, lives ..."
    re.IGNORECASE,
)
_CARE = re.compile(
    r"\b(?:maint\w*|support\w*|look(?:s|ing)?\s+after|looked\s+after|neglect\w*|abandon\w*|old\s+age\s+home|"
    r"care|food|medical|expenses|property|house|flat|home|land|gift\w*|pension|evict\w*|thr[eo]w\w*\s+(?:\w+\s+)?out|"
    r"tribunal)\b",
    re.IGNORECASE,
)
"""What a question about a senior citizen's welfare turns on: maintenance, care, or property given or taken."""


def ages(question: str) -> list[int]:
    """The ages of people the question tells, in order (1 to 120)."""
    out = []
    for m in _AGE.finditer(question):
        value = int(m.group(m.lastindex or 0))  # the one number group of the form that matched
        if 0 < value <= 120:
            out.append(value)
    return out


def age_statuses(question: str) -> list[str]:
    """``SENIOR`` when the question tells of someone sixty or older and turns on their maintenance, care or property;
    nothing otherwise (an accident or an offence against them is answered by its own Act)."""
    if any(a >= SENIOR_AGE for a in ages(question)) and _CARE.search(question):
        return [SENIOR]
    return []
