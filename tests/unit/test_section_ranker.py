"""The section ranker (``retrieval/rerank.py``): its features, its fit, its file and its cross-validation."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from graph_schema.errors import ConfigurationError
from legal_rag.evaluation.answers import held_out_sets
from legal_rag.retrieval.rerank import (
    DEPTH,
    FEATURES,
    INTERACTIONS,
    LabelledQuestion,
    LinearSectionRanker,
    RankerFile,
    SectionEvidence,
    cross_validate,
    design,
    features,
    fit,
    train,
)
from legal_rag.settings import PROJECT_ROOT, Settings

SHIPPED = PROJECT_ROOT / "data" / "retrieval" / "section_ranker.json"


def evidence(act: str, section: str, rank: int, *, fused: float = 1.0, bm25: tuple[int, float] | None = None,
             dense: tuple[int, float] | None = None, lay: float | None = None, chunks: int = 1, heading: str = "",
             text: str = "") -> SectionEvidence:
    return SectionEvidence(act, section, rank, fused, bm25, dense, lay, chunks, heading, text)


def test_features_read_the_runs_and_the_list_around_each_section() -> None:
    cands = [
        evidence("BNS", "318", 0, fused=2.0, bm25=(0, 1.0), dense=(2, 0.6), chunks=3, heading="Cheating",
                 text="shall be punished with imprisonment"),
        evidence("BNS", "320", 1, fused=1.0, dense=(0, 0.7), heading="Definitions"),
        evidence("CPA", "35", 2, fused=1.0, bm25=(4, 0.2), lay=0.4),
        evidence("BNS", "330", 3, fused=0.5),
    ]
    rows = features(cands, query="he took my money and ran", named_acts=frozenset({"CPA"}), dense_floor=0.1,
                    dense_top=0.7)
    assert [set(r) for r in rows] == [set(FEATURES)] * 4
    first, second, third, fourth = rows
    assert first["fused_rank"] == 1.0 and fourth["fused_rank"] == 0.25
    assert first["bm25_norm"] == 1.0 and first["bm25_rank"] == 1.0 and second["bm25_norm"] == 0.0
    assert second["dense"] == 0.7 and second["dense_rank"] == 1.0 and second["dense_gap"] == 0.0
    assert fourth["dense"] == 0.1 and fourth["dense_rank"] == 0.0  # not reached: the run's last cosine
    assert third["lay"] == 0.4 and first["lay"] == 0.0
    assert first["act_share10"] == 0.75 and third["act_share10"] == 0.25
    assert first["act_mass"] == pytest.approx(3.5 / 4.5)
    assert third["act_named"] == 1.0 and first["act_named"] == 0.0
    assert first["penal"] == 1.0 and second["penal"] == 0.0
    assert second["definition"] == 1.0 and first["definition"] == 0.0
    assert first["act_rank"] == 1.0 and third["act_rank"] == 0.5
    assert [r["rank_in_act"] for r in rows] == [1.0, 0.5, 1.0, 1 / 3]
    # within three section numbers of the first section, in its Act: 320 is, 330 is not, the first itself is not
    assert [r["near_top"] for r in rows] == [0.0, 1.0, 0.0, 0.0]


def test_features_of_no_candidate_are_none() -> None:
    assert features([], query="x", named_acts=frozenset(), dense_floor=0.0, dense_top=0.0) == []


def test_design_adds_the_products_and_refuses_a_missing_feature() -> None:
    row = dict.fromkeys(FEATURES, 2.0)
    assert design([row]).shape == (1, len(FEATURES) + len(INTERACTIONS))
    assert design([row])[0, -1] == 4.0
    del row["penal"]
    with pytest.raises(ValueError, match="penal"):
        design([row])


def _rows(n: int, seed: int) -> tuple[list[dict[str, float]], list[int]]:
    rng = random.Random(seed)
    rows, labels = [], []
    for _ in range(n):
        y = int(rng.random() < 0.2)
        row = {f: rng.random() for f in FEATURES}
        row["bm25_norm"] = rng.random() * 0.5 + 0.5 * y  # the expected ones score higher on BM25
        rows.append(row)
        labels.append(y)
    return rows, labels


def test_fit_learns_which_feature_marks_the_expected_sections() -> None:
    rows, labels = _rows(400, 1)
    ranker = fit(rows, labels)
    assert ranker.weights[FEATURES.index("bm25_norm")] > 1.0
    others = [abs(w) for f, w in zip(FEATURES, ranker.weights, strict=False) if f != "bm25_norm"]
    assert max(others) < ranker.weights[FEATURES.index("bm25_norm")]
    test, truth = _rows(200, 2)
    scores = ranker.scores(test)
    best = sorted(range(200), key=lambda i: -scores[i])[:20]
    assert sum(truth[i] for i in best) >= 15


def test_fit_refuses_what_it_cannot_learn_from() -> None:
    rows, _ = _rows(10, 3)
    with pytest.raises(ValueError, match="same label"):
        fit(rows, [0] * 10)
    with pytest.raises(ValueError, match="10 candidate rows and 9 labels"):
        fit(rows, [0] * 9)
    with pytest.raises(ValueError, match="0 candidate rows"):
        fit([], [])


def test_a_saved_ranker_loads_the_same(tmp_path: Path) -> None:
    rows, labels = _rows(100, 4)
    ranker = fit(rows, labels)
    ranker.card = {"note": "test"}
    path = tmp_path / "r.json"
    ranker.save(path)
    again = LinearSectionRanker.load(path)
    assert again.scores(rows[:5]) == pytest.approx(ranker.scores(rows[:5]))
    assert again.card == {"note": "test"}
    assert not list(tmp_path.glob(".*.tmp"))


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.pop("weights"), "malformed"),
        (lambda d: d.update(features=list(FEATURES[:-1])), "retrain it"),
        (lambda d: d.update(interactions=[]), "retrain it"),
        (lambda d: d.update(weights=d["weights"][:-1]), "weights"),
        (lambda d: d["scale"].__setitem__(0, 0.0), "scales positive"),
        (lambda d: d.update(depth=10), "first 10 sections"),
    ],
)
def test_a_bad_ranker_file_is_refused_naming_it(tmp_path: Path, edit, message: str) -> None:  # type: ignore[no-untyped-def]
    rows, labels = _rows(60, 5)
    path = tmp_path / "bad.json"
    fit(rows, labels).save(path)
    doc = json.loads(path.read_text())
    edit(doc)
    path.write_text(json.dumps(doc))
    with pytest.raises(ConfigurationError, match=message) as err:
        LinearSectionRanker.load(path)
    assert "bad.json" in str(err.value)


def test_a_missing_or_unreadable_ranker_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="does not exist"):
        LinearSectionRanker.load(tmp_path / "none.json")
    (tmp_path / "junk.json").write_text("{not json")
    with pytest.raises(ConfigurationError, match="cannot be read"):
        LinearSectionRanker.load(tmp_path / "junk.json")


def _question(source: str, i: int, rng: random.Random) -> LabelledQuestion:
    # the expected section sits low in the fused order, but its BM25 score gives it away
    cands = []
    hit = rng.randrange(5, 20)
    for r in range(25):
        row = {f: rng.random() * 0.3 for f in FEATURES}
        row["fused_rank"] = 1 / (r + 1)
        row["bm25_norm"] = 0.9 if r == hit else rng.random() * 0.5
        cands.append((f"A:{r}", row))
    return LabelledQuestion(source, f"{source}-{i}", frozenset({f"A:{hit}"}), tuple(cands))


def test_cross_validation_holds_out_each_set_and_beats_the_fused_order_when_it_should() -> None:
    rng = random.Random(6)
    qs = [_question(s, i, rng) for s in ("one", "two", "three") for i in range(30)]
    cv = cross_validate(qs)
    assert cv["sets"] == ["one", "three", "two"] and cv["expected"] == 90
    assert cv["fused_recall"]["@1"] == 0.0
    assert cv["model_recall"]["@1"] > 0.8
    ranker = train(qs)
    assert ranker.card["questions"] == 90 and ranker.card["relevant_candidates"] == 90
    assert ranker.card["cross_validation"] == cv


def test_cross_validation_needs_two_sets() -> None:
    rng = random.Random(7)
    with pytest.raises(ValueError, match="1 set given"):
        cross_validate([_question("one", i, rng) for i in range(5)])


def test_the_shipped_ranker_loads_and_never_trained_on_a_measuring_set() -> None:
    ranker = LinearSectionRanker.load(SHIPPED)
    assert ranker.depth == DEPTH
    trained = set(ranker.card["trained_on"])
    assert trained and not {s for s in trained if s.startswith("sealed")}
    # the sets held out (data/eval/held_out.txt): they measure it
    held = {name.removesuffix(".jsonl") for name in held_out_sets(PROJECT_ROOT / "data" / "eval")}
    assert held and not trained & held
    cv = ranker.card["cross_validation"]
    assert cv["model_recall"]["@8"] > cv["fused_recall"]["@8"]


def test_settings_point_at_the_shipped_ranker_read_on_first_use_and_none_turns_it_off(tmp_path: Path) -> None:
    from legal_rag.retrieval.build import section_ranker

    settings = Settings()
    assert settings.retrieval.section_ranker == SHIPPED
    shipped = section_ranker(settings)
    assert isinstance(shipped, RankerFile) and isinstance(shipped.model(), LinearSectionRanker)
    off = settings.model_copy(update={"retrieval": settings.retrieval.model_copy(update={"section_ranker": None})})
    assert section_ranker(off) is None
    # a missing file is an error only when something ranks: building the retriever (for an ask) never reads it
    missing = section_ranker(settings.model_copy(update={"retrieval": settings.retrieval.model_copy(
        update={"section_ranker": tmp_path / "ranker.json"})}))
    assert missing is not None
    with pytest.raises(ConfigurationError, match=r"ranker.json does not exist.*SECTION_RANKER=off"):
        missing.scores([dict.fromkeys(FEATURES, 0.0)])


def test_training_refuses_an_l2_that_is_no_number_and_a_model_no_better_than_fused() -> None:
    rng = random.Random(8)
    qs = [_question(s, i, rng) for s in ("one", "two") for i in range(10)]
    with pytest.raises(ValueError, match="--l2 must be a finite number"):
        train(qs, l2=float("nan"))
    with pytest.raises(ValueError, match="--l2 must be a finite number"):
        train(qs, l2=-1.0)
    # the expected section is the fused order's first and nothing else marks it: the model cannot do better
    flat = []
    for s_ in ("one", "two", "three"):
        for i in range(10):
            cands = tuple((f"A:{r}", {**{f: rng.random() for f in FEATURES}, "fused_rank": 1 / (r + 1)})
                          for r in range(20))
            flat.append(LabelledQuestion(s_, f"{s_}-{i}", frozenset({"A:0"}), cands))
    with pytest.raises(ValueError, match="no better, so no model was written"):
        train(flat)


def _marked(source: str, i: int, marker: str, rng: random.Random) -> LabelledQuestion:
    # each set marks its expected section by a feature of its own: only a model that saw the set can find it
    cands = []
    hit = rng.randrange(5, 20)
    for r in range(25):
        row = {f: rng.random() * 0.5 for f in FEATURES}
        row["fused_rank"] = 1 / (r + 1)
        if r == hit:
            row[marker] = 3.0
        cands.append((f"A:{r}", row))
    return LabelledQuestion(source, f"{source}-{i}", frozenset({f"A:{hit}"}), tuple(cands))


def test_cross_validation_never_learns_from_the_set_it_measures() -> None:
    rng = random.Random(9)
    markers = {"one": "bm25_norm", "two": "dense", "three": "lay"}
    qs = [_marked(s, i, m, rng) for s, m in markers.items() for i in range(30)]
    cv = cross_validate(qs)
    assert cv["model_recall"]["@1"] < 0.5  # a fold that trained on its own set would find nearly every one
    both = [q for q in qs if q.source == "one"] + [LabelledQuestion("copy", q.qid, q.expected, q.candidates)
                                                   for q in qs if q.source == "one"]
    assert cross_validate(both)["model_recall"]["@1"] > 0.9  # the same questions in another set are learnt


@pytest.mark.parametrize("value", ["off", "", "None"])
def test_the_ranker_is_turned_off_from_the_environment(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("LEGAL_RAG_RETRIEVAL__SECTION_RANKER", value)
    assert Settings().retrieval.section_ranker is None


def test_held_out_sets_are_named_in_their_list(tmp_path: Path) -> None:
    assert held_out_sets(tmp_path) == frozenset()
    for name in ("probe98.jsonl", "probe99.jsonl"):
        (tmp_path / name).write_text("")
    (tmp_path / "held_out.txt").write_text("\ufeff# comment\nprobe99.jsonl  # read later\nprobe98\n\n")
    assert held_out_sets(tmp_path) == {"probe99.jsonl", "probe98.jsonl"}


@pytest.mark.parametrize("entry", ["probe18", "data/eval/probe99.jsonl", "probe18.jsonl"])
def test_a_held_out_list_naming_no_set_of_its_folder_is_refused(tmp_path: Path, entry: str) -> None:
    (tmp_path / "probe99.jsonl").write_text("")
    (tmp_path / "held_out.txt").write_text(entry + "\n")
    with pytest.raises(ValueError, match="which is no set in"):
        held_out_sets(tmp_path)


def test_questions_of_a_held_out_set_measure_whatever_their_file_is_called(tmp_path: Path) -> None:
    from legal_rag.evaluation.relevance import measuring_questions

    (tmp_path / "held_out.txt").write_text("probe99.jsonl\n")
    (tmp_path / "probe99.jsonl").write_text(json.dumps({"id": "x", "question": "Is  THIS held out?"}) + "\n")
    (tmp_path / "probe98.jsonl").write_text(json.dumps({"id": "y", "question": "Is this read?"}) + "\n")
    assert measuring_questions(tmp_path) == {"is this held out?"}


def _train_ranker(tmp_path: Path, files: list[Path], *, out: Path | None = None, l2: float = 1.0) -> None:
    from legal_rag.app import Application

    with Application(Settings(state_dir=tmp_path / "state")) as application:  # stops any server it started
        application.train_ranker(files, out or tmp_path / "r.json", l2=l2)


def test_train_ranker_refuses_bad_input_before_it_searches(tmp_path: Path) -> None:
    from graph_schema.errors import InvalidInputError

    dev = PROJECT_ROOT / "data" / "eval"
    with pytest.raises(InvalidInputError, match="--l2 must be a finite number above 0"):
        _train_ranker(tmp_path, [dev / "probe9.jsonl", dev / "probe10.jsonl"], l2=float("nan"))
    with pytest.raises(InvalidInputError, match="--out .* must be a .json file"):
        _train_ranker(tmp_path, [dev / "probe9.jsonl", dev / "probe10.jsonl"], out=tmp_path / "r.txt")
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "probe9.jsonl").write_text("")
    with pytest.raises(InvalidInputError, match="two files are called probe9"):
        _train_ranker(tmp_path, [dev / "probe9.jsonl", tmp_path / "a" / "probe9.jsonl"])
    (tmp_path / "file").write_text("")
    with pytest.raises(InvalidInputError, match="cannot be written there"):
        _train_ranker(tmp_path, [dev / "probe9.jsonl", dev / "probe10.jsonl"], out=tmp_path / "file" / "r.json")
    assert not (tmp_path / "r.json").exists()


@pytest.mark.parametrize("name", sorted(held_out_sets(PROJECT_ROOT / "data" / "eval")) + ["sealed5.jsonl"])
def test_train_ranker_refuses_a_measuring_set(tmp_path: Path, name: str) -> None:
    from graph_schema.errors import InvalidInputError

    dev = PROJECT_ROOT / "data" / "eval"
    with pytest.raises(InvalidInputError, match="is held out|is sealed"):
        _train_ranker(tmp_path, [dev / name, dev / "probe9.jsonl"])  # refused before any graph is read


def test_the_ranker_training_sets_are_development_sets() -> None:
    from legal_rag.cli.evaluate import RANKER_SETS

    held = held_out_sets(PROJECT_ROOT / "data" / "eval")
    assert all(p.is_file() and not p.name.startswith("sealed") and p.name not in held for p in RANKER_SETS)
