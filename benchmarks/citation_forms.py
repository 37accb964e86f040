"""How often the citation extractor resolves the forms lawyers write to the right provision.

    python benchmarks/citation_forms.py [--graph scratch|settings] [--misses N] [--json]

A grid of forms x Act names x sections, built from templates ("u/s {n} {act}", "s.{n} {act}", "sub-section
({sub}) of section {n} of the {act}", "Under the {act}, ... section {n}", ...) filled with section numbers, and
sub-sections, that the statute graph holds for each Act. A string counts as resolved when the provision keys
extracted from it (act, section, sub-units) are exactly the expected ones: a missing Act, a wrong Act, a lost
sub-section or an extra key is a miss. The extractor resolves Act names with the graph's Acts, as the verifier
does.

``--graph scratch`` (default) loads the shipped corpus into a throw-away embedded graph; ``--graph settings``
reads the graph the settings point to (after ``legal-rag ingest --default``).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from graph_schema.acts import ActResolver  # noqa: E402
from graph_schema.model import CitationKey  # noqa: E402
from graph_schema.store import GraphReader, GraphStore  # noqa: E402
from verification.extract import CitationExtractor  # noqa: E402
from verification.model import Label  # noqa: E402

SEED = 25

# What lawyers write for each Act: abbreviations in upper, lower and mixed case, with and without full stops,
# the short names, and the titles with and without their year. Only names that mean one Act.
ACT_NAMES: dict[str, tuple[str, ...]] = {
    "IPC": ("IPC", "ipc", "Ipc", "I.P.C.", "I.P.C", "Indian Penal Code", "Indian Penal Code, 1860", "Penal Code"),
    "CRPC": ("CrPC", "crpc", "CRPC", "Crpc", "Cr.P.C.", "Cr.P.C", "Cr. P. C.", "Code of Criminal Procedure",
             "Code of Criminal Procedure, 1973", "Criminal Procedure Code"),
    "IEA": ("IEA", "I.E.A.", "iea", "I.E. Act", "Evidence Act", "Indian Evidence Act", "Indian Evidence Act, 1872"),
    "BNS": ("BNS", "bns", "B.N.S.", "Bharatiya Nyaya Sanhita", "Bharatiya Nyaya Sanhita, 2023"),
    "BNSS": ("BNSS", "bnss", "B.N.S.S.", "Bharatiya Nagarik Suraksha Sanhita, 2023"),
    "BSA": ("BSA", "bsa", "Bharatiya Sakshya Adhiniyam, 2023"),
    "HMA": ("HMA", "H.M.A.", "hma", "HM Act", "Hindu Marriage Act", "Hindu Marriage Act, 1955"),
    "NIA": ("NI Act", "N.I. Act", "N.I.Act", "Negotiable Instruments Act, 1881"),
    "CPC": ("CPC", "cpc", "C.P.C.", "Code of Civil Procedure", "Code of Civil Procedure, 1908"),
    "PWDVA": ("DV Act", "D.V. Act", "PWDVA", "PWDV Act", "Domestic Violence Act",
              "Protection of Women from Domestic Violence Act, 2005"),
    "POCSO": ("POCSO", "pocso", "POCSO Act", "Protection of Children from Sexual Offences Act, 2012"),
    "NDPS": ("NDPS", "ndps", "NDPS Act", "N.D.P.S. Act"),
    "MVA": ("MV Act", "M.V. Act", "Motor Vehicles Act, 1988"),
    "ITA": ("IT Act", "I.T. Act", "Information Technology Act, 2000"),
    "PCA": ("PC Act", "P.C. Act", "Prevention of Corruption Act, 1988"),
    "CPA": ("CPA 2019", "CPA, 2019", "Consumer Protection Act, 2019"),
    "SRA": ("SRA", "S.R. Act", "Specific Relief Act", "Specific Relief Act, 1963"),
    "TPA": ("TP Act", "T.P. Act", "Transfer of Property Act, 1882"),
    "ACA": ("A&C Act", "Arbitration and Conciliation Act, 1996"),
    "SCSTA": ("SC/ST Act", "Atrocities Act"),
    "JJA": ("JJ Act", "Juvenile Justice Act"),
    "RTI": ("RTI Act",),
    "ICA": ("Contract Act", "Indian Contract Act, 1872"),
    "LIMA": ("Limitation Act", "Limitation Act, 1963"),
    "HSA": ("H.S. Act", "Hindu Succession Act, 1956"),
    "HAMA": ("HAMA", "H.A.M. Act", "Hindu Adoptions and Maintenance Act, 1956"),
    "GWA": ("Guardians and Wards Act, 1890",),
    "DPA": ("Dowry Prohibition Act, 1961",),
    "ARMS": ("Arms Act", "Arms Act, 1959"),
    "STAMP": ("Stamp Act", "Indian Stamp Act, 1899"),
    "REGA": ("Registration Act, 1908",),
    "SMA": ("S.M. Act", "Special Marriage Act, 1954"),
    "CCA": ("Commercial Courts Act, 2015",),
    "FCA": ("Family Courts Act, 1984",),
    "SGA": ("SOGA", "Sale of Goods Act, 1930"),
    "LSAA": ("L.S.A. Act", "Legal Services Authorities Act, 1987"),
    "MWPSCA": ("Senior Citizens Act",),
}

_MAIN = re.compile(r"\d{1,3}[A-Z]{0,2}")
_SUB = re.compile(r"(\d{1,3}[A-Z]{0,2})\((\d{1,2}[A-Z]?)\)")
_CLAUSE = re.compile(r"(\d{1,3}[A-Z]{0,2})\((\d{1,2}[A-Z]?)\)\(([a-z]{1,2})\)")

Key = tuple[str, str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Case:
    """One grid string and the provision keys it names."""

    form: str
    act: str
    name: str
    text: str
    expected: frozenset[Key]


@dataclass(frozen=True, slots=True)
class Units:
    """The units of one Act the graph holds, as the grid uses them."""

    sections: tuple[str, ...]  # main sections, "302", "498A"
    runs: tuple[tuple[str, str, str], ...]  # three consecutive numbered sections, "161", "162", "163"
    subs: tuple[tuple[str, str], ...]  # ("156", "3"): sub-section (3) of section 156
    clauses: tuple[tuple[str, str, str], ...]  # ("3", "1", "b"): clause (b) of sub-section (1) of section 3


def units_of(texts: dict[str, str]) -> Units:
    """The grid's units from ``GraphReader.act_texts`` ("302", "103(1)", "3(1)(b)")."""
    mains = sorted({k for k in texts if _MAIN.fullmatch(k)}, key=_natural)
    plain = {int(k) for k in mains if k.isdigit()}
    runs = tuple((str(n), str(n + 1), str(n + 2)) for n in sorted(plain) if {n + 1, n + 2} <= plain)
    subs = tuple(m.groups() for k in texts if (m := _SUB.fullmatch(k)))
    clauses = tuple(m.groups() for k in texts if (m := _CLAUSE.fullmatch(k)))
    return Units(tuple(mains), runs, tuple(sorted(subs)), tuple(sorted(clauses)))


def _natural(n: str) -> tuple[int, str]:
    m = re.match(r"\d+", n)
    return (int(m.group()) if m else 0, n)


def _k(act: str, section: str, *sub: str) -> Key:
    return (act, section, tuple(sub))


Form = Callable[[str, str, "_Picker"], tuple[str, frozenset[Key]] | None]


class _Picker:
    """Deterministic choices of an Act's units, different for every string."""

    def __init__(self, code: str, units: dict[str, Units], rng: random.Random) -> None:
        self.units, self.rng, self._all = units[code], rng, units
        # Another Act the graph holds, for the strings where a section belongs to a different Act.
        self.others = [c for c in units if c != code and len(units[c].sections) >= 3]

    def other(self) -> tuple[str, str]:
        code = self.rng.choice(self.others)
        return code, self.rng.choice(self.units_of(code).sections)

    def units_of(self, code: str) -> Units:
        return self._all[code]

    def section(self) -> str:
        return self.rng.choice(self.units.sections)

    def two(self) -> tuple[str, str]:
        a, b = self.rng.sample(self.units.sections, 2)
        return a, b

    def three(self) -> tuple[str, str, str]:
        a, b, c = self.rng.sample(self.units.sections, 3)
        return a, b, c

    def run(self) -> tuple[str, str, str] | None:
        return self.rng.choice(self.units.runs) if self.units.runs else None

    def sub(self) -> tuple[str, str] | None:
        return self.rng.choice(self.units.subs) if self.units.subs else None

    def clause(self) -> tuple[str, str, str] | None:
        return self.rng.choice(self.units.clauses) if self.units.clauses else None


def _single(template: str) -> Form:
    def form(code: str, name: str, pick: _Picker) -> tuple[str, frozenset[Key]]:
        n = pick.section()
        return template.format(n=n, act=name), frozenset({_k(code, n)})

    return form


def _with_sub(template: str) -> Form:
    def form(code: str, name: str, pick: _Picker) -> tuple[str, frozenset[Key]] | None:
        got = pick.sub()
        if got is None:
            return None
        n, sub = got
        return template.format(n=n, sub=sub, act=name), frozenset({_k(code, n, sub)})

    return form


def _clause(code: str, name: str, pick: _Picker) -> tuple[str, frozenset[Key]] | None:
    got = pick.clause()
    if got is None:
        return None
    n, sub, cl = got
    text = f"the order falls under clause ({cl}) of sub-section ({sub}) of section {n} of the {name}"
    return text, frozenset({_k(code, n, sub, cl)})


def _two(template: str) -> Form:
    def form(code: str, name: str, pick: _Picker) -> tuple[str, frozenset[Key]]:
        a, b = pick.two()
        return template.format(a=a, b=b, act=name), frozenset({_k(code, a), _k(code, b)})

    return form


def _three(code: str, name: str, pick: _Picker) -> tuple[str, frozenset[Key]]:
    a, b, c = pick.three()
    return f"charged under sections {a}, {b} and {c} {name}", frozenset({_k(code, a), _k(code, b), _k(code, c)})


def _range(template: str) -> Form:
    def form(code: str, name: str, pick: _Picker) -> tuple[str, frozenset[Key]] | None:
        got = pick.run()
        if got is None:
            return None
        a, b, c = got
        return template.format(a=a, c=c, act=name), frozenset({_k(code, a), _k(code, b), _k(code, c)})

    return form


def _other_act_after(code: str, name: str, pick: _Picker) -> tuple[str, frozenset[Key]]:
    other, n = pick.other()
    title = pick.rng.choice(ACT_NAMES[other])
    return (f"Under the {name}, the offence under section {n} of the {title} is also made out.",
            frozenset({_k(other, n)}))


def _act_in_earlier_sentence(code: str, name: str, pick: _Picker) -> tuple[str, frozenset[Key]]:
    n = pick.section()
    return (f"The complaint under the {name} was dismissed. Under section {n} the delay may be condoned.",
            frozenset({_k("", n)}))


def _with_article(code: str, name: str, pick: _Picker) -> tuple[str, frozenset[Key]]:
    n = pick.section()
    art = pick.rng.choice(("14", "19", "21", "226", "32"))
    head = pick.rng.choice(("Art.", "Article", "Art"))
    # The Constitution is not in the graph: its Articles carry its code and are reported as not held.
    return f"u/s {n} {name} and {head} {art}", frozenset({_k(code, n), _k("COI", art)})


FORMS: dict[str, Form] = {
    "Section n of the Act": _single("The petition was filed under Section {n} of the {act}."),
    "section n Act": _single("The accused is charged under section {n} {act}."),
    "u/s n Act": _single("FIR registered u/s {n} {act} at the police station."),
    "u/s. n Act": _single("a complaint u/s. {n} {act} was filed"),
    "U/S n Act": _single("CASE U/S {n} {act}"),
    "s. n Act": _single("relief under s. {n} {act}"),
    "S. n Act": _single("He relies on S. {n} {act}."),
    "s.n Act": _single("Notice under s.{n} {act} was issued."),
    "sec. n Act": _single("an application under sec. {n} {act}"),
    "Sec n Act": _single("Sec {n} {act} applies here."),
    "Sec. n Act": _single("Sec. {n} of the {act} is attracted."),
    "Act section n": _single("Under the {act} section {n} governs this."),
    "Act, s. n": _single("{act}, s. {n} was invoked."),
    "n of the Act (mid-sentence)": _single("The trial court convicted him under section {n} of the {act} and "
                                           "sentenced him."),
    "Act far before": _single("Under the {act}, the punishment in section {n} is imprisonment."),
    "Act before; section n": _single("In the {act} there are many provisions; section {n} deals with this."),
    "sub-section (k) of section n": _with_sub("sub-section ({sub}) of section {n} of the {act}"),
    "u/s n(k) Act": _with_sub("an application u/s {n}({sub}) {act}"),
    "Section n(k) of the Act": _with_sub("Section {n}({sub}) of the {act} provides otherwise."),
    "clause (c) of sub-section (k) of section n": _clause,
    "sections a and b of the Act": _two("sections {a} and {b} of the {act}"),
    "section a and b Act": _two("an offence under section {a} and {b} {act}"),
    "Section(s) a and b Act": _two("Section(s) {a} and {b} {act} were invoked."),
    "sections a, b and c Act": _three,
    "ss. a-c Act": _range("ss. {a}-{c} {act}"),
    "Sections a to c of the Act": _range("Sections {a} to {c} of the {act}"),
    "u/s a r/w b Act": _two("convicted u/s {a} r/w {b} {act}"),
    "section a read with section b of the Act": _two("section {a} read with section {b} of the {act}"),
    # Precision: the section belongs to the other Act named after it; an Act in an earlier sentence is too far;
    # an Article beside a section is the Constitution's.
    "Under the Act, section n of another Act": _other_act_after,
    "Act in the sentence before": _act_in_earlier_sentence,
    "u/s n Act and Art. k": _with_article,
}


def build_grid(units: dict[str, Units], seed: int = SEED) -> list[Case]:
    """Every form with every Act name, each filled with units of that Act the graph holds."""
    rng = random.Random(seed)
    cases: list[Case] = []
    for code, names in ACT_NAMES.items():
        got = units.get(code)
        if got is None or len(got.sections) < 3:
            continue
        pick = _Picker(code, units, rng)
        for name in names:
            for form_name, form in FORMS.items():
                made = form(code, name, pick)
                if made is not None:
                    cases.append(Case(form_name, code, name, made[0], made[1]))
    return cases


def graph_units(store: GraphReader) -> dict[str, Units]:
    """The grid's units of every Act in ``ACT_NAMES`` that ``store`` holds."""
    held = {a.code for a in store.all_acts()}
    return {code: units_of(store.act_texts(code)) for code in ACT_NAMES if code in held}


def extracted_keys(extractor: CitationExtractor, text: str) -> frozenset[Key]:
    return frozenset(_as_key(k) for c in extractor.extract(text) if c.label is Label.PROVISION for k in c.keys)


def _as_key(k: CitationKey) -> Key:
    return (k.act, k.section, tuple(k.sub))


def score(extractor: CitationExtractor, cases: list[Case]) -> list[tuple[Case, frozenset[Key]]]:
    """The misses: each case whose extracted keys are not exactly its expected keys, with what was extracted."""
    misses = []
    for case in cases:
        got = extracted_keys(extractor, case.text)
        if got != case.expected:
            misses.append((case, got))
    return misses


def _stores(which: str) -> Iterator[GraphStore]:
    if which == "settings":
        from legal_rag.settings import Settings
        from legal_rag.stores import open_graph_store

        store = open_graph_store(Settings())
        try:
            yield store
        finally:
            store.close()
        return
    from support import scratch_graph

    with scratch_graph() as (scratch, _):
        yield scratch


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--graph", choices=("scratch", "settings"), default="scratch")
    ap.add_argument("--misses", type=int, default=20, help="print this many misses")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    for store in _stores(args.graph):
        units = graph_units(store)
        extractor = CitationExtractor(ActResolver(store.all_acts()).resolve)
    cases = build_grid(units)
    t0 = time.perf_counter()
    misses = score(extractor, cases)
    elapsed = time.perf_counter() - t0
    rate = 1 - len(misses) / len(cases)
    by_form = Counter(c.form for c, _ in misses)
    by_act = Counter(c.act for c, _ in misses)
    if args.json:
        print(json.dumps({"strings": len(cases), "resolved": len(cases) - len(misses), "rate": round(rate, 4),
                          "misses_by_form": dict(by_form), "misses_by_act": dict(by_act)}, indent=2))
        return 0
    print(f"{len(cases)} strings ({len(FORMS)} forms x {sum(map(len, ACT_NAMES.values()))} Act names), "
          f"{elapsed:.1f} s")
    print(f"resolved to the right provision: {len(cases) - len(misses)} = {rate:.1%}")
    for label, counts in (("form", by_form), ("Act", by_act)):
        if counts:
            print(f"misses by {label}: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
    for case, got in misses[: args.misses]:
        print(f"  {case.text!r}\n    expected {sorted(case.expected)}\n    got      {sorted(got)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
