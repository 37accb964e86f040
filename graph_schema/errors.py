"""One exception tree for the whole project, with what each error means at the boundary.

``LegalRagError`` is the root. ``RetryableError`` marks transient faults (graph down, broker
unreachable, LLM rate limit): Celery retries those and nothing else, and callers turn them into
"unchecked", never into "not found". Adapters translate driver exceptions at their boundary with
``raise ... from exc``.

Every class carries its ``exit_code`` (:class:`ExitCode`: 1 not found, 2 bad input, 3 could not
check / try again) and its ``http_status``; the CLI's entry point and the API's exception handler
read them, once, at the boundary. The module lives in ``graph_schema`` because that is the one
package every other package may import.
"""

from __future__ import annotations

from enum import IntEnum
from typing import ClassVar

__all__ = [
    "ActYearMismatchError", "AmbiguousActError", "ConfigurationError", "DatasetError", "DenseIndexError",
    "ExitCode", "FaultError", "GenerationError", "IdempotencyConflictError", "IndexBusyError",
    "IndexUnavailableError", "IngestError", "InvalidDateError", "InvalidInputError", "InvalidRecordError",
    "InvalidSectionNumberError", "LegalRagError", "LexicalIndexError", "ModelOverloadedError", "NameTakenError",
    "NotFoundError", "RecordNotFoundError", "RecordsUnavailableError", "RetryableError", "StoreUnavailableError",
    "TransientFault", "UnknownActError",
]  # fmt: skip


class ExitCode(IntEnum):
    """What a ``legal-rag`` command's exit status says."""

    OK = 0
    NOT_FOUND = 1
    """Asked for something that does not exist (a section, a job, a key), or a result with problems."""
    BAD_INPUT = 2
    """The input is wrong as given: fix it and run again."""
    UNAVAILABLE = 3
    """Nothing could be checked (a store, the index or the model did not answer): try again later."""


class LegalRagError(Exception):
    """Root of every error this project raises on purpose: by default the caller's input is at fault."""

    exit_code: ClassVar[ExitCode] = ExitCode.BAD_INPUT
    http_status: ClassVar[int] = 422


# -- could not check: try again ------------------------------------------------------------------------


class RetryableError(LegalRagError):
    """A transient fault: the same call may succeed later."""

    exit_code = ExitCode.UNAVAILABLE
    http_status = 503


class StoreUnavailableError(RetryableError):
    """The graph store could not be reached or stopped answering mid-call."""


class RecordsUnavailableError(RetryableError):
    """The records database could not be reached or refused the write for now (locked, down)."""


class IndexBusyError(RetryableError):
    """Another process holds the index's write lock for longer than we were willing to wait."""


class IndexUnavailableError(RetryableError):
    """The vector store could not be reached, stopped answering, or is locked by another process."""


class GenerationError(LegalRagError):
    """A model call failed for good (after retries) or returned something unusable: no answer was made."""

    exit_code = ExitCode.UNAVAILABLE
    http_status = 502


class ModelOverloadedError(GenerationError, RetryableError):
    """Rate-limited or overloaded after every retry: worth trying again later."""

    exit_code = ExitCode.UNAVAILABLE
    http_status = 503


class TransientFault(ModelOverloadedError):
    """Raised by one attempt of a model call for a fault worth retrying (429, 529, 5xx, connection).

    ``with_retries`` catches it; after the last retry it surfaces as ``ModelOverloadedError``.
    """

    def __init__(self, reason: str, *, retry_after_s: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after_s = retry_after_s


# -- could not check: broken on our side ------------------------------------------------------------


class LexicalIndexError(LegalRagError):
    """A saved index that cannot be used: unreadable, another format, or built by another tokenizer."""

    exit_code = ExitCode.UNAVAILABLE
    http_status = 500


class DenseIndexError(LegalRagError):
    """Qdrant refused a request for a reason that retrying will not fix (bad request, schema)."""

    exit_code = ExitCode.UNAVAILABLE
    http_status = 500


class ConfigurationError(LegalRagError):
    """Settings are missing or contradict each other (the operator's input, not the client's)."""

    http_status = 500


# -- not found -----------------------------------------------------------------------------------------


class NotFoundError(LegalRagError, LookupError):
    """Nothing with that id or name."""

    exit_code = ExitCode.NOT_FOUND
    http_status = 404


class RecordNotFoundError(NotFoundError):
    """No record with that id (or name)."""


class DatasetError(LegalRagError):
    """The dataset could not be built as asked (too few usable provisions for a category)."""

    exit_code = ExitCode.NOT_FOUND


# -- bad input -----------------------------------------------------------------------------------------


class InvalidInputError(LegalRagError, ValueError):
    """A request the application refuses as given (empty question, impossible date): the caller's fault."""


class InvalidDateError(InvalidInputError):
    """A date that is not a real calendar date written YYYY-MM-DD."""


class InvalidRecordError(InvalidInputError):
    """A record the caller asked for cannot be stored as given; ``field`` names what is wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class NameTakenError(InvalidRecordError):
    """An API key name already used (names are kept after revocation, so the audit trail stays unambiguous)."""


class IdempotencyConflictError(LegalRagError):
    """An ``Idempotency-Key`` reused with a different request than the one it first stored."""

    http_status = 409


class FaultError(InvalidInputError):
    """A fault cannot be injected into this answer (no sentence it applies to)."""


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
