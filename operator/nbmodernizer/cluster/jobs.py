"""The runner Job of one iteration: a pure function from the resource to a batch/v1 manifest.

The operator creates one Job per iteration; the Job executes revision N of the notebook
`score.runs` times and writes what it found next to the revision in S3. It never sees the
answers (grading is the operator's) nor the LLM key (fixing is the operator's).

The runner contract (`nbmod run-iteration`, implemented elsewhere):

    command: ["nbmod", "run-iteration"]
    args:
      --revision S3_URI         the revision's folder, `<revision prefix>/revisions/NNNN/`
                                (`revision_prefix()`; `nbmodernizer.store.layout`); the
                                notebook is `notebook.ipynb` in it, and the runner writes
                                its outputs (executed.ipynb, execution.json,
                                submission*.csv) there.
      --inputs S3_URI           only when `spec.inputs` is an s3:// URI and no
                                `execution.inputsVolumeClaim` is set: the runner copies it
                                into --input-dir before executing.
      --timeout-seconds N       `execution.timeoutSeconds`, per run.
      --runs N                  executions of the revision by this pod: `score.runs` for
                                a one-run Job, 1 for each pod of an Indexed Job (below).
      --submission NAME         `score.submission`: the file the notebook writes.
      --working-dir PATH        the notebook's working directory (an emptyDir).
      --input-dir PATH          where the notebook finds its inputs (an emptyDir the runner
                                fills, or the PVC).
      --max-submission-bytes N  a larger submission is not uploaded (a line saying so is).
      --grants FILE             (the default: no `s3_credentials_secret`) the pre-signed
                                URLs of this Job (`nbmodernizer.store.grants`), a file of
                                the per-Job Secret `<job>-grants`; the runner then uses plain
                                HTTP only and --inputs is not given (the inputs are in the
                                grants). With grants the pod is split (`split_pod`): init
                                container `fetch` (--stage fetch, the Secret's `read.json` at
                                /var/run/nbmodernizer/read/grants.json), containers `kernel`
                                (--stage kernel, no grant) and `executor` (--stage execute,
                                `write.json` at /var/run/nbmodernizer/write/grants.json),
                                sharing --kernel-dir; the notebook via --notebook-dir.
    env:
      only with `s3_credentials_secret` (the opt-out for stores that cannot pre-sign):
      AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY   from that Secret
      AWS_ENDPOINT_URL_S3       when settings name an endpoint (MinIO, Ceph, ...)
      AWS_DEFAULT_REGION        when settings name a region
      HOME=/tmp, MPLCONFIGDIR=/tmp/matplotlib   the root filesystem is read-only
      NBMOD_ITERATION=N
    volumes:
      /kaggle/working  emptyDir        /tmp  emptyDir
      /kaggle/input    emptyDir, or the PVC `execution.inputsVolumeClaim` (readOnly, subPath)

Inputs precedence in the cluster: `execution.inputsVolumeClaim` wins; `spec.inputs` is then not
fetched. Without a claim, `spec.inputs` must be an s3:// URI (or absent). The local CLI ignores
the claim and reads `spec.inputs`.

Several runs (`score.runs` N > 1) are ONE Indexed Job (`indexed_spec`): completionMode
Indexed, completions N, parallelism min(N, `max_parallel_runs`); each pod executes the revision
once as run JOB_COMPLETION_INDEX (the variable Kubernetes sets; the runner's `--run-index`) and
writes that run's own outputs (`layout.run_output_names`). A pod that dies is retried
`backoffLimitPerIndex` times, then its index fails: an Error run for the operator, not a lost
iteration. The operator grades runs as their indexes complete and deletes the Job once they
decide (`cluster/indexed.py`). The deadline counts waves: timeoutSeconds x ceil(N/parallelism).

The Job runs as uid/gid 1000, non-root, no privilege escalation, all capabilities dropped,
a read-only root filesystem, no service-account token, no service links; it is owned by the
resource (deleted with it), never retried (`backoffLimit: 0`: the loop decides what a failure
means), and bounded by `activeDeadlineSeconds = timeoutSeconds * runs + margin`. With
`execution.queueName` it is created suspended with Kueue's queue-name label, and Kueue
admits it.

Fleet-wide runner defaults (`JobSettings.runner_defaults`: resources, nodeSelector,
tolerations, e.g. a GPU for every Job) fill each of those fields that a resource leaves unset;
a resource's own `execution` field wins whole (no merging of two nodeSelectors).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from pydantic import ValidationError

from nbmodernizer.cluster.pod_split import READ_GRANTS, WRITE_GRANTS, split_pod
from nbmodernizer.cluster.wire import JsonObject, child, text
from nbmodernizer.spec import (
    API_GROUP,
    API_VERSION,
    KIND,
    ExecutionSpec,
    NotebookModernization,
    parse_modernization,
    problems_from,
)
from nbmodernizer.store.layout import revision_folder_uri

COMMAND = ["nbmod", "run-iteration"]
CONTAINER = "runner"
RUNNER_UID = 1000

LABEL_NAME = "app.kubernetes.io/name"
LABEL_MANAGED_BY = "app.kubernetes.io/managed-by"
LABEL_COMPONENT = "app.kubernetes.io/component"
LABEL_MODERNIZATION = f"{API_GROUP}/modernization"
LABEL_ITERATION = f"{API_GROUP}/iteration"
LABEL_KUEUE_QUEUE = "kueue.x-k8s.io/queue-name"
ANNOTATION_GENERATION = f"{API_GROUP}/generation"

MAX_NAME = 63  # a Job's name becomes a label value (batch.kubernetes.io/job-name)


class JobBuildError(ValueError):
    """The resource cannot be turned into a runner Job (e.g. no namespace or uid)."""


RUNNER_DEFAULT_FIELDS = ("resources", "nodeSelector", "tolerations")


def parse_runner_defaults(text: str, source: str = "runner defaults") -> ExecutionSpec:
    """Fleet-wide runner defaults from JSON (`{"resources": ..., "nodeSelector": ...,
    "tolerations": [...]}`), validated exactly like a resource's `spec.execution`."""
    try:
        document = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as e:
        raise ValueError(f"{source}: not JSON: {e}") from None
    if not isinstance(document, dict):
        raise ValueError(f"{source}: must be a JSON object with {', '.join(RUNNER_DEFAULT_FIELDS)}")
    unknown = sorted(set(document) - set(RUNNER_DEFAULT_FIELDS))
    if unknown:
        raise ValueError(
            f"{source}: unknown field(s) {', '.join(unknown)}; "
            f"allowed: {', '.join(RUNNER_DEFAULT_FIELDS)}"
        )
    try:
        return ExecutionSpec.model_validate(document)
    except ValidationError as e:
        raise ValueError(f"{source}: " + "; ".join(problems_from(e))) from None


@dataclass(frozen=True)
class JobSettings:
    """The operator's side of the Job: where revisions live and how runner pods look."""

    runner_image: str
    """Our image (nbmodernizer): the pod split's fetch and executor; with the `--s3-secret`
    opt-out, the one container when `execution.image` is unset."""
    s3_bucket: str
    s3_credentials_secret: str | None = None
    """The opt-out: a Secret (in the resource's namespace) with AWS_ACCESS_KEY_ID /
    AWS_SECRET_ACCESS_KEY that runner pods take as environment variables, for a store that
    cannot pre-sign URLs. None (the default): the pod holds no key, only its grants."""
    s3_prefix: str = ""
    s3_endpoint_url: str | None = None
    s3_region: str | None = None
    ttl_seconds_after_finished: int = 3600
    deadline_margin_seconds: int = 120
    """Added to timeoutSeconds x runs: image pull, S3 transfers, kernel start."""
    working_dir: str = "/kaggle/working"
    input_dir: str = "/kaggle/input"
    runner_defaults: ExecutionSpec = field(default_factory=ExecutionSpec)
    """Resources, nodeSelector and tolerations for resources that set none."""
    max_submission_bytes: int | None = None
    """A larger submission is not uploaded whole (the runner keeps a line saying so)."""
    max_parallel_runs: int = 4
    """Pods of one Indexed Job running at once (its parallelism), at most `score.runs`."""
    retries_per_run: int = 1
    """backoffLimitPerIndex: how often a run's pod that died is started again."""
    environment_image: str | None = None
    """The notebook's image (the pod split's probe and kernel) when `execution.image` is
    unset: ours with the ML stack. None: the runner image."""

    def __post_init__(self) -> None:
        if not self.runner_image:
            raise ValueError("runner_image is empty")
        if not self.s3_bucket or "/" in self.s3_bucket:
            raise ValueError(f"s3_bucket must be a bucket name, not {self.s3_bucket!r}")
        prefix = self.s3_prefix.strip("/")
        if prefix and any(not part for part in prefix.split("/")):
            raise ValueError(f"s3_prefix has an empty segment: {self.s3_prefix!r}")
        if self.max_parallel_runs < 1 or self.retries_per_run < 0:
            raise ValueError("max_parallel_runs must be >= 1 and retries_per_run >= 0")
        if self.ttl_seconds_after_finished < 0 or self.deadline_margin_seconds < 0:
            raise ValueError("ttl_seconds_after_finished and deadline_margin_seconds are >= 0")
        for path in (self.working_dir, self.input_dir):
            if not path.startswith("/") or path in ("/", "/tmp"):
                raise ValueError(f"working_dir/input_dir must be absolute folders: {path!r}")


def revision_prefix(settings: JobSettings, namespace: str, name: str) -> str:
    """Where a modernization's revisions live: `s3://bucket/<prefix>/<namespace>/<name>`."""
    parts = [settings.s3_bucket, settings.s3_prefix.strip("/"), namespace, name]
    return "s3://" + "/".join(part for part in parts if part)


def revision_uri(settings: JobSettings, namespace: str, name: str, iteration: int) -> str:
    """The folder of one revision: `<revision_prefix>/revisions/NNNN/`."""
    return revision_folder_uri(revision_prefix(settings, namespace, name), iteration)


def _short_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def fit_name(name: str, limit: int = MAX_NAME, suffix: str = "") -> str:
    """`name + suffix` if it fits in `limit`, else a truncated name + a stable hash + suffix."""
    if len(name) + len(suffix) <= limit:
        return name + suffix
    digest = _short_hash(name)
    keep = limit - len(suffix) - len(digest) - 1
    return f"{name[:keep].rstrip('-.')}-{digest}{suffix}"


def job_name(name: str, iteration: int) -> str:
    """`<name>-it-NNN`, at most 63 characters."""
    return fit_name(name, MAX_NAME, f"-it-{iteration:03d}")


def _plain(value: object) -> object:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _metadata_field(resource: NotebookModernization, field: str) -> object:
    return (resource.metadata.model_extra or {}).get(field)


def build_job(
    resource: Mapping[str, object] | NotebookModernization, iteration: int, settings: JobSettings
) -> JsonObject:
    """The batch/v1 Job running `iteration` (revision N) of a NotebookModernization.

    `resource` is the live object (metadata with name, namespace, uid, optionally generation)
    as a mapping, or the parsed model whose metadata carries namespace and uid. A mapping is
    validated (SpecError on a bad spec). Pure: same input, same manifest.
    """
    model = (
        resource
        if isinstance(resource, NotebookModernization)
        else parse_modernization(_plain(resource), "resource")
    )
    name = model.metadata.name
    namespace = model.metadata.namespace
    uid = _metadata_field(model, "uid")
    if not namespace or not uid:
        missing = [f"metadata.{f}" for f, v in (("namespace", namespace), ("uid", uid)) if not v]
        raise JobBuildError(f"{name}: a Job needs {' and '.join(missing)} of its resource")
    if iteration < 0:
        raise JobBuildError(f"{name}: iteration {iteration} < 0")
    spec = model.spec
    execution = spec.execution
    claim = execution.inputs_volume_claim

    granted = not settings.s3_credentials_secret
    revision = revision_uri(settings, namespace, name, iteration)
    args = ["--revision", revision]
    if claim is None and spec.inputs:
        if not spec.inputs.startswith("s3://"):
            raise JobBuildError(
                f"spec.inputs: {spec.inputs!r} is not an s3:// URI; in a cluster, inputs come "
                "from S3 or from execution.inputsVolumeClaim"
            )
        if not granted:  # with grants, the inputs are granted one by one
            args += ["--inputs", spec.inputs]
    args += [
        "--timeout-seconds",
        str(execution.timeout_seconds),
        "--runs",
        "1" if spec.score.runs > 1 else str(spec.score.runs),  # Indexed: one run per pod
        "--submission",
        spec.score.submission,
        "--working-dir",
        settings.working_dir,
        "--input-dir",
        settings.input_dir,
    ]
    if settings.max_submission_bytes is not None:
        args += ["--max-submission-bytes", str(settings.max_submission_bytes)]

    labels = {
        LABEL_NAME: "nbmodernizer",
        LABEL_MANAGED_BY: "nbmodernizer-operator",
        LABEL_COMPONENT: "runner",
        LABEL_MODERNIZATION: fit_name(name),
        LABEL_ITERATION: str(iteration),
    }
    job_labels = dict(labels)
    if execution.queue_name:
        job_labels[LABEL_KUEUE_QUEUE] = execution.queue_name

    env: list[JsonObject] = []
    if settings.s3_endpoint_url and not granted:
        env.append({"name": "AWS_ENDPOINT_URL_S3", "value": settings.s3_endpoint_url})
    if settings.s3_region and not granted:
        env.append({"name": "AWS_DEFAULT_REGION", "value": settings.s3_region})
    if settings.s3_credentials_secret:
        for key in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
            ref = {"name": settings.s3_credentials_secret, "key": key}
            env.append({"name": key, "valueFrom": {"secretKeyRef": ref}})
    env += [
        {"name": "HOME", "value": "/tmp"},
        {"name": "MPLCONFIGDIR", "value": "/tmp/matplotlib"},
        {"name": "NBMOD_ITERATION", "value": str(iteration)},
    ]

    input_mount: JsonObject = {"name": "input", "mountPath": settings.input_dir}
    if claim is None:
        input_volume: JsonObject = {"name": "input", "emptyDir": {}}
    else:
        input_volume = {
            "name": "input",
            "persistentVolumeClaim": {"claimName": claim.claim_name, "readOnly": claim.read_only},
        }
        input_mount["readOnly"] = claim.read_only
        if claim.sub_path:
            input_mount["subPath"] = claim.sub_path

    container: JsonObject = {
        "name": CONTAINER,
        "image": execution.image or settings.runner_image,
        "imagePullPolicy": "IfNotPresent",
        "command": list(COMMAND),
        "args": args,
        "env": env,
        "volumeMounts": [
            {"name": "working", "mountPath": settings.working_dir},
            {"name": "tmp", "mountPath": "/tmp"},
            input_mount,
        ],
        "securityContext": {
            "allowPrivilegeEscalation": False,
            "readOnlyRootFilesystem": True,
            "runAsNonRoot": True,
            "capabilities": {"drop": ["ALL"]},
        },
        "terminationMessagePolicy": "FallbackToLogsOnError",
    }
    defaults = settings.runner_defaults
    requirements = execution.resources if execution.resources is not None else defaults.resources
    if requirements is not None:
        resources = {
            kind: {resource: str(quantity) for resource, quantity in values.items()}
            for kind, values in (
                ("requests", requirements.requests),
                ("limits", requirements.limits),
            )
            if values
        }
        if resources:
            container["resources"] = resources

    pod_spec: JsonObject = {
        "restartPolicy": "Never",
        "automountServiceAccountToken": False,
        "enableServiceLinks": False,
        "securityContext": {
            "runAsNonRoot": True,
            "runAsUser": RUNNER_UID,
            "runAsGroup": RUNNER_UID,
            "fsGroup": RUNNER_UID,
            "fsGroupChangePolicy": "OnRootMismatch",  # no recursive chown of a big PVC
            "seccompProfile": {"type": "RuntimeDefault"},
        },
        "containers": [container],
        "volumes": [
            {"name": "working", "emptyDir": {}},
            {"name": "tmp", "emptyDir": {}},
            input_volume,
        ],
    }
    if granted:
        environment = execution.image or settings.environment_image or settings.runner_image
        secret = grants_secret_name(job_name(name, iteration))
        split_pod(pod_spec, secret, revision, settings.runner_image, environment)
    node_selector = execution.node_selector or defaults.node_selector
    if node_selector:
        pod_spec["nodeSelector"] = dict(node_selector)
    tolerations = execution.tolerations or defaults.tolerations
    if tolerations:
        pod_spec["tolerations"] = [toleration.to_wire() for toleration in tolerations]
    if execution.priority_class_name:
        pod_spec["priorityClassName"] = execution.priority_class_name

    metadata: JsonObject = {
        "name": job_name(name, iteration),
        "namespace": namespace,
        "labels": job_labels,
        "ownerReferences": [
            {
                "apiVersion": f"{API_GROUP}/{API_VERSION}",
                "kind": KIND,
                "name": name,
                "uid": str(uid),
                "controller": True,
                "blockOwnerDeletion": True,
            }
        ],
    }
    generation = _metadata_field(model, "generation")
    if generation is not None:
        metadata["annotations"] = {ANNOTATION_GENERATION: str(generation)}

    job_spec = run_spec(spec.score.runs, execution.timeout_seconds, settings)
    if execution.queue_name:
        job_spec["suspend"] = True  # Kueue unsuspends it once admitted
    job_spec["template"] = {"metadata": {"labels": labels}, "spec": pod_spec}

    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": metadata, "spec": job_spec}


def parallelism(runs: int, settings: JobSettings) -> int:
    """Pods of the iteration's Job at once: min(runs, max_parallel_runs)."""
    return max(1, min(runs, settings.max_parallel_runs))


def run_spec(runs: int, timeout_seconds: int, settings: JobSettings) -> JsonObject:
    """The Job's top-level fields for `runs` executions of `timeout_seconds` each: one pod,
    never retried, for one run; an Indexed Job of `runs` indexes (one run each) for more,
    each index retried `retries_per_run` times, the deadline counting the waves of pods."""
    ttl = settings.ttl_seconds_after_finished
    if runs <= 1:
        deadline = timeout_seconds * max(runs, 1) + settings.deadline_margin_seconds
        return {
            "backoffLimit": 0,
            "activeDeadlineSeconds": deadline,
            "ttlSecondsAfterFinished": ttl,
        }
    at_once = parallelism(runs, settings)
    waves = -(-runs // at_once)
    return {
        "completionMode": "Indexed",
        "completions": runs,
        "parallelism": at_once,
        "backoffLimitPerIndex": settings.retries_per_run,
        "activeDeadlineSeconds": timeout_seconds * waves + settings.deadline_margin_seconds,
        "ttlSecondsAfterFinished": ttl,
    }


def grants_secret_name(job: str) -> str:
    """The per-Job Secret holding the Job's grants: `<job>-grants`."""
    return f"{job}-grants"


def build_grants_secret(job: Mapping[str, object], read_json: str, write_json: str) -> JsonObject:
    """The Secret a Job's pod mounts its grants from, owned by the Job (the created object:
    it needs the Job's uid), so it goes with the Job; the operator also deletes it as soon
    as the Job has ended. Two keys: the read grants (the fetch container's) and the write
    grants (the executor's); no container mounts both."""
    meta = child(job, "metadata")
    name = text(meta, "name")
    labels = dict(child(child(child(child(job, "spec"), "template"), "metadata"), "labels"))
    labels = labels or dict(child(meta, "labels"))
    labels[LABEL_COMPONENT] = "runner-grants"
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "type": "Opaque",
        "metadata": {
            "name": grants_secret_name(name or ""),
            "namespace": text(meta, "namespace"),
            "labels": labels,
            "ownerReferences": [
                {
                    "apiVersion": "batch/v1",
                    "kind": "Job",
                    "name": name,
                    "uid": text(meta, "uid"),
                    "controller": True,
                    "blockOwnerDeletion": True,
                }
            ],
        },
        "stringData": {READ_GRANTS[2]: read_json, WRITE_GRANTS[2]: write_json},
    }
