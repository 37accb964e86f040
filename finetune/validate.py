"""``validate_dataset``: schema, counts, duplicates, leakage and verification of a built dataset directory.

Every problem is reported (file, line, what is wrong); nothing stops at the first. Leakage is
checked on provision *families* when a family function is given (a section, its predecessors and
successors: what the builder splits on), else on sections; both the ``provisions`` of each row and
every document in its prompt count. Verification re-runs the builder's :class:`~finetune.judge.Judge`
on every preference row: the chosen answer must pass, the rejected one must fail as its category names.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from finetune.judge import Category, Judge
from finetune.prompt import documents_in
from finetune.rows import SPLITS, DPORow, SFTPromptRow, SFTRow
from finetune.statutes import StatuteView, chunk_provision, section_key
from graph_schema.store import GraphReader
from verification import Verifier

Family = Callable[[str, str], str]
"""(act, section label) -> family id."""


@dataclass(frozen=True, slots=True)
class Problem:
    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}"


def _rows(path: Path, model: type[BaseModel], problems: list[Problem], root: Path) -> Iterator[tuple[int, Any]]:
    rel = str(path.relative_to(root))
    if not path.is_file():
        problems.append(Problem(rel, None, "missing"))
        return
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            try:
                yield n, model.model_validate_json(line)
            except ValidationError as exc:
                first = exc.errors()[0]
                loc = ".".join(str(p) for p in first["loc"]) or "row"
                problems.append(Problem(rel, n, f"not a valid {model.__name__}: {loc}: {first['msg']}"))


def validate_dataset(root: Path, *, judge: Judge | None = None, family: Family | None = None,
                     min_share: float = 0.9) -> list[Problem]:
    """Problems of the dataset under ``root`` (empty: valid)."""
    problems: list[Problem] = []
    fam = family or (lambda act, label: section_key(act, label))
    card = _card(root, problems)
    sft: dict[str, dict[str, tuple[int, SFTRow]]] = {s: {} for s in SPLITS}
    dpo: dict[str, dict[str, tuple[int, DPORow]]] = {s: {} for s in SPLITS}
    for split in SPLITS:
        for kind, model, store in (("sft", SFTRow, sft), ("dpo", DPORow, dpo)):
            path = root / kind / f"{split}.jsonl"
            for n, row in _rows(path, model, problems, root):
                if row.id in store[split]:
                    problems.append(Problem(f"{kind}/{split}.jsonl", n, f"duplicate id {row.id}"))
                store[split][row.id] = (n, row)
    for split in SPLITS:
        for n, row in _rows(root / "sft_pc" / f"{split}.jsonl", SFTPromptRow, problems, root):
            mate = sft[split].get(row.id)
            if mate is None:
                problems.append(Problem(f"sft_pc/{split}.jsonl", n, f"{row.id} has no row in sft/{split}.jsonl"))
            elif [t.content for t in row.prompt + row.completion] != [t.content for t in mate[1].messages]:
                problems.append(Problem(f"sft_pc/{split}.jsonl", n,
                                        f"{row.id}: not the same turns as sft/{split}.jsonl"))
    _pairs(sft, dpo, problems)
    _counts(dpo, card, problems, min_share)
    _duplicates(dpo, problems)
    _leakage(dpo, fam, problems)
    if judge is not None:
        _verify(dpo, judge, problems)
    return problems


def _card(root: Path, problems: list[Problem]) -> dict[str, Any]:
    for name in ("card.md", "card.json"):
        if not (root / name).is_file():
            problems.append(Problem(name, None, "missing"))
    try:
        data = json.loads((root / "card.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        if (root / "card.json").is_file():
            problems.append(Problem("card.json", None, f"not JSON: {exc}"))
        return {}
    return data if isinstance(data, dict) else {}


def _roles(turns: list[Any]) -> list[str]:
    return [t.role for t in turns]


def _pairs(sft: dict[str, dict[str, tuple[int, SFTRow]]], dpo: dict[str, dict[str, tuple[int, DPORow]]],
           problems: list[Problem]) -> None:
    for split in SPLITS:
        for rid, (n, row) in sft[split].items():
            if _roles(row.messages) != ["system", "user", "assistant"]:
                problems.append(Problem(f"sft/{split}.jsonl", n, f"{rid}: roles are {_roles(row.messages)}"))
            other = dpo[split].get(rid)
            if other is None:
                problems.append(Problem(f"sft/{split}.jsonl", n, f"{rid} has no preference row in dpo/{split}.jsonl"))
            elif other[1].chosen[0].content != row.messages[2].content:
                problems.append(Problem(f"sft/{split}.jsonl", n, f"{rid}: the assistant turn is not the chosen answer"))
        for rid, (n, pref) in dpo[split].items():
            if _roles(pref.prompt) != ["system", "user"] or _roles(pref.chosen + pref.rejected) != ["assistant"] * 2:
                problems.append(Problem(f"dpo/{split}.jsonl", n, f"{rid}: roles are not [system, user] -> assistant"))
            if pref.chosen[0].content == pref.rejected[0].content:
                problems.append(Problem(f"dpo/{split}.jsonl", n, f"{rid}: chosen and rejected are the same"))
            if rid not in sft[split]:
                problems.append(Problem(f"dpo/{split}.jsonl", n, f"{rid} has no SFT row in sft/{split}.jsonl"))


def _counts(dpo: dict[str, dict[str, tuple[int, DPORow]]], card: dict[str, Any], problems: list[Problem],
            min_share: float) -> None:
    have = {s: Counter(str(r.category) for _, r in dpo[s].values()) for s in SPLITS}
    total = sum(sum(c.values()) for c in have.values())
    for c in Category:
        n = sum(have[s][c.value] for s in SPLITS)
        if total and n < min_share * total / len(Category):
            problems.append(Problem("dpo", None, f"only {n} {c.value} rows of {total}: under {min_share:.0%} of "
                                                 f"an equal share ({total / len(Category):.0f})"))
    counts = card.get("counts")
    if not isinstance(counts, dict):
        problems.append(Problem("card.json", None, "no counts"))
        return
    for s in SPLITS:
        for c in Category:
            stated = (counts.get(s) or {}).get(c.value, 0)
            if stated != have[s][c.value]:
                problems.append(Problem("card.json", None, f"says {stated} {c.value} rows in {s}, the files hold "
                                                           f"{have[s][c.value]}"))


def _duplicates(dpo: dict[str, dict[str, tuple[int, DPORow]]], problems: list[Problem]) -> None:
    """The same question twice (whatever its documents): two rows may not teach two answers to one question."""
    seen: dict[str, str] = {}
    for split in SPLITS:
        for rid, (n, row) in sorted(dpo[split].items(), key=lambda kv: kv[1][0]):
            key = " ".join(row.prompt[-1].content.rsplit("Question: ", 1)[-1].lower().split())
            if key in seen:
                problems.append(Problem(f"dpo/{split}.jsonl", n, f"{rid} repeats the question of {seen[key]}"))
            else:
                seen[key] = f"{split}:{rid}"


def _leakage(dpo: dict[str, dict[str, tuple[int, DPORow]]], fam: Family, problems: list[Problem]) -> None:
    where: dict[str, dict[str, str]] = defaultdict(dict)  # family -> split -> first row id
    for split in SPLITS:
        for rid, (_, row) in sorted(dpo[split].items(), key=lambda kv: kv[1][0]):
            provisions = {(p.act, p.section) for p in row.provisions}
            provisions |= {chunk_provision(d.id) for d in documents_in(row.prompt[-1].content)}
            for act, label in sorted(provisions):
                where[fam(act, label)].setdefault(split, rid)
    for family, splits in sorted(where.items()):
        if len(splits) > 1:
            problems.append(Problem("dpo", None, f"leak: provision family {family} is in train "
                                                 f"({splits['train']}) and in eval ({splits['eval']})"))


def _verify(dpo: dict[str, dict[str, tuple[int, DPORow]]], judge: Judge, problems: list[Problem]) -> None:
    for split in SPLITS:
        for rid, (n, row) in sorted(dpo[split].items(), key=lambda kv: kv[1][0]):
            if row.category == "flag":
                continue
            cat = Category(row.category)
            context = documents_in(row.prompt[-1].content)
            provisions = [(p.act, p.section) for p in row.provisions]
            chosen = judge.chosen(cat, row.chosen[0].content, context, row.as_of, provisions)
            if not chosen.ok:
                problems.append(Problem(f"dpo/{split}.jsonl", n, f"{rid}: chosen answer fails verification: "
                                                                 f"{chosen.reason}"))
            rejected = judge.rejected(cat, row.rejected[0].content, context, row.as_of, provisions)
            if not rejected.ok:
                problems.append(Problem(f"dpo/{split}.jsonl", n, f"{rid}: rejected answer does not fail as "
                                                                 f"{cat.value} should: {rejected.reason}"))


def validate_against_graph(root: Path, store: GraphReader, verifier: Verifier, *, verify: bool = True) -> list[Problem]:
    """:func:`validate_dataset` with leakage on replacement families and verification against ``store``."""
    view = StatuteView.read(store)
    return validate_dataset(root, judge=Judge(verifier, store) if verify else None, family=view.family)
