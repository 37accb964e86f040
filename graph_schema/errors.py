"""One exception tree for the whole project.

``LegalRagError`` is the root. ``RetryableError`` marks transient faults (graph down, broker
unreachable, LLM rate limit): Celery retries those and nothing else, and callers turn them into
"unchecked", never into "not found". Adapters translate driver exceptions at their boundary with
``raise ... from exc``.
"""

from __future__ import annotations


class LegalRagError(Exception):
    """Root of every error this project raises on purpose."""


class RetryableError(LegalRagError):
    """A transient fault: the same call may succeed later."""


class StoreUnavailableError(RetryableError):
    """The graph store could not be reached or stopped answering mid-call."""


class ConfigurationError(LegalRagError):
    """Settings are missing or contradict each other."""


class UnknownActError(LegalRagError):
    """An Act name, code or alias that the registry does not know."""

    def __init__(self, name: str, suggestions: tuple[str, ...] = ()) -> None:
        hint = f" (did you mean: {', '.join(suggestions)}?)" if suggestions else ""
        super().__init__(f"unknown Act {name!r}{hint}")
        self.name = name
        self.suggestions = suggestions


class ActYearMismatchError(UnknownActError):
    """An Act name with a year that is not the year of the Act the name otherwise fits:
    "Code of Criminal Procedure, 1898" is not the 1973 Code."""


class AmbiguousActError(LegalRagError):
    """An alias that names more than one Act."""

    def __init__(self, name: str, candidates: tuple[str, ...]) -> None:
        super().__init__(f"Act name {name!r} is ambiguous: {', '.join(candidates)}")
        self.name = name
        self.candidates = candidates


class InvalidSectionNumberError(LegalRagError):
    """A section reference that cannot be parsed ("Section ???")."""


class IngestError(LegalRagError):
    """Ingestion refused its input (strict mode, unreadable file, unknown format)."""
