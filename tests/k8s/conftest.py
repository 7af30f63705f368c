"""Register the Kubernetes harness's fixtures for the tests under tests/k8s/."""

from tests.k8s.fixtures import (  # noqa: F401
    k8s_api,
    k8s_emulator,
    k8s_server,
    kopf_operator,
    kube_tools,
    kubectl,
    kubelet,
    real_cluster,
)
from tests.k8s.product import nbmod_operator, runner_kubelet, s3_secret  # noqa: F401
from tests.s3server import s3_bucket_fixture  # noqa: F401
