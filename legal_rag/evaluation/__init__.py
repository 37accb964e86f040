"""Answer-level evaluation harnesses (``legal-rag eval ...``): fault injection into verified answers."""
