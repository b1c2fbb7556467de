"""The governance rule for promotions: who approves a note moving from a project to a shared store.

A project's governance template may open with YAML front matter::

    ---
    promotion:
      approvals: 2                        # at least 1
      approvers: [console_admins, escalation_contacts]
    ---

``promotion_rule`` is the one reader of it: the ``set_governance_template`` command, the admin's
project form and the promotion services all call it, so a block one of them takes the others
read the same way. Without the block, one console admin approves. Whatever the block says, at
least one of the approvals must be a console admin's: only admins keep shared stores.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

import yaml

from stores.console_checks.reasons import Reason
from stores.errors import InvalidRequest

CONSOLE_ADMINS = "console_admins"
ESCALATION_CONTACTS = "escalation_contacts"
# The groups a block may name, and how a page says them.
APPROVER_GROUPS: dict[str, str] = {
    CONSOLE_ADMINS: "console admins",
    ESCALATION_CONTACTS: "the project's escalation contacts",
}
FENCE = "---"
RULE_KEYS = ("approvals", "approvers")
EXAMPLE = "promotion: {approvals: 1, approvers: [console_admins]}"


@dataclass(frozen=True)
class PromotionRule:
    """How many approvals a promotion needs and from whom; ``from_template`` when a block said so."""

    approvals: int = 1
    approvers: tuple[str, ...] = (CONSOLE_ADMINS,)
    from_template: bool = False

    @property
    def summary(self) -> str:
        """The rule as a sentence, shown on every promotion."""
        groups = " or ".join(APPROVER_GROUPS[g] for g in self.approvers)
        count = "1 approval" if self.approvals == 1 else f"{self.approvals} approvals"
        where = (
            "the project's governance template" if self.from_template else "the default (no promotion block)"
        )
        admin = "" if self.approvers == (CONSOLE_ADMINS,) else ", at least one of them a console admin's"
        return f"{count} from {groups}{admin}; the proposer never counts. Rule from {where}."

    def as_snapshot(self) -> dict[str, Any]:
        """What a promotion keeps of the rule it was opened under."""
        return {
            "approvals": self.approvals,
            "approvers": list(self.approvers),
            "from_template": self.from_template,
            "summary": self.summary,
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> PromotionRule:
        """The rule a promotion kept (``as_snapshot``)."""
        return cls(
            approvals=int(data.get("approvals", 1)),
            approvers=tuple(data.get("approvers") or (CONSOLE_ADMINS,)),
            from_template=bool(data.get("from_template", False)),
        )


DEFAULT_RULE = PromotionRule()


def _invalid(line: int, problem: str) -> InvalidRequest:
    return InvalidRequest(
        f"Governance template, line {line}: {problem}",
        code=Reason.GOVERNANCE_TEMPLATE_INVALID,
        extra={"line": line},
    )


def _front_matter(template: str) -> tuple[str, int] | None:
    """The front matter's YAML and the template line its first line is on; None without a block."""
    lines = template.split("\n")
    if not lines or lines[0].strip() != FENCE:
        return None
    for index in range(1, len(lines)):
        if lines[index].strip() == FENCE:
            return "\n".join(lines[1:index]), 2
    raise _invalid(
        1,
        f"the front matter opens with {FENCE} but no line closes it; end the block with a line holding only {FENCE}.",
    )


def _suggest(word: str, choices: tuple[str, ...] | list[str]) -> str:
    close = difflib.get_close_matches(str(word), list(choices), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def _key_nodes(node: yaml.MappingNode) -> list[tuple[yaml.Node, yaml.Node]]:
    return list(node.value)


def promotion_rule(template: str) -> PromotionRule:
    """The approval rule a project's governance template sets (the default rule without a block).

    Raises InvalidRequest (``governance_template_invalid``) naming the template's line and what
    to write instead, for a block that is not YAML, has unknown keys, wrong types, fewer than 1
    approval or an unknown approver group.
    """
    found = _front_matter(template or "")
    if found is None:
        return DEFAULT_RULE
    body, first = found

    def line_of(node: yaml.Node) -> int:
        return node.start_mark.line + first

    try:
        # compose keeps each node's line; safe_load's loader builds only plain values.
        root = yaml.compose(body, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + first if mark is not None else first
        problem = getattr(exc, "problem", None) or str(exc)
        raise _invalid(line, f"this is not valid YAML ({problem}); write it as `{EXAMPLE}`.") from exc
    if root is None:
        return DEFAULT_RULE
    if not isinstance(root, yaml.MappingNode):
        raise _invalid(line_of(root), f"the front matter must be a mapping such as `{EXAMPLE}`.")
    rule: PromotionRule | None = None
    for key_node, value_node in _key_nodes(root):
        key = key_node.value
        if key != "promotion":
            raise _invalid(
                line_of(key_node),
                f"unknown key '{key}'{_suggest(key, ['promotion'])}; the front matter holds only `promotion:` "
                f"(for example `{EXAMPLE}`).",
            )
        rule = _rule_from(value_node, line_of)
    return rule or DEFAULT_RULE


def _rule_from(node: yaml.Node, line_of) -> PromotionRule:
    if not isinstance(node, yaml.MappingNode):
        raise _invalid(
            line_of(node), f"`promotion` must be a mapping of approvals and approvers, such as `{EXAMPLE}`."
        )
    approvals = 1
    approvers: tuple[str, ...] = (CONSOLE_ADMINS,)
    for key_node, value_node in _key_nodes(node):
        key = key_node.value
        if key not in RULE_KEYS:
            raise _invalid(
                line_of(key_node),
                f"unknown key '{key}' under promotion{_suggest(key, RULE_KEYS)}; write `approvals:` (a number, "
                "at least 1) or `approvers:` (a list of console_admins, escalation_contacts).",
            )
        value = yaml.safe_load(yaml.serialize(value_node))
        if key == "approvals":
            if isinstance(value, bool) or not isinstance(value, int):
                raise _invalid(
                    line_of(value_node),
                    f"approvals must be a whole number, at least 1, such as `approvals: 2`; it is {value!r}.",
                )
            if value < 1:
                raise _invalid(
                    line_of(value_node),
                    f"approvals is {value}, but a promotion needs at least 1 approval; write `approvals: 1` or more.",
                )
            approvals = value
        else:
            approvers = _approvers_from(value_node, value, line_of)
    return PromotionRule(approvals=approvals, approvers=approvers, from_template=True)


def _approvers_from(node: yaml.Node, value: Any, line_of) -> tuple[str, ...]:
    known = tuple(APPROVER_GROUPS)
    if not isinstance(node, yaml.SequenceNode) or not value:
        raise _invalid(
            line_of(node),
            "approvers must be a non-empty list of groups, such as `approvers: [console_admins, escalation_contacts]`.",
        )
    groups: list[str] = []
    for item in node.value:
        name = item.value if isinstance(item, yaml.ScalarNode) else None
        if name not in APPROVER_GROUPS:
            shown = name if name is not None else yaml.safe_load(yaml.serialize(item))
            raise _invalid(
                line_of(item),
                f"unknown approver group {shown!r}{_suggest(shown, known)}; write one of {', '.join(known)}.",
            )
        if name not in groups:
            groups.append(name)
    # Console admins always approve too (one of the approvals must be theirs): listed first.
    ordered = [CONSOLE_ADMINS] + [g for g in groups if g != CONSOLE_ADMINS]
    return tuple(ordered)
