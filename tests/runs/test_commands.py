"""The operator commands for a project's rulings: add_standing_decision and set_governance_template."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from stores.models import JiraProject, StandingDecision

pytestmark = pytest.mark.django_db


def run_json(*args) -> dict:
    out = io.StringIO()
    call_command(*args, "--json", stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue())


def test_add_standing_decision_prints_key_and_id(world, tmp_path):
    text = tmp_path / "ruling.md"
    text.write_text("Revenue is recognised on delivery, never on order.\n", encoding="utf-8")
    result = run_json("add_standing_decision", "acme", "Revenue recognition", "--text-file", str(text))
    decision = StandingDecision.objects.get()
    assert result == {"key": "ACME", "id": decision.pk}
    assert decision.title == "Revenue recognition" and decision.project == world.project
    assert decision.text == "Revenue is recognised on delivery, never on order."


def test_set_governance_template_prints_key(world, tmp_path):
    template = tmp_path / "governance.md"
    template.write_text("# Governance\nLessons reach the practice store only after review.\n", encoding="utf-8")
    assert run_json("set_governance_template", "ACME", str(template)) == {"key": "ACME"}
    assert JiraProject.objects.get(key="ACME").governance_template.startswith("# Governance")


@pytest.mark.parametrize(
    "args",
    [
        ("add_standing_decision", "NOPE", "T", "--text-file", "{file}"),
        ("add_standing_decision", "ACME", "T", "--text-file", "{missing}"),
        ("add_standing_decision", "ACME", " ", "--text-file", "{file}"),
        ("set_governance_template", "NOPE", "{file}"),
        ("set_governance_template", "ACME", "{missing}"),
    ],
)
def test_bad_input_is_a_clear_error(world, tmp_path, args):
    ok = tmp_path / "ok.md"
    ok.write_text("text\n", encoding="utf-8")
    filled = [a.format(file=ok, missing=tmp_path / "missing.md") for a in args]
    with pytest.raises(CommandError):
        call_command(*filled, stdout=io.StringIO(), stderr=io.StringIO())
    assert not StandingDecision.objects.exists()


def test_set_governance_template_refuses_a_malformed_promotion_block_naming_the_line(world, tmp_path):
    template = tmp_path / "governance.md"
    template.write_text("---\npromotion:\n  approvals: 2\n  approvers: [console_admins, ctos]\n---\n# Rules\n",
                        encoding="utf-8")
    before = JiraProject.objects.get(key="ACME").governance_template
    with pytest.raises(CommandError) as caught:
        call_command("set_governance_template", "ACME", str(template), stdout=io.StringIO(), stderr=io.StringIO())
    assert "line 4" in str(caught.value) and "unknown approver group 'ctos'" in str(caught.value)
    assert "console_admins, escalation_contacts" in str(caught.value)
    assert JiraProject.objects.get(key="ACME").governance_template == before


def test_set_governance_template_takes_a_well_formed_block(world, tmp_path):
    template = tmp_path / "governance.md"
    text = "---\npromotion:\n  approvals: 2\n  approvers: [console_admins, escalation_contacts]\n---\n# Rules\n"
    template.write_text(text, encoding="utf-8")
    assert run_json("set_governance_template", "ACME", str(template)) == {"key": "ACME"}
    assert JiraProject.objects.get(key="ACME").governance_template == text.strip()
