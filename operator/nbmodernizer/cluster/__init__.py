"""What only the Kubernetes side needs: the CRD generated from the spec models, and the Job
built for each iteration. Both are pure: nothing here talks to a cluster.
"""
