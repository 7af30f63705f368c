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
from testing.factories import ran, scored
from testing.llm_server import Accepts, Answer, Failure, Stall, fix_reply, scripted_llm
from testing.notebooks import notebook

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


def response_formats(llm: Any) -> list[str | None]:
    return [(r.get("response_format") or {}).get("type") for r in llm.requests]


@pytest.mark.parametrize(
    ("formats", "asked"),
    [
        ({"json_schema", "json_object"}, ["json_schema"]),  # OpenAI, Azure OpenAI, vLLM
        ({"json_object"}, ["json_schema", "json_object"]),  # older vLLM, some gateways
        (set(), ["json_schema", "json_object", None]),  # plain chat servers
    ],
)
def test_structured_output_falls_back_to_json_object_then_plain_text(
    tmp_path: Path, formats: set[str], asked: list[str | None]
) -> None:
    modernization = spec()
    reply = f"Here is my fix:\n```json\n{fix_reply({4: FIXED})}\n```"
    with scripted_llm(
        Answer(reply), Answer(reply), accepts=Accepts(response_formats=frozenset(formats))
    ) as llm:
        client = fixer(llm.url, modernization)
        attempt = client.propose(request(tmp_path, modernization))
        assert attempt.proposal is not None
        assert attempt.proposal.notebook.cells[4].source == FIXED
        assert response_formats(llm) == asked
        assert attempt.spent.requests == len(asked) and attempt.spent.rejected_replies == 0
        client.propose(request(tmp_path, modernization))  # remembered: no refusal again
        assert response_formats(llm)[-1] == asked[-1] and len(llm.requests) == len(asked) + 1


def test_a_server_that_only_takes_max_tokens(tmp_path: Path) -> None:
    modernization = spec()
    accepts = Accepts(token_limits=frozenset({"max_tokens"}))
    with scripted_llm(Answer(fix_reply({4: FIXED})), accepts=accepts) as llm:
        attempt = fixer(llm.url, modernization).propose(request(tmp_path, modernization))
    assert attempt.proposal is not None
    assert "max_completion_tokens" in llm.requests[0]
    assert llm.requests[1]["max_tokens"] == 8192 and "max_completion_tokens" not in llm.requests[1]


def test_a_reasoning_model_gets_its_effort_and_no_temperature(tmp_path: Path) -> None:
    modernization = spec(temperature=0.2, reasoningEffort="high")
    accepts = Accepts(temperature=False, reasoning_effort=True)
    with scripted_llm(Answer(fix_reply({4: FIXED})), accepts=accepts) as llm:
        attempt = fixer(llm.url, modernization).propose(request(tmp_path, modernization))
    assert attempt.proposal is not None
    assert [("temperature" in r, r.get("reasoning_effort")) for r in llm.requests] == [
        (True, "high"),
        (False, "high"),
    ]


def test_reasoning_effort_is_dropped_where_it_is_not_known(tmp_path: Path) -> None:
    modernization = spec(reasoningEffort="low")
    with scripted_llm(Answer(fix_reply({4: FIXED}))) as llm:
        attempt = fixer(llm.url, modernization).propose(request(tmp_path, modernization))
    assert attempt.proposal is not None
    assert ["reasoning_effort" in r for r in llm.requests] == [True, False]


def test_a_reply_without_usage_is_estimated_and_says_so(tmp_path: Path) -> None:
    modernization = spec()
    content = fix_reply({4: FIXED})
    with scripted_llm(Answer(content), accepts=Accepts(usage=False)) as llm:
        attempt = fixer(llm.url, modernization).propose(request(tmp_path, modernization))
    sent = "\n".join(m["content"] for m in llm.requests[0]["messages"])
    assert attempt.spent.estimated_replies == 1
    assert attempt.spent.input_tokens == approximate_tokens(sent) > 100
    assert attempt.spent.output_tokens == approximate_tokens(content)
    assert attempt.spent.usd > 0


def test_echoed_cells_outside_the_scope_are_ignored_but_changes_to_them_are_not(
    tmp_path: Path,
) -> None:
    modernization = spec()
    echo = fix_reply({3: CELLS[2], 4: FIXED})  # cell 3 repeated as it is
    change = fix_reply({3: "plot_something = 2", 4: FIXED})
    with scripted_llm(Answer(change), Answer(echo)) as llm:
        attempt = fixer(llm.url, modernization).propose(request(tmp_path, modernization))
    assert attempt.proposal is not None and attempt.spent.rejected_replies == 1
    assert attempt.proposal.notebook.cells[3].source == CELLS[2]
    assert attempt.proposal.notebook.cells[4].source == FIXED
    assert "cell 3 may not be edited" in llm.requests[1]["messages"][-1]["content"]


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


def test_a_reply_reaching_for_credentials_or_the_answers_is_rejected(tmp_path: Path) -> None:
    """LLM output is untrusted code: a fix that reads the environment, imports boto3 or names
    the answers file is rejected with the reason (a blocking fidelity flag), and asked again."""
    modernization = spec(maxReplies=3)
    stealing = fix_reply({4: "import os\nx = os.environ['AWS_SECRET_ACCESS_KEY']"})
    peeking = fix_reply({4: "x = pd.read_csv('../a.csv')['a'].values"})
    with scripted_llm(Answer(stealing), Answer(peeking), Answer(fix_reply({4: FIXED}))) as llm:
        attempt = fixer(llm.url, modernization).propose(request(tmp_path, modernization))
    assert attempt.proposal is not None and attempt.spent.rejected_replies == 2
    assert attempt.proposal.notebook.cells[4].source == FIXED
    first, second = (llm.requests[n]["messages"][-1]["content"] for n in (1, 2))
    assert "reaches for the environment: os.environ" in first
    assert "reaches for the answers" in second
