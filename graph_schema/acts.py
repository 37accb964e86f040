"""Act codes and the names lawyers actually write for them.

The curated table gives the Acts we ship text for a short code and their common aliases. Every
other central Act from the India Code catalogue gets a generated code (initials and year) and its
title as alias. ``ActResolver`` turns any of these spellings into a code.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

from graph_schema.errors import ActYearMismatchError, AmbiguousActError, UnknownActError
from graph_schema.model import Act


@dataclass(frozen=True, slots=True)
class CuratedAct:
    code: str
    slug: str | None
    aliases: tuple[str, ...]


# slug None: the Act is not in the India Code catalogue of active Acts (the repealed codes).
CURATED: tuple[CuratedAct, ...] = (
    CuratedAct("IPC", None, ("Indian Penal Code", "Indian Penal Code, 1860", "I.P.C.", "Penal Code",
                             "IPC 1860", "Act 45 of 1860")),
    CuratedAct("CRPC", None, ("Code of Criminal Procedure", "Code of Criminal Procedure, 1973", "Cr.P.C.",
                              "CrPC", "Cr PC", "Criminal Procedure Code", "Criminal Procedure Code, 1973",
                              "Cr.P.C. 1973", "Act 2 of 1974")),
    CuratedAct("IEA", None, ("Indian Evidence Act", "Indian Evidence Act, 1872", "Evidence Act",
                             "Evidence Act, 1872", "I.E.A.", "Act 1 of 1872")),
    CuratedAct("BNS", "the-bharatiya-nyaya-sanhita-2023", ("Bharatiya Nyaya Sanhita", "B.N.S.", "Nyaya Sanhita",
                                                           "Act 45 of 2023")),
    CuratedAct("BNSS", "the-bharatiya-nagarik-suraksha-sanhita-2023",
               ("Bharatiya Nagarik Suraksha Sanhita", "Bharatiya Nagrik Suraksha Sanhita", "B.N.S.S.",
                "Nagarik Suraksha Sanhita", "Act 46 of 2023")),
    CuratedAct("BSA", "the-bharatiya-sakshya-adhiniyam-2023", ("Bharatiya Sakshya Adhiniyam", "B.S.A.",
                                                              "Sakshya Adhiniyam", "Act 47 of 2023")),
    CuratedAct("HMA", "the-hindu-marriage-act-1955", ("Hindu Marriage Act", "H.M.A.", "H.M. Act")),
    CuratedAct("NIA", "the-negotiable-instruments-act-1881", ("Negotiable Instruments Act", "N.I. Act", "NI Act",
                                                             "N.I.Act", "Negotiable Instrument Act")),
    CuratedAct("CPC", "the-code-of-civil-procedure-1908", ("Code of Civil Procedure", "C.P.C.",
                                                          "Civil Procedure Code", "Civil Procedure Code, 1908")),
    CuratedAct("ACA", "the-arbitration-and-conciliation-act-1996", ("Arbitration Act", "A&C Act",
                                                                    "Arbitration and Conciliation Act")),
    CuratedAct("ARMS", "the-arms-act-1959", ("Arms Act",)),
    CuratedAct("BBEA", "the-bankers-books-evidence-act-1891", ("Bankers' Books Evidence Act",
                                                              "Bankers Books Evidence Act")),
    CuratedAct("CCA", "the-commercial-courts-act-2015", ("Commercial Courts Act",)),
    CuratedAct("CPA", "the-consumer-protection-act-2019", ("Consumer Protection Act", "COPRA", "CP Act", "C.P. Act",
                                                          "Consumer Act")),
    CuratedAct("CPIA", "the-criminal-procedure-identification-act-2022", ("Criminal Procedure (Identification) Act",
                                                                          "Identification Act")),
    CuratedAct("DMMA", "the-dissolution-of-muslim-marriages-act-1939", ("Dissolution of Muslim Marriages Act",)),
    CuratedAct("IDA", "the-divorce-act-1869", ("Divorce Act", "Indian Divorce Act", "Indian Divorce Act, 1869")),
    # Not "DP Act": Delhi FIRs write "u/s 92/97 D.P. Act" for the Delhi Police Act, 1978.
    CuratedAct("DPA", "the-dowry-prohibition-act-1961", ("Dowry Prohibition Act", "Dowry Act")),
    CuratedAct("FCA", "the-family-courts-act-1984", ("Family Courts Act",)),
    CuratedAct("GWA", "the-guardians-and-wards-act-1890", ("Guardians and Wards Act", "G&W Act")),
    CuratedAct("HAMA", "the-hindu-adoptions-and-maintenance-act-1956", ("Hindu Adoptions and Maintenance Act",
                                                                        "Hindu Adoption and Maintenance Act")),
    CuratedAct("HMGA", "the-hindu-minority-and-guardianship-act-1956", ("Hindu Minority and Guardianship Act",)),
    CuratedAct("HSA", "the-hindu-succession-act-1956", ("Hindu Succession Act",)),
    CuratedAct("ICA", "the-indian-contract-act-1872", ("Indian Contract Act", "Contract Act", "Contract Act, 1872")),
    CuratedAct("IPA", "the-indian-partnership-act-1932", ("Indian Partnership Act", "Partnership Act")),
    CuratedAct("STAMP", "the-indian-stamp-act-1899", ("Indian Stamp Act", "Stamp Act")),
    CuratedAct("ISA", "the-indian-succession-act-1925", ("Indian Succession Act", "Succession Act, 1925")),
    CuratedAct("ITA", "the-information-technology-act-2000", ("Information Technology Act", "IT Act", "I.T. Act")),
    CuratedAct("JJA", "the-juvenile-justice-care-and-protection-of-children-act-2015",
               ("Juvenile Justice Act", "JJ Act", "Juvenile Justice (Care and Protection of Children) Act")),
    CuratedAct("LSAA", "the-legal-services-authorities-act-1987", ("Legal Services Authorities Act",)),
    CuratedAct("LIMA", "the-limitation-act-1963", ("Limitation Act",)),
    CuratedAct("MWPSCA", "the-maintenance-and-welfare-of-parents-and-senior-citizens-act-2007",
               ("Senior Citizens Act", "Maintenance and Welfare of Parents and Senior Citizens Act", "MWPSC Act",
                "Parents and Senior Citizens Act")),
    CuratedAct("MVA", "the-motor-vehicles-act-1988", ("Motor Vehicles Act", "M.V. Act", "MV Act", "Motor Vehicle Act")),
    CuratedAct("MWPRMA", "the-muslim-women-protection-of-rights-on-marriage-act-2019",
               ("Muslim Women (Protection of Rights on Marriage) Act", "Triple Talaq Act")),
    CuratedAct("NDPS", "the-narcotic-drugs-and-psychotropic-substances-act-1985",
               ("NDPS Act", "N.D.P.S. Act", "Narcotic Drugs and Psychotropic Substances Act")),
    CuratedAct("PCA", "the-prevention-of-corruption-act-1988", ("Prevention of Corruption Act", "PC Act",
                                                               "P.C. Act")),
    CuratedAct("POA", "the-probation-of-offenders-act-1958", ("Probation of Offenders Act",)),
    CuratedAct("POCSO", "the-protection-of-children-from-sexual-offences-act-2012",
               ("POCSO Act", "Protection of Children from Sexual Offences Act")),
    CuratedAct("PWDVA", "the-protection-of-women-from-domestic-violence-act-2005",
               ("Domestic Violence Act", "DV Act", "D.V. Act", "Protection of Women from Domestic Violence Act")),
    CuratedAct("REGA", "the-registration-act-1908", ("Registration Act",)),
    CuratedAct("RTI", "the-right-to-information-act-2005", ("RTI Act", "Right to Information Act")),
    CuratedAct("SGA", "the-sale-of-goods-act-1930", ("Sale of Goods Act",)),
    CuratedAct("SCSTA", "the-scheduled-castes-and-the-scheduled-tribes-prevention-of-atrocities-act-1989",
               ("SC/ST Act", "SC ST Act", "Atrocities Act", "SC/ST (Prevention of Atrocities) Act",
                "SC/ST Atrocities Act", "SC ST Atrocities Act", "SC/ST Prevention of Atrocities Act",
                "Prevention of Atrocities Act", "SC/ST (PoA) Act", "SC/ST PoA Act", "SC-ST Act",
                "Scheduled Castes and the Scheduled Tribes (Prevention of Atrocities) Act")),
    CuratedAct("SMA", "the-special-marriage-act-1954", ("Special Marriage Act",)),
    CuratedAct("SRA", "the-specific-relief-act-1963", ("Specific Relief Act",)),
    CuratedAct("TPA", "the-transfer-of-property-act-1882", ("Transfer of Property Act", "T.P. Act", "TP Act")),
)


COMMON_NAMES: dict[str, tuple[str, ...]] = {
    "SHWWPPRA2013": ("POSH Act", "POSH", "Sexual Harassment at Workplace Act", "Sexual Harassment of Women at "
                     "Workplace Act"),
    "SRFAESIA2002": ("SARFAESI Act", "SARFAESI", "Securitisation Act"),
    "RCFCEA2009": ("RTE Act", "Right to Education Act"),
    "WLPA1972": ("Wildlife Protection Act", "Wildlife Act", "Wild Life Act", "Wildlife (Protection) Act"),
    "CGSTA2017": ("GST Act", "CGST Act", "Central GST Act"),
    "RERDA2016": ("RERA", "RERA Act", "Real Estate Act", "Real Estate Regulation Act"),
    "MTPA1971": ("MTP Act", "M.T.P. Act", "Abortion Act"),
    "PCMA2006": ("Child Marriage Act", "PCM Act", "Child Marriage Prohibition Act"),
}
"""The names practitioners use for Acts of the India Code index that we hold without text, by the code the catalogue
gives them (``generated_code``): no word of their titles ("POSH Act" for the Sexual Harassment of Women at Workplace
(Prevention, Prohibition and Redressal) Act, 2013). Applied only to Acts the graph holds."""


def slug_year(slug: str | None) -> int | None:
    """The year an India Code slug ends with ("the-hindu-marriage-act-1955" -> 1955), or None."""
    m = re.search(r"(\d{4})$", slug or "")
    return int(m.group(1)) if m else None


CURATED_BY_SLUG = {c.slug: c for c in CURATED if c.slug}
CURATED_BY_CODE = {c.code: c for c in CURATED}

# The repealed criminal codes are not in the India Code catalogue of active Acts.
REPEALED_CODES: tuple[Act, ...] = (
    Act(code="IPC", title="The Indian Penal Code, 1860", number="45", year=1860, in_force_from="1862-01-01",
        in_force_to="2024-07-01", aliases=CURATED_BY_CODE["IPC"].aliases, source="legacy/ipc.json"),
    Act(code="CRPC", title="The Code of Criminal Procedure, 1973", number="2", year=1974,
        in_force_from="1974-04-01", in_force_to="2024-07-01", aliases=CURATED_BY_CODE["CRPC"].aliases,
        source="legacy/crpc.json"),
    Act(code="IEA", title="The Indian Evidence Act, 1872", number="1", year=1872, in_force_from="1872-09-01",
        in_force_to="2024-07-01", aliases=CURATED_BY_CODE["IEA"].aliases, source="legacy/iea.json"),
)

# Our copy of these codes is not divided as the official text is: the civictech JSON lost the sub-units'
# labels with its HTML lists (ingestion/sources/legacy_layout.py restores them from the layout, so a
# clause list the official text numbers (i), (ii) may be read as (a), (b): CrPC s.438(1)), holds some
# sections as they stood before later amendments (CrPC s.2 has no clause (wa) "victim", inserted in
# 2009) and others cut short (IPC s.300 stops after its opening words). A cited sub-unit our copy
# lacks is therefore unchecked, never "not found"; one it has is checked.
INCOMPLETE_SUBUNITS: frozenset[str] = frozenset(a.code for a in REPEALED_CODES)

# Act-level repeal: old code -> (new code, repealing provision). BNS s.358, BNSS s.531, BSA s.170.
ACT_REPEALS: tuple[tuple[str, str, str], ...] = (
    ("IPC", "BNS", "358"),
    ("CRPC", "BNSS", "531"),
    ("IEA", "BSA", "170"),
)

STOPWORDS = {"the", "of", "and", "for", "in", "on", "to", "a", "an", "act", "with", "by", "at"}


def normalise_alias(name: str) -> str:
    """Fold an Act name for lookup: case, dots, punctuation and a leading "the" do not matter.

    >>> normalise_alias("the Cr.P.C.")
    'crpc'
    >>> normalise_alias("Hindu Marriage Act, 1955")
    'hindu marriage act 1955'
    """
    s = name.lower().replace("&", " and ")
    s = re.sub(r"[.'\u2019]", "", s)
    s = re.sub(r"[^a-z0-9]+", " ", s).strip()
    s = re.sub(r"^the\s+", "", s)
    # Spaced initials are one abbreviation: "Cr. P. C." -> "crpc", "N. I. Act" -> "ni act".
    s = re.sub(r"\b([a-z]{1,2})((?:\s[a-z]){1,3})\b", lambda m: m.group(0).replace(" ", ""), s)
    return s


def generated_code(title: str, year: str | int | None) -> str:
    """Initials of a title's significant words plus its year: "The Companies Act, 2013" -> "CA2013"."""
    words = [w for w in re.findall(r"[A-Za-z]+", re.sub(r",?\s*\d{4}\.?$", "", title)) if w.lower() not in STOPWORDS]
    initials = "".join(w[0].upper() for w in words) or "ACT"
    return f"{initials}A{year}" if year else f"{initials}A"


def title_aliases(title: str) -> tuple[str, ...]:
    """The title itself and the title without its year."""
    no_year = re.sub(r",?\s*(?:\(\s*)?\d{4}\s*\)?\.?\s*$", "", title).strip()
    return tuple(dict.fromkeys([title, no_year]))


class ActResolver:
    """Maps codes and aliases to Act codes. Built from the Acts held in the graph."""

    def __init__(self, acts: Iterable[Act]) -> None:
        self._load(acts)

    def _load(self, acts: Iterable[Act]) -> None:
        titles: dict[str, str] = {}
        by_code: dict[str, Act] = {}
        years: dict[str, int | None] = {}
        codes: dict[str, str] = {}
        exact: dict[str, set[str]] = {}
        weak: dict[str, set[str]] = {}
        for act in acts:
            titles[act.code] = act.title
            by_code[act.code] = act
            years[act.code] = act.year
            codes[normalise_alias(act.code)] = act.code
            exact.setdefault(normalise_alias(act.code), set()).add(act.code)
            exact.setdefault(normalise_alias(act.title), set()).add(act.code)
            for alias in act.aliases:
                exact.setdefault(normalise_alias(alias), set()).add(act.code)
            for alias in title_aliases(act.title)[1:]:
                weak.setdefault(normalise_alias(alias), set()).add(act.code)
            for alias in COMMON_NAMES.get(act.code, ()):
                exact.setdefault(normalise_alias(alias), set()).add(act.code)
        # Built aside and swapped in, so a reader in another thread never sees half a table.
        (self._titles, self._years, self._codes, self._exact, self._weak,
         self._acts) = titles, years, codes, exact, weak, by_code

    def __contains__(self, code: str) -> bool:
        return code in self._titles

    def codes(self) -> set[str]:
        return set(self._titles)

    def title(self, code: str) -> str:
        return self._titles[code]

    def act(self, code: str) -> Act:
        """The Act record behind ``code`` (its status, source and dates)."""
        return self._acts[code]

    def resolve(self, name: str) -> str:
        """Return the Act code for ``name``.

        Raises:
            UnknownActError: no Act has that code, title or alias.
            AmbiguousActError: the name fits several Acts equally well.
        """
        key = normalise_alias(name)
        if key in self._codes:  # an exact code always wins over aliases
            return self._codes[key]
        for table in (self._exact, self._weak):
            codes = table.get(key)
            if codes and len(codes) == 1:
                return next(iter(codes))
            if codes:
                raise AmbiguousActError(name, tuple(sorted(codes)))
        # A year that is not part of any alias: "NI Act, 1881", "HMA 1955". It must be the Act's
        # own year: "Code of Criminal Procedure, 1898" is not the 1973 Code.
        m = re.match(r"^(.*\S)\s+(\d{4})$", key)
        if m:
            code = self.resolve(m.group(1))
            year = self._years.get(code)
            if year is not None and year != int(m.group(2)) and str(m.group(2)) not in self._titles[code]:
                raise ActYearMismatchError(name, (f"{code} ({self._titles[code]})",))
            return code
        # "HMA Act" for "HMA".
        if key.endswith(" act") and key[:-4].strip():
            return self.resolve(key[:-4])
        raise UnknownActError(name, self._suggest(key))

    def _suggest(self, key: str) -> tuple[str, ...]:
        words = set(key.split()) - STOPWORDS
        if not words:
            return ()
        scored = []
        for alias, codes in self._exact.items():
            overlap = len(words & set(alias.split()))
            if overlap:
                scored.append((overlap, alias, codes))
        scored.sort(key=lambda t: (-t[0], t[1]))
        out: list[str] = []
        for _, _, codes in scored:
            for c in sorted(codes):
                if c not in out:
                    out.append(c)
        return tuple(out[:3])


class LiveActResolver(ActResolver):
    """An :class:`ActResolver` that re-reads the graph's Acts when asked for a name it does not know.

    A long-lived process (the API server) would otherwise never learn of an Act another process
    (an ingest worker) loaded after it started. Re-reading happens at most every ``min_interval_s``
    seconds, so a stream of unknown names costs at most one graph read per interval.
    """

    def __init__(self, load: Callable[[], Iterable[Act]], min_interval_s: float = 2.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._reload = load
        self._min_interval_s = min_interval_s
        self._clock = clock
        self._loaded_at = clock()
        super().__init__(load())

    def resolve(self, name: str) -> str:
        try:
            return super().resolve(name)
        except UnknownActError:
            if not self._reload_if_due():
                raise
            return super().resolve(name)

    def __contains__(self, code: str) -> bool:
        return super().__contains__(code) or (self._reload_if_due() and super().__contains__(code))

    def _reload_if_due(self) -> bool:
        """Re-read the Acts unless that was done less than ``min_interval_s`` ago; True if re-read."""
        if self._clock() - self._loaded_at < self._min_interval_s:
            return False
        self._loaded_at = self._clock()
        self._load(self._reload())
        return True


class ActTitles(Mapping[str, str]):
    """Act code -> full title, read through a resolver: with a :class:`LiveActResolver`, an Act loaded by
    another process after this one started gets its title too (answers name it, not its code)."""

    def __init__(self, resolver: ActResolver) -> None:
        self._resolver = resolver

    def __getitem__(self, code: str) -> str:
        if code in self._resolver:
            return self._resolver.title(code)
        raise KeyError(code)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._resolver.codes()))

    def __len__(self) -> int:
        return len(self._resolver.codes())
