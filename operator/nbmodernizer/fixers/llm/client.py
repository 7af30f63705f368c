"""Chat Completions over the `openai` client: non-streaming, our own retries with backoff
(429, 5xx, timeouts, connection errors; never 400/401/403/404), and what OpenAI-compatible
servers differ in, learnt from their 400s and kept for the next request:

* structured output: `json_schema`, else `json_object`, else plain text (the reply parser
  finds the JSON in prose and code fences either way);
* the output limit: `max_completion_tokens` (OpenAI's), else `max_tokens` (older servers);
* `temperature` (reasoning models refuse it) and `reasoning_effort` (others refuse it);
* a reply without `usage`: its tokens are estimated from the text, and counted as estimated.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import openai

from nbmodernizer.fixers.base import RequestObserver
from nbmodernizer.fixers.llm.prompt import approximate_tokens
from nbmodernizer.fixers.llm.reply import REPLY_SCHEMA
from nbmodernizer.spec import LLMSpec

MAX_BACKOFF_SECONDS = 60.0
# What to ask for, best first; None: no response_format at all.
RESPONSE_FORMATS: tuple[str | None, ...] = ("json_schema", "json_object", None)


@dataclass(frozen=True)
class Completion:
    content: str
    input_tokens: int
    output_tokens: int
    requests: int  # HTTP requests it took, retries included
    estimated: bool = False  # the server reported no usage: tokens estimated from the text


class LLMError(Exception):
    def __init__(self, message: str, requests: int) -> None:
        super().__init__(message)
        self.requests = requests


def _status_of(error: Exception) -> str:
    if isinstance(error, openai.APITimeoutError):
        return "timeout"
    if isinstance(error, openai.APIConnectionError):
        return "connection_error"
    if isinstance(error, openai.APIStatusError):
        return str(error.status_code)
    return "error"


def _retry_after(error: Exception) -> float | None:
    if isinstance(error, openai.APIStatusError):
        value = error.response.headers.get("retry-after")
        try:
            return float(value) if value is not None else None
        except ValueError:
            return None
    return None


class ChatClient:
    def __init__(
        self,
        spec: LLMSpec,
        base_url: str | None,
        api_key: str | None,
        backoff_seconds: float = 1.0,
        observe: RequestObserver | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        assert spec.model is not None
        self.spec = spec
        self.model: str = spec.model
        self.client = openai.OpenAI(
            base_url=base_url,
            api_key=api_key or "not-needed",
            max_retries=0,
            timeout=spec.timeout_seconds,
        )
        self.backoff_seconds = backoff_seconds
        self.observe = observe or (lambda _model, _status: None)
        self.sleep = sleep
        self.response_formats = list(RESPONSE_FORMATS)
        self.token_limit_name = "max_completion_tokens"
        self.send_temperature = spec.temperature is not None
        self.send_reasoning_effort = spec.reasoning_effort is not None

    @property
    def response_format(self) -> str | None:
        return self.response_formats[0]

    def _arguments(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        arguments: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            self.token_limit_name: self.spec.max_output_tokens,
        }
        if self.send_temperature:
            arguments["temperature"] = self.spec.temperature
        if self.send_reasoning_effort:
            arguments["reasoning_effort"] = self.spec.reasoning_effort
        if self.response_format == "json_schema":
            arguments["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "notebook_fix", "strict": True, "schema": REPLY_SCHEMA},
            }
        elif self.response_format == "json_object":
            arguments["response_format"] = {"type": "json_object"}
        return arguments

    def _adapt(self, error: openai.BadRequestError) -> bool:
        """Drop what this endpoint refuses; True when there is something left to try."""
        message = str(error).lower()
        if self.response_format is not None and (
            "response_format" in message or self.response_format in message
        ):
            self.response_formats.pop(0)
            return True
        if self.token_limit_name in message:
            if self.token_limit_name == "max_tokens":
                return False  # neither name is taken
            self.token_limit_name = "max_tokens"
            return True
        if self.send_temperature and "temperature" in message:
            self.send_temperature = False
            return True
        if self.send_reasoning_effort and "reasoning_effort" in message:
            self.send_reasoning_effort = False
            return True
        return False

    def complete(self, messages: list[dict[str, str]]) -> Completion:
        requests, retries = 0, 0
        while True:
            requests += 1
            try:
                response = self.client.chat.completions.create(**self._arguments(messages))
            except openai.BadRequestError as error:
                self.observe(self.model, "400")
                if self._adapt(error):
                    continue
                raise LLMError(f"the endpoint refused the request: {error}", requests) from None
            except (
                openai.RateLimitError,
                openai.InternalServerError,
                openai.APITimeoutError,
                openai.APIConnectionError,
            ) as error:
                self.observe(self.model, _status_of(error))
                if retries >= self.spec.max_retries:
                    raise LLMError(
                        f"gave up after {requests} requests: {_status_of(error)}: {error}", requests
                    ) from None
                self.sleep(self._backoff(retries, error))
                retries += 1
                continue
            except openai.APIError as error:  # 401, 403, 404, ...: retrying cannot help
                self.observe(self.model, _status_of(error))
                raise LLMError(f"{_status_of(error)}: {error}", requests) from None
            self.observe(self.model, "200")
            return self._completion(response, requests, messages)

    def _backoff(self, retry: int, error: Exception) -> float:
        hinted = _retry_after(error)
        if hinted is not None:
            return min(hinted, MAX_BACKOFF_SECONDS)
        exponential = self.backoff_seconds * (2**retry)
        return float(min(exponential * (0.5 + random.random() / 2), MAX_BACKOFF_SECONDS))

    @staticmethod
    def _completion(response: Any, requests: int, messages: list[dict[str, str]]) -> Completion:
        content = ""
        if response.choices:
            content = response.choices[0].message.content or ""
        usage = response.usage
        if usage is None or usage.prompt_tokens is None:
            sent = "\n".join(message["content"] for message in messages)
            return Completion(
                content, approximate_tokens(sent), approximate_tokens(content), requests, True
            )
        return Completion(
            content=content,
            input_tokens=int(usage.prompt_tokens),
            output_tokens=int(usage.completion_tokens or 0),
            requests=requests,
        )
