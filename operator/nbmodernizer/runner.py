"""`nbmod run-iteration`: what a Job's pod runs: execute one stored revision, store what came
of it. No answers, no LLM: the operator grades and fixes.

    nbmod run-iteration --revision s3://bucket/prefix/ns/name/revisions/0003/
        [--inputs s3://bucket/inputs/] [--input-dir /kaggle/input]
        [--working-dir /kaggle/working] --timeout-seconds 600 [--runs 1]
        [--submission submission.csv] [--run-index N]

With `--grants FILE` (the operator's default) the runner holds no S3 credential: the file
lists pre-signed URLs (`nbmodernizer.store.grants`) to GET the revision's notebook and each
input and to PUT the Job's own outputs once; it uses plain HTTP only, and `--revision` and
`--inputs` only name things. Without it, the runner uses boto3 and the credentials of its
environment (the `--s3-secret` opt-out).

The pod split (`--stage`, the cluster's default with grants; docs/security.md): the Job's pod
runs the runner in two containers of our image, and the notebook's image (`spec.execution.image`)
runs our stdlib-only `kernelhost.py` in two more; none holds what another needs kept:

    --stage fetch    (init container; the READ grants only) the notebook into --notebook-dir,
                     the inputs into --input-dir; with --tools-dir, kernelhost.py, envprobe.py
                     and the probe's request for the notebook's imports into that folder
    (probe)          (init container, the notebook's image) `python kernelhost.py --probe`:
                     the environment's FACTS into the facts folder, before any notebook code
    (kernel)         (the notebook's container, its image; no grant) `python kernelhost.py`
                     only hosts the Jupyter kernels the executor asks for in --kernel-dir
    --stage execute  (the WRITE grants only) with --facts-dir, stores the FACTS as
                     environment.json (write-once) and records their packages as the
                     execution's; drives the kernels over ZMQ with nbclient, reads the
                     submission from the shared --working-dir, uploads, then tells the
                     kernel's host it is done, so the pod completes

`--stage all` (the default) is the single process: fetch, probe its own interpreter (where
its kernel runs) with envprobe.py and store the FACTS as environment.json, execute with its
own kernel and upload; for local use and the `--s3-secret` opt-out.

Inputs come from the grants, from `--inputs` (an s3:// prefix, downloaded into
`--input-dir`) or are already mounted at `--input-dir` (a PVC). The working directory is
emptied before each run.

`--run-index N` (default: the JOB_COMPLETION_INDEX variable Kubernetes gives each pod of an
Indexed Job) makes this pod run N of the revision: it executes once and stores under run N's
own names (`layout.run_output_names`; run 0's are those of a single run). Without it the pod
executes `--runs` runs one after another and stores them together.

Exit 0 when the revision was executed and its results stored,
whatever the notebook did; non-zero only when that could not happen (S3 unreachable,
revision missing, an output key written by somebody else before the runner).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from pathlib import Path

from nbmodernizer import kernelhost
from nbmodernizer.engine import environment_request, load_notebook, store_execution, store_run
from nbmodernizer.engine import store_environment as write_environment
from nbmodernizer.execute import RunFolder, hide_this_process, kernel_environment
from nbmodernizer.facts import EnvironmentFacts, FactsError, gather
from nbmodernizer.grade import SubmissionLimits
from nbmodernizer.notebook import Notebook, NotebookError, parse_notebook
from nbmodernizer.podtools import ENVPROBE, KERNELHOST, PROBE_REQUEST
from nbmodernizer.remotekernel import finish
from nbmodernizer.revision import FolderFactory, RunOutput, RunPlan, execute_runs
from nbmodernizer.store import RevisionExistsError, StoreError
from nbmodernizer.store.grants import GrantedStore, Grants, fetch_granted_inputs, read_grants
from nbmodernizer.store.layout import ENVIRONMENT, NOTEBOOK, parse_revision_folder_uri
from nbmodernizer.store.revisions import RevisionStore, open_store
from nbmodernizer.store.s3 import fetch_dir

EXIT_INFRASTRUCTURE = 3
EXIT_TAMPERED = 4  # an output was in the store before the runner wrote it


@dataclass(frozen=True)
class RunnerOptions:
    """What `nbmod run-iteration` was told (the flags in the module's docstring; their
    defaults live with the parser, `nbmodernizer.commands.run_iteration`)."""

    revision: str
    inputs: str | None
    input_dir: str
    working_dir: str
    timeout_seconds: float
    runs: int
    submission: str
    grants: str | None
    run_index: str | None
    max_submission_bytes: int
    stage: str
    notebook_dir: str | None
    kernel_dir: str | None
    tools_dir: str | None = None
    facts_dir: str | None = None
    argv: tuple[str, ...] = ()  # the command line, to start over with (`clean_start`)

    def given_path(self, name: str) -> Path:
        """The path of an optional flag that this stage needs (`STAGE_NEEDS`)."""
        value = getattr(self, name)
        if not value:
            raise ValueError(f"--{name.replace('_', '-')} is needed by --stage {self.stage}")
        return Path(value)


@dataclass(frozen=True)
class RevisionRef:
    store: RevisionStore
    revision: int


def parse_revision(uri: str) -> RevisionRef:
    """`<store root>/revisions/0003/` -> the store and revision 3."""
    parsed = parse_revision_folder_uri(uri)
    if parsed is None:
        raise ValueError(f"--revision must end in /revisions/<number>/: {uri!r}")
    root, revision = parsed
    return RevisionRef(open_store(root), revision)


def fixed_folders(working: Path, inputs: Path, kernels: Path | None = None) -> FolderFactory:
    """The pod's own `/kaggle/working` (emptied before each run) and `/kaggle/input`; with
    `kernels`, the kernel runs in the kernel container (`remotekernel`)."""

    @contextmanager
    def folder() -> Iterator[RunFolder]:
        working.mkdir(parents=True, exist_ok=True)
        for entry in working.iterdir():
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        yield RunFolder(root=working.parent, working=working, input=inputs, kernels=kernels)

    return folder


def granted_revision(path: Path) -> tuple[RevisionRef, Grants]:
    """The revision the grants file names, reached through its URLs only."""
    grants = read_grants(path)
    return RevisionRef(GrantedStore(grants), grants.revision), grants


CLEAN_MARK = "NBMOD_RUNNER_CLEAN"
INDEX_VARIABLE = "JOB_COMPLETION_INDEX"  # set by Kubernetes in each pod of an Indexed Job
RUNNER_ENV_NAMES = frozenset({"NBMOD_ITERATION", INDEX_VARIABLE, CLEAN_MARK})


def runner_environment(source: Mapping[str, str], keeps_s3_keys: bool) -> dict[str, str]:
    """What the runner keeps of its environment: the kernel's allowlist, the iteration, and
    the AWS_* variables only where it must reach S3 with keys (the `--s3-secret` opt-out)."""
    env = {k: v for k, v in kernel_environment(source).items() if k in source}
    env.update({k: v for k, v in source.items() if k in RUNNER_ENV_NAMES})
    if keeps_s3_keys:
        env.update({k: v for k, v in source.items() if k.startswith("AWS_")})
    return env


def _site_directories() -> set[str]:
    import site

    found = [*site.getsitepackages(), site.getusersitepackages()]
    return {str(Path(d).resolve()) for d in found}


def clean_start(options: RunnerOptions) -> None:
    """Start over (same pid, a new process image) with only `runner_environment`, so that
    /proc/<runner>/environ, which the kernel can read where it runs as root or with
    CAP_SYS_PTRACE, holds no variable the runner does not need: no key with grants."""
    keeps = not options.grants and str(options.revision).startswith("s3://")
    env = runner_environment(os.environ, keeps)
    if os.environ.get(CLEAN_MARK) or set(env) == set(os.environ):
        return
    env[CLEAN_MARK] = "1"
    package_root = str(Path(__file__).resolve().parent.parent)  # this nbmodernizer, as run
    if package_root not in _site_directories():  # a checkout: say where (never site-packages:
        # ahead of the standard library it could shadow it)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    argv = list(options.argv) or sys.argv[1:]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, "-m", "nbmodernizer.cli", *argv], env)


def run_index(options: RunnerOptions, environ: Mapping[str, str]) -> int | None:
    """Which run of the revision this pod is: `--run-index`, else JOB_COMPLETION_INDEX, else
    None (the pod runs them all). ValueError when it is not a number >= 0 or `--runs` > 1."""
    given = options.run_index if options.run_index is not None else environ.get(INDEX_VARIABLE)
    if given is None or given == "":
        return None
    try:
        index = int(given)
    except ValueError:
        raise ValueError(f"the run index must be a number, not {given!r}") from None
    if index < 0 or options.runs != 1:
        raise ValueError(f"run index {index}: needs an index >= 0 and --runs 1 (one run a pod)")
    return index


def write_tools(folder: Path, notebook: Notebook) -> None:
    """Our code for the notebook's image (kernelhost.py, envprobe.py, stdlib only) and the
    probe's request, into the tools folder its containers mount."""
    folder.mkdir(parents=True, exist_ok=True)
    here = Path(kernelhost.__file__).parent
    for name in (KERNELHOST, ENVPROBE):
        shutil.copyfile(here / name, folder / name)
    (folder / PROBE_REQUEST).write_text(environment_request(notebook).to_json())


def fetch_stage(options: RunnerOptions) -> None:
    """The init container: with the READ grants, the notebook and the inputs onto emptyDirs;
    with --tools-dir, the tools for the notebook's image."""
    ref, grants = granted_revision(options.given_path("grants"))
    if grants.inputs:
        fetch_granted_inputs(grants, Path(options.input_dir))
    notebook_dir = options.given_path("notebook_dir")
    notebook_dir.mkdir(parents=True, exist_ok=True)
    data = ref.store.get(ref.revision, NOTEBOOK)
    (notebook_dir / NOTEBOOK).write_bytes(data)
    if options.tools_dir:
        write_tools(Path(options.tools_dir), parse_notebook(data).notebook)


def store_environment(ref: RevisionRef, facts_dir: Path) -> dict[str, str]:
    """Store the probe's FACTS as they were printed (`environment.json`, write-once) before
    the notebook runs; their packages. Another pod of the Job (a run, a retry) probing the
    same image may have stored them first: the Job's executors alone hold the grant."""
    data = (facts_dir / ENVIRONMENT).read_bytes()
    facts = EnvironmentFacts.parse(data, f"the probe's {ENVIRONMENT}")
    with suppress(RevisionExistsError):
        ref.store.put(ref.revision, ENVIRONMENT, data)
    return dict(facts.packages)


def probe_here(ref: RevisionRef, notebook: Notebook) -> dict[str, str]:
    """`--stage all`: one container, whose own interpreter runs the kernel, so envprobe.py
    runs there too (a subprocess, before the notebook) and its facts are stored as the
    revision's environment.json (write-once; another pod of the Job may have stored them
    first); their packages."""
    facts = gather(sys.executable, environment_request(notebook))
    with suppress(RevisionExistsError):
        write_environment(ref.store, ref.revision, facts)
    return dict(facts.packages)


def store_outputs(ref: RevisionRef, outputs: list[RunOutput], index: int | None) -> None:
    """Every run together (`execution.json`), or this pod's run `index` under its own names."""
    if index is None:
        store_execution(ref.store, ref.revision, outputs)
    else:
        store_run(ref.store, ref.revision, index, outputs[0])


def execute_stage(options: RunnerOptions, index: int | None) -> tuple[RevisionRef, list[RunOutput]]:
    """The executor: run the fetched notebook on the kernel container's kernels, upload what
    it observed with the WRITE grants; the kernel's host is told to stop in any case."""
    kernels = options.given_path("kernel_dir")
    try:
        ref, _ = granted_revision(options.given_path("grants"))
        packages = store_environment(ref, Path(options.facts_dir)) if options.facts_dir else None
        data = (options.given_path("notebook_dir") / NOTEBOOK).read_bytes()
        notebook = parse_notebook(data).notebook
        folders = fixed_folders(Path(options.working_dir), Path(options.input_dir), kernels)
        outputs = execute_runs(notebook, run_plan(options), folders)
    finally:
        finish(kernels)
    if packages is not None:  # the kernel's image's versions, not this (runner) image's
        outputs = [with_packages(output, packages) for output in outputs]
    store_outputs(ref, outputs, index)
    return ref, outputs


def with_packages(output: RunOutput, packages: dict[str, str]) -> RunOutput:
    execution = output.execution.model_copy(update={"packages": packages})
    return replace(output, execution=execution)


def run_plan(options: RunnerOptions) -> RunPlan:
    limits = SubmissionLimits(max_bytes=options.max_submission_bytes)
    return RunPlan(options.timeout_seconds, options.runs, options.submission, limits=limits)


def single_process(
    options: RunnerOptions, index: int | None
) -> tuple[RevisionRef, list[RunOutput]]:
    """Fetch, execute with a kernel of its own, upload: one process (`--stage all`)."""
    input_dir = Path(options.input_dir)
    if options.grants:
        ref, grants = granted_revision(options.given_path("grants"))
        if grants.inputs:
            input_dir = fetch_granted_inputs(grants, input_dir)
    else:
        ref = parse_revision(options.revision)
        if options.inputs:  # an s3:// prefix is downloaded into --input-dir; a path as is
            input_dir = fetch_dir(options.inputs, Path.cwd(), input_dir)
    notebook = load_notebook(ref.store, ref.revision)
    packages = probe_here(ref, notebook)
    outputs = execute_runs(
        notebook, run_plan(options), fixed_folders(Path(options.working_dir), input_dir)
    )
    outputs = [with_packages(output, packages) for output in outputs]
    store_outputs(ref, outputs, index)
    return ref, outputs


STAGE_NEEDS = {
    "fetch": ("grants", "notebook_dir"),
    "execute": ("grants", "notebook_dir", "kernel_dir"),
}
EXIT_USAGE = 2


def run_iteration(options: RunnerOptions) -> int:
    missing = [f"--{name.replace('_', '-')}" for name in STAGE_NEEDS.get(options.stage, ())
               if not getattr(options, name)]  # fmt: skip
    if missing:
        print(
            f"nbmod run-iteration --stage {options.stage} needs {', '.join(missing)}",
            file=sys.stderr,
        )
        return EXIT_USAGE
    clean_start(options)
    hide_this_process()  # the kernel (same user) cannot read our /proc environ or memory
    try:
        if options.stage == "fetch":
            fetch_stage(options)
            print("fetched the notebook and its inputs")
            return 0
        index = run_index(options, os.environ)
        if options.stage == "execute":
            ref, outputs = execute_stage(options, index)
        else:
            ref, outputs = single_process(options, index)
    except RevisionExistsError as error:
        print(f"nbmod run-iteration: refusing a tampered revision: {error}", file=sys.stderr)
        return EXIT_TAMPERED
    except (StoreError, FileNotFoundError, NotebookError, ValueError, FactsError) as error:
        print(f"nbmod run-iteration: {error}", file=sys.stderr)
        return EXIT_INFRASTRUCTURE
    execution = outputs[-1].execution
    run = "" if index is None else f" run {index}"
    print(
        f"revision {ref.revision}{run}: {execution.status.value}, "
        f"{len(execution.cell_errors)} cell error(s), {execution.duration_seconds:.1f}s"
    )
    return 0
