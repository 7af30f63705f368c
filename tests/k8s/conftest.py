"""Register the Kubernetes harness's fixtures for the tests under tests/k8s/."""

from testing.environments import other_environment  # noqa: F401
from testing.k8s.fixtures import (  # noqa: F401
    k8s_api,
    k8s_emulator,
    k8s_server,
    kopf_operator,
    kube_tools,
    kubectl,
    kubelet,
)
from testing.k8s.product import (  # noqa: F401
    nbmod_operator,
    product_s3_bucket,
    runner_kubelet,
    s3_secret,
    store,
)
