"""Token prices: the spec's, else a default table of well-known models."""

from __future__ import annotations

from nbmodernizer.spec import LLMSpec

# USD per million tokens (input, output): published list prices, 2026-11. Override in the
# spec with fix.llm.inputUSDPerMTok / outputUSDPerMTok (self-hosted models: 0).
DEFAULT_PRICES: dict[str, tuple[float, float]] = {
    "gpt-5.2": (1.75, 14.00),
    "gpt-5.1": (1.25, 10.00),
    "gpt-5": (1.25, 10.00),
    "gpt-5-mini": (0.25, 2.00),
    "gpt-5-nano": (0.05, 0.40),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
}


def prices_for(spec: LLMSpec) -> tuple[float, float] | None:
    """(input, output) USD per million tokens, or None when unknown."""
    default = DEFAULT_PRICES.get(spec.model or "")
    inp = spec.input_usd_per_m_tok if spec.input_usd_per_m_tok is not None else None
    out = spec.output_usd_per_m_tok if spec.output_usd_per_m_tok is not None else None
    if inp is None and default is not None:
        inp = default[0]
    if out is None and default is not None:
        out = default[1]
    if inp is None or out is None:
        return None
    return inp, out


def cost_usd(input_tokens: int, output_tokens: int, prices: tuple[float, float] | None) -> float:
    if prices is None:
        return 0.0
    return (input_tokens * prices[0] + output_tokens * prices[1]) / 1_000_000
