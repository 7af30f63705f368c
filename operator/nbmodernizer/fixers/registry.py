"""Fixers by the names a spec uses in `fix.fixers`, and the chain a spec asks for."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from nbmodernizer.fixers.base import Fixer, FixerChain, Learner, RequestObserver
from nbmodernizer.spec import ModernizationSpec


@dataclass(frozen=True)
class FixerEnvironment:
    """What the driver knows beyond the spec: the LLM key (the operator reads it from a
    Secret; the CLI from OPENAI_API_KEY) and who wants to hear about each LLM request."""

    api_key: str | None = None
    observe_request: RequestObserver | None = None
    # the fix memory's folder or s3:// prefix, or "off"; None: NBMOD_FIX_MEMORY, else the
    # user's cache folder (the CLI's default; the operator always says)
    fix_memory: str | None = None


# A factory makes its fixer (or None when it cannot be used here) and says why, if need be.
FixerFactory = Callable[[ModernizationSpec, FixerEnvironment], tuple[Fixer | None, list[str]]]


def _rules(_spec: ModernizationSpec, _env: FixerEnvironment) -> tuple[Fixer | None, list[str]]:
    from nbmodernizer.fixers.rules import RulesFixer, all_rules

    return RulesFixer(all_rules()), []


def _llm(spec: ModernizationSpec, env: FixerEnvironment) -> tuple[Fixer | None, list[str]]:
    from nbmodernizer.fixers.llm import LLMFixer
    from nbmodernizer.fixers.llm.client import ChatClient
    from nbmodernizer.fixers.llm.prices import prices_for

    llm = spec.fix.llm
    base_url = llm.base_url or os.environ.get("OPENAI_BASE_URL") or None
    api_key = env.api_key or os.environ.get("OPENAI_API_KEY") or None
    if base_url is None and api_key is None:
        return None, [
            "llm: skipped, no endpoint configured "
            "(set fix.llm.baseURL or OPENAI_BASE_URL, and OPENAI_API_KEY where one is needed)"
        ]
    if llm.model is None:
        return None, ["llm: skipped, fix.llm.model is not set"]
    prices = prices_for(llm)
    notes = [] if prices is not None else [f"llm: no price known for {llm.model}; cost not counted"]
    client = ChatClient(llm, base_url, api_key, observe=env.observe_request)
    return LLMFixer(llm, client, prices, spec.fix.budget_usd), notes


def _memory(_spec: ModernizationSpec, env: FixerEnvironment) -> tuple[Fixer | None, list[str]]:
    from nbmodernizer.fixers.memory import MemoryFixer, open_memory

    memory = open_memory(env.fix_memory)
    if memory is None:
        return None, ["memory: skipped, the fix memory is off"]
    return MemoryFixer(memory), []


FACTORIES: dict[str, FixerFactory] = {"rules": _rules, "memory": _memory, "llm": _llm}


def build_chain(spec: ModernizationSpec, env: FixerEnvironment | None = None) -> FixerChain:
    fixers: list[Fixer] = []
    notes: list[str] = []
    for name in spec.fix.fixers:
        fixer, said = FACTORIES[name](spec, env or FixerEnvironment())
        notes.extend(said)
        if fixer is not None:
            fixers.append(fixer)
    return FixerChain(fixers, notes)


def build_learner(spec: ModernizationSpec, env: FixerEnvironment | None = None) -> Learner | None:
    """What learns from each executed fix: the fix memory, when the spec's chain uses it."""
    if "memory" not in spec.fix.fixers:
        return None
    from nbmodernizer.fixers.memory import MemoryLearner, open_memory

    memory = open_memory((env or FixerEnvironment()).fix_memory)
    return MemoryLearner(memory) if memory is not None else None
