"""`nbmod scan` and `nbmod fix`: the rulebook's proactive rules on files, without running them
(sources: reading and writing files; finding: what the rules change, where; formats: text,
JSON, SARIF; summary: counts and triage; batch: many files in processes; commands: the CLI)."""
