"""The LLM fixer: one prompt per fix, replies checked, money and tokens counted."""

from __future__ import annotations

from pathlib import PurePosixPath

from nbmodernizer.fidelity import BLOCKING
from nbmodernizer.fidelity.reach import reach_flags
from nbmodernizer.fixers.base import FixAttempt, FixProposal, FixRequest
from nbmodernizer.fixers.llm.client import ChatClient, LLMError
from nbmodernizer.fixers.llm.prices import cost_usd
from nbmodernizer.fixers.llm.prompt import build_prompt
from nbmodernizer.fixers.llm.reply import Reply, ReplyError, parse_reply
from nbmodernizer.notebook import Notebook, code_cells, copy_notebook
from nbmodernizer.spec import LLMSpec
from nbmodernizer.status import CostSummary

MAX_SUMMARY = 600


def choose_mode(configured: str, request: FixRequest) -> str:
    """`file` when configured; else `cell`, but once `file` after the last two fixes were
    cell-mode LLM fixes of this same issue that did not make it go away."""
    if configured == "file":
        return "file"
    last = request.fixes[-2:]
    failed_twice = len(last) == 2 and all(
        fix.fixer == LLMFixer.name and fix.mode == "cell" and fix.issue is request.issue
        for fix in last
    )
    return "file" if failed_twice else "cell"


def apply_reply(notebook: Notebook, reply: Reply) -> Notebook:
    changed = copy_notebook(notebook)
    for index, source in reply.cells.items():
        cell = changed.cells[index]
        if cell.source != source:
            cell.source, cell.outputs, cell.execution_count = source, [], None
    return changed


def reaches_outside(request: FixRequest, changed: Notebook) -> str | None:
    """Why a reply may not be kept: code it adds that reaches for credentials, the network,
    /proc, the answers or files outside the inputs and the working directory (a blocking
    fidelity flag); None when it reaches for none."""
    answers = PurePosixPath(request.spec.score.answers).name or None
    flags = reach_flags(code_cells(request.notebook), code_cells(changed), answers)
    blocking = [f for f in flags if f.kind in BLOCKING]
    if not blocking:
        return None
    return "; ".join(f"cell {f.cell} {f.detail}" for f in blocking[:3])


class LLMFixer:
    name = "llm"

    def __init__(
        self,
        spec: LLMSpec,
        client: ChatClient,
        prices: tuple[float, float] | None,
        budget_usd: float | None,
    ) -> None:
        self.spec, self.client, self.prices, self.budget_usd = spec, client, prices, budget_usd

    def _over_budget(self, spent: float) -> bool:
        return self.budget_usd is not None and spent >= self.budget_usd

    def propose(self, request: FixRequest) -> FixAttempt:
        if request.diagnosis.environment is not None:
            return FixAttempt(None, note=f"not asked: {request.diagnosis.detail}")
        mode = choose_mode(self.spec.mode, request)
        prompt = build_prompt(request, mode)
        sources = {i: cell.source for i, cell in enumerate(request.notebook.cells)}
        messages = prompt.messages
        spent = CostSummary()
        rejection = ""
        for _ in range(self.spec.max_replies):
            if self._over_budget(request.spent.usd + spent.usd):
                note = (
                    f"budget of ${self.budget_usd:.2f} spent "
                    f"(${request.spent.usd + spent.usd:.4f}): no further LLM calls"
                )
                return FixAttempt(None, spent, note)
            try:
                completion = self.client.complete(messages)
            except LLMError as error:
                spent = spent.plus(CostSummary(requests=error.requests))
                return FixAttempt(None, spent, f"request failed: {error}")
            spent = spent.plus(
                CostSummary(
                    usd=cost_usd(completion.input_tokens, completion.output_tokens, self.prices),
                    input_tokens=completion.input_tokens,
                    output_tokens=completion.output_tokens,
                    requests=completion.requests,
                    estimated_replies=int(completion.estimated),
                )
            )
            try:
                reply = parse_reply(completion.content, prompt.editable, sources)
                outside = reaches_outside(request, apply_reply(request.notebook, reply))
                if outside:
                    raise ReplyError(f"it {outside}; fix the notebook with its own inputs only")
            except ReplyError as error:
                rejection = str(error)
                spent = spent.plus(CostSummary(rejected_replies=1))
                messages = [
                    *messages,
                    {"role": "assistant", "content": completion.content},
                    {
                        "role": "user",
                        "content": f"Your reply was rejected: {error}. "
                        "Reply again with the JSON object only.",
                    },
                ]
                continue
            summary = (reply.plan or reply.diagnosis)[:MAX_SUMMARY]
            proposal = FixProposal(apply_reply(request.notebook, reply), summary, mode)
            return FixAttempt(proposal, spent)
        return FixAttempt(None, spent, f"every reply was rejected; last: {rejection}")
