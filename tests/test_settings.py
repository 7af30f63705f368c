"""The operator's settings: flags win over NBMOD_* variables, which win over defaults."""

from __future__ import annotations

import argparse

import pytest

from nbmodernizer.cluster.settings import OperatorFlags, SettingsError, from_flags
from nbmodernizer.commands.operator import add_arguments, flags_of
from nbmodernizer.grade import SubmissionLimits


def parse(*argv: str) -> OperatorFlags:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return flags_of(parser.parse_args(list(argv)))


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NBMOD_S3_BUCKET", "AWS_ENDPOINT_URL_S3", "NBMOD_RUNNER_S3_ENDPOINT",
                 "NBMOD_NAMESPACES", "NBMOD_MAX_CONCURRENT_JOBS", "NBMOD_FIX_MEMORY",
                 "NBMOD_MAX_PARALLEL_RUNS"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)


def test_runner_pods_use_the_operators_endpoint_unless_told_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    same = from_flags(parse("--s3-bucket", "b", "--s3-endpoint", "http://localhost:30900"))
    assert same.jobs().s3_endpoint_url == "http://localhost:30900"
    monkeypatch.setenv("NBMOD_RUNNER_S3_ENDPOINT", "http://minio.nbm-system:9000")
    split = from_flags(parse("--s3-bucket", "b", "--s3-endpoint", "http://localhost:30900"))
    assert split.s3_endpoint == "http://localhost:30900"
    assert split.jobs().s3_endpoint_url == "http://minio.nbm-system:9000"
    flag = from_flags(parse("--s3-bucket", "b", "--runner-s3-endpoint", "http://s3.pods"))
    assert flag.s3_endpoint is None and flag.jobs().s3_endpoint_url == "http://s3.pods"


def test_flags_win_over_the_environment_and_defaults_fill_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NBMOD_S3_BUCKET", "from-env")
    monkeypatch.setenv("NBMOD_NAMESPACES", "team-a, team-b")
    monkeypatch.setenv("NBMOD_MAX_CONCURRENT_JOBS", "7")
    settings = from_flags(parse("--max-concurrent-jobs", "3"))
    assert settings.s3_bucket == "from-env"
    assert settings.namespaces == ("team-a", "team-b")
    assert settings.max_concurrent_jobs == 3
    assert settings.s3_prefix == "nbmodernizer" and settings.metrics_port == 9090
    assert from_flags(parse("-A")).namespaces == ()


def test_the_runs_of_an_iteration_at_once_reach_the_jobs(monkeypatch: pytest.MonkeyPatch) -> None:
    assert from_flags(parse("--s3-bucket", "b")).jobs().max_parallel_runs == 4
    monkeypatch.setenv("NBMOD_MAX_PARALLEL_RUNS", "8")
    assert from_flags(parse("--s3-bucket", "b")).jobs().max_parallel_runs == 8
    flagged = from_flags(parse("--s3-bucket", "b", "--max-parallel-runs", "2"))
    assert flagged.max_parallel_runs == flagged.jobs().max_parallel_runs == 2


def test_the_fix_memory_lives_under_the_s3_prefix_unless_told_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert from_flags(parse("--s3-bucket", "b")).fix_memory == ("s3://b/nbmodernizer/fix-memory/")
    no_prefix = from_flags(parse("--s3-bucket", "b", "--s3-prefix", ""))
    assert no_prefix.fix_memory == "s3://b/fix-memory/"
    monkeypatch.setenv("NBMOD_FIX_MEMORY", "s3://shared/memory/")
    assert from_flags(parse("--s3-bucket", "b")).fix_memory == "s3://shared/memory/"
    flagged = from_flags(parse("--s3-bucket", "b", "--fix-memory", "off"))
    assert flagged.fix_memory == "off"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ((), "--s3-bucket / NBMOD_S3_BUCKET: required"),
        (("--s3-bucket", "b", "--max-concurrent-jobs", "0"), "--max-concurrent-jobs"),
        (("--s3-bucket", "b", "--max-parallel-runs", "0"), "--max-parallel-runs"),
        (("--s3-bucket", "b", "--store-cache-mib", "-1"), "--store-cache-mib must be 0"),
    ],
)
def test_bad_settings_name_the_flag(argv: tuple[str, ...], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        from_flags(parse(*argv))


def test_a_malformed_variable_names_the_flag_and_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NBMOD_RETRY_SECONDS", "soon")
    with pytest.raises(SettingsError, match="--retry-seconds / NBMOD_RETRY_SECONDS: not a number"):
        from_flags(parse("--s3-bucket", "b"))


def test_fleet_runner_defaults_reach_the_jobs_and_bad_ones_name_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gpu = '{"resources": {"limits": {"nvidia.com/gpu": 1}}}'
    settings = from_flags(parse("--s3-bucket", "b", "--runner-defaults", gpu))
    resources = settings.jobs().runner_defaults.resources
    assert resources is not None and resources.limits == {"nvidia.com/gpu": 1}
    monkeypatch.setenv("NBMOD_RUNNER_DEFAULTS", '{"nodeSelector": {"bad key!": "x"}}')
    with pytest.raises(SettingsError, match=r"--runner-defaults / NBMOD_RUNNER_DEFAULTS: node"):
        from_flags(parse("--s3-bucket", "b"))


def test_runner_pods_get_grants_unless_an_s3_secret_opts_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("NBMOD_S3_SECRET", raising=False)
    default = from_flags(parse("--s3-bucket", "b"))
    assert default.s3_secret is None and default.jobs().s3_credentials_secret is None
    opt_out = from_flags(parse("--s3-bucket", "b", "--s3-secret", "keys"))
    assert opt_out.jobs().s3_credentials_secret == "keys"
    monkeypatch.setenv("NBMOD_MAX_SUBMISSION_ROWS", "5")
    bounded = from_flags(
        parse("--s3-bucket", "b", "--max-input-files", "7", "--max-submission-bytes", "99")
    )
    assert (bounded.max_input_files, bounded.max_input_bytes) == (7, 20 * 2**30)
    assert bounded.submission_limits() == SubmissionLimits(max_bytes=99, max_rows=5)
    assert bounded.jobs().max_submission_bytes == 99  # the runner keeps no larger one
