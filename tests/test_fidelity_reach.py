"""The reach detector: a revision that newly reaches for credentials, the network, /proc, the
answers or files outside its folders is flagged (blocking); the LLM fixer rejects such a reply."""

from __future__ import annotations

import pytest

from nbmodernizer.fidelity import BLOCKING, assess
from nbmodernizer.fidelity.reach import reach_flags
from nbmodernizer.notebook import code_cells
from testing.notebooks import PREDICT, READ, WRITE, notebook

BASE = (READ, PREDICT, WRITE)


def flags(*added: str, original: tuple[str, ...] = BASE, answers: str = "answers.csv") -> list[str]:
    old, new = notebook(*original), notebook(*original, *added)
    return [f.detail for f in reach_flags(code_cells(old), code_cells(new), answers)]


@pytest.mark.parametrize(
    ("added", "what"),
    [
        ("import os\nkey = os.environ['AWS_SECRET_ACCESS_KEY']", "the environment"),
        ("import os\nprint(os.getenv('OPENAI_API_KEY'))", "the environment"),
        ("from os import environ", "the environment"),
        ("import boto3\nboto3.client('s3').list_buckets()", "cloud credentials"),
        ("import requests\nrequests.get('http://x')", "the network"),
        ("import urllib.request", "the network"),
        ("import socket", "the network"),
        ("import pandas as pd\npd.read_csv('https://example.com/a.csv')", "the network"),
        ("print(open('/proc/1/environ').read())", "the process table"),
        ("import pandas as pd\npd.read_csv('../answers.csv')", "the answers"),
        ("print(open('/etc/passwd').read())", "files outside"),
        ("print(open('~/.aws/credentials').read())", "files outside"),
        ("print(open('../../secret').read())", "files outside"),
        ("import subprocess\nsubprocess.run(['env'])", "other processes"),
        ("import os\nos.system('env')", "other processes"),
    ],
)
def test_reaches_are_flagged(added: str, what: str) -> None:
    found = flags(added)
    assert found and what in found[0], found


@pytest.mark.parametrize(
    "added",
    [
        "import os\nos.environ['TF_CPP_MIN_LOG_LEVEL'] = '3'",  # configuring, not reading
        "import pandas as pd\npd.read_csv('../input/test.csv')",
        "import pandas as pd\npd.read_csv('/kaggle/input/test.csv')",
        "open('/kaggle/working/out.csv', 'w')",
        "open('submission.csv', 'w')",
        "print('a/b', 10 / 2)",
    ],
)
def test_ordinary_code_is_not_flagged(added: str) -> None:
    assert flags(added) == []


def test_what_the_original_already_did_is_not_flagged() -> None:
    legacy = (*BASE, "import requests\nr = requests.get('http://data')")
    assert flags(original=legacy) == []
    assert flags("import requests", original=legacy) != []  # a second one is new


def test_assess_records_a_blocking_flag() -> None:
    fidelity = assess(notebook(*BASE), notebook(*BASE, "import boto3"), "answers.csv")
    assert [f.kind for f in fidelity.flags] == ["reaches-outside"]
    assert "reaches-outside" in BLOCKING
