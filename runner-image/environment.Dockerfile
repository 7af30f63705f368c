# The environment image: where the notebook runs when a resource sets no
# `spec.execution.image` (the Job's `probe` and `kernel` containers; cluster/pod_split.py).
# The ML stack legacy Kaggle notebooks import, pinned by requirements.lock (see README.md next
# to this file), with ipykernel; no nbmodernizer: the runner image copies its stdlib-only
# kernelhost.py and envprobe.py into the pod, and this image's own `python` runs them, as it
# would run them in any image (Kaggle's own, a company's). Context: the repo root.
#
#   CPU:   docker build -f runner-image/environment.Dockerfile \
#            -t ghcr.io/nbmodernizer/environment:0.1.0 .
#   CUDA:  docker build -f runner-image/environment.Dockerfile --build-arg VARIANT=cuda \
#            -t ghcr.io/nbmodernizer/environment:0.1.0-cuda .
#
# The variants differ in torch's build only; every other library is the same.

# The Python the locks were resolved with (scripts/lock-runner); Debian pinned too.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
# cpu: torch's CPU build from PyTorch's index (2.13.0+cpu satisfies the lock's torch==2.13.0
# and pip prefers it to PyPI's 2.13.0). cuda: PyPI's default torch, the CUDA build, whose CUDA
# libraries are nvidia-* wheels pinned by requirements-cuda.lock; the GPU driver is the
# node's, mounted by the NVIDIA container toolkit. TensorFlow stays tensorflow-cpu in both.
ARG VARIANT=cpu
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /src

COPY runner-image/requirements.lock runner-image/requirements-cuda.lock runner-image/
RUN case "$VARIANT" in \
      cpu) torch_index=https://download.pytorch.org/whl/cpu ;; \
      cuda) torch_index=https://pypi.org/simple ;; \
      *) echo "VARIANT must be cpu or cuda, not '$VARIANT'" >&2; exit 1 ;; \
    esac \
 && pip install --no-cache-dir --extra-index-url "$torch_index" \
      -r runner-image/requirements.lock -c runner-image/requirements-cuda.lock \
 && pip check \
 && torch_build="$(python -c 'import torch; print("cpu" if torch.version.cuda is None else "cuda")')" \
 && test "$torch_build" = "$VARIANT"

COPY runner-image/smoke.py runner-image/
RUN python runner-image/smoke.py runner-image/requirements.lock > /dev/null


FROM ${PYTHON_IMAGE}
# HOME and MPLCONFIGDIR as the Job sets them: its root filesystem is read-only, /tmp is not.
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOME=/tmp \
    MPLCONFIGDIR=/tmp/matplotlib \
    NVIDIA_DRIVER_CAPABILITIES=compute,utility
# uid/gid 1000: the Job's runAsUser (jobs.RUNNER_UID). A passwd entry, because some libraries
# ask for the user's name (getpass.getuser()). /kaggle/*: where Kaggle notebooks read and write;
# the Job mounts volumes there, and `docker run` finds them too.
RUN groupadd --gid 1000 runner \
 && useradd --uid 1000 --gid 1000 --home-dir /tmp --no-create-home --shell /usr/sbin/nologin runner \
 && mkdir -p /kaggle/input /kaggle/working \
 && chown 1000:1000 /kaggle/working
COPY --from=build /opt/venv /opt/venv
WORKDIR /kaggle/working
USER 1000:1000
# The Job gives the command (`python /nbmod-tools/kernelhost.py ...`); alone, an interpreter.
CMD ["python"]
