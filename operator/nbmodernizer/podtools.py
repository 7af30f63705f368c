"""The names of a runner pod's tools folder, through which our code reaches the notebook's
image (cluster/pod_split.py mounts it; `nbmod run-iteration --stage fetch --tools-dir` fills
it): stdlib-only programs that the image's own python runs, and what they are asked. Pure:
names, no I/O."""

from __future__ import annotations

KERNELHOST = "kernelhost.py"  # nbmodernizer/kernelhost.py: the kernel's host, the probe runner
ENVPROBE = "envprobe.py"  # nbmodernizer/envprobe.py: the declarative probes' evaluator
PROBE_REQUEST = "request.json"  # what envprobe.py is asked, for the notebook's imports
