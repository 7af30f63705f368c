"""The end-to-end tests of the operator and of the Kubernetes harness (testing/k8s/)."""
