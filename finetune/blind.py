"""A blind read: preference pairs as a reader sees them (category and which answer is chosen hidden, the two
answers in random order), and a separate key to score the reader's picks against."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

from finetune.judge import Category
from finetune.rows import SPLITS


def blind_read(root: Path, n: int, seed: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(items, key): ``n`` pairs drawn equally from each category (eval rows first, then train), sides shuffled.

    An item holds the prompt's user turn (documents, as-of date, question) and answers ``A`` and ``B``; its key
    row names the row id, the category and which side is the chosen answer.
    """
    rng = random.Random(f"{seed}/blind")
    by_cat: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for split in reversed(SPLITS):  # eval first: what a model was not trained on
        path = root / "dpo" / f"{split}.jsonl"
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.is_file() else []
        rng.shuffle(rows)
        for r in rows:
            by_cat[str(r["category"])].append(r)
    cats = [c.value for c in Category if by_cat[c.value]]
    picked: list[dict[str, Any]] = []
    i = 0
    while len(picked) < n and any(by_cat[c] for c in cats):
        c = cats[i % len(cats)]
        if by_cat[c]:
            picked.append(by_cat[c].pop(0))
        i += 1
    rng.shuffle(picked)
    items, key = [], []
    for k, r in enumerate(picked, 1):
        chosen_first = rng.random() < 0.5
        a, b = (r["chosen"], r["rejected"]) if chosen_first else (r["rejected"], r["chosen"])
        items.append({"pair": k, "as_of": r["as_of"], "prompt": r["prompt"][-1]["content"],
                      "A": a[0]["content"], "B": b[0]["content"]})
        key.append({"pair": k, "id": r["id"], "category": r["category"], "chosen": "A" if chosen_first else "B"})
    return items, key


def write_blind(root: Path, n: int, seed: int, out: Path, key_out: Path) -> int:
    items, key = blind_read(root, n, seed)
    for path, rows in ((out, items), (key_out, key)):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows),
                        encoding="utf-8")
    return len(items)
