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
- the Indian Succession Act, 1925: its Part V (intestate succession, ss.29-56) does not apply "to the property of any
  Hindu, Muhammadan, Buddhist, Sikh or Jaina" (s.29(1)); its Chapter II (ss.31-49) not to Parsis (s.31), its Chapter
  III (ss.50-56) only to them; its Part VI (wills, ss.57-191) not to a Muhammadan's (s.58(1));
- the Special Marriage Act, 1954 (and the Foreign Marriage Act, 1969): a civil marriage solemnized under it, by
  persons of any or different faiths.

A question whose parties say what community they are of ("We are Hindus", "I am a Christian woman", "my husband
said talaq talaq talaq") is not answered from the Acts of another community ("We are Hindus. My husband married
again": not the Divorce Act's grounds for Christians), nor, when it tells their marriage and nothing of another faith or
country, from the Special and Foreign Marriage Acts. One that names the Special Marriage Act is not answered from the
communities' marriage Acts. A community word that does not say whose faith it is (the surname Jain, "Christian
Medical College", "talaq" as the everyday word for divorce) tells nothing; nor does a question that tells a second
faith, a Jewish party, a foreign marriage or a court marriage beside a community's rite: nothing is left out then,
as nothing is for two communities except the Acts of those not told. An Act the question names is never left out:
the question asks about it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class Community(StrEnum):
    """A community whose membership decides which personal law governs a family matter."""

    HINDU = "hindu"
    MUSLIM = "muslim"
    CHRISTIAN = "christian"
    PARSI = "parsi"


_SELF = (r"(?:we\s+are|we're|i\s+am|i'm|(?:he|she)\s+is|they\s+are|(?:(?:my|our)\s+\w+\s+)?and\s+i\s+are|"
         r"(?:my|our|his|her)\s+(?:(?-i:[a-z]+)\s+)?(?:husband|wife|spouse|family|father|mother|parents|son|daughter|"
         r"in-?laws|brother|sister|grandfather|grandmother)\s+(?:is|was|are|were)|"
         r"both(?:\s+of\s+us)?(?:\s+are)?|being|born|as)\s+(?:an?\s+)?(?:(?-i:[a-z]+)\s+){0,2}?")
"""Words by which a party says what it is ("we are", "I am a", "my husband is", "both of us are")."""
_PARTY = (r"(?:marriage|married|wedding|couple|family|families|husband|wife|woman|women|girl|boy|man|men|lady|widow|"
          r"father|mother|parents?|son|daughter|law|rites?|undivided|joint\s+family|personal\s+law|by\s+religion)")
"""What a community word describes when it tells the parties' faith ("a Hindu marriage", "Muslim personal law")."""


def _told(words: str, extra: str = "") -> re.Pattern[str]:
    return re.compile(rf"\b{_SELF}(?:{words})\b|\b(?:{words})\s+(?:\w+\s+)?{_PARTY}\b{extra}", re.IGNORECASE)


_WORDS: dict[Community, str] = {
    # HMA s.2(1)(a)-(b): a Hindu by religion in any of its forms, a Buddhist, Jaina or Sikh
    Community.HINDU: r"hindus?|sikhs?|jain(?:a|s)?|buddhists?",
    Community.MUSLIM: r"muslims?|muhammadans?|mohammedans?",
    Community.CHRISTIAN: r"christians?|catholics?|protestants?",
    Community.PARSI: r"parsis?",
}
"""The words that name a member of each community."""

_RITES: dict[Community, str] = {
    # the words only a Muslim marriage and its dissolution use ("nikah", "triple talaq", "iddat", "khula"); not "talaq"
    # alone, the everyday word for divorce
    Community.MUSLIM: r"|\bnikah(?:nama)?\b|\btriple\s+talaq\b|\btalaq[\s,.-]+talaq[\s,.-]+talaq\b|"
                      r"\btalaq-?e-?(?:biddat|ahsan|hasan)\b|\biddat\b|\bkhula\b",
    Community.CHRISTIAN: r"|\bchurch\s+(?:wedding|marriage)\b|\bmarried\s+in\s+(?:a|the)\s+church\b",
}
"""Words of a community's own marriage that tell the parties' community without naming it."""

_TOLD: dict[Community, re.Pattern[str]] = {c: _told(words, _RITES.get(c, "")) for c, words in _WORDS.items()}
"""How a question tells the community of its parties: as what they are, or as what its marriage, family or law is."""

_CIVIL = re.compile(r"\bspecial\s+marriage\b|\bSMA\b|\bforeign\s+marriage\b", re.IGNORECASE)
"""A marriage told as solemnized under the Special (or Foreign) Marriage Act."""
_COURT_MARRIAGE = re.compile(r"\b(?:court|civil|registered)\s+marriage\b|\bmarried\s+(?:in|at)\s+(?:the\s+)?(?:court|"
                             r"registrar)", re.IGNORECASE)
"""A marriage told as done in court or before a registrar: under the Special Marriage Act, or a community's marriage
registered (HMA s.8)."""
_RITE = re.compile(r"\b(?:church|nikah|temple|mandir|gurdwara|mosque|masjid|arya\s+samaj|saptapadi|pheras?|"
                   r"(?:hindu|muslim|christian|sikh|parsi)\s+(?:rites?|customs?|ceremon\w*))\b", re.IGNORECASE)
_OTHER_FAITH = re.compile(r"\b(?:another|different|other|(?:an?\s+)?inter[- ]?)\s*(?:religion|faith|community|"
                          r"caste\s+and\s+religion)s?\b|\binter[- ]?(?:faith|religio\w*)\b|\bjew(?:s|ish)?\b|"
                          r"\batheists?\b|"
                          r"\bnot\s+an?\s+(?:hindu|muslim|christian|parsi|sikh|jain)\b|\bforeign(?:er)?\b|\babroad\b|"
                          r"\bNRI\b|\b(?:US|UK|American|British|Canadian)\s+citizen\b|\bconver(?:t|ted|sion)\b",
                          re.IGNORECASE)
"""A second faith, a Jewish party (no community Act of the graph is theirs), a foreign element or a conversion: the
Special or Foreign Marriage Act may be the one that governs, and nothing is left out."""
_MARRIED = re.compile(r"\b(?:married|marriage|wedding|wed|husband|wife|spouse)\b", re.IGNORECASE)
_TO_MARRY = re.compile(r"\b(?:want|wish|plan|going|intend|hope|decided?)\w*\s+to\s+(?:get\s+)?marr\w*|\bto\s+marry\b",
                       re.IGNORECASE)
"""A marriage the parties mean to make: the Special Marriage Act is one of their choices."""
_BARE: dict[Community, re.Pattern[str]] = {c: re.compile(rf"\b(?:{words})\b", re.IGNORECASE)
                                           for c, words in _WORDS.items()}
"""A community's word anywhere: one told beside another's ("my daughter is married to a Muslim. We are Hindus") says
the matter may be an inter-faith one."""

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


@dataclass(frozen=True)
class Excluded:
    """Sections of an Act that do not apply to a community's members."""

    act: str
    first: int
    last: int
    authority: str

    def holds(self, act: str, section: str) -> bool:
        number = re.match(r"\d+", section)
        return act == self.act and number is not None and self.first <= int(number.group()) <= self.last


SUCCESSION_EXCLUDED: dict[Community, tuple[Excluded, ...]] = {
    Community.HINDU: (Excluded("ISA", 29, 56, "ISA s.29(1)"),),
    Community.MUSLIM: (Excluded("ISA", 29, 56, "ISA s.29(1)"), Excluded("ISA", 57, 191, "ISA s.58(1)")),
    Community.PARSI: (Excluded("ISA", 31, 49, "ISA s.31"),),
    Community.CHRISTIAN: (Excluded("ISA", 50, 56, "ISA s.50: among Parsis only"),),
}
"""The Indian Succession Act's parts and chapters that do not apply to each community."""


@dataclass(frozen=True)
class PersonalLaw:
    """What a question tells of the personal law its family matter falls under."""

    communities: frozenset[Community] = frozenset()
    civil: bool = False
    """It names the Special (or Foreign) Marriage Act as the marriage's."""
    married: bool = False
    """It tells the parties' marriage (not one they mean to make)."""

    def outside(self, act: str, section: str) -> bool:
        """Whether a provision of ``act`` does not govern this matter. Nothing is left out when the question tells
        neither a community nor a civil marriage."""
        if self.civil:
            return act in MARRIAGE_ACTS
        if not self.communities:
            return False
        if any(act in acts for c, acts in _SCOPED.items() if c not in self.communities):
            return True
        if len(self.communities) == 1 and self.married and act in CIVIL_ACTS:
            return True  # the couple of one faith married under their own law
        return all(any(e.holds(act, section) for e in SUCCESSION_EXCLUDED[c]) for c in self.communities)


def read_personal_law(question: str) -> PersonalLaw:
    """The personal law ``question`` tells: nothing when it tells a second faith, a foreign element, a conversion, or a
    court marriage beside a community's rite (any of the Acts may govern then)."""
    if _OTHER_FAITH.search(question):
        return PersonalLaw()
    communities = frozenset(c for c, pattern in _TOLD.items() if pattern.search(question))
    if communities and any(p.search(question) for c, p in _BARE.items() if c not in communities):
        return PersonalLaw()  # another community's member is in the story: it may be an inter-faith matter
    civil = bool(_CIVIL.search(question))
    if civil and _RITE.search(question):
        return PersonalLaw()  # a civil marriage told beside a community's rite: which governs is the question
    if not civil and _COURT_MARRIAGE.search(question):
        if communities or _RITE.search(question):
            return PersonalLaw()  # a court marriage of a community may be its own marriage registered (HMA s.8)
        civil = True
    married = bool(_MARRIED.search(question)) and not _TO_MARRY.search(question)
    return PersonalLaw(communities, civil, married)


def community_acts(community: Community) -> frozenset[str]:
    """The Acts whose application membership of ``community`` decides."""
    return _SCOPED[community]
