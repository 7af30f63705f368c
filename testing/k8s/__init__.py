"""A Kubernetes test harness without a cluster: KMock's emulator, a fake kubelet, kubectl."""
