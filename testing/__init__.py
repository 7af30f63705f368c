"""What the tests and the benchmarks share: tiny notebooks, builders, real servers (S3, an
OpenAI-compatible LLM, Prometheus, a browser) and, in `testing.k8s`, the Kubernetes harness."""
