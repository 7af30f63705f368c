"""Fixers turn a diagnosed revision into the next one. See `base` for the interface."""

from nbmodernizer.fixers.base import ChainResult, Fixer, FixerChain, FixProposal, FixRequest
from nbmodernizer.fixers.registry import build_chain

__all__ = ["ChainResult", "FixProposal", "FixRequest", "Fixer", "FixerChain", "build_chain"]
