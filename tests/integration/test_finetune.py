"""The Finetune-RAG builder on the real shipped corpus, checked through the real verifier (no fakes)."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from finetune import BuildConfig, Category, Judge, TokenizerFile, build_dataset
from finetune.judge import EXPECTED, Failure, refuses
from finetune.prompt import ContextChunk, documents_in
from finetune.questions import human_date
from finetune.statutes import StatuteView
from finetune.validate import validate_against_graph, validate_dataset
from legal_rag.retrieval.onnx_minilm import TOKENIZER, TOKENIZER_NAME
from tests.conftest import CORPUS, Loaded, run_cli
from verification import CitationStatus, QuoteStatus, Verifier

pytestmark = [pytest.mark.integration, pytest.mark.slow]

N = 100
MINILM = TokenizerFile(TOKENIZER, TOKENIZER_NAME)
"""The shipped MiniLM tokenizer the card counts with (the application passes the same one)."""
FILES = ("sft/train.jsonl", "sft/eval.jsonl", "sft_pc/train.jsonl", "sft_pc/eval.jsonl", "dpo/train.jsonl",
         "dpo/eval.jsonl", "card.json", "card.md", "README.md")


@pytest.fixture(scope="module")
def verifier(loaded: Loaded) -> Verifier:
    return Verifier(loaded.store)


@pytest.fixture(scope="module")
def view(loaded: Loaded) -> StatuteView:
    return StatuteView.read(loaded.store)


@pytest.fixture(scope="module")
def built(loaded: Loaded, verifier: Verifier, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Any]]:
    out = tmp_path_factory.mktemp("ft") / "ds"
    ticks: list[tuple[str, int, int]] = []
    report = build_dataset(loaded.store, verifier, out, BuildConfig(n=N, seed=7), corpus_dir=CORPUS,
                           progress=lambda s, d, t: ticks.append((s, d, t)), tokenizer=MINILM)  # fmt: skip
    report.ticks = ticks  # type: ignore[attr-defined]
    yield out, report


def rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def all_dpo(root: Path) -> list[dict[str, Any]]:
    return rows(root / "dpo" / "train.jsonl") + rows(root / "dpo" / "eval.jsonl")


def test_five_categories_in_equal_shares_with_the_prompt_format(built: tuple[Path, Any]) -> None:
    root, report = built
    for f in FILES:
        assert (root / f).is_file(), f
    dpo = all_dpo(root)
    counts = Counter(r["category"] for r in dpo)
    assert counts == {c.value: N // 5 for c in Category}
    evals = Counter(r["category"] for r in rows(root / "dpo" / "eval.jsonl"))
    assert all(evals[c.value] == 2 for c in Category)  # 10% of each category
    for r in rows(root / "sft" / "train.jsonl"):
        assert [m["role"] for m in r["messages"]] == ["system", "user", "assistant"]
        user = r["messages"][1]["content"]
        docs = documents_in(user)
        assert docs and all(f'<document id="{d.id}"' in user for d in docs)
        assert f"As-of date of the facts: {r['as_of']}" in user and "\n\nQuestion: " in user
        assert r["provisions"] and all(set(p) == {"act", "section"} for p in r["provisions"])
    card = json.loads((root / "card.json").read_text())
    assert card["seed"] == 7 and card["generator"] == "extractive"
    assert card["graph_version"] and card["corpus_version"]
    assert {s["source"] for s in card["licences"]} >= {"indiacode", "legacy", "correspondence"}
    assert any("Unlicense" in s["licence"] for s in card["licences"])
    assert "| outdated | 18 | 2 | 20 |" in (root / "card.md").read_text()
    # progress reached n examples, counting up
    done = [d for s, d, t in report.ticks if s == "examples"]
    assert done == sorted(done) and done[-1] == N


def test_questions_are_not_one_template(built: tuple[Path, Any]) -> None:
    root, _ = built
    questions = [r["prompt"][1]["content"].rsplit("Question: ", 1)[1] for r in all_dpo(root)]
    openings = Counter(" ".join(q.split()[:3]) for q in questions)
    assert len(openings) >= 15, openings
    assert openings.most_common(1)[0][1] <= N // 5


def test_every_chosen_passes_and_every_rejected_fails_as_named(built: tuple[Path, Any], loaded: Loaded,
                                                                verifier: Verifier) -> None:
    """Straight from the verifier's reports, not only through the builder's Judge."""
    root, _ = built
    judge = Judge(verifier, loaded.store)
    seen: Counter[str] = Counter()
    for r in all_dpo(root):
        cat = Category(r["category"])
        context = documents_in(r["prompt"][1]["content"])
        ctx = [c.as_context() for c in context]
        chosen, rejected = r["chosen"][0]["content"], r["rejected"][0]["content"]
        rep = verifier.verify(chosen, ctx, r["as_of"])
        assert all(q.status is QuoteStatus.EXACT for q in rep.quotes), (r["id"], rep.quotes)
        if cat is not Category.OUTDATED:
            own = judge.report(chosen, context, r["as_of"]).citations
            assert all(c.status is CitationStatus.VERIFIED for c in own), (r["id"], own)
        bad = verifier.verify(rejected, ctx, r["as_of"])
        failure = EXPECTED[cat]
        if failure is Failure.MISQUOTED:
            assert any(q.status is QuoteStatus.MISQUOTED for q in bad.quotes), r["id"]
        elif failure is Failure.MISATTRIBUTED:
            assert any(q.status is QuoteStatus.MISATTRIBUTED for q in bad.quotes), r["id"]
        elif failure is Failure.OUTDATED:
            out_of_force = {CitationStatus.REPEALED, CitationStatus.NOT_YET_IN_FORCE}
            assert any(c.status in out_of_force for c in bad.citations), r["id"]
            # ... and the chosen answer names the code that applies, verified
            assert any(c.status is CitationStatus.VERIFIED and c.act == r["provisions"][0]["act"]
                       for c in rep.citations), r["id"]
        elif failure is Failure.WRONG_PROVISION:
            right = {(p["act"], p["section"].split("(")[0]) for p in r["provisions"]}
            assert bad.quotes and all(q.status is QuoteStatus.EXACT for q in bad.quotes)
            assert all(tuple(q.source.split(":")[:2]) not in right for q in bad.quotes), r["id"]
        else:  # UNGROUNDED: answers although the needed provision is not in the context
            missing = (r["provisions"][0]["act"], r["provisions"][0]["section"].split("(")[0])
            assert refuses(chosen) and all(tuple(q.source.split(":")[:2]) != missing for q in rep.quotes)
            assert not refuses(rejected) and bad.quotes
        assert judge.chosen(cat, chosen, context, r["as_of"], [(p["act"], p["section"]) for p in r["provisions"]]).ok
        seen[cat.value] += 1
    assert len(seen) == 5


def test_outdated_covers_both_directions_of_2024(built: tuple[Path, Any]) -> None:
    root, report = built
    outdated = [r for r in all_dpo(root) if r["category"] == "outdated"]
    after = [r for r in outdated if r["as_of"] >= "2024-07-01"]
    before = [r for r in outdated if r["as_of"] < "2024-07-01"]
    assert after and before
    assert all(r["provisions"][0]["act"] in ("BNS", "BNSS", "BSA") for r in after)
    assert all(r["provisions"][0]["act"] in ("IPC", "CRPC", "IEA") for r in before)
    # both answers frame the facts by their date; only the chosen one names the code in force on it
    for r in outdated:
        assert r["prompt"][1]["content"].split("As-of date of the facts: ")[1][:10] == r["as_of"]
        chosen, rejected = r["chosen"][0]["content"], r["rejected"][0]["content"]
        day = human_date(r["as_of"])
        assert day in chosen.split(". ")[0] and day in rejected.split(". ")[0], r["id"]
        applies, other = r["provisions"][0]["act"], r["provisions"][1]["act"]
        assert f"[{applies}:" in chosen and f"[{other}:" in rejected.split(". ", 1)[1], r["id"]


def test_same_seed_gives_identical_bytes(built: tuple[Path, Any], loaded: Loaded, verifier: Verifier,
                                        tmp_path: Path) -> None:
    root, _ = built
    build_dataset(loaded.store, verifier, tmp_path / "again", BuildConfig(n=N, seed=7), corpus_dir=CORPUS,
                  tokenizer=MINILM)
    for f in FILES:
        assert (tmp_path / "again" / f).read_bytes() == (root / f).read_bytes(), f


def test_validate_passes_the_build_and_catches_a_planted_family_leak(
    built: tuple[Path, Any], loaded: Loaded, verifier: Verifier, view: StatuteView, tmp_path: Path
) -> None:
    root, _ = built
    assert validate_dataset(root, judge=Judge(verifier, loaded.store), family=view.family) == []
    # An eval row that names the successor of an old-code provision a train row is about: the same
    # section never appears on both sides, but its family does.
    train = rows(root / "dpo" / "train.jsonl")
    train_sections = {(p["act"], p["section"].split("(")[0]) for r in train for p in r["provisions"]}
    train_sections |= {tuple(d.id.split(":")[:2]) for r in train for d in documents_in(r["prompt"][1]["content"])}
    planted = None
    for r in train:
        p = r["provisions"][0]
        rec = view.records.get(f"{p['act']}:{p['section'].split('(')[0]}")
        for s in rec.successors if rec else ():
            if (s.act, s.section.split("(")[0]) not in train_sections:
                planted = {"act": s.act, "section": s.section}
                break
        if planted:
            break
    assert planted is not None
    leaky = tmp_path / "leaky"
    shutil.copytree(root, leaky)
    ev = rows(leaky / "dpo" / "eval.jsonl")
    ev[0]["provisions"] = [planted]
    (leaky / "dpo" / "eval.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ev))
    problems = [str(p) for p in validate_dataset(leaky, family=view.family)]
    assert any("leak" in p and planted["act"] in p for p in problems), problems
    # checked section by section only, the same file looks clean: the family is what catches it
    assert not any("leak" in p for p in validate_dataset(leaky))


def test_validate_names_each_problem_of_a_broken_dataset(built: tuple[Path, Any], loaded: Loaded,
                                                         verifier: Verifier, tmp_path: Path) -> None:
    root, _ = built
    broken = tmp_path / "broken"
    shutil.copytree(root, broken)
    tr = rows(broken / "dpo" / "train.jsonl")
    correct = next(i for i, r in enumerate(tr) if r["category"] == "correct")
    tr[correct]["chosen"] = tr[correct]["rejected"]  # a misquote as the chosen answer
    del tr[1]["as_of"]  # a schema error
    (broken / "dpo" / "train.jsonl").write_text("".join(json.dumps(r) + "\n" for r in tr))
    problems = [str(p) for p in validate_against_graph(broken, loaded.store, verifier)]
    assert any("dpo/train.jsonl:2" in p and "as_of" in p for p in problems), problems
    assert any(tr[correct]["id"] in p and "chosen answer fails verification" in p and "misquoted" in p
               for p in problems), problems
    assert any("chosen and rejected are the same" in p for p in problems), problems
    assert any("the assistant turn is not the chosen answer" in p for p in problems), problems
    assert any("card.json" in p and "says 18 " in p for p in problems), problems  # one row unreadable now


def test_datasets_loads_every_file(built: tuple[Path, Any], tmp_path: Path) -> None:
    from datasets import load_dataset

    root, _ = built
    for config, columns in (("sft_pc", {"id", "prompt", "completion", "category", "provisions", "as_of"}),
                            ("dpo", {"id", "prompt", "chosen", "rejected", "category", "provisions", "as_of"})):
        ds = load_dataset(str(root), config, cache_dir=str(tmp_path / "hf_card"))
        assert set(ds["train"].column_names) == columns
        assert isinstance(ds["train"][0]["as_of"], str)  # the card's features: not read as a timestamp
        assert ds["train"].num_rows == 90 and ds["eval"].num_rows == 10
    for kind, columns in (("sft", {"id", "messages", "category", "provisions", "as_of"}),
                          ("dpo", {"id", "prompt", "chosen", "rejected", "category", "provisions", "as_of"})):
        ds = load_dataset("json", data_files={s: str(root / kind / f"{s}.jsonl") for s in ("train", "eval")},
                          cache_dir=str(tmp_path / "hf"))  # fmt: skip
        assert set(ds["train"].column_names) == columns
        assert ds["train"].num_rows == 90 and ds["eval"].num_rows == 10
        first = ds["train"][0]
        turns = first["messages"] if kind == "sft" else first["prompt"] + first["chosen"]
        assert [t["role"] for t in turns] == ["system", "user", "assistant"]


def test_cli_builds_the_same_bytes_in_another_process_and_validates(
    cli_env: dict[str, str], built: tuple[Path, Any], tmp_path: Path
) -> None:
    """Another process has another string-hash seed: set iteration order must not reach the files."""
    root, _ = built
    p = run_cli(cli_env, "finetune", "build", "--out", str(tmp_path / "cli"), "--n", str(N), "--seed", "7",
                "--no-retriever")
    assert p.returncode == 0, p.stderr
    assert f"examples verified: {N}/{N}" in p.stderr  # progress shown (plain lines off a terminal)
    for f in FILES:
        assert (tmp_path / "cli" / f).read_bytes() == (root / f).read_bytes(), f
    ok = run_cli(cli_env, "finetune", "validate", str(tmp_path / "cli"))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "valid" in ok.stdout
    (tmp_path / "cli" / "sft" / "eval.jsonl").write_text('{"id": "x"}\n')
    bad = run_cli(cli_env, "finetune", "validate", str(tmp_path / "cli"), "--no-verify")
    assert bad.returncode == 1
    assert "sft/eval.jsonl:1: not a valid SFTRow" in bad.stdout
    assert run_cli(cli_env, "finetune", "build", "--out", str(tmp_path / "x"), "--n", "2").returncode == 2


def test_judge_accepts_a_noted_replacement_and_refuses_a_silent_one(loaded: Loaded, verifier: Verifier,
                                                                    view: StatuteView) -> None:
    """IPC 379 was replaced by BNS 303(2) on 2024-07-01 (correspondence table, "modified")."""
    judge = Judge(verifier, loaded.store)
    view_chunks = {i: view.chunks[i] for i in ("IPC:379:-:0", "BNS:303:2:0")}
    ctx = [ContextChunk(c.id, c.text) for c in view_chunks.values()]
    ipc, bns = view_chunks["IPC:379:-:0"].text, view_chunks["BNS:303:2:0"].text.split(":")[0]
    noted = (f'For facts on 3 March 2025, the Bharatiya Nyaya Sanhita, 2023 applies. Section 303(2) of the Bharatiya '
             f'Nyaya Sanhita, 2023 provides: "{bns}" [BNS:303:2:0] Section 379 of the Indian Penal Code, 1860 was '
             f'repealed with effect from 1 July 2024 and replaced by Section 303(2) of the Bharatiya Nyaya Sanhita, '
             f'2023 [IPC:379:-:0] [BNS:303:2:0].')
    silent = f'Section 379 of the Indian Penal Code, 1860 provides: "{ipc}" [IPC:379:-:0]'
    provisions = [("BNS", "303(2)"), ("IPC", "379")]
    assert judge.chosen(Category.OUTDATED, noted, ctx, "2025-03-03", provisions).ok
    assert not judge.chosen(Category.OUTDATED, silent, ctx, "2025-03-03", provisions).ok
    assert judge.rejected(Category.OUTDATED, silent, ctx, "2025-03-03", provisions).ok
    # for facts of 2023 the IPC applies: the same silent answer is no longer outdated
    assert not judge.rejected(Category.OUTDATED, silent, ctx, "2023-03-03", [("IPC", "379"), ("BNS", "303(2)")]).ok
