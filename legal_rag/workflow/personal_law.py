"""Which personal law a family matter falls under, read from the community the question tells.

Marriage, divorce, maintenance, guardianship and succession are governed by the law of the parties' community, and
each of those Acts says whom it applies to:

- the Hindu Marriage Act, s.2(1): Hindus, Buddhists, Jainas and Sikhs (and any other person who is not a Muslim,
  Christian, Parsi or Jew); the Hindu Adoptions and Maintenance, Minority and Guardianship and Succession Acts, s.2
  of each, in the same words;
- the Divorce Act, 1869, s.2: no relief "except where the petitioner or respondent professes the Christian religion";
- the Dissolution of Muslim Marriages Act, 1939 (its title and s.2: "a woman married under Muslim law"); the Muslim
  Women (Protection of Rights on Marriage) Act, 2019, s.2/3 ("any Muslim husband"); the Muslim Women (Protection of
  Rights on Divorce) Act, 1986 and the Shariat Application Act, 1937;
- the Parsi Marriage and Divorce Act, 1936 (Parsis);
- the Indian Succession Act, 1925, s.29(1): its Part V (intestate succession, ss.29-56) does not apply "to the
  property of any Hindu, Muhammadan, Buddhist, Sikh or Jaina";
- the Special Marriage Act, 1954 (and the Foreign Marriage Act, 1969): a civil marriage solemnized under it, by
  persons of any or different faiths.

A question that tells one community and no civil marriage ("We are Hindus", "my husband said talaq talaq talaq")
is not answered from the Acts of another community, nor from the Special Marriage Act ("We are Hindus. My husband
married again": not the Divorce Act's grounds for Christians). One that tells a civil marriage ("married in court
under the Special Marriage Act") is not answered from the communities' marriage Acts. One that tells two communities
(an inter-faith couple) leaves out only the Acts of the communities it does not tell. An Act the question names is
never left out: the question asks about it.
"""

from __future__ import annotations

import re
from enum import StrEnum


class Community(StrEnum):
    HINDU = "hindu"
    MUSLIM = "muslim"
    CHRISTIAN = "christian"
    PARSI = "parsi"


_TOLD: dict[Community, re.Pattern[str]] = {c: re.compile(p, re.IGNORECASE) for c, p in (
    # HMA s.2(1)(a)-(b): a Hindu by religion in any of its forms, a Buddhist, Jaina or Sikh
    (Community.HINDU, r"\b(?:hindus?|sikhs?|jain(?:a|s)?|buddhists?)\b"),
    # a Muslim told as such, or by the words of a Muslim marriage and its dissolution ("nikah", "talaq", "mehr")
    (Community.MUSLIM, r"\b(?:muslims?|muhammadans?|mohammedans?|islamic|nikah(?:nama)?|talaq|t[ae]laq-?e-?biddat|"
                       r"mehr|mahr|iddat|khula)\b"),
    (Community.CHRISTIAN, r"\bchristians?\b|\bchurch\s+(?:wedding|marriage)\b|\bmarried\s+in\s+(?:a|the)\s+church\b"),
    (Community.PARSI, r"\bparsis?\b"),
)}  # fmt: skip
"""The words by which a question tells the community whose law governs its family matter."""

_CIVIL = re.compile(r"\bspecial\s+marriage\b|\bcourt\s+marriage\b|\bcivil\s+marriage\b|"
                    r"\bmarried\s+(?:in|at)\s+(?:the\s+)?(?:court|registrar)|\bforeign\s+marriage\b|"
                    r"\binter[- ]?(?:faith|religio(?:n|us))\b|\bSMA\b",
                    re.IGNORECASE)
"""A marriage told as solemnized under the Special (or Foreign) Marriage Act, or between persons of two faiths."""

_SCOPED: dict[Community, frozenset[str]] = {
    Community.HINDU: frozenset({"HMA", "HAMA", "HMGA", "HSA", "HSAA2005", "HSTNAA1989", "HSKAA1990", "HDPA1916",
                                "HGLA1930", "AMA1909", "AMVA1937"}),
    Community.MUSLIM: frozenset({"DMMA", "MWPRMA", "MWPRDA1986", "MPLSAA1937"}),
    Community.CHRISTIAN: frozenset({"IDA", "IDAA2001", "ICMA1872"}),
    Community.PARSI: frozenset({"PMDA1936"}),
}
"""The Acts whose application each community's membership decides (the module's docstring gives their sections)."""

CIVIL_ACTS = frozenset({"SMA", "SMA1872", "SMAA1970", "FMA1969"})
"""The Acts of a civil marriage, open to persons of any faith."""

MARRIAGE_ACTS = frozenset({"HMA", "AMA1909", "AMVA1937", "DMMA", "MWPRMA", "MWPRDA1986", "IDA", "IDAA2001",
                           "ICMA1872", "PMDA1936"})
"""The communities' marriage and divorce Acts, which do not govern a marriage solemnized under the Special Marriage
Act (its s.4; succession to such a couple's property is the Indian Succession Act's, SMA s.21)."""

INTESTACY_PART = ("ISA", 29, 56)
"""The Indian Succession Act's Part V, intestate succession, which s.29(1) keeps from Hindus and Muslims."""


def communities_told(question: str) -> frozenset[Community]:
    """The communities whose personal law the question tells (``_TOLD``)."""
    return frozenset(c for c, pattern in _TOLD.items() if pattern.search(question))


def civil_marriage_told(question: str) -> bool:
    """The question tells a marriage under the Special (or Foreign) Marriage Act, or between two faiths."""
    return _CIVIL.search(question) is not None


def community_acts(community: Community) -> frozenset[str]:
    """The Acts whose application membership of ``community`` decides."""
    return _SCOPED[community]


def _section_number(section: str) -> int | None:
    m = re.match(r"\d+", section)
    return int(m.group()) if m else None


def outside(act: str, section: str, communities: frozenset[Community], civil: bool) -> bool:
    """Whether a provision of ``act`` does not govern a matter of people of ``communities`` (``civil``: married under
    the Special Marriage Act). Nothing is left out when no community and no civil marriage is told."""
    if civil:
        return act in MARRIAGE_ACTS
    if not communities:
        return False
    if any(act in acts for c, acts in _SCOPED.items() if c not in communities):
        return True
    if len(communities) == 1 and act in CIVIL_ACTS:
        return True  # one faith told and no civil marriage: the couple married under their own law
    code, first, last = INTESTACY_PART
    number = _section_number(section) if act == code else None
    return number is not None and first <= number <= last and bool(
        communities & {Community.HINDU, Community.MUSLIM})
