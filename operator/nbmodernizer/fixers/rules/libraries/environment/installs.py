"""In-notebook installs: the environment is fixed (versions are chosen by the tool)."""

from __future__ import annotations

import re

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rule
from nbmodernizer.fixers.rules.toolkit.cells import read_text
from nbmodernizer.fixers.rules.toolkit.probes import ALWAYS

# --- in-notebook installs ----------------------------------------------------------------------

MARKER = "# nbmodernizer: disabled in-notebook install (the environment is fixed): "

_INSTALLER = r"(pip3?|conda|mamba|apt-get|apt|\{sys\.executable\}\s+-m\s+pip|python3?\s+-m\s+pip)"

_SHELL_INSTALL = re.compile(
    rf"^(?P<indent>[ \t]*)(?:[!%]|get_ipython\(\)\.system\(['\"])\s*(sudo\s+)?{_INSTALLER}"
    r"\s+(-\S+\s+)*(install|uninstall|remove)\b"
)

_PYTHON_CALL = re.compile(
    r"^(?P<indent>[ \t]*)(os\.system|subprocess\.(call|check_call|check_output|run|Popen)"
    r"|pip\.main|pip\._internal\.main)\s*\(.*\)\s*(#.*)?$"
)

_INSTALL_WORDS = re.compile(rf"\b{_INSTALLER}\s+(-\S+\s+)*(install|uninstall)\b|^install\b")


def _is_python_install(line: str) -> re.Match[str] | None:
    match = _PYTHON_CALL.match(line)
    if match is None:
        return None
    words = re.sub(r"[\[\]'\",()]", " ", line[match.end(2) :])
    words = re.sub(r"sys\.executable\s+-m\s+", "", words)
    return match if _INSTALL_WORDS.search(words.strip()) else None


def disable_installs(source: str, context: RuleContext) -> str:
    if not read_text(source).is_python:  # `%%bash` and co.; `%%capture` and co. are Python
        return source
    lines = source.split("\n")
    continuing: str | None = None  # the indentation while inside a disabled `\` continuation
    changed = False
    for index, line in enumerate(lines):
        if continuing is None:
            match = _SHELL_INSTALL.match(line) or _is_python_install(line)
            if match is None:
                continue
            indent = match.group("indent")
            context.notes.append(f"disabled in-notebook install `{line.strip()}`")
            head = f"{indent}pass  " if indent else ""
            lines[index] = f"{head}{MARKER}{line.strip()}"
        else:
            lines[index] = f"{continuing}# {line.strip()}"
            indent = continuing
        changed = True
        continuing = indent if line.rstrip().endswith("\\") else None
    return "\n".join(lines) if changed else source


RULES = (
    Rule(
        id="environment.disable-installs",
        library="environment",
        changed_in="-",
        summary="`!pip install ...`, `%pip`, `!conda install`, `!apt-get install`, "
        "`os.system('pip install ...')`, `subprocess.call(['pip', 'install', ...])` -> "
        "commented out with a marker (the environment is fixed)",
        kind=Kind.ENVIRONMENT,
        rewrite=disable_installs,
        gone=ALWAYS,
        examples=(
            Example(
                before=(
                    "!pip install -q xgboost==0.90\n"
                    "%pip install lightgbm\n"
                    "if True:\n"
                    "    !conda install -y -c conda-forge \\\n"
                    "        catboost\n"
                    "!apt-get install -y graphviz\n"
                    "!pip uninstall -y tensorflow\n"
                    "!ls ../input\n"
                    "n = 1\n"
                ),
                after=(
                    f"{MARKER}!pip install -q xgboost==0.90\n"
                    f"{MARKER}%pip install lightgbm\n"
                    "if True:\n"
                    f"    pass  {MARKER}!conda install -y -c conda-forge \\\n"
                    "    # catboost\n"
                    f"{MARKER}!apt-get install -y graphviz\n"
                    f"{MARKER}!pip uninstall -y tensorflow\n"
                    "!ls ../input\n"
                    "n = 1\n"
                ),
                check="ipython_calls == [('system', 'ls ../input')] and n == 1",
            ),
            Example(
                before=(
                    "import types\n"
                    "shell = []  # stands in for the machine's shell\n"
                    "os = types.SimpleNamespace(system=shell.append)\n"
                    "subprocess = types.SimpleNamespace(check_call=shell.append)\n"
                    "os.system('pip install --upgrade pandas==0.23')\n"
                    "subprocess.check_call(['pip', 'install', 'seaborn==0.9'])  # pinned\n"
                    "os.system('ls -l')\n"
                ),
                after=(
                    "import types\n"
                    "shell = []  # stands in for the machine's shell\n"
                    "os = types.SimpleNamespace(system=shell.append)\n"
                    "subprocess = types.SimpleNamespace(check_call=shell.append)\n"
                    f"{MARKER}os.system('pip install --upgrade pandas==0.23')\n"
                    f"{MARKER}subprocess.check_call(['pip', 'install', 'seaborn==0.9'])  # pinned\n"
                    "os.system('ls -l')\n"
                ),
                check="shell == ['ls -l']",
            ),
        ),
    ),
)
