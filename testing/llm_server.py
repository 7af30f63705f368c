"""An OpenAI-compatible Chat Completions server for tests: real HTTP, scripted answers.

Each POST /v1/chat/completions takes the next step of the script: a reply (content and the
token usage to report), an HTTP error, a delay before a step, or a responder that answers
every request from then on from what it asks. Requests are recorded.

`Accepts` makes it behave like a given kind of server: the request parameters it refuses
with a 400 (as OpenAI, vLLM, Ollama and others word them; a refused request takes no step of
the script) and whether its replies report token usage.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Answer:
    content: str
    prompt_tokens: int = 1000
    completion_tokens: int = 200


@dataclass(frozen=True)
class Failure:
    status: int
    message: str = "scripted failure"
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Stall:
    """Sleep before answering with `then` (longer than the client's timeout: a timeout)."""

    seconds: float
    then: Answer | Failure


@dataclass(frozen=True)
class Responder:
    """Answers each request from what it asks, for good: the script never runs out past it."""

    answer: Callable[[dict[str, Any]], Answer | Failure]


Step = Answer | Failure | Stall | Responder


@dataclass(frozen=True)
class Accepts:
    """What a server takes. The defaults: OpenAI's current models, without reasoning."""

    response_formats: frozenset[str] = frozenset({"json_schema", "json_object"})
    token_limits: frozenset[str] = frozenset({"max_completion_tokens", "max_tokens"})
    temperature: bool = True
    reasoning_effort: bool = False
    usage: bool = True

    def refusal(self, request: dict[str, Any]) -> str | None:
        """The 400 message for a request this server does not take; None if it takes it."""
        kind = (request.get("response_format") or {}).get("type")
        if kind is not None and kind not in self.response_formats:
            return f"response_format type '{kind}' is not supported by this model"
        for name in ("max_completion_tokens", "max_tokens"):
            if name in request and name not in self.token_limits:
                return f"Unsupported parameter: '{name}' is not supported with this model."
        if "temperature" in request and not self.temperature:
            return "Unsupported value: 'temperature' does not support 0.2 with this model."
        if "reasoning_effort" in request and not self.reasoning_effort:
            return "Unrecognized request argument supplied: reasoning_effort"
        return None


@dataclass
class ScriptedLLM:
    steps: list[Step]
    accepts: Accepts = field(default_factory=Accepts)
    requests: list[dict[str, Any]] = field(default_factory=list)
    url: str = ""

    def next_step(self) -> Step:
        if not self.steps:
            return Failure(500, "script exhausted")
        if isinstance(self.steps[0], Responder):
            return self.steps[0]
        return self.steps.pop(0)


def _handler(llm: ScriptedLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _send(self, status: int, body: dict[str, Any], headers: dict[str, str]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            # the client may have given up (timeout): that is the point of a Stall
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(data)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            request = json.loads(self.rfile.read(length))
            llm.requests.append(
                {"path": self.path, "auth": self.headers.get("Authorization"), **request}
            )
            refusal = llm.accepts.refusal(request)
            if refusal is not None:
                self._send(400, {"error": {"message": refusal, "type": "invalid_request"}}, {})
                return
            step = llm.next_step()
            if isinstance(step, Responder):
                step = step.answer(request)
            if isinstance(step, Stall):
                time.sleep(step.seconds)
                step = step.then
            if isinstance(step, Failure):
                error = {
                    "error": {"message": step.message, "type": "scripted", "code": step.status}
                }
                self._send(step.status, error, step.headers)
                return
            self._send(
                200,
                {
                    "id": f"chatcmpl-{len(llm.requests)}",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": request.get("model", "?"),
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "stop",
                            "message": {"role": "assistant", "content": step.content},
                        }
                    ],
                    "usage": {
                        "prompt_tokens": step.prompt_tokens,
                        "completion_tokens": step.completion_tokens,
                        "total_tokens": step.prompt_tokens + step.completion_tokens,
                    }
                    if llm.accepts.usage
                    else None,
                },
                {},
            )

    return Handler


@contextmanager
def scripted_llm(*steps: Step, accepts: Accepts | None = None) -> Iterator[ScriptedLLM]:
    llm = ScriptedLLM(list(steps), accepts or Accepts())
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(llm))
    server.daemon_threads = True
    llm.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield llm
    finally:
        server.shutdown()
        server.server_close()


def fix_reply(cells: dict[int, str], plan: str = "minimal fix") -> str:
    return json.dumps(
        {
            "diagnosis": "scripted",
            "plan": plan,
            "cells": [{"index": i, "source": s} for i, s in cells.items()],
        }
    )
