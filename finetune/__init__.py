"""Fine-tuning datasets from the statute graph and from paralegals' flags (Finetune-RAG, with more categories).

Imports ``graph_schema``, ``verification`` and ``ingestion`` only, never ``legal_rag``: the application
imports this package and passes in what it needs of itself (the retriever, the records, the tokenizer).
Never a face: the CLI and Celery call these.
"""

from finetune.build import BuildConfig, BuildReport, TokenizerFile, build_dataset
from finetune.judge import Category, Failure, Judge
from graph_schema.errors import DatasetError

__all__ = ["BuildConfig", "BuildReport", "Category", "DatasetError", "Failure", "Judge", "TokenizerFile",
           "build_dataset"]
