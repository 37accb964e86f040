"""Imported first by the package: spaCy loads here, without making thinc import torch."""

import sys


def _import_spacy_without_torch() -> None:
    """Import spaCy with torch hidden, so that thinc does not import it.

    thinc (spaCy's ML library) imports torch whenever it is installed, to offer torch layers: ~9 s
    and hundreds of MB in every process that extracts citations (every ``retrieve`` and ``ask``),
    although our pipeline is rules only. With ``sys.modules["torch"] = None`` thinc's
    ``import torch`` fails and it records "no torch"; the entry is removed afterwards, so code that
    wants torch (sentence-transformers, the ``[torch]`` extra) still imports it.
    """
    if "torch" in sys.modules or "thinc" in sys.modules:
        return
    sys.modules["torch"] = None  # type: ignore[assignment]
    try:
        import spacy  # noqa: F401
    finally:
        if "torch" in sys.modules and sys.modules["torch"] is None:
            del sys.modules["torch"]


_import_spacy_without_torch()
