"""Grants: what a runner pod may read and write, and nothing else.

For each Job the operator pre-signs a GET for its revision's notebook and its inputs and a
PUT for each of its own outputs (`store/grants.py`), and hands them over in a Secret
`<job>-grants` owned by the Job; the Secret goes when the Job has ended. With
`--s3-secret` (the opt-out for stores that cannot pre-sign) pods read keys instead and no
grants are made. See docs/security.md.
"""

from __future__ import annotations

import contextlib

from nbmodernizer.cluster.jobs import build_grants_secret, grants_secret_name, revision_uri
from nbmodernizer.cluster.jobstate import job_key
from nbmodernizer.cluster.kube import Kube, KubeError, Paths
from nbmodernizer.cluster.settings import OperatorSettings
from nbmodernizer.cluster.wire import JsonObject, child, number, text
from nbmodernizer.spec import ModernizationSpec
from nbmodernizer.store.grants import GrantsError, make_grants, split_grants
from nbmodernizer.store.s3 import parse_s3_uri, signing_client

GRANT_MARGIN_SECONDS = 600  # grants outlive the Job's deadline by this (scheduling, pulls)


class GrantsRefused(Exception):  # noqa: N818 - a refusal with its reason
    """The Job cannot be granted what it needs (too many or too large inputs); the Job is
    deleted and the message says why."""


class JobGrants:
    def __init__(self, kube: Kube, settings: OperatorSettings) -> None:
        self.kube, self.settings, self.jobs = kube, settings, settings.jobs()
        self.granted: set[str] = set()  # Jobs whose grants Secret exists

    def grant(
        self,
        job: JsonObject | None,
        spec: ModernizationSpec,
        name: str,
        revision: int,
        created: bool = False,
    ) -> None:
        """Create the grants Secret of the Job running `revision` of the modernization `name`
        unless it exists (looked up once per Job and process; not for a Job `created` just
        now, which has none yet)."""
        if self.jobs.s3_credentials_secret or job is None:
            return
        meta = child(job, "metadata")
        namespace, job_name = text(meta, "namespace") or "", text(meta, "name") or ""
        key = job_key(namespace, job_name)
        if key in self.granted:
            return
        secret_path = Paths.secret(namespace, grants_secret_name(job_name))
        if created or self.kube.get(secret_path) is None:
            folder = revision_uri(self.jobs, namespace, name, revision)
            bucket, folder_key = parse_s3_uri(folder)
            inputs = None
            if spec.inputs and spec.execution.inputs_volume_claim is None:
                inputs = parse_s3_uri(spec.inputs)
            deadline = number(child(job, "spec"), "activeDeadlineSeconds") or 0
            try:
                grants = make_grants(
                    signing_client(self.jobs.s3_endpoint_url, self.jobs.s3_region),
                    bucket,
                    folder_key,
                    revision,
                    spec.score.runs,
                    deadline + GRANT_MARGIN_SECONDS,
                    inputs,
                    self.settings.max_input_files,
                    self.settings.max_input_bytes,
                )
            except GrantsError as error:
                self.kube.delete(Paths.jobs(namespace, job_name))
                raise GrantsRefused(str(error)) from None
            reads, writes = split_grants(grants)
            secret = build_grants_secret(job, reads.to_json(), writes.to_json())
            self.kube.create(Paths.secrets(namespace), secret)
        self.granted.add(key)

    def revoke(self, namespace: str, job: str) -> None:
        """Delete a Job's grants once it has ended (they also go with the Job)."""
        self.granted.discard(job_key(namespace, job))
        if self.jobs.s3_credentials_secret:
            return
        with contextlib.suppress(KubeError):
            self.kube.delete(Paths.secret(namespace, grants_secret_name(job)))
