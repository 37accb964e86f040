"""Hybrid retrieval: BM25 + dense vectors, fused, citation-aware."""
