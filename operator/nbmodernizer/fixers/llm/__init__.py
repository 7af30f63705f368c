"""The LLM fixer: ErrorRepair, RuntimeReduction and ScoreCalibration prompts, any
OpenAI-compatible Chat Completions endpoint."""

from nbmodernizer.fixers.llm.fixer import LLMFixer

__all__ = ["LLMFixer"]
