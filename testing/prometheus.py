"""Prometheus for tests: the `prometheus`/`promtool` binaries (Debian's package, installed by
scripts/install-prometheus), a real server on 127.0.0.1 scraping given targets every second,
and the Grafana dashboard's panel queries made runnable against its HTTP API."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import yaml

from testing.tools import missing_tool

ROOT = Path(__file__).resolve().parents[1]
CHART = ROOT / "charts" / "nbmodernizer"
DASHBOARD = CHART / "dashboards" / "fleet.json"
RULES = CHART / "alerts" / "rules.yaml"
INSTALL_HINT = "run scripts/install-prometheus (Debian's 'prometheus' package)"


def binary(name: str) -> str:
    """The path of `prometheus` or `promtool`; skips the test when it is not installed (fails
    under .ci/run, which installs them)."""
    found = shutil.which(name)
    if found is None:
        missing_tool(f"{name} is not on PATH: {INSTALL_HINT}")
    return found


def promtool(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [binary("promtool"), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PrometheusError(RuntimeError):
    pass


class PrometheusServer:
    """`prometheus` on 127.0.0.1:<free port>, its TSDB in `folder`, scraping `targets`
    (host:port) every `scrape_seconds`, evaluating `rule_files` as often. A context manager."""

    def __init__(
        self,
        folder: Path,
        targets: Sequence[str],
        rule_files: Sequence[Path] = (),
        scrape_seconds: int = 1,
    ) -> None:
        self.folder = folder
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / "prometheus.log"
        self.config_path = folder / "prometheus.yml"
        config = {
            "global": {
                "scrape_interval": f"{scrape_seconds}s",
                "scrape_timeout": f"{scrape_seconds}s",
                "evaluation_interval": f"{scrape_seconds}s",
            },
            "rule_files": [str(path) for path in rule_files],
            "scrape_configs": [
                {"job_name": "nbmodernizer", "static_configs": [{"targets": list(targets)}]}
            ],
        }
        folder.mkdir(parents=True, exist_ok=True)
        self.config_path.write_text(yaml.safe_dump(config))
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30) -> PrometheusServer:
        argv = [
            binary("prometheus"),
            f"--config.file={self.config_path}",
            f"--storage.tsdb.path={self.folder / 'data'}",
            f"--web.listen-address=127.0.0.1:{self.port}",
            "--web.console.templates=/nonexistent",
            "--web.console.libraries=/nonexistent",
            "--log.level=warn",
        ]
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while not self._ready():
            if self.process.poll() is not None:
                raise PrometheusError(
                    f"prometheus exited ({self.process.returncode}):\n{self.output()}"
                )
            if time.monotonic() > deadline:
                self.stop()
                raise PrometheusError(f"prometheus not ready in {timeout}s:\n{self.output()}")
            time.sleep(0.1)
        return self

    def _ready(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/-/ready", timeout=2) as answer:
                return int(answer.status) == 200
        except OSError:
            return False

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)

    def __enter__(self) -> PrometheusServer:
        return self.start() if self.process is None else self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    # -- HTTP API ---------------------------------------------------------------------------

    def api(self, path: str, **params: str) -> Any:
        """GET /api/v1/<path>; returns `data`, raises PrometheusError on an error answer."""
        url = f"{self.url}/api/v1/{path}?{urllib.parse.urlencode(params)}"
        try:
            with urllib.request.urlopen(url, timeout=10) as answer:
                body = json.loads(answer.read())
        except urllib.error.HTTPError as error:
            body = json.loads(error.read() or b"{}")
        if body.get("status") != "success":
            raise PrometheusError(f"{path} {params}: {body.get('errorType')}: {body.get('error')}")
        return body["data"]

    def query(self, expr: str) -> list[dict[str, Any]]:
        """An instant query at the server's now; the result as a list of samples."""
        data = self.api("query", query=expr)
        if data["resultType"] == "scalar":
            return [{"metric": {}, "value": data["result"]}]
        return list(data["result"])

    def value(self, expr: str) -> float | None:
        """The value of a query that yields one sample (None when it yields none)."""
        result = self.query(expr)
        return float(result[0]["value"][1]) if result else None

    def targets_up(self) -> bool:
        active = self.api("targets")["activeTargets"]
        return bool(active) and all(t["health"] == "up" for t in active)


@dataclass(frozen=True)
class PanelQuery:
    panel: str
    ref_id: str
    expr: str

    def __str__(self) -> str:
        return f"panel {self.panel!r} target {self.ref_id}: {self.expr}"


def dashboard(path: Path = DASHBOARD) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text())
    return loaded


def panels(board: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every panel, rows' nested panels included."""
    for panel in board.get("panels", []):
        yield panel
        yield from panel.get("panels", [])


def panel_queries(board: dict[str, Any]) -> list[PanelQuery]:
    return [
        PanelQuery(panel["title"], target.get("refId", "?"), target["expr"])
        for panel in panels(board)
        for target in panel.get("targets", [])
        if target.get("expr")
    ]


_GRAFANA_VARIABLE = re.compile(r"\$(?:\{(__\w+)\}|(__\w+))")


def runnable(expr: str, rate_interval: str = "1m", range_: str = "1h") -> str:
    """The PromQL Grafana would send: its interval and range variables replaced."""
    values = {
        "__rate_interval": rate_interval,
        "__interval": rate_interval,
        "__range": range_,
        "__range_s": str(_seconds(range_)),
        "__range_ms": str(_seconds(range_) * 1000),
        "__interval_ms": str(_seconds(rate_interval) * 1000),
    }

    def replace(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name not in values:
            raise ValueError(f"unknown Grafana variable ${name} in {expr!r}")
        return values[name]

    return _GRAFANA_VARIABLE.sub(replace, expr)


def _seconds(duration: str) -> int:
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    match = re.fullmatch(r"(\d+)([smhd])", duration)
    if match is None:
        raise ValueError(f"not a simple duration: {duration!r}")
    return int(match.group(1)) * units[match.group(2)]
