"""The fix memory: the fleet learns from the fixes it pays for.

When a paid (LLM) fix makes the error at issue go away, the edit is distilled into a
pattern (`pattern`: anti-unification of the changed statements) and kept under the error's
signature (`signature`) in a shared memory (`entries`, on a folder or an S3 prefix through
`objects`). The `memory` fixer (`fixer`, `apply`) applies remembered patterns to later
notebooks with the same error, at no cost; each use is scored after the revision it made
runs (`learn`), and entries that keep failing are retired. `export` turns proven entries
into rule proposals; `nbmod memory` is `nbmodernizer.commands.memory`.
"""

from nbmodernizer.fixers.memory.entries import Entry, FixMemory
from nbmodernizer.fixers.memory.fixer import MemoryFixer
from nbmodernizer.fixers.memory.learn import MemoryLearner
from nbmodernizer.fixers.memory.location import open_memory

__all__ = ["Entry", "FixMemory", "MemoryFixer", "MemoryLearner", "open_memory"]
