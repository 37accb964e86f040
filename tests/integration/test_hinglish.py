"""A question in Hinglish is answered from the provisions its English gloss names, through the retriever the product
builds (``build_retriever`` passes the glossary), on the real statutes, graph and embedder. The question is not from
an evaluation set; without the glossary its retrieval quotes nothing."""

from __future__ import annotations

import pytest

from legal_rag.workflow.service import AskService

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_a_hinglish_account_of_dowry_cruelty_reaches_the_cruelty_provision(service: AskService) -> None:
    r = service.ask("Mera pati roz maarpeet karta hai aur dahej ke liye paise maangta hai. Kya saza hogi?")
    assert ("BNS", "85") in {(s.act, s.section) for s in r.sources}, [(s.act, s.section) for s in r.sources]
