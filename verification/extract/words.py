"""Reading words backwards from a position, for the scanners that grow a name to the left of its anchor.

Statute names end at their head word ("... Act") and case names at "v."; both are found by stepping left
one word at a time. Tokenising a fixed window before every anchor costs the window's length per anchor,
which made repeated anchors ("v. v. v. ...") quadratic in practice; this reader stops as soon as the caller
has enough words.
"""

from __future__ import annotations

from collections.abc import Iterator

_MAX_GROUP = 200  # longest bracketed group read as one word: "(Prevention of Atrocities)"


def words_before(text: str, end: int, *, split_commas: bool = False) -> Iterator[tuple[int, str]]:
    """Words ending at or before ``end``, nearest first, as (start, word); stops at a blank line.

    A bracketed group with spaces inside ("(Care and Protection of Children)") is one word. With
    ``split_commas`` a comma ends a word ("Orissa,reported" is "Orissa," and "reported").
    """
    pos = end
    while pos > 0:
        newlines = 0
        while pos > 0 and text[pos - 1].isspace():
            if text[pos - 1] == "\n":
                newlines += 1
                if newlines > 1:
                    return
            pos -= 1
        if pos == 0:
            return
        stop = pos
        while pos > 0 and not text[pos - 1].isspace():
            pos -= 1
        word = text[pos:stop]
        if word.endswith(")") and "(" not in word:
            opened = text.rfind("(", max(0, pos - _MAX_GROUP), pos)
            if opened >= 0 and ")" not in text[opened:pos] and "\n\n" not in text[opened:pos]:
                pos = opened
                word = text[pos:stop]
        if split_commas and "," in word[:-1] and not word.startswith("("):
            pieces = word.split(",")
            offset = stop
            for i in range(len(pieces) - 1, -1, -1):
                piece = pieces[i] + ("," if i < len(pieces) - 1 else "")
                offset -= len(piece)
                if piece:
                    yield offset, piece
            continue
        yield pos, word
