"""Only what the operator needs: the kopf controller, reconcile, the Kubernetes API client,
the Job of each iteration and its state, the status conditions, the settings, and the CRD
generated from the spec models. The only package that imports kubernetes and kopf; `crd.py`
and `jobs.py` are pure: nothing there talks to a cluster (both checked by the import
contracts in pyproject.toml).
"""
