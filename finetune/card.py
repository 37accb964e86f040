"""The dataset card: what was built, from what, how, and under which licences (``card.json``, ``card.md``)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from finetune.judge import EXPECTED, Category

METHODS = {
    Category.CORRECT: "Context: the right provision and unrelated sections of the same Act. Chosen: the offline "
                      "generator's verbatim quotation of the right provision, citing its chunk id. Rejected: the same "
                      "answer with one number, negation or shall/may changed inside the quotation.",
    Category.DISTRACTOR: "Context: the right provision beside the most similar other section of the same Act (same "
                         "chapter, nearest heading and text, preferring a different number or penalty). The "
                         "question does not name the section. Chosen quotes the right provision; rejected quotes the "
                         "distractor.",
    Category.INSUFFICIENT: "Context: similar sections of the same Act without the right provision or anything of its "
                           "replacement family. Chosen says the documents do not answer and what is missing; rejected "
                           "answers anyway, from the missing provision (outside the documents) or by stretching the "
                           "nearest document.",
    Category.OUTDATED: "Context: an IPC/CrPC/IEA section and its single BNS/BNSS/BSA successor. Facts on or after "
                       "2024-07-01: chosen quotes the successor and notes the replacement; rejected quotes the "
                       "repealed section as the law. Facts before 2024-07-01 (the mirror): chosen quotes the old code "
                       "and notes that the new one was not yet in force; rejected quotes the new code.",
    Category.MISATTRIBUTED: "Chosen quotes the right provision and attributes it rightly; rejected attributes the same "
                            "verbatim quotation to another section in the context or to the same number of a "
                            "different Act.",
}  # fmt: skip


def corpus_version(corpus_dir: Path | None) -> str | None:
    """A digest of every file of the corpus directory (names and bytes), or None when there is none."""
    if corpus_dir is None or not corpus_dir.is_dir():
        return None
    h = hashlib.sha256()
    for p in sorted(q for q in corpus_dir.rglob("*") if q.is_file()):
        h.update(str(p.relative_to(corpus_dir)).encode() + b"\x00")
        h.update(hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()[:16]


def licences(corpus_dir: Path | None) -> list[dict[str, str]]:
    """One entry per ``SOURCE.md``: the source's folder, its title, repository, commit and licence line."""
    if corpus_dir is None or not corpus_dir.is_dir():
        return []
    out = []
    for src in sorted(corpus_dir.rglob("SOURCE.md")):
        text = src.read_text(encoding="utf-8")
        title = next((ln[2:].strip() for ln in text.splitlines() if ln.startswith("# ")), src.parent.name)
        out.append({"source": str(src.parent.relative_to(corpus_dir)), "title": title,
                    "repository": _field(text, "Repository"), "commit": _field(text, "Commit"),
                    "licence": _field(text, "Licence") or "not stated in SOURCE.md"})  # fmt: skip
    return out


def _field(text: str, name: str) -> str:
    m = re.search(rf"\*\*{name}:\*\*\s*(.+(?:\n  .+)*)", text)
    if not m:
        return ""
    return re.sub(r"\s+", " ", m.group(1).replace("**", "").replace("`", "")).strip()


def render_md(card: dict[str, Any]) -> str:
    cats = [c.value for c in Category]
    lines = [
        "# Finetune-RAG dataset: Indian statutes, verified against the statute graph",
        "",
        f"Built by `legal-rag finetune build` with seed {card['seed']} (n requested {card['n_requested']}); "
        f"generator `{card['generator']}`; graph version `{card['graph_version']}`; corpus version "
        f"`{card['corpus_version']}`. The same seed on the same graph gives byte-identical files.",
        "",
        "## Files",
        "",
        "- `sft/{train,eval}.jsonl`: TRL conversational SFT rows `{id, messages: [system, user, assistant], "
        "category, provisions, as_of}`; the assistant turn is the chosen answer.",
        "- `sft_pc/{train,eval}.jsonl`: the same rows as TRL conversational prompt/completion `{id, prompt: "
        "[system, user], completion: [assistant], ...}`: TRL's SFTTrainer computes the loss on the completion only "
        "for this shape (with `messages`, set `assistant_only_loss=True` or it trains on the prompt).",
        "- `dpo/{train,eval}.jsonl`: TRL conversational preference rows `{id, prompt: [system, user], chosen, "
        "rejected, category, provisions, as_of}` (same ids as SFT).",
        "",
        "`as_of` is an ISO date held as a string; load with `features` declaring it a string (or the `README.md` "
        "beside these files, whose `dataset_info` does), or pyarrow reads it as a timestamp.",
        "",
        "## Token lengths",
        "",
        f"Counted with {card['tokens']['tokenizer']}; a model's own tokenizer will differ (BPE vocabularies "
        "of chat models give roughly as many tokens on this English text).",
        "",
        "| | p50 | p95 | max |",
        "|---|---|---|---|",
        f"| whole SFT row (system + user + answer) | {card['tokens']['row']['p50']} | {card['tokens']['row']['p95']} "
        f"| {card['tokens']['row']['max']} |",
        f"| answer (longer of chosen and rejected) | {card['tokens']['answer']['p50']} | "
        f"{card['tokens']['answer']['p95']} | {card['tokens']['answer']['max']} |",
        "",
        f"Use `max_length={card['tokens']['max_length']}` (the longest row plus a quarter, for a different "
        "tokenizer, rounded up to 256): TRL's default of 1024 would cut the answer off the end of long rows.",
        "",
        f"Contexts: {card['contexts']}; 5-8 chunks per prompt, from any Act of the split.",
        "",
        "The user turn holds the context chunks as `<document id=.. act=.. section=.. status=..>` blocks, exactly "
        "as the workflow prompts a model, then the as-of date and the question. Answers cite chunk ids in "
        "square brackets after each sentence and quote statute text verbatim.",
        "",
        "## Counts",
        "",
        "| category | train | eval | total |",
        "|---|---|---|---|",
    ]
    counts = card["counts"]
    for c in cats:
        tr, ev = counts["train"].get(c, 0), counts["eval"].get(c, 0)
        lines.append(f"| {c} | {tr} | {ev} | {tr + ev} |")
    tr_all, ev_all = sum(counts["train"].values()), sum(counts["eval"].values())
    lines += [f"| all | {tr_all} | {ev_all} | {tr_all + ev_all} |", ""]
    v = card["verification"]
    lines += [
        "## Verification",
        "",
        "Every chosen answer was run through the verification layer for its as-of date (citations verified, or "
        "a not-in-force provision noted beside its verified counterpart; every quotation exact; every cited id in "
        "the context) and every rejected answer was checked to fail the way its category names, with the same "
        "verifier. Candidates that did not were dropped:",
        "",
        f"- candidates tried: {v['candidates']}; kept: {v['kept']}",
        f"- chosen answers that failed verification (dropped): {_per(v['chosen_failed'])}",
        f"- rejected answers that did not fail as named (dropped): {_per(v['rejected_not_failing'])}",
        f"- duplicate questions removed: {v['duplicates']}; over the cap of {card['per_provision']} rows per "
        f"provision: {v['capped']}",
        f"- dropped by the correctness gates: {_per(v['gates'])} (whole_section: a subject question is answered "
        "from the whole section or its principal sub-section; lead_in: each quoted unit whole from its lead-in; "
        "in_force_text: the date falls after the unit's last amendment; insufficient_context: no chunk of the asked "
        "section, its family or a same-titled section; template_fits: punishment questions only of units that "
        "punish)",
        "",
        "| category | rejected must fail as |",
        "|---|---|",
        *[f"| {c.value} | {EXPECTED[c].value} |" for c in Category],
        "",
        "## How each category is made",
        "",
        *[f"- **{c.value}**: {METHODS[c]}" for c in Category],
        "",
        "## Split",
        "",
        f"By provision family (a section, its predecessors and its successors, closed transitively): "
        f"{card['split']['families']['train']} families in train, {card['split']['families']['eval']} in eval; "
        "every chunk of an example's context comes from its split, so no provision, predecessor or successor "
        "is on both sides. Duplicate questions are removed. Eval also holds out whole Acts "
        f"({', '.join(card['split']['eval_only_acts']) or 'none'}) and question templates "
        f"({len(card['split']['eval_only_templates'])}: the last of every pool of three or more), so it measures "
        "unseen Acts and unseen wording.",
        "",
        "## Sources and licences",
        "",
        "Statute text is Government of India legislation; the compilations it was taken from are listed with "
        "the licence their `SOURCE.md` records. Check them before redistributing the dataset.",
        "",
    ]
    for s in card["licences"]:
        repo = f" ({s['repository']}" + (f", commit {s['commit']}" if s["commit"] else "") + ")" if s["repository"] \
            else ""
        lines.append(f"- `{s['source']}`: {s['title']}{repo}. Licence: {s['licence']}")
    return "\n".join(lines) + "\n"


def _per(counts: dict[str, int]) -> str:
    total = sum(counts.values())
    return f"{total}" + (" (" + ", ".join(f"{k} {v}" for k, v in counts.items()) + ")" if total else "")


_TURNS = "    list:\n    - name: role\n      dtype: string\n    - name: content\n      dtype: string\n"
_COMMON = ("  - name: category\n    dtype: string\n  - name: provisions\n    list:\n"
           "    - name: act\n      dtype: string\n    - name: section\n      dtype: string\n"
           "  - name: as_of\n    dtype: string\n")
_SHAPES = {"sft": ("messages",), "sft_pc": ("prompt", "completion"), "dpo": ("prompt", "chosen", "rejected")}


def hub_metadata() -> str:
    """A Hugging Face dataset card header: one config per file kind, with ``features`` that keep ``as_of`` a
    string (``load_dataset(directory, "dpo")``)."""
    lines = ["---", "configs:"]
    for name in _SHAPES:
        lines += [f"- config_name: {name}", "  data_files:", f"  - split: train\n    path: {name}/train.jsonl",
                  f"  - split: eval\n    path: {name}/eval.jsonl"]
    lines.append("dataset_info:")
    for name, turns in _SHAPES.items():
        lines += [f"- config_name: {name}", "  features:", "  - name: id\n    dtype: string"]
        lines += [f"  - name: {t}\n{_TURNS.rstrip()}" for t in turns]
        lines.append(_COMMON.rstrip())
    lines += ["---", ""]
    return "\n".join(lines)


def write_card(out: Path, card: dict[str, Any]) -> None:
    (out / "card.json").write_text(json.dumps(card, indent=2, sort_keys=True, ensure_ascii=False) + "\n",
                                   encoding="utf-8")
    (out / "card.md").write_text(render_md(card), encoding="utf-8")
    (out / "README.md").write_text(hub_metadata() + "\n" + render_md(card), encoding="utf-8")
