"""A person's age, read from a question, put in the words the statutes use for it.

People tell ages ("I am 74", "my father, 70,", "a 15-year-old girl"); statutes name the status the age gives:
a *senior citizen* has attained sixty years (Maintenance and Welfare of Parents and Senior Citizens Act, 2007,
s.2(h)), a *child* is below eighteen (BNS s.2(3); Juvenile Justice Act, 2015, s.2(12); POCSO Act, 2012,
s.2(1)(d)), which the IPC called a *minor* (IPC s.361). The status is appended to what retrieval and the answer's
relevance read (``TermsOfArt.expand``), so that "I am 74 ... can I get my house back?" meets the Act that protects
senior citizens. A reading of the facts by the statutes' own definitions, not a lexicon entry.
"""

from __future__ import annotations

import re

SENIOR_AGE = 60
"""MWPSCA s.2(h): "senior citizen" means any person ... who has attained the age of sixty years or above."""
ADULT_AGE = 18
"""BNS s.2(3): "child" means any person below the age of eighteen years."""

SENIOR = "senior citizen: a person who has attained the age of sixty years or above"
CHILD = "child: a minor, any person below the age of eighteen years"

_N = r"(\d{1,3})"
_KIN = (r"(?:father|mother|dad|mom|mum|grandfather|grandmother|grandpa|grandma|parents?|husband|wife|son|daughter|"
        r"brother|sister|uncle|aunt|nephew|niece|cousin|man|woman|girl|boy|client|victim|accused|neighbour|neighbor|"
        r"tenant|landlord|friend|employee|widow|widower)")
_AGE = re.compile(
    rf"\b{_N}[ \t]*[- ]?[ \t]*(?:years?|yrs?|yr)[- \t]*old\b"  # "15-year-old", "70 years old", "16 yr old"
    rf"|\b{_N}[ \t]*(?:yo|y/o)\b"  # "15yo", "70 y/o"
    rf"|\baged[ \t]+(?:about[ \t]+)?{_N}\b"  # "aged 70", "aged about 65"
    rf"|\b{_N}[ \t]+years[ \t]+of[ \t]+age\b"  # "70 years of age"
    rf"|\bage[ \t]+(?:is[ \t]+|of[ \t]+)?{_N}\b(?![ \t]*(?:%|lakh|rupees|days|months))"  # "age 70", "age of 70"
    rf"|\bI(?:'m|[ \t]+am)[ \t]+{_N}(?=[ \t]*(?:[.,;!?]|years\b|yrs\b|now\b|and\b|$))"  # "I am 74.", "I'm 70 and"
    rf"|\b{_KIN}[ \t]*,[ \t]*{_N}[ \t]*,",  # "my father, 70, lives ..."
    re.IGNORECASE,
)


def ages(question: str) -> list[int]:
    """The ages a question tells, in order (0 to 120)."""
    out = []
    for m in _AGE.finditer(question):
        value = int(next(g for g in m.groups() if g is not None))
        if 0 < value <= 120:
            out.append(value)
    return out


def age_statuses(question: str) -> list[str]:
    """The statutes' words for the ages told: ``SENIOR`` for sixty or more, ``CHILD`` below eighteen."""
    told = ages(question)
    out = []
    if any(a >= SENIOR_AGE for a in told):
        out.append(SENIOR)
    if any(a < ADULT_AGE for a in told):
        out.append(CHILD)
    return out
