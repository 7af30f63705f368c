"""The LLM fixer: one prompt per fix, replies checked, money and tokens counted."""

from __future__ import annotations

from nbmodernizer.fixers.base import FixAttempt, FixProposal, FixRequest
from nbmodernizer.fixers.llm.client import ChatClient, LLMError
from nbmodernizer.fixers.llm.prices import cost_usd
from nbmodernizer.fixers.llm.prompt import build_prompt
from nbmodernizer.fixers.llm.reply import Reply, ReplyError, parse_reply
from nbmodernizer.notebook import Notebook, copy_notebook
from nbmodernizer.spec import LLMSpec
from nbmodernizer.status import CostSummary

MAX_SUMMARY = 600


def apply_reply(notebook: Notebook, reply: Reply) -> Notebook:
    changed = copy_notebook(notebook)
    for index, source in reply.cells.items():
        cell = changed.cells[index]
        if cell.source != source:
            cell.source, cell.outputs, cell.execution_count = source, [], None
    return changed


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
        prompt = build_prompt(request, self.spec.mode)
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
                )
            )
            try:
                reply = parse_reply(completion.content, prompt.editable)
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
            return FixAttempt(FixProposal(apply_reply(request.notebook, reply), summary), spent)
        return FixAttempt(None, spent, f"every reply was rejected; last: {rejection}")
