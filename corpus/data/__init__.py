"""The synthetic data of the corpus's cases, one module per competition: what several cases of a
competition share is generated here once; each case's `make_data.py` names its module and the
variant it needs. `python -m corpus.data` regenerates every case (see `__main__`)."""
