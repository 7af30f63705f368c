"""The rules' proofs against the past (issue #22), as stored in `past.json` beside this module:
what `past.py` found when it last ran every rule's examples in the era environments, and the
text docs/rules.md shows for it. Written by `python -m nbmodernizer.fixers.rules.past --write`;
a test fails when it is stale."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from importlib import resources
from typing import Any

RECORD = "past.json"


class Verdict(StrEnum):
    PROVEN = "proven"  # the legacy code in the era and the rewrite today bind the same values
    FAILED = "failed"  # they differ: the rewrite changed what the code means
    # they differ only in values the example explains (Example.era_differences): the
    # library's own change since, not the rule's
    DIFFERS = "differs"
    NOT_PROVABLE = (
        "not provable"  # the legacy code cannot run in any era, or binds nothing comparable
    )


@dataclass(frozen=True)
class Finding:
    verdict: Verdict
    reason: str = ""  # why it failed or cannot be proven, or how it differs; empty when proven
    why: str = ""  # for "differs": the example's written reasons for the differences


@dataclass(frozen=True)
class RuleFinding:
    verdict: Verdict
    eras: tuple[str, ...] = ()  # where it is proven (or failed, or differs)
    reason: str = ""
    why: str = ""  # for "differs": the written reasons


@dataclass(frozen=True)
class PastRecord:
    eras: Mapping[str, Mapping[str, Any]]  # era -> {"python": ..., "packages": {...}}
    rules: Mapping[str, RuleFinding]
    examples: Mapping[str, Mapping[str, Finding]] = field(default_factory=dict)  # id[n] -> era

    def to_json(self) -> str:
        data = {
            "eras": self.eras,
            "rules": {key: asdict(found) for key, found in sorted(self.rules.items())},
            "examples": {
                key: {era: asdict(found) for era, found in sorted(by_era.items())}
                for key, by_era in sorted(self.examples.items())
            },
        }
        return json.dumps(data, indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str) -> PastRecord:
        data = json.loads(text)
        rules = {
            key: RuleFinding(
                Verdict(found["verdict"]), tuple(found["eras"]), found["reason"], found["why"]
            )
            for key, found in data["rules"].items()
        }
        examples = {
            key: {
                era: Finding(Verdict(f["verdict"]), f["reason"], f["why"])
                for era, f in by_era.items()
            }
            for key, by_era in data["examples"].items()
        }
        return cls(data["eras"], rules, examples)

    def column(self, rule_id: str) -> str:
        """docs/rules.md's "proven against the past" for one rule."""
        found = self.rules.get(rule_id)
        if found is None:
            return "not run yet"
        why = f"; why: {found.why}" if found.why else ""
        if found.verdict is Verdict.PROVEN:
            notes = f" ({found.reason}{why})" if found.reason else ""
            return "yes: " + ", ".join(found.eras) + notes
        if found.verdict is Verdict.FAILED:
            return f"**fails** in {', '.join(found.eras)}: {found.reason}"
        if found.verdict is Verdict.DIFFERS:
            return f"differs in {', '.join(found.eras)}: {found.reason}{why}"
        return f"no: {found.reason}"

    def count_line(self, rule_ids: list[str]) -> str:
        found = [self.rules.get(rule_id) for rule_id in rule_ids]
        proven = sum(1 for f in found if f is not None and f.verdict is Verdict.PROVEN)
        failed = sum(1 for f in found if f is not None and f.verdict is Verdict.FAILED)
        differs = sum(1 for f in found if f is not None and f.verdict is Verdict.DIFFERS)
        explained = sum(1 for f in found if f is not None and f.why)
        lines = [
            f"Proven against the past: {proven} of {len(rule_ids)} rules; {failed} fail their "
            f"past proof; {differs} are proven nowhere but differ only in values whose "
            "difference their example explains; the others cannot be proven there (the reason "
            f"is in the column). {explained} rules, proven or not, carry such a written reason "
            "for a difference (the library's own change since, not the rule's).",
            "",
        ]
        for era, facts in sorted(self.eras.items()):
            versions = ", ".join(f"{name} {v}" for name, v in sorted(facts["packages"].items()))
            lines.append(f"- era {era}: Python {facts['python']}, {versions}")
        return "\n".join(lines)


def load() -> PastRecord:
    """The stored record (an empty one when none was written yet)."""
    stored = resources.files(__package__).joinpath(RECORD)
    if not stored.is_file():
        return PastRecord(eras={}, rules={})
    return PastRecord.from_json(stored.read_text())
