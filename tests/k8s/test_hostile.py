"""Hostile notebooks through the real operator (issue #10): `nbmod operator` as a process, the
emulator, the test kubelet (each container of a runner pod gets only its own env, grants and
volumes: the pod split, fetch / kernel / executor) and S3 on moto's server. Each attack is
blocked, the modernization ends with a correct outcome and a clear reason, revision 0 stays
byte-identical and the operator keeps running.

The store is moto behind the tests' signature check (testing/s3signatures.py), as AWS S3, MinIO
and Ceph check SigV4: a pre-signed URL whose key or method is changed, or a request with no
signature at all, is refused (403). The attacks use what a notebook holds: no credential, and
no grant (its container has none; the attacks that would use one report "NO GRANT"). With a
grant in reach (one process, `--stage all`), tests/test_hostile_local.py edits it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from testing import hostile
from testing.k8s.client import K8sApi
from testing.k8s.kubelet import Kubelet
from testing.k8s.product import S3_SECRET, OperatorStarter, push_case, status_of, wait_finished
from testing.k8s.resources import JOBS, NBMS, SECRETS
from testing.notebooks import PREDICT, READ, WRITE
from testing.s3server import S3Bucket

pytestmark = pytest.mark.kernel

# What the kernel's container holds, read whole: its environment and its ancestors' (GRANTS,
# ENVIRONMENT), and every file under the folders it mounts: its working directory, the
# inputs, the kernel folder its host names, HOME. In a pod that is all it reaches; on the test
# machine the kubelet's other folders are there too (one user, one filesystem), so the walk
# stays within the container's mounts.
REACH = """
def _files(top):
    for root, _, names in os.walk(top):
        for name in names:
            yield os.path.join(root, name)
host = open(f'/proc/{os.getppid()}/cmdline', 'rb').read().split(b'\\0')
tops = [os.getcwd(), '/kaggle/input', '../input', os.environ.get('HOME', '/nonexistent')]
tops += [host[host.index(b'--kernel-dir') + 1].decode()] if b'--kernel-dir' in host else []
if os.environ.get('HOME') == '/tmp':  # the machine's /tmp here; in a pod, its own emptyDir
    tops.remove('/tmp')
signed, read = [], 0
for top in tops:
    for path in _files(top):
        try:
            data = open(path, 'rb').read()
        except Exception:
            continue
        read += 1
        if b'X-Amz-Signature' in data or b'X-Amz-Credential' in data:
            signed.append(path)
_record('reach', {'tops': tops, 'files_read': read, 'signed': signed,
                  'host_argv': [a.decode() for a in host]})
# the facts volume, next to the kernel folder where the kubelet keeps a pod's volumes
kernels = host[host.index(b'--kernel-dir') + 1].decode() if b'--kernel-dir' in host else '.'
siblings = [os.path.join(os.path.dirname(kernels), name, 'environment.json')
            for name in ('facts', 'nbmod-facts')] + ['/nbmod-facts/environment.json']
_record('facts_seen', [path for path in siblings if os.path.exists(path)])
"""

# Writes the Job's own outputs before the runner does: a clean execution.json.
PREWRITE = """
clean = {'runs': [{'status': 'completed', 'durationSeconds': 1.0}]}
url = grants['outputs']['execution.json'] if grants else None
_record('prewrote', _put(url, json.dumps(clean).encode()))
"""

SPARSE_300MB = """
with open('submission.csv', 'w') as f:
    f.write('id,y\\n')
    f.truncate(300_000_000)
"""

FLOOD = "import sys\nchunk = 'x' * 65536\nfor _ in range(200):\n    sys.stdout.write(chunk)"


def keys_of(bucket: S3Bucket, name: str) -> list[str]:
    return [k for k in bucket.keys() if f"/{name}/revisions/" in k]  # noqa: SIM118


def test_hostile_notebooks_are_contained(
    k8s_api: K8sApi,
    runner_kubelet: Kubelet | None,
    nbmod_operator: OperatorStarter,
    s3_bucket: S3Bucket,
    tmp_path: Path,
) -> None:
    if runner_kubelet is None:
        pytest.skip("reads what the test kubelet's pods printed")
    one = {"fix": {"maxIterations": 1}}
    cases = {
        # credentials anywhere (env, /proc, files, boto3's chain), listing, answers, rev 0,
        # result.json, another modernization: none reachable without a credential; and the
        # kernel reads every file and variable its container holds: no grant in any
        "spy": push_case(
            tmp_path,
            s3_bucket,
            "spy",
            *hostile.sources(hostile.GRANTS, REACH, READ, PREDICT, WRITE),
            **one,
        ),
        # the Job's own grants (were they reachable): its outputs written before the
        # executor's, then the notebook fails
        "tamper": push_case(
            tmp_path, s3_bucket, "tamper", *hostile.sources(hostile.GRANTS, PREWRITE, "1/0"), **one
        ),
        # its grants (were they reachable) with other keys: revision 0, another
        # modernization, result.json, answers (the store refuses those: test_store_grants)
        "rewriter": push_case(
            tmp_path,
            s3_bucket,
            "rewriter",
            *hostile.sources(
                hostile.GRANTS,
                hostile.rewrite_cell("fleet/rewriter/answers/answers.csv"),
                READ,
                PREDICT,
                WRITE,
            ),
            **one,
        ),
        # a result.json in revision 0 that the operator did not write (put by the test below,
        # as a store that checks no signature would have taken it from an edited grant)
        "forged": push_case(tmp_path, s3_bucket, "forged", READ, PREDICT, WRITE, **one),
        # 300 MB (sparse) submission and a 13 MB stream of output
        "flood": push_case(
            tmp_path, s3_bucket, "flood", hostile.RECORD, FLOOD, SPARSE_300MB, **one
        ),
    }
    revision_zero = {}
    for document in cases.values():
        k8s_api.create(NBMS, document)
    forged_folder = f"runs/{k8s_api.namespace}/forged/revisions/0000/"
    pushed = cases["forged"]["spec"]["notebook"].removeprefix(f"s3://{s3_bucket.name}/")
    s3_bucket.put(forged_folder + "notebook.ipynb", s3_bucket.read(pushed))
    s3_bucket.put(forged_folder + "result.json", hostile.forged_result().encode())
    operator = nbmod_operator(env=hostile.SECRETS)  # decoys: no notebook may see them
    # (its AWS secret is the store's own: it signs the grants; the pods must never get it)
    done = {name: status_of(wait_finished(k8s_api, name, operator)) for name in cases}
    for name in cases:
        key = f"runs/{k8s_api.namespace}/{name}/revisions/0000/notebook.ipynb"
        revision_zero[name] = s3_bucket.read(key)

    outputs = "\n".join(run.output for run in runner_kubelet.runs)
    executed = {
        name: s3_bucket.read(f"runs/{k8s_api.namespace}/{name}/revisions/0000/executed.ipynb")
        for name in ("spy", "flood", "rewriter", "tamper")
    }
    # no secret of the operator's environment anywhere a notebook could print it
    for text in (outputs, *(e.decode() for e in executed.values())):
        assert hostile.leaked(text) == []
    # the pods held no key: each container's whole environment, as the kubelet gave it; the
    # kernel's container was given no grant, the fetch container no write grant
    for run in runner_kubelet.runs:
        by_name = {each.name: each for each in run.containers}
        assert set(by_name) == {"fetch", "probe", "kernel", "executor"}, run.pod
        for each in run.containers:
            assert not [k for k in each.env if k.startswith("AWS_")], each.env
        for notebooks in ("probe", "kernel"):  # the environment image's: no grant
            assert "--grants" not in by_name[notebooks].argv
            assert not [m for m in by_name[notebooks].mounts if "grants" in m or "notebook" in m]
        assert set(by_name["probe"].mounts) == {"/tmp", "/nbmod-tools", "/nbmod-facts"}
        assert "/nbmod-facts" not in by_name["kernel"].mounts
        assert "/var/run/nbmodernizer/write" not in by_name["fetch"].mounts
    assert not k8s_api.list(SECRETS, label_selector="app.kubernetes.io/component=runner-grants")

    spy = hostile.found(json.loads(executed["spy"]))
    assert spy["s3_list"].startswith('"DENIED NoCredentialsError'), spy["s3_list"]
    assert done["spy"]["outcome"] == "ErrorFreeReproducible", done["spy"]
    assert not [k for k in keys_of(s3_bucket, "spy") if k.endswith("result.json")][1:]
    assert spy["grants_read"] == '"none found"', spy["grants_read"]
    reach = json.loads(spy["reach"])
    assert reach["signed"] == [] and reach["files_read"] >= 2, reach  # inputs, connection file
    assert reach["host_argv"][1].endswith("/kernelhost.py"), reach["host_argv"]
    assert "--grants" not in reach["host_argv"]
    assert spy["facts_seen"] == "[]", spy["facts_seen"]  # the probe's facts are not its to see
    facts = json.loads(
        s3_bucket.read(f"runs/{k8s_api.namespace}/spy/revisions/0000/environment.json")
    )
    assert facts["packages"]["pandas"]  # stored by the executor, from the probe's container

    tamper = hostile.found(json.loads(executed["tamper"]))
    assert tamper["prewrote"] == '"NO GRANT"', tamper
    assert "ZeroDivisionError" in done["tamper"]["lastError"], done["tamper"]  # as it ran
    assert done["tamper"].get("score", {}).get("value") is None

    rewriter = hostile.found(json.loads(executed["rewriter"]))
    for attack in ("rewrite_revision_zero", "rewrite_other", "rewrite_result", "rewrite_answers"):
        assert rewriter[attack] == '"NO GRANT"', (attack, rewriter[attack])
    assert done["rewriter"]["outcome"] == "ErrorFreeReproducible", done["rewriter"]
    assert not [k for k in keys_of(s3_bucket, "rewriter") if k.endswith("result.json")][1:]

    assert done["forged"]["phase"] == "Failed", done["forged"]
    assert "result.json was not written by the operator" in done["forged"]["lastError"]

    assert "more than the 200000000 allowed" in done["flood"]["lastError"], done["flood"]
    flood = executed["flood"]
    assert len(flood) < 2_000_000 and b"characters of output cut]" in flood

    for name, data in revision_zero.items():  # byte-identical to what was pushed
        pushed = cases[name]["spec"]["notebook"].removeprefix(f"s3://{s3_bucket.name}/")
        assert data == s3_bucket.read(pushed), name
    [tampered] = runner_kubelet.runs_of("tamper-it-000")
    assert tampered.exit_code == 0, tampered.output  # nothing was written before the executor
    assert operator.running


def test_the_s3_secret_opt_out_gives_runner_pods_keys_and_no_grants(
    k8s_api: K8sApi,
    runner_kubelet: Kubelet | None,
    s3_secret: None,
    nbmod_operator: OperatorStarter,
    s3_bucket: S3Bucket,
    tmp_path: Path,
) -> None:
    """`--s3-secret` (for a store that cannot pre-sign): the pods take the keys from that
    Secret and use boto3, as before grants; the notebook can then read them (docs)."""
    k8s_api.create(NBMS, push_case(tmp_path, s3_bucket, "opt-out"))
    operator = nbmod_operator("--s3-secret", S3_SECRET)
    done = status_of(wait_finished(k8s_api, "opt-out", operator))
    assert done["outcome"] == "ErrorFreeReproducible", done
    assert not k8s_api.list(SECRETS, label_selector="app.kubernetes.io/component=runner-grants")
    if runner_kubelet is not None:
        [run] = runner_kubelet.runs_of("opt-out-it-000")
        assert "AWS_SECRET_ACCESS_KEY" in run.env and "--grants" not in run.argv


def test_inputs_past_the_grant_bounds_fail_with_the_reason(
    k8s_api: K8sApi,
    runner_kubelet: Kubelet | None,
    nbmod_operator: OperatorStarter,
    s3_bucket: S3Bucket,
    tmp_path: Path,
) -> None:
    k8s_api.create(NBMS, push_case(tmp_path, s3_bucket, "heavy"))
    operator = nbmod_operator("--max-input-bytes", "10")
    done = status_of(wait_finished(k8s_api, "heavy", operator))
    assert done["phase"] == "Failed", done
    assert "bytes, more than the 10 a Job may be granted" in done["lastError"]
    assert "execution.inputsVolumeClaim" in done["lastError"]
    assert not k8s_api.list(JOBS, label_selector="nbmodernizer.dev/modernization=heavy")
    assert not k8s_api.list(SECRETS, label_selector="app.kubernetes.io/component=runner-grants")
    assert operator.running
