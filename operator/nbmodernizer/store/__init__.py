"""The revision store: every revision's files, written once, never overwritten; the loop's
only memory.

Layout under the store's root (a local folder, or an S3 prefix: the same keys below it):

    revisions/0000/notebook.ipynb   the revision (revision 0: the original, byte-identical)
    revisions/0000/spec.json        the spec the run started with (operator only)
    revisions/0000/environment.json the facts of the environment the kernel runs in
                                    (envprobe.py's FACTS: versions, which legacy APIs are
                                    gone); the fixers read it (`engine.read_environment`)
    revisions/0000/executed.ipynb   the notebook after execution
    revisions/0000/execution.json   every run's execution facts (errors, duration, versions)
    revisions/0000/submission.csv   what the notebook wrote, when it did (-N.csv: run N); one
                                    too large to keep: a line saying its size
                                    (`layout.stand_in`)
    revisions/0000/executed-N.ipynb run N's (N >= 1) own executed notebook and facts, with
    revisions/0000/execution-N.json runs: N > 1 in a cluster (one Indexed Job, a pod per
                                    run); run 0's are executed.ipynb and execution.json
    revisions/0000/result.json      execution, score and diagnosis
    revisions/0000/oracle.json      with --oracle-python: revision 0's run in the era's
                                    interpreter (its runs, score, each cell's bound values),
                                    written before the loop starts (`oracle.EraRun`)
    revisions/0000/bound.json       with --oracle-python: what each cell of the revision's
                                    run bound (`oracle.BoundRecord`), beside execution.json
    revisions/0001/fix.json         how revision 1 was made from revision 0
    revisions/0001/notebook.ipynb   ...

Per revision they are written in this order: notebook.ipynb (+ fix.json) by the driver or
the fixer before the revision runs; environment.json by the execution before the notebook
runs (locally the CLI, in a cluster the Job's pod); executed[-N].ipynb, submission[-N].csv and
execution[-N].json (last) by the executor (the CLI, or the Job's pod through its grants:
pre-signed URLs for exactly these names, `grants.py`); result.json by the grader (the CLI,
or the operator). A revision whose result.json is missing has not been graded yet. What an
executor wrote is untrusted: the operator bounds it before reading it (engine.grade_revision).

The JSON files (`revisions.py` reads and writes them, typed):

    execution.json  {"runs": [ExecutionResult, ...]}               indent 2, sorted keys
                    (execution-N.json: the same, with run N's one ExecutionResult)
    result.json     {"diagnosis": Diagnosis, "execution": ExecutionResult,
                     "score": ScoreResult}                          indent 2, sorted keys
                    ("run": N, the run that speaks for the revision, when it is not run 0;
                    its execution is "execution")
    fix.json        FixRecord                                       indent 2, field order
    spec.json       {"generation": int | null, "spec": ModernizationSpec}
                                                                    indent 2, sorted keys
    environment.json FACTS (`facts.EnvironmentFacts`; engine.py writes and reads it: the
                    store's modules do not know the facts' type)   indent 2, sorted keys

each in its camelCase wire form (`status.py`, `spec.py`), ending in a newline.

Writing a file that exists with other content raises RevisionExistsError; writing the same
bytes again is a no-op, so a driver that restarts mid-step can safely repeat its writes.

Modules:
    layout.py     every file name, revision keys and revision folder URIs (no I/O)
    revisions.py  the RevisionStore protocol, LocalStore, S3Store, open_store, and the typed
                  read/write of execution.json, result.json, fix.json and spec.json
    s3.py         s3:// URIs, the client per endpoint, write-once put, read, fetch, delete;
                  the spec's files (an s3:// URI or a path relative to the spec file)
    cache.py      a read-through cache over a RevisionStore (the operator's)
    grants.py     one Job's pre-signed URLs: made by the operator, used by the runner over
                  plain HTTP (GrantedStore); docs/security.md
"""

from __future__ import annotations


class RevisionExistsError(Exception):
    """A write-once file exists already with other content; revisions are never overwritten."""


class StoreError(Exception):
    """The store cannot be reached or read."""
