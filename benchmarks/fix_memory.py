"""Benchmark: what the fix memory saves on a fleet, through `nbmod modernize`'s driver.

The fleet of testing/memory_fleet.py (4 notebooks with one drift each, then students with one
to four of the same drifts; no rule covers them, some also need a rules fix) runs twice,
one notebook after the other, with an OpenAI-compatible test server that fixes what it is
shown at a fixed token count (3000 in, 400 out, at gpt-5.2's list price): once with the
chain `[rules, llm]`, once with `[rules, memory, llm]` and a fresh local memory. Printed:
LLM requests, LLM cost, cost per reproduced notebook and their ratio, executions, wall time.

    python benchmarks/fix_memory.py [--students 16]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from nbmodernizer.fleet import summarize
from nbmodernizer.local import modernize_file
from testing.llm_server import Responder, scripted_llm
from testing.memory_fleet import MEMORY_CHAIN, answer, make_fleet, reports


@dataclass(frozen=True)
class Figures:
    notebooks: int
    reproduced: int
    requests: int
    usd: float
    saved_usd: float
    executions: int
    seconds: float

    @property
    def usd_per_reproduced(self) -> float:
        return self.usd / self.reproduced if self.reproduced else float("inf")


@contextlib.contextmanager
def environment(**values: str) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def run_fleet(root: Path, fixers: tuple[str, ...], students: int) -> Figures:
    cases = make_fleet(root / "cases", students, fixers=fixers, max_iterations=8)
    started = time.monotonic()
    with (
        scripted_llm(Responder(answer)) as llm,
        environment(
            OPENAI_BASE_URL=llm.url,
            OPENAI_API_KEY="sk-bench",
            NBMOD_FIX_MEMORY=str(root / "memory"),
        ),
    ):
        for case in cases:
            modernize_file(case.spec, root / "out" / case.name)
    seconds = time.monotonic() - started
    statuses = reports(root / "out")
    table = summarize([{"status": s} for s in statuses.values()]).to_dict()
    return Figures(
        notebooks=len(cases),
        reproduced=table["reproduced"],
        requests=len(llm.requests),
        usd=table["cost"]["usd"],
        saved_usd=table["cost"]["savedUsd"],
        executions=sum(s["iterations"] for s in statuses.values()),
        seconds=seconds,
    )


def main_benchmark() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=16)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="nbmod-bench-memory-") as scratch:
        without = run_fleet(Path(scratch) / "without", ("rules", "llm"), args.students)
        with_memory = run_fleet(Path(scratch) / "with", MEMORY_CHAIN, args.students)
    print(f"{'':34}{'without memory':>16}{'with memory':>14}")
    rows: list[tuple[str, Callable[[Figures], str]]] = [
        ("notebooks reproduced", lambda f: f"{f.reproduced}/{f.notebooks}"),
        ("LLM requests", lambda f: str(f.requests)),
        ("LLM cost", lambda f: f"${f.usd:.4f}"),
        ("LLM cost per reproduced notebook", lambda f: f"${f.usd_per_reproduced:.5f}"),
        ("saved by the memory (estimated)", lambda f: f"${f.saved_usd:.4f}"),
        ("executions", lambda f: str(f.executions)),
        ("wall time", lambda f: f"{f.seconds:.0f}s"),
    ]
    for label, shown in rows:
        print(f"{label:34}{shown(without):>16}{shown(with_memory):>14}")
    ratio = with_memory.usd_per_reproduced / without.usd_per_reproduced
    print(f"cost per reproduced notebook, with/without memory: {ratio:.3f}")
    print(f"executions, with/without memory: {with_memory.executions / without.executions:.3f}")


if __name__ == "__main__":
    main_benchmark()
