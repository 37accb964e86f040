"""Generators: extractive (offline default), Anthropic Claude, OpenAI-compatible servers."""
