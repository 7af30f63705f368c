"""One package per library: `__init__.py` declares `LIBRARY` (a `model.Library`) and `RULES`;
its modules hold the rules of one topic each, with the transforms only they use. The catalog
discovers the packages; they never import each other (an import-linter contract checks it):
what two libraries share lives in `rules/toolkit/`."""
