"""The surface-feature audit: each feature read off real answer shapes, and the best-rule score per category."""

from __future__ import annotations

import pytest

from finetune.audit import FEATURES, best_per_category, contradicting_labels, score_pairs

THEFT = ('Section 303(2) of the Bharatiya Nyaya Sanhita, 2023 provides: "Whoever commits theft shall be punished '
         'with imprisonment of either description for a term which may extend to three years" [BNS:303:2:0]')
LABELLED = ('Section 305 of the Bharatiya Nyaya Sanhita, 2023 provides: "(2) Whoever commits theft shall be punished" '
            "[BNS:305:-:0]")
REFUSAL = ("The documents provided do not answer this question. They contain Section 305 of the Bharatiya Nyaya "
           "Sanhita, 2023 [BNS:305:-:0]; a provision on theft is missing from them.")
OUTDATED = "For facts on 3 March 2025, the Bharatiya Nyaya Sanhita, 2023 applies. " + THEFT


@pytest.mark.parametrize(("feature", "text", "value"), [
    ("citation markers", THEFT, 1),
    ("citation markers", OUTDATED + " [IPC:379:-:0]", 2),
    ("date framing", OUTDATED, 1),
    ("date framing", THEFT, 0),
    ("provisions named", REFUSAL + " " + THEFT, 2),
    ("negation words", REFUSAL, 1),
    ("negation words", THEFT, 0),
    ("contradicting label", LABELLED, 1),
    ("contradicting label", LABELLED.replace("Section 305 ", "Section 305(2) "), 0),
])  # fmt: skip
def test_features(feature: str, text: str, value: float) -> None:
    assert FEATURES[feature](text) == value


def test_contradicting_labels_counts_each_quotation() -> None:
    assert contradicting_labels(LABELLED + " " + LABELLED) == 2


def test_a_feature_that_always_separates_scores_one_and_a_balanced_one_a_half() -> None:
    pairs = [("insufficient", REFUSAL, THEFT)] * 4 + [("outdated", OUTDATED, OUTDATED.replace("2025", "2023"))] * 4
    best = best_per_category(score_pairs(pairs))
    assert best["insufficient"].rate == 1.0 and best["insufficient"].pairs == 4
    assert best["outdated"].rate == 0.5  # the same shape on both sides: no rule does better than a coin
    swapped = best_per_category(score_pairs([("insufficient", THEFT, REFUSAL)] * 4))
    assert swapped["insufficient"].rate == 1.0
    assert swapped["insufficient"].direction != best["insufficient"].direction or \
        swapped["insufficient"].feature != best["insufficient"].feature
