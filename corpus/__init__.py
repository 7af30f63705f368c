"""The census of real failures, the removal lists, and the runnable corpus of issue #9."""
