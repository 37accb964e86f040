"""Fine-tuning datasets from the statute graph and from paralegals' flags (Finetune-RAG, with more categories).

Imports ``graph_schema``, ``verification`` and, for the prompt format and chunk ids, the narrow parts
of ``legal_rag`` listed in ``finetune.prompt``. Never a face: the CLI and Celery call these.
"""

from finetune.build import BuildConfig, BuildReport, build_dataset
from finetune.judge import Category, Failure, Judge
from graph_schema.errors import DatasetError

__all__ = ["BuildConfig", "BuildReport", "Category", "DatasetError", "Failure", "Judge", "build_dataset"]
