"""The LLM fixer with the real `openai` client against a scripted OpenAI-compatible server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from nbmodernizer.environment import input_files
from nbmodernizer.fixers.base import FixRequest
from nbmodernizer.fixers.llm import LLMFixer
from nbmodernizer.fixers.llm.client import ChatClient
from nbmodernizer.fixers.llm.prompt import approximate_tokens, build_prompt, describe_inputs
from nbmodernizer.fixers.llm.reply import ReplyError, parse_reply
from nbmodernizer.fixers.registry import build_chain
from nbmodernizer.spec import ModernizationSpec
from nbmodernizer.status import CostSummary, Diagnosis, FixType, InputFile, Issue, Outcome
from tests.factories import ran, scored
from tests.llm_server import Answer, Failure, Stall, fix_reply, scripted_llm
from tests.notebooks import notebook

CELLS = (
    "import numpy as np\nimport pandas as pd",  # cell 1
    "train = pd.read_csv('../input/train.csv')",  # cell 2
    "plot_something = 1",  # cell 3: unrelated
    "x = train['a'].values.astype(np.float)",  # cell 4: fails
)
FIXED = "x = train['a'].values.astype(float)"
PRICES = {"inputUSDPerMTok": 2.0, "outputUSDPerMTok": 8.0}


def spec(**llm: Any) -> ModernizationSpec:
    return ModernizationSpec.model_validate(
        {
            "notebook": "n.ipynb",
            "score": {"metric": "accuracy", "target": 0.9, "answers": "a.csv"},
            "fix": {"llm": {"model": "test-model", **PRICES, **llm}},
        }
    )


def request(tmp_path: Path, modernization: ModernizationSpec, spent: float = 0.0) -> FixRequest:
    (tmp_path / "input").mkdir(exist_ok=True)
    (tmp_path / "input" / "train.csv").write_text("a,b\n1,2\n")
    nb = notebook(*CELLS)
    execution = ran((4, "AttributeError"))
    inputs, total = input_files(tmp_path / "input")
    execution = execution.model_copy(
        update={
            "python_version": "3.11.7",
            "packages": {"numpy": "2.4.6"},
            "inputs": inputs,
            "inputs_total": total,
        }
    )
    return FixRequest(
        notebook=nb,
        executed=nb,
        execution=execution,
        score=scored(None),
        diagnosis=Diagnosis(
            issue=Issue.ERROR,
            fix_type=FixType.ERROR_REPAIR,
            detail="cell 4: boom",
            outcome=Outcome.ERROR_NON_REPRODUCIBLE,
        ),
        issue=Issue.ERROR,
        fix_type=FixType.ERROR_REPAIR,
        spec=modernization,
        input_dir=tmp_path / "input",
        spent=CostSummary(usd=spent),
    )


def fixer(
    url: str, modernization: ModernizationSpec, sleeps: list[float] | None = None
) -> LLMFixer:
    llm = modernization.fix.llm
    client = ChatClient(
        llm,
        url,
        "sk-test",
        backoff_seconds=0.01,
        sleep=(sleeps.append if sleeps is not None else lambda _s: None),
    )
    return LLMFixer(llm, client, (2.0, 8.0), modernization.fix.budget_usd)


def test_malformed_json_is_rejected_counted_and_asked_again(tmp_path: Path) -> None:
    modernization = spec()
    with scripted_llm(
        Answer("Sure! Here you go: {not json", 1000, 50),
        Answer(f"```json\n{fix_reply({4: FIXED})}\n```", 1300, 120),
    ) as llm:
        attempt = fixer(llm.url, modernization).propose(request(tmp_path, modernization))
    assert attempt.proposal is not None
    assert attempt.proposal.notebook.cells[4].source == FIXED
    assert attempt.proposal.notebook.cells[1].source == CELLS[0]
    assert attempt.spent == CostSummary(
        usd=(2300 * 2.0 + 170 * 8.0) / 1_000_000,
        input_tokens=2300,
        output_tokens=170,
        requests=2,
        rejected_replies=1,
    )
    retry = llm.requests[1]["messages"]
    assert (
        retry[-1]["role"] == "user"
        and "rejected: the reply holds no JSON object" in retry[-1]["content"]
    )
    assert llm.requests[0]["auth"] == "Bearer sk-test"
    assert llm.requests[0]["response_format"]["type"] == "json_schema"


def test_429_then_success_backs_off_using_retry_after(tmp_path: Path) -> None:
    modernization = spec()
    sleeps: list[float] = []
    with scripted_llm(
        Failure(429, "slow down", {"retry-after": "0.05"}),
        Failure(503),
        Answer(fix_reply({4: FIXED})),
    ) as llm:
        attempt = fixer(llm.url, modernization, sleeps).propose(request(tmp_path, modernization))
    assert attempt.proposal is not None
    assert attempt.spent.requests == 3 and attempt.spent.input_tokens == 1000
    assert sleeps[0] == 0.05 and len(sleeps) == 2


def test_a_request_that_times_out_is_retried(tmp_path: Path) -> None:
    modernization = spec(timeoutSeconds=0.5)
    with scripted_llm(
        Stall(2.0, Answer(fix_reply({4: "never used"}))), Answer(fix_reply({4: FIXED}))
    ) as llm:
        attempt = fixer(llm.url, modernization).propose(request(tmp_path, modernization))
    assert attempt.proposal is not None and attempt.proposal.notebook.cells[4].source == FIXED
    assert attempt.spent.requests == 2
    assert attempt.spent.input_tokens == 1000  # the timed-out reply was never received


def test_500s_give_up_after_the_retries_with_a_clear_note(tmp_path: Path) -> None:
    modernization = spec(maxRetries=2)
    with scripted_llm(
        Failure(500), Failure(500), Failure(500), Answer(fix_reply({4: FIXED}))
    ) as llm:
        attempt = fixer(llm.url, modernization).propose(request(tmp_path, modernization))
    assert attempt.proposal is None
    assert attempt.note is not None and attempt.note.startswith(
        "request failed: gave up after 3 requests: 500"
    )
    assert attempt.spent == CostSummary(requests=3)
    assert len(llm.steps) == 1  # the fourth step was never asked for


@pytest.mark.parametrize("status", [400, 401])
def test_no_retry_on_client_errors(tmp_path: Path, status: int) -> None:
    modernization = spec()
    with scripted_llm(Failure(status, "nope"), Answer(fix_reply({4: FIXED}))) as llm:
        attempt = fixer(llm.url, modernization).propose(request(tmp_path, modernization))
    assert attempt.proposal is None and attempt.spent.requests == 1


def test_endpoint_without_structured_output_gets_plain_requests(tmp_path: Path) -> None:
    modernization = spec()
    with scripted_llm(
        Failure(400, "response_format json_schema is not supported"), Answer(fix_reply({4: FIXED}))
    ) as llm:
        attempt = fixer(llm.url, modernization).propose(request(tmp_path, modernization))
    assert attempt.proposal is not None
    assert "response_format" in llm.requests[0] and "response_format" not in llm.requests[1]


def test_replies_touching_cells_outside_the_scope_or_not_python_are_rejected(
    tmp_path: Path,
) -> None:
    modernization = spec()
    with scripted_llm(
        Answer(fix_reply({3: "plot_something = 2"})), Answer(fix_reply({4: "print 'x'"}))
    ) as llm:
        attempt = fixer(llm.url, modernization).propose(request(tmp_path, modernization))
    assert attempt.proposal is None
    assert attempt.spent.rejected_replies == 2 and attempt.spent.requests == 2
    assert attempt.note is not None and "cell 4 is not valid Python" in attempt.note
    assert "cell 3 may not be edited" in llm.requests[1]["messages"][-1]["content"]


def test_budget_stops_calls(tmp_path: Path) -> None:
    modernization = spec().model_copy(
        update={"fix": spec().fix.model_copy(update={"budget_usd": 0.5})}
    )
    with scripted_llm(Answer(fix_reply({4: FIXED}))) as llm:
        attempt = fixer(llm.url, modernization).propose(request(tmp_path, modernization, spent=0.5))
    assert attempt.proposal is None and llm.requests == []
    assert attempt.note == "budget of $0.50 spent ($0.5000): no further LLM calls"


def test_cell_mode_shows_the_failing_cell_and_what_it_needs(tmp_path: Path) -> None:
    prompt = build_prompt(request(tmp_path, spec()), "cell")
    assert prompt.editable == frozenset({1, 2, 4})
    assert "plot_something" not in prompt.user
    assert "Task: ErrorRepair" in prompt.user
    assert "Python 3.11.7; installed: numpy==2.4.6" in prompt.user
    assert "../input/train.csv (8 bytes) columns: a,b" in prompt.user
    assert "Never install" in prompt.system and '"cells"' in prompt.system
    whole = build_prompt(request(tmp_path, spec()), "file")
    assert whole.editable == frozenset({1, 2, 3, 4}) and "plot_something" in whole.user
    assert "# A legacy kernel" in whole.user  # markdown is shown in file mode
    assert approximate_tokens(prompt.user) < approximate_tokens(whole.user)


def test_a_long_input_listing_is_cut_with_a_count() -> None:
    files = [InputFile(path=f"part-{i:02d}.csv", size_bytes=10, columns="a") for i in range(30)]
    execution = ran().model_copy(update={"inputs": files, "inputs_total": 45})
    lines = describe_inputs(execution)
    assert lines[0] == "- ../input/part-00.csv (10 bytes) columns: a"
    assert lines[-1] == "- … and 15 more files" and len(lines) == 31


def test_reply_parsing_is_robust() -> None:
    editable = frozenset({2})
    body = fix_reply({2: "%matplotlib inline\ny = 1"})
    assert parse_reply(f"Here is the fix:\n{body}\nGood luck!", editable).cells == {
        2: "%matplotlib inline\ny = 1"
    }
    with pytest.raises(ReplyError, match="non-empty list"):
        parse_reply('{"diagnosis": "", "plan": "", "cells": []}', editable)
    with pytest.raises(ReplyError, match="integer"):
        parse_reply('{"cells": [{"index": "2", "source": "y=1"}]}', editable)


def test_reply_cells_are_read_as_every_cell_is() -> None:
    editable = frozenset({2})
    for source in ("%%time\ny = 1", "%%bash\nls -l", "df?\ny = 1"):
        assert parse_reply(fix_reply({2: source}), editable).cells == {2: source}
    with pytest.raises(ReplyError, match="cell 2 is not valid Python: line 2"):
        parse_reply(fix_reply({2: "%%time\ny = = 1"}), editable)


def test_chain_skips_the_llm_without_an_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    chain = build_chain(spec())
    assert [f.name for f in chain.fixers] == ["rules"]
    assert chain.notes[0].startswith("llm: skipped, no endpoint configured")
