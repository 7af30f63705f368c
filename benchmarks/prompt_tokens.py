"""Benchmark: prompt size of the LLM fixer's cell mode against file mode, on the examples.

Each example's revision 0 is executed on a real kernel and diagnosed; the prompt that the
LLM fixer would send for that diagnosis is built in both modes and measured in approximate
tokens (words and punctuation: no tokenizer download is possible here; the ratio is what
matters). The cancer-rf-2017 example reproduces, so it is measured as a ScoreCalibration.

    python benchmarks/prompt_tokens.py
"""

from __future__ import annotations

import statistics
from pathlib import Path

from nbmodernizer.diagnose import diagnose
from nbmodernizer.fixers.base import FixRequest
from nbmodernizer.fixers.llm.prompt import approximate_tokens, build_prompt
from nbmodernizer.grade import grade_runs, load_answers
from nbmodernizer.notebook import parse_notebook
from nbmodernizer.revision import (
    RunPlan,
    execute_runs,
    representative,
    scratch_folders,
)
from nbmodernizer.spec import load_spec_file
from nbmodernizer.status import FixType, Issue

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def request_for(spec_path: Path) -> FixRequest:
    resource, _ = load_spec_file(spec_path)
    spec = resource.spec
    base = spec_path.parent
    notebook = parse_notebook((base / spec.notebook).read_bytes()).notebook
    inputs = base / spec.inputs if spec.inputs else None
    outputs = execute_runs(notebook, RunPlan.of(spec), scratch_folders(inputs))
    chosen = representative(outputs)
    score = grade_runs(
        [o.submission for o in outputs], load_answers(base / spec.score.answers, "id"), spec.score
    )
    diagnosis = diagnose(chosen.execution, score)
    issue = diagnosis.issue if diagnosis.issue is not Issue.NONE else Issue.SCORE_DEVIATION
    fix_type = diagnosis.fix_type or FixType.SCORE_CALIBRATION
    return FixRequest(
        notebook=notebook,
        executed=chosen.executed,
        execution=chosen.execution,
        score=score,
        diagnosis=diagnosis,
        issue=issue,
        fix_type=fix_type,
        spec=spec,
        input_dir=inputs,
    )


def main() -> None:
    ratios: list[float] = []
    print(f"{'example':32} {'fix type':18} {'cell':>7} {'file':>7} {'cell/file':>9}")
    for spec_path in sorted(EXAMPLES.glob("*/spec.yaml")):
        request = request_for(spec_path)
        sizes = {}
        for mode in ("cell", "file"):
            prompt = build_prompt(request, mode)
            sizes[mode] = approximate_tokens(prompt.system) + approximate_tokens(prompt.user)
        ratio = sizes["cell"] / sizes["file"]
        ratios.append(ratio)
        print(
            f"{spec_path.parent.name:32} {request.fix_type.value:18}"
            f" {sizes['cell']:7d} {sizes['file']:7d} {ratio:9.3f}"
        )
    print(f"median cell/file prompt-token ratio: {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
