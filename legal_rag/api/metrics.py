"""Prometheus metrics of one API process: requests and latency per route, answers, flags, verification outcomes."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram


class ApiMetrics:
    """A private registry per app (several apps in one test process must not share counters)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter("legal_rag_http_requests_total", "HTTP requests by route, method and status",
                                ["route", "method", "status"], registry=self.registry)
        self.latency = Histogram("legal_rag_http_request_seconds", "HTTP request latency by route", ["route"],
                                 buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
                                 registry=self.registry)
        self.answers = Counter("legal_rag_answers_total", "Answers produced, by confidence label and complexity",
                               ["confidence", "complexity"], registry=self.registry)
        self.flags = Counter("legal_rag_flags_total", "Flags stored, by label", ["label"], registry=self.registry)
        self.citations = Counter("legal_rag_citation_checks_total", "Citation checks, by status (answers and /verify)",
                                 ["status"], registry=self.registry)
