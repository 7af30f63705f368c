"""The facts of an environment (what envprobe.py found where a notebook's kernel runs): typed,
read from its JSON, and gathered by running envprobe.py in an interpreter."""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError

from nbmodernizer import envprobe

# envprobe.py is run as a program in the environment's interpreter (`gather`)
ENVPROBE = Path(envprobe.__file__)
GATHER_TIMEOUT_S = 300.0  # importing TensorFlow and torch cold takes a while
STDERR_TAIL = 2000  # characters of envprobe's stderr quoted in an error


class FactsError(Exception):
    """Facts that could not be gathered or read; the message says why."""


class ProbeRequest(BaseModel):
    """What envprobe.py is asked: the notebook's top-level modules, the probes of the rules
    relevant to them (rule id -> probe JSON), the callables whose parameters rules read, and
    the modules whose public names they read."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    modules: tuple[str, ...] = ()
    probes: dict[str, dict[str, Any]] = Field(default_factory=dict)
    signatures: tuple[str, ...] = ()
    names: tuple[str, ...] = ()  # modules whose public names rules read

    def to_json(self) -> str:
        return self.model_dump_json()


class EnvironmentFacts(BaseModel):
    """FACTS as envprobe.py printed them (see its docstring)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    python: str
    executable: str
    packages: dict[str, str] = Field(default_factory=dict)
    probes: dict[str, StrictBool] = Field(default_factory=dict)
    probe_errors: dict[str, str] = Field(default_factory=dict)
    signatures: dict[str, tuple[tuple[str, str], ...]] = Field(default_factory=dict)
    names: dict[str, tuple[str, ...]] = Field(default_factory=dict)

    @classmethod
    def parse(cls, data: bytes | str, source: str = "environment facts") -> EnvironmentFacts:
        """The facts in `data` (JSON); FactsError naming the field when they are not facts."""
        try:
            document = json.loads(data)
        except ValueError as error:
            raise FactsError(f"{source}: not JSON ({error})") from None
        if not isinstance(document, dict):
            raise FactsError(f"{source}: a JSON object is required, got {type(document).__name__}")
        try:
            return cls.model_validate(document)
        except ValidationError as error:
            problems = "; ".join(
                f"{'.'.join(map(str, e['loc'])) or '(document)'}: {e['msg']}"
                for e in error.errors()
            )
            raise FactsError(f"{source}: {problems}") from None

    def gone(self, rule_id: str) -> bool:
        """Whether the environment lacks the rule's legacy API (False when not probed)."""
        return self.probes.get(rule_id, False)

    def parameters(self, path: str) -> tuple[tuple[str, str], ...] | None:
        """The parameters (name, inspect's kind name) of the callable at `path`; None when the
        environment lacks it or it was not asked for."""
        return self.signatures.get(path)

    def public_names(self, module: str) -> frozenset[str] | None:
        """The public names of the environment's `module`; None when it lacks the module or
        it was not asked for."""
        found = self.names.get(module)
        return None if found is None else frozenset(found)


def gather(
    python: str, request: ProbeRequest, timeout: float = GATHER_TIMEOUT_S
) -> EnvironmentFacts:
    """Run envprobe.py in the interpreter `python` (a path or a command) for `request`."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", prefix="nbmod-probe-") as handle:
        handle.write(request.to_json())
        handle.flush()
        try:
            done = subprocess.run(
                [python, str(ENVPROBE), handle.name],
                capture_output=True,
                timeout=timeout,
                check=False,
            )
        except FileNotFoundError:
            raise FactsError(f"no interpreter at {python}") from None
        except subprocess.TimeoutExpired:
            raise FactsError(f"envprobe.py in {python} took more than {timeout:g} s") from None
    stderr = done.stderr.decode("utf-8", "replace")[-STDERR_TAIL:].strip()
    if done.returncode != 0:
        raise FactsError(f"envprobe.py in {python} exited {done.returncode}: {stderr}")
    try:
        return EnvironmentFacts.parse(done.stdout, f"envprobe.py in {python}")
    except FactsError as error:
        raise FactsError(f"{error} (stderr: {stderr})") from None


def here(request: ProbeRequest) -> EnvironmentFacts:
    """envprobe.py's facts for `request`, evaluated in this process, on the libraries installed
    here (it imports them): for the rules' proofs and the tests, never for a notebook's run."""
    return EnvironmentFacts.model_validate(envprobe.facts(json.loads(request.to_json())))
