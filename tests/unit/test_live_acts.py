"""A long-lived process (the API server) learns of Acts another process loaded after it started: by name,
by code (the citation checks ask ``code in resolver``) and for the titles answers are written with."""

from __future__ import annotations

import pytest

from graph_schema.acts import ActTitles, LiveActResolver
from graph_schema.errors import UnknownActError
from graph_schema.model import Act

NIA = Act(code="NIA", title="The Negotiable Instruments Act, 1881", year=1881)
KRA = Act(code="KRA", title="The Karnataka Rent Act, 1999", year=1999)


class Graph:
    """The Acts a graph holds, as ``store.all_acts`` returns them; an ingest elsewhere adds to it."""

    def __init__(self) -> None:
        self.acts = [NIA]
        self.reads = 0

    def all_acts(self) -> list[Act]:
        self.reads += 1
        return list(self.acts)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_an_act_loaded_later_is_known_by_name_code_and_title() -> None:
    graph, clock = Graph(), Clock()
    live = LiveActResolver(graph.all_acts, min_interval_s=2.0, clock=clock)
    titles = ActTitles(live)
    graph.acts.append(KRA)  # another process loads an Act
    clock.now += 0.5
    assert "KRA" not in live  # re-read at most every 2 s
    with pytest.raises(UnknownActError):
        live.resolve("Karnataka Rent Act, 1999")
    clock.now += 2.0
    assert "KRA" in live and titles["KRA"] == "The Karnataka Rent Act, 1999"
    assert live.resolve("Karnataka Rent Act, 1999") == "KRA"
    assert sorted(titles) == ["KRA", "NIA"] and len(titles) == 2
    assert titles.get("NOPE") is None


def test_unknown_names_cost_one_graph_read_per_interval() -> None:
    graph, clock = Graph(), Clock()
    live = LiveActResolver(graph.all_acts, min_interval_s=2.0, clock=clock)
    clock.now += 5
    for _ in range(50):
        assert "XYZ" not in live
    assert graph.reads == 2  # the first load and one re-read
