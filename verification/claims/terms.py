"""Stop words and the light stemmer: shared by claim alignment and by the retrieval tokeniser
(``legal_rag.retrieval.tokenize``, whose docstring measures the stemmer against the alternatives).

Both change index terms: ``legal_rag.retrieval.tokenize.TOKENIZER_ID`` fingerprints them.
"""

from __future__ import annotations

import re

__all__ = ["STOPWORDS", "light_stem"]

# NLTK's English list less the words that change a legal meaning ("not", "no", "nor", "against",
# "before", "after", "during", "until", "under", "over", "between", "above", "below", "off", "out",
# "more", "most", "only", "same", "own", "further"). "shall" and "may" were never in it.
_ENGLISH_STOPWORDS = frozenset((
    "i", "me", "my", "myself", "we", "our", "ours", "ourselves", "you", "your", "yours", "yourself", "yourselves",
    "he", "him", "his", "himself", "she", "her", "hers", "herself", "it", "its", "itself", "they", "them", "their",
    "theirs", "themselves", "what", "which", "who", "whom", "this", "that", "these", "those", "am", "is", "are",
    "was", "were", "be", "been", "being", "have", "has", "had", "having", "do", "does", "did", "doing", "a", "an",
    "the", "and", "but", "if", "or", "because", "as", "of", "at", "by", "for", "with", "about", "into", "through",
    "to", "from", "up", "down", "in", "on", "again", "then", "once", "here", "there", "when", "where", "why",
    "how", "all", "any", "both", "each", "other", "some", "such", "so", "than", "too", "very", "while", "can",
    "will", "just", "don", "should", "now", "d", "ll", "m", "o", "re", "ve", "t", "y", "ain", "aren", "couldn",
    "didn", "doesn", "hadn", "hasn", "haven", "isn", "ma", "mightn", "mustn", "needn", "shan", "shouldn", "wasn",
    "weren", "won", "wouldn",
))  # fmt: skip
# Reference markers and Latin abbreviations: "s.", "ss.", "sec.", "u/s" (-> "u", "s"), "r/w", "i.e.", "viz.".
_LEGAL_NOISE = frozenset(("s", "ss", "sec", "secs", "section", "sections", "u", "us", "r", "w", "ie", "eg", "viz"))
STOPWORDS = _ENGLISH_STOPWORDS | _LEGAL_NOISE

_VOWEL = re.compile(r"[aeiouy]")


def light_stem(word: str) -> str:
    """Porter's step 1 (plurals, "-ed", "-ing") and a final "e", for ASCII words of four letters or more.

    >>> [light_stem(w) for w in ["offences", "offence", "parties", "married", "cheating", "committed"]]
    ['offenc', 'offenc', 'party', 'marry', 'cheat', 'commit']
    """
    if len(word) < 4 or not word.isascii() or not word.isalpha():
        return word
    if word.endswith("sses"):
        word = word[:-2]
    elif word.endswith(("ies", "ied")):
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ed", "ing"):
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and len(stem) >= 3 and _VOWEL.search(stem):
            # "committ" -> "commit", but "kill" and "pass" keep their double letter.
            if stem[-1] == stem[-2] and stem[-1] not in "aeioulsz":
                stem = stem[:-1]
            word = stem
            break
    # Porter's step 5 in one line: "offence"/"offences", "solemnize"/"solemnized" meet at "offenc", "solemniz".
    return word[:-1] if len(word) > 4 and word.endswith("e") else word
