"""What to do when a tool the tests need (kubectl, helm, prometheus, promtool) is missing.

On a developer's machine the test skips, naming the script that installs the tool. Under
`.ci/run`, which installs every tool first and sets NBM_REQUIRE_TOOLS=1, it fails: a missing
install step must not pass as a skip.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

REQUIRE_TOOLS = "NBM_REQUIRE_TOOLS"


def missing_tool(reason: str) -> NoReturn:
    if os.environ.get(REQUIRE_TOOLS) == "1":
        pytest.fail(f"{reason} ({REQUIRE_TOOLS}=1: required here)", pytrace=False)
    pytest.skip(reason)
