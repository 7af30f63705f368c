"""What the rule libraries share: the one way to rewrite a cell, and helpers for LibCST rules.

* `cells`: a cell as rules see it (IPython lines masked), a LibCST or text rewrite applied to it;
* `imports`: how the notebook names a module or object, and the one import inserter;
* `nodes`: node <-> code, names, literals, subscripts, statements;
* `calls`: reading and editing a call's arguments, matching callees;
* `moves`: modules, names, attributes and methods that moved or were renamed;
* `text`: rewriting cells that do not parse (Python 2): a lexer and edits on the text;
* `probes`: does the installed library still have the legacy API;
* `examples`: preambles that several libraries' examples share.

Rule libraries (`rules/libraries/<lib>/`) import the toolkit, never each other.
"""
