"""Act names lawyers write, resolved to codes."""

from __future__ import annotations

import json

import pytest

from graph_schema.acts import ActResolver, generated_code, normalise_alias
from graph_schema.errors import ActYearMismatchError, AmbiguousActError, UnknownActError
from ingestion.sources.indiacode import act_codes_for_catalog, read_catalog
from tests.conftest import real_corpus_path


@pytest.fixture(scope="module")
def resolver() -> ActResolver:
    from graph_schema.acts import REPEALED_CODES

    parsed = read_catalog(real_corpus_path("indiacode", "acts_catalog.jsonl"))
    return ActResolver([*REPEALED_CODES, *parsed.acts])


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("IPC", "IPC"),
        ("ipc", "IPC"),
        ("Indian Penal Code", "IPC"),
        ("I.P.C.", "IPC"),
        ("Penal Code", "IPC"),
        ("Indian Penal Code, 1860", "IPC"),
        ("Cr.P.C.", "CRPC"),
        ("CrPC", "CRPC"),
        ("Code of Criminal Procedure, 1973", "CRPC"),
        ("Evidence Act", "IEA"),
        ("Indian Evidence Act, 1872", "IEA"),
        ("BNS", "BNS"),
        ("Bharatiya Nyaya Sanhita, 2023", "BNS"),
        ("The Bharatiya Nagarik Suraksha Sanhita, 2023", "BNSS"),
        ("BSA", "BSA"),
        ("N.I. Act", "NIA"),
        ("Negotiable Instruments Act, 1881", "NIA"),
        ("Hindu Marriage Act, 1955", "HMA"),
        ("HMA", "HMA"),
        ("the Hindu Marriage Act", "HMA"),
        ("CPC", "CPC"),
        ("Code of Civil Procedure, 1908", "CPC"),
        ("DV Act", "PWDVA"),
        ("SC/ST Atrocities Act", "SCSTA"),
        ("Prevention of Atrocities Act", "SCSTA"),
        # short names practitioners write for the Acts a client's matter most often turns on
        ("CP Act", "CPA"),
        ("Consumer Act", "CPA"),
        ("Motor Vehicle Act", "MVA"),
        ("MWPSC Act", "MWPSCA"),
        ("SC/ST Act", "SCSTA"),
        ("POCSO", "POCSO"),
        ("The Companies Act, 2013", "CA2013"),
        ("Companies Act 2013", "CA2013"),
        ("Advocates Act, 1961", "ADVA1961"),
        ("Apprentices Act, 1961", "APPA1961"),
        # names practitioners use that share no word with the title (COMMON_NAMES)
        ("POSH Act", "SHWWPPRA2013"),
        ("SARFAESI Act", "SRFAESIA2002"),
        ("RTE Act", "RCFCEA2009"),
        ("Wildlife Protection Act", "WLPA1972"),
        ("GST Act", "CGSTA2017"),
        ("RERA", "RERDA2016"),
        ("MTP Act", "MTPA1971"),
        ("Child Marriage Act", "PCMA2006"),
        ("SC/ST (PoA) Act", "SCSTA"),
        ("SC/ST PoA Act", "SCSTA"),
    ],
)
def test_aliases_resolve(resolver: ActResolver, name: str, code: str) -> None:
    assert resolver.resolve(name) == code


def test_unknown_act_is_a_clear_error_with_suggestions(resolver: ActResolver) -> None:
    with pytest.raises(UnknownActError) as e:
        resolver.resolve("Indian Penal Cod")
    assert "unknown Act" in str(e.value)
    assert "IPC" in e.value.suggestions


def test_a_year_not_the_acts_own_is_a_mismatch(resolver: ActResolver) -> None:
    # The Act number's year (2 of 1974) and the title's (1973) are both the 1973 Code's; 1898 is another Code.
    assert resolver.resolve("Code of Criminal Procedure, 1974") == "CRPC"
    with pytest.raises(ActYearMismatchError) as e:
        resolver.resolve("Code of Criminal Procedure, 1898")
    assert isinstance(e.value, UnknownActError)
    assert "CRPC" in e.value.suggestions[0]


def test_ambiguous_alias() -> None:
    from graph_schema.model import Act

    r = ActResolver([Act(code="A1", title="The Foo Act, 1950"), Act(code="A2", title="The Foo Act, 1990")])
    with pytest.raises(AmbiguousActError):
        r.resolve("Foo Act")
    assert r.resolve("Foo Act, 1990") == "A2"


def test_catalog_codes_are_unique_over_all_846_acts() -> None:
    rows = [json.loads(x) for x in real_corpus_path("indiacode", "acts_catalog.jsonl").open()]
    codes = act_codes_for_catalog(rows)
    assert len(codes) == 846
    assert len(set(codes.values())) == 846


def test_generated_code_and_normalise() -> None:
    assert generated_code("The Companies Act, 2013", "2013") == "CA2013"
    assert normalise_alias("the Cr.P.C.") == "crpc"


def test_an_abbreviation_two_acts_answer_to_is_not_the_dowry_act(resolver: ActResolver) -> None:
    # "u/s 92/97 D.P. Act" in a Delhi FIR is the Delhi Police Act, 1978: no alias makes it the Dowry Prohibition Act.
    for name in ("DP Act", "D.P. Act"):
        try:
            code = resolver.resolve(name)
        except UnknownActError:
            continue
        assert code != "DPA", name
