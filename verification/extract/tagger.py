"""A learned boundary tagger for PRECEDENT spans: all-MiniLM-L6-v2 fine-tuned on InLegalNER, run by ONNX Runtime.

The rules (``precedents.find_precedents``) find where case citations are; where a citation starts and ends is
where they and the InLegalNER annotators part ways most (a case number before the name, a parallel citation after
a colon, a place after a comma). The tagger reads the words around a cue with the rules' spans marked in its
input and tags each word O/B/I. It re-draws edges and adds spans the rules missed; it never takes a citation away:
every case the rules found, and every citation key they read, is in its output (``PrecedentTagger.retag``).
Training: ``benchmarks/train_precedent_tagger.py``.
"""

from __future__ import annotations

import bisect
import json
import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import numpy as np

from graph_schema.errors import ConfigurationError
from verification.extract.precedents import PrecedentMatch, find_precedents
from verification.extract.reporters import find_cores, normalise_citation

MODEL_DIR = Path(__file__).resolve().parent / "models"
"""The shipped tagger: ``precedent_tagger.onnx`` (int8), ``precedent_tagger.json`` (how it was trained and how
its input is encoded) and ``tokenizer.json`` (all-MiniLM-L6-v2's own)."""
CONTEXT = 32  # words either side of a cue that the tagger reads
BATCH = 16  # windows per ONNX Runtime call
MAX_PIECES = 250  # per window, before [CLS] and [SEP]
CLS, SEP, OPEN, CLOSE, UNK = 101, 102, 2, 3, 100  # [CLS] [SEP] [unused1] [unused2] [UNK] in the uncased vocab
MAX_WORD_PIECES = 12  # a long number or URL is cut to its first pieces

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


@lru_cache(maxsize=4)
def _tokenizer(path: Path = MODEL_DIR / "tokenizer.json") -> Any:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(path))
    tok.no_padding()
    tok.no_truncation()
    return tok


class Encoder:
    """Words -> model windows. ``marks``: the rules' spans bracketed by two unused tokens; ``case``: token type 1
    on the pieces of a word that starts with a capital (the vocabulary is lower-case)."""

    def __init__(
        self, *, case: bool = True, marks: bool = True, tokenizer: Path = MODEL_DIR / "tokenizer.json",
        specials: tuple[int, int, int, int, int] = (CLS, SEP, OPEN, CLOSE, UNK),
    ) -> None:
        self.case = case
        self.marks = marks
        self.tokenizer = tokenizer
        self.specials = Specials(*specials)

    def settings(self) -> dict[str, Any]:
        return {"case": self.case, "marks": self.marks, "specials": list(self.specials)}

    def encode(self, words: list[str], rule_spans: set[tuple[int, int]]) -> list[Window]:
        """The model's windows over ``words``, with ``rule_spans`` (word ranges) marked."""
        starts = {s for s, _ in rule_spans}
        ends = {e for _, e in rule_spans}
        sp = self.specials
        pieces = [enc.ids[1:-1][:MAX_WORD_PIECES] or [sp.unk]
                  for enc in _tokenizer(self.tokenizer).encode_batch(words)]
        units: list[_Unit] = []
        for i, (word, ids) in enumerate(zip(words, pieces, strict=True)):
            marks = [sp.close] * (self.marks and i in ends) + [sp.open] * (self.marks and i in starts)
            units.append(_Unit(marks, ids, int(self.case and word[:1].isupper())))
        return _windows(units, len(words) in ends and self.marks, sp)


class Specials(NamedTuple):
    """The special token ids of the base model's vocabulary: sequence start and end, the two marks, unknown."""

    cls: int
    sep: int
    open: int
    close: int
    unk: int


@dataclass(frozen=True, slots=True)
class _Unit:
    """One word's input: the marks before it, its pieces, and the token type of its pieces."""

    marks: list[int]
    pieces: list[int]
    type: int


def _windows(units: list[_Unit], close_at_end: bool, sp: Specials) -> list[Window]:
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
        ids, types, heads = [sp.cls], [0], []
        for i in range(ws, we):
            unit = units[i]
            ids += unit.marks
            types += [0] * len(unit.marks)
            heads.append((len(ids), i))
            ids += unit.pieces
            types += [unit.type] * len(unit.pieces)
        if close_at_end and we == len(units):
            ids.append(sp.close)
            types.append(0)
        ids = ids[: MAX_PIECES + 1] + [sp.sep]
        types = types[: MAX_PIECES + 1] + [0]
        heads = [(p, w) for p, w in heads if p <= MAX_PIECES]
        out.append(Window(ids, types, heads, own_from, own_to))
    return out


def word_offsets(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]


def rule_word_spans(words: list[str]) -> set[tuple[int, int]]:
    """The rules' PRECEDENT spans over ``words`` joined by spaces, as word ranges (training and benchmarks)."""
    text = " ".join(words)
    return _to_words(word_offsets(text), [(m.start, m.end) for m in find_precedents(text)])


def cue_words(words: list[str]) -> list[int]:
    """Indices of the words that make the text around them worth tagging: a "v." or a reporter's abbreviation."""
    return [i for i, w in enumerate(words) if _CUE.search(w)]


def _to_words(offsets: list[tuple[int, int]], spans: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """Character spans -> word ranges (a span that starts or ends inside a word takes the whole word)."""
    ends = [e for _, e in offsets]
    starts = [s for s, _ in offsets]
    out: set[tuple[int, int]] = set()
    for s, e in spans:
        first = bisect.bisect_right(ends, s)  # the first word ending after s
        last = bisect.bisect_left(starts, e)  # one past the last word starting before e
        if first < last:
            out.add((first, last))
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


class PrecedentRetagger(Protocol):
    """Re-draws the PRECEDENT spans the rules found in ``text``."""

    def retag(self, text: str, found: list[PrecedentMatch]) -> list[PrecedentMatch]: ...


class RulesOnly:
    """The rules' spans as they are."""

    def retag(self, text: str, found: list[PrecedentMatch]) -> list[PrecedentMatch]:
        return found


class PrecedentTagger:
    """The learned tagger (``MODEL_DIR`` by default). Only the words around a cue (a rule span, a "v.", a
    reporter's abbreviation) are read, so text without case law never runs the model. The files are read on first
    use (or :meth:`open`); thread-safe.
    """

    def __init__(self, model_dir: Path = MODEL_DIR, threads: int = 1) -> None:
        self._dir = model_dir
        self._threads = threads
        self._encoder: Encoder | None = None
        self._session: Any = None
        self._lock = threading.Lock()

    def open(self) -> None:
        """Load the manifest, tokenizer and ONNX session; ``ConfigurationError`` naming a missing or broken file."""
        if self._session is not None:
            return
        with self._lock:
            if self._session is not None:
                return
            for name in ("precedent_tagger.json", "precedent_tagger.onnx", "tokenizer.json"):
                if not (self._dir / name).is_file():
                    raise ConfigurationError(f"the PRECEDENT tagger's {name} is missing from {self._dir}")
            try:
                manifest = json.loads((self._dir / "precedent_tagger.json").read_text(encoding="utf-8"))
                encoder = Encoder(**manifest["encoder"], tokenizer=self._dir / "tokenizer.json")
                import onnxruntime as ort

                opts = ort.SessionOptions()
                opts.intra_op_num_threads = self._threads
                opts.inter_op_num_threads = 1
                session = ort.InferenceSession(str(self._dir / "precedent_tagger.onnx"), opts,
                                               providers=["CPUExecutionProvider"])
            except (ValueError, KeyError, TypeError, RuntimeError) as exc:
                raise ConfigurationError(f"the PRECEDENT tagger in {self._dir} cannot be loaded: {exc}") from exc
            self._encoder, self._session = encoder, session

    def _run(self, windows: list[Window]) -> list[np.ndarray]:
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
        """The tagger's spans, with every case and every citation key of ``found`` kept (see ``_keep_rules``)."""
        offsets = word_offsets(text)
        words = [text[s:e] for s, e in offsets]
        rule = sorted(_to_words(offsets, [(p.start, p.end) for p in found]))
        cues = sorted(cue_words(words) + [i for s, e in rule for i in (s, e - 1)])
        if not cues:
            return found
        self.open()
        assert self._encoder is not None
        regions: list[list[int]] = []
        for c in cues:
            lo, hi = max(0, c - CONTEXT), min(len(words), c + CONTEXT + 1)
            k = bisect.bisect_left(rule, (lo, -1))
            for s, e in rule[max(0, k - 1) :]:  # a region never cuts a rule span
                if s >= hi:
                    break
                if e > lo:
                    lo, hi = min(lo, s), max(hi, e)
            if regions and lo <= regions[-1][1]:
                regions[-1][1] = max(regions[-1][1], hi)
            else:
                regions.append([lo, hi])
        jobs: list[tuple[int, Window]] = []
        for r, (lo, hi) in enumerate(regions):
            inside = {(s - lo, e - lo) for s, e in rule if lo <= s and e <= hi}
            jobs.extend((r, win) for win in self._encoder.encode(words[lo:hi], inside))
        scores = [[[1.0, 0.0, 0.0]] * (hi - lo) for lo, hi in regions]
        jobs.sort(key=lambda job: len(job[1].ids))
        for k in range(0, len(jobs), BATCH):
            batch = jobs[k : k + BATCH]
            for (r, win), logits in zip(batch, self._run([w for _, w in batch]), strict=True):
                for pos, word in win.heads:
                    if win.owns(word):
                        scores[r][word] = logits[pos].tolist()
        tagged = [(offsets[lo + s][0], _end(text, offsets[lo + s][0], offsets[lo + e - 1][1]))
                  for (lo, hi), sc in zip(regions, scores, strict=True)
                  for s, e in sorted(trim(words[lo:hi], spans_of(decode(sc))))]
        rules = _Sorted(found)
        spans = [part for span in tagged for part in _split(text, span, rules)]
        spans = [(s, e) for s, e in spans if _names_a_case(text, s, e, rules)]
        return _keep_rules(text, spans, rules)


class _Sorted:
    """Matches that never overlap, by start, with the ones overlapping a range found by bisection."""

    def __init__(self, matches: list[PrecedentMatch]) -> None:
        self.items = sorted(matches, key=lambda p: p.start)
        self._starts = [p.start for p in self.items]

    def over(self, start: int, end: int) -> range:
        """Indices of the matches that overlap [start, end)."""
        first = max(0, bisect.bisect_right(self._starts, start) - 1)
        if first < len(self.items) and self.items[first].end <= start:
            first += 1
        return range(first, bisect.bisect_left(self._starts, end))


def _split(text: str, span: tuple[int, int], rules: _Sorted) -> list[tuple[int, int]]:
    """A tagged span over two of the rules' matches is cut between them when both carry a citation (each is
    checked on its own) or a list joins them ("Lalita Kumari v. Government of Uttar Pradesh and 2024 INSC 123",
    "(2003) 4 SCC 524 (para 9); B.D. Shetty v. CEAT Ltd."); a name before its citation stays with it."""
    inside = [p for p in (rules.items[k] for k in rules.over(*span)) if span[0] <= p.start and p.end <= span[1]]
    parts: list[tuple[int, int]] = []
    start = span[0]
    for a, b in zip(inside, inside[1:], strict=False):
        if (a.normalised and b.normalised) or _LIST_JOIN.search(text, a.end, b.start):
            parts.append((start, a.end))
            start = b.start
    parts.append((start, span[1]))
    return parts


_LIST_JOIN = re.compile(r"\band\b|&|;")


def _names_a_case(text: str, start: int, end: int, rules: _Sorted) -> bool:
    """A tagged span names a case: it holds the "v." of one of the rules' names, a "v." between two of its own
    words, or a whole reporter or neutral citation (not "1943" cut from "1943 AC 627", not a "v." alone)."""
    if any(p.anchor is not None and start <= p.anchor < end for p in (rules.items[k] for k in rules.over(start, end))):
        return True
    inner = text[start:end].split()[1:-1]
    return any(_VERSUS_WORD.match(w) for w in inner) or bool(find_cores(text[start:end]))


def _keep_rules(text: str, spans: list[tuple[int, int]], rules: _Sorted) -> list[PrecedentMatch]:
    """The tagged spans as matches, then the rules' back wherever the tagger would lose one of their cases or
    citation keys: a rule match that no tagged span overlaps, or whose key no tagged span over it carries (a span
    cut at "A.I.R. 1938 Mad."), replaces the tagged spans over it ("2024 INSC 123" is newer than the tagger's
    training judgments). Each match is judged by the spans over it, not by a key elsewhere in the text, since
    verification checks each span's own citation. O(n log n): rule matches never overlap, nor do tagged spans."""
    by_span = {(p.start, p.end): p for p in rules.items}
    out = _Sorted([by_span.get(span) or _match(text, *span) for span in spans])
    alive = [True] * len(out.items)
    restored: dict[int, PrecedentMatch] = {}
    queue = list(range(len(rules.items)))
    while queue:
        k = queue.pop()
        p = rules.items[k]
        if k in restored:
            continue
        cover = [i for i in out.over(p.start, p.end) if alive[i]]
        if cover and (p.normalised is None or any(out.items[i].normalised == p.normalised for i in cover)):
            continue
        for i in cover:
            alive[i] = False
            queue.extend(rules.over(out.items[i].start, out.items[i].end))
        restored[k] = p
    return sorted([q for q, keep in zip(out.items, alive, strict=True) if keep] + list(restored.values()),
                  key=lambda q: q.start)


def _end(text: str, start: int, end: int) -> int:
    """A tagged span's end without the punctuation after its last word: "273," -> "273", "621." -> "621",
    "Sri ," -> "Sri"; an abbreviation's full stop stays ("Ors.", "S.C.R.")."""
    while end - start > 1 and (text[end - 1] in ",;:" or text[end - 1].isspace()):
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
def shipped_tagger() -> PrecedentTagger:
    """The tagger whose files ship in ``MODEL_DIR`` (one per process; its files are read on first use)."""
    return PrecedentTagger()
