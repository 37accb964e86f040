"""Hindi written in Latin letters (Hinglish) glossed into English for retrieval (``data/retrieval/hinglish.jsonl``).

"Shaadi ko 8 mahine hue hain, sasural wale 10 lakh cash aur ek car maang rahe hain aur roz maarpeet karte hain. Kya
case bante hain aur saza kitni hai?" shares almost no word with a statute, and the embedder was trained on English.
Each glossary entry gives the English, in the statutes' words where there are some ("maarpeet": "beating,
voluntarily causing hurt, assault"), for the spellings people type. A question that uses two or more entries is
Hinglish: its gloss (each glossed word replaced by its English, the rest kept) is appended to what BM25 and the
embedder see, so the terms of art and the offence gate read it too. A question must also hold one of Hindi's own
small words ("mein", "ko", "hai"), and a single entry is left alone, so that an English question with borrowed words
("the SaaS firm in Thane", "my makan malik") is not rewritten. Words that mean something else as often ("maar diya":
hit or killed; "utha liya": picked up or kidnapped; "udhar": there or on loan) are not entries.

A closed vocabulary of a language, not a list grown from missed questions: every entry is a common word, and the
tests ask questions that no evaluation set holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from graph_schema.errors import IngestError
from legal_rag.retrieval.jsonlines import json_objects, strings

MIN_ENTRIES = 2
"""Distinct glossary entries a question must use to be read as Hinglish."""
_HINDI = re.compile(
    r"(?<![\w-])(?:hai|hain|ne|ko|ka|ki|ke|mein|aur|kya|nahi|nahin|mera|meri|mere|hamara|hamari|humara|unka|unki|"
    r"uska|uski|wale|wala|wali|karta|karte|karti|raha|rahe|rahi|gaya|gayi|diya|liya|hoga|hogi|sakte|sakta|sakti|"
    r"kaise|kyun|kyon)(?![\w-])", re.IGNORECASE
)
"""Hindi's own small words, one of which a Hinglish question has ("mein", "ko", "hai"); an English question that
borrows two words ("the SaaS firm in Thane") has none."""
SHAPE = '{"words": [strings], "english": string}'


@dataclass(frozen=True, slots=True)
class Glossary:
    entries: tuple[tuple[re.Pattern[str], str], ...]

    @classmethod
    def load(cls, path: Path) -> Glossary:
        """Read the glossary (an empty one when the file is absent).

        Raises:
            IngestError: a malformed line (file:line named).
        """
        if not path.exists():
            return cls(())
        out: list[tuple[re.Pattern[str], str]] = []
        for n, obj in json_objects(path, SHAPE):
            words, english = obj.get("words"), obj.get("english")
            if not strings(words):
                raise IngestError(f'{path}:{n}: "words" must be a list of non-empty strings {SHAPE}')
            if not isinstance(english, str) or not english.strip():
                raise IngestError(f'{path}:{n}: "english" must be a non-empty string {SHAPE}')
            alternatives = "|".join(
                r"[\s-]+".join(map(re.escape, w.split())) for w in sorted(words, key=len, reverse=True)
            )
            out.append((re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE), english.strip()))
        return cls(tuple(out))

    def gloss(self, text: str) -> str | None:
        """``text`` with each glossary word replaced by its English, when it uses ``MIN_ENTRIES`` entries or more;
        None for a text that is not Hinglish."""
        if not _HINDI.search(text):
            return None
        found = [(m.start(), m.end(), english) for pattern, english in self.entries for m in pattern.finditer(text)]
        kept, at = [], 0
        for start, end, english in sorted(found, key=lambda f: (f[0], -f[1])):
            if start >= at:  # else overlapped by an earlier (longer) match: "makan malik" is one word, not two
                kept.append((start, end, english))
                at = end
        if len({english for _, _, english in kept}) < MIN_ENTRIES:
            return None
        out, at = [], 0
        for start, end, english in kept:
            out += [text[at:start], english]
            at = end
        return "".join(out + [text[at:]])
