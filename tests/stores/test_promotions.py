"""Promotion of a project note to the practice store or a toolset store: the governance rule, who
proposes and approves, the checks at proposal and at landing, path_taken, and provenance."""

from __future__ import annotations

import pytest

from stores.console_checks.reasons import Reason
from stores.errors import ConsoleError, InvalidRequest, PathConflict, PermissionDenied, Refused
from stores.models import (
    Client,
    Memory,
    Promotion,
    PromotionDecision,
    PromotionStatus,
    Refusal,
    Store,
)
from stores.services import version_hooks
from stores.services.governance import DEFAULT_RULE, promotion_rule
from stores.services.memories import memory_delete
from stores.services.promotions import (
    approvals_needed,
    may_decide,
    promotion_approve,
    promotion_propose,
    promotion_refuse,
    promotion_targets,
)
from stores.services.redaction import memory_redact_all_versions
from tests import factories as f

pytestmark = pytest.mark.django_db

NOTE = (
    "# Incremental models\n\nUse `is_incremental()` with a lookback window of two days.\n\nSeen on ACME-12.\n"
)
GENERAL = "# Incremental models\n\nUse `is_incremental()` with a lookback window of two days.\n"
TWO_OF_BOTH = "---\npromotion:\n  approvals: 2  # at least 1\n  approvers: [console_admins, escalation_contacts]\n---\n# Rules\n"


def note(world, path: str = "/conventions/incremental.md", text: str = NOTE) -> Memory:
    return f.make_memory(world.project_store, path, text)


def propose(
    world,
    memory: Memory,
    *,
    user=None,
    target: Store | None = None,
    path: str | None = None,
    text: str = GENERAL,
    reason: str = "Holds for every dbt project.",
) -> Promotion:
    return promotion_propose(
        user=user or world.contact,
        store=world.project_store,
        memory_id=memory.public_id,
        target_store_id=(target or world.practice).public_id,
        path=path or memory.path,
        text=text,
        reason=reason,
    )


def set_template(world, text: str) -> None:
    world.project.governance_template = text
    world.project.save(update_fields=["governance_template"])


def practice_snapshot(world) -> list[tuple]:
    return list(
        Memory.objects.filter(store=world.practice)
        .order_by("pk")
        .values_list("pk", "path", "content", "head_version_id")
    )


# --- the rule -----------------------------------------------------------------------------------


def test_without_a_block_one_console_admin_approves():
    assert promotion_rule("# Governance\nLessons need review.\n") == DEFAULT_RULE
    assert promotion_rule("") == DEFAULT_RULE
    assert DEFAULT_RULE.approvals == 1 and DEFAULT_RULE.approvers == ("console_admins",)
    assert "1 approval from console admins" in DEFAULT_RULE.summary


def test_a_block_sets_the_count_and_the_groups_and_admins_always_count():
    rule = promotion_rule(TWO_OF_BOTH)
    assert (
        rule.approvals == 2
        and rule.approvers == ("console_admins", "escalation_contacts")
        and rule.from_template
    )
    assert "at least one of them a console admin's" in rule.summary
    # A block naming only the contacts still needs (and lets) a console admin approve.
    only_contacts = promotion_rule("---\npromotion:\n  approvers: [escalation_contacts]\n---\n")
    assert only_contacts.approvers == ("console_admins", "escalation_contacts")


@pytest.mark.parametrize(
    ("template", "line", "says"),
    [
        ("---\npromotion:\n  approvals: 0\n---\n", 3, "at least 1 approval; write `approvals: 1`"),
        ("---\npromotion:\n  approvals: two\n---\n", 3, "approvals must be a whole number"),
        ("---\npromotion:\n  approvals: true\n---\n", 3, "approvals must be a whole number"),
        (
            "---\npromotion:\n  approvals: 1\n  approvers: [admins]\n---\n",
            4,
            "unknown approver group 'admins'",
        ),
        (
            "---\npromotion:\n  approvers:\n    - escalation_contacts\n    - cto\n---\n",
            5,
            "write one of console_admins",
        ),
        ("---\npromotion:\n  approvers: console_admins\n---\n", 3, "non-empty list"),
        (
            "---\npromotion:\n  approver: [console_admins]\n---\n",
            3,
            "unknown key 'approver' under promotion (did you mean approvers?)",
        ),
        ("---\n# who approves\npromotions:\n  approvals: 1\n---\n", 3, "unknown key 'promotions'"),
        ("---\npromotion: yes\n---\n", 2, "`promotion` must be a mapping"),
        ("---\npromotion:\n  approvals: [1\n---\n", 3, "not valid YAML"),
        ("---\npromotion:\n  approvals: 1\n# never closed\n", 1, "no line closes it"),
    ],
)
def test_a_malformed_block_is_refused_naming_the_line_and_what_to_write(template, line, says):
    with pytest.raises(InvalidRequest) as caught:
        promotion_rule(template)
    assert caught.value.code == Reason.GOVERNANCE_TEMPLATE_INVALID
    assert caught.value.message.startswith(f"Governance template, line {line}: ")
    assert says in caught.value.message


# --- proposing ------------------------------------------------------------------------------------


def test_the_targets_are_the_practice_store_and_the_projects_toolset_stores(world):
    f.make_toolset("looker")  # not one of ACME's toolsets
    targets = promotion_targets(world.project_store)
    assert [s.kind for s in targets] == ["practice", "toolset"]
    assert targets[1] == Store.objects.get(toolset=world.toolset)
    assert promotion_targets(world.practice) == []


def test_a_contact_proposes_and_the_rule_is_kept_on_the_promotion(world):
    memory = note(world)
    set_template(world, TWO_OF_BOTH)
    promotion = propose(world, memory)
    assert promotion.status == PromotionStatus.PENDING
    assert promotion.public_id.startswith("promo_")
    assert promotion.source_version_id == memory.head_version_id and promotion.source_path == memory.path
    assert promotion.path == memory.path and promotion.text == GENERAL
    assert promotion.rule["approvals"] == 2 and promotion.rule["from_template"] is True
    assert not Memory.objects.filter(store=world.practice).exists()


@pytest.mark.parametrize("who", ["other_contact", "staff"])
def test_only_people_who_may_edit_the_project_store_propose(world, who):
    memory = note(world)
    with pytest.raises(PermissionDenied) as caught:
        propose(world, memory, user=getattr(world, who))
    assert caught.value.code == Reason.PERSON_NOT_PERMITTED
    assert not Promotion.objects.exists()


def test_a_target_outside_the_projects_toolsets_is_refused(world):
    memory = note(world)
    looker = f.make_toolset("looker")
    with pytest.raises(InvalidRequest):
        propose(world, memory, target=Store.objects.get(toolset=looker))
    assert not Promotion.objects.exists()


def test_a_promotion_carrying_a_clients_name_into_the_practice_store_is_refused_naming_the_passage(world):
    memory = note(world)
    text = (
        "# Incremental models\n\nUse a lookback window of two days.\nAcme Analytics loads late on Mondays.\n"
    )
    with pytest.raises(Refused) as caught:
        propose(world, memory, text=text)
    refused = caught.value
    assert refused.code == Reason.CLIENT_DETAIL
    assert "on line 4" in refused.message and "'Acme" in refused.message
    findings = refused.decision.details["findings"]
    assert {"kind": "client name", "term": "Acme Analytics", "line": 4} in findings
    assert all(finding["line"] == 4 for finding in findings)
    assert not Promotion.objects.exists() and not Memory.objects.filter(store=world.practice).exists()


def test_the_project_key_or_a_client_name_in_the_path_is_refused_too(world):
    memory = note(world)
    with pytest.raises(Refused) as caught:
        propose(world, memory, path="/conventions/acme-incremental.md")
    assert caught.value.code == Reason.CLIENT_DETAIL and "in the path" in caught.value.message
    # The project note as it is names the project key: refused for a shared store.
    with pytest.raises(Refused) as caught:
        propose(world, memory, text=NOTE)
    assert caught.value.code == Reason.CLIENT_DETAIL and "line 5" in caught.value.message


def test_a_secret_is_refused_as_in_any_store(world):
    memory = note(world)
    key = "AKIA" + "Q3EGUJXN" + "5B7VTR2M"  # assembled at run time: no secret sits in the repository
    with pytest.raises(Refused) as caught:
        propose(world, memory, text=f"Use the deploy key {key} for loads.\n")
    assert caught.value.code == Reason.SECRET_DETECTED


def test_a_path_taken_in_the_target_store_is_refused_when_proposing(world):
    memory = note(world)
    f.make_memory(world.practice, memory.path, "Another lesson.\n")
    with pytest.raises(PathConflict) as caught:
        propose(world, memory)
    assert caught.value.code == Reason.PATH_TAKEN and caught.value.status == 409
    assert not Promotion.objects.exists()


def test_a_malformed_template_keeps_promotions_from_opening(world):
    memory = note(world)
    set_template(world, "---\npromotion:\n  approvals: 0\n---\n")
    with pytest.raises(InvalidRequest) as caught:
        propose(world, memory)
    assert caught.value.code == Reason.GOVERNANCE_TEMPLATE_INVALID and "line 3" in caught.value.message


# --- approving -------------------------------------------------------------------------------------


def test_the_default_rule_lands_on_one_admins_approval_through_the_checks_as_door_promotion(world):
    memory = note(world)
    promotion = propose(world, memory)
    seen = []

    def listener(event):
        seen.append((event.store.pk, event.writer.door, event.writer.name))

    version_hooks.on_version_written(listener)
    try:
        decided = promotion_approve(
            user=world.admin, promotion_id=promotion.public_id, reason="General dbt lesson."
        )
    finally:
        version_hooks._listeners.remove(listener)
    assert decided.status == PromotionStatus.APPROVED and decided.decided_at is not None
    landed = Memory.objects.get(store=world.practice, path=memory.path)
    assert decided.landed_memory == landed and decided.landed_version_id == landed.head_version_id
    assert landed.content == GENERAL
    assert seen == [(world.practice.pk, "promotion", "root-admin")]
    version = landed.history.get()
    assert version.provenance == {
        "type": "promotion",
        "promotion_id": promotion.public_id,
        "store_id": world.project_store.public_id,
        "memory_id": memory.public_id,
        "version_id": memory.head_version_id,
    }
    assert version.history_change_reason == f"promoted from {memory.public_id} ({promotion.public_id})"
    assert version.actor["name"] == "root-admin"
    decision = PromotionDecision.objects.get()
    assert (decision.user, decision.kind, decision.as_console_admin, decision.reason) == (
        world.admin,
        "approve",
        True,
        "General dbt lesson.",
    )
    # The project note is unchanged.
    assert Memory.objects.get(pk=memory.pk).content == NOTE


def test_two_approvals_with_an_admins_and_the_proposer_never_counts(world):
    set_template(world, TWO_OF_BOTH)
    second_contact = f.make_user("frank")
    f.add_contact(world.project, second_contact)
    memory = note(world)
    promotion = propose(world, memory)  # carol proposes
    with pytest.raises(PermissionDenied) as caught:
        promotion_approve(user=world.contact, promotion_id=promotion.public_id, reason="mine")
    assert (
        caught.value.code == Reason.PERSON_NOT_PERMITTED and "proposer never counts" in caught.value.message
    )
    assert not PromotionDecision.objects.exists()
    # An escalation contact of another project is not named by the rule.
    with pytest.raises(PermissionDenied):
        promotion_approve(user=world.other_contact, promotion_id=promotion.public_id, reason="looks fine")

    promotion = promotion_approve(user=second_contact, promotion_id=promotion.public_id, reason="Agreed.")
    assert promotion.status == PromotionStatus.PENDING
    assert approvals_needed(promotion) == (1, True)
    with pytest.raises(InvalidRequest) as caught:
        promotion_approve(user=second_contact, promotion_id=promotion.public_id, reason="again")
    assert caught.value.code == Reason.ALREADY_APPROVED
    assert not may_decide(second_contact, promotion)
    assert not Memory.objects.filter(store=world.practice).exists()

    promotion = promotion_approve(user=world.admin, promotion_id=promotion.public_id, reason="Yes.")
    assert promotion.status == PromotionStatus.APPROVED
    assert Memory.objects.filter(store=world.practice, path=memory.path).exists()


def test_the_count_reached_without_a_console_admin_waits_for_one(world):
    set_template(world, "---\npromotion:\n  approvals: 1\n  approvers: [escalation_contacts]\n---\n")
    second_contact = f.make_user("frank")
    f.add_contact(world.project, second_contact)
    promotion = propose(world, note(world))
    promotion = promotion_approve(user=second_contact, promotion_id=promotion.public_id, reason="Agreed.")
    assert promotion.status == PromotionStatus.PENDING and approvals_needed(promotion) == (0, True)
    assert not Memory.objects.filter(store=world.practice).exists()
    promotion = promotion_approve(user=world.admin, promotion_id=promotion.public_id, reason="Yes.")
    assert promotion.status == PromotionStatus.APPROVED
    # The landing's writer is the admin, who keeps shared stores.
    assert promotion.landed_memory.history.get().actor["name"] == "root-admin"


def test_an_admin_approval_before_a_contacts_lands_as_the_admin(world):
    set_template(world, TWO_OF_BOTH)
    second_contact = f.make_user("frank")
    f.add_contact(world.project, second_contact)
    promotion = propose(world, note(world))
    promotion_approve(user=world.admin, promotion_id=promotion.public_id, reason="Yes.")
    promotion = promotion_approve(user=second_contact, promotion_id=promotion.public_id, reason="Agreed.")
    assert promotion.status == PromotionStatus.APPROVED
    assert promotion.landed_memory.history.get().actor["name"] == "root-admin"


def test_a_contact_is_not_an_approver_unless_the_rule_names_the_contacts(world):
    second_contact = f.make_user("frank")
    f.add_contact(world.project, second_contact)
    promotion = propose(world, note(world))  # the default rule: console admins only
    with pytest.raises(PermissionDenied):
        promotion_approve(user=second_contact, promotion_id=promotion.public_id, reason="Agreed.")


def test_a_toolset_store_takes_a_promotion_too(world):
    memory = note(world)
    toolset_store = Store.objects.get(toolset=world.toolset)
    promotion = propose(world, memory, target=toolset_store, path="/dbt/incremental.md")
    promotion = promotion_approve(user=world.admin, promotion_id=promotion.public_id, reason="dbt lesson")
    assert (
        promotion.landed_memory.store == toolset_store
        and promotion.landed_memory.path == "/dbt/incremental.md"
    )


def test_a_path_taken_by_the_time_of_approval_is_refused_with_path_taken_and_no_store_changes(world):
    memory = note(world)
    promotion = propose(world, memory)
    f.make_memory(world.practice, memory.path, "Someone wrote here meanwhile.\n")
    before = practice_snapshot(world)
    with pytest.raises(PathConflict) as caught:
        promotion_approve(user=world.admin, promotion_id=promotion.public_id, reason="Yes.")
    assert caught.value.code == Reason.PATH_TAKEN and caught.value.status == 409
    assert practice_snapshot(world) == before
    promotion.refresh_from_db()
    assert promotion.status == PromotionStatus.FAILED and promotion.failure_code == "path_taken"
    assert promotion.landed_memory is None
    assert "The path is taken" in promotion.failure_message
    # It takes no more decisions.
    with pytest.raises(InvalidRequest) as caught:
        promotion_approve(user=f.make_user(admin=True), promotion_id=promotion.public_id, reason="again")
    assert caught.value.code == Reason.PROMOTION_DECIDED


def test_text_the_checks_refuse_by_the_time_of_approval_is_refused_as_door_promotion(world):
    memory = note(world)
    text = "# Loads\n\nThe Zorblax loader retries twice.\n"
    promotion = propose(world, memory, text=text)
    # The registry learns a client name after the proposal: the landing is checked again.
    Client.objects.create(name="Zorblax Ltd", aliases=["Zorblax"])
    before = practice_snapshot(world)
    with pytest.raises(Refused) as caught:
        promotion_approve(user=world.admin, promotion_id=promotion.public_id, reason="Yes.")
    assert caught.value.code == Reason.CLIENT_DETAIL and "line 3" in caught.value.message
    assert practice_snapshot(world) == before
    promotion.refresh_from_db()
    assert promotion.status == PromotionStatus.FAILED and promotion.failure_code == "client_detail"
    refusal = Refusal.objects.get(store=world.practice)
    assert refusal.door == "promotion" and refusal.code == "client_detail" and refusal.operation == "create"


def test_a_refusal_records_who_and_why_and_changes_no_store(world):
    memory = note(world)
    promotion = propose(world, memory)
    before = practice_snapshot(world)
    with pytest.raises(InvalidRequest):
        promotion_refuse(user=world.admin, promotion_id=promotion.public_id, reason="  ")
    with pytest.raises(PermissionDenied):
        promotion_refuse(user=world.contact, promotion_id=promotion.public_id, reason="changed my mind")
    promotion = promotion_refuse(user=world.admin, promotion_id=promotion.public_id, reason="Too specific.")
    assert promotion.status == PromotionStatus.REFUSED and promotion.decided_at is not None
    decision = PromotionDecision.objects.get()
    assert (decision.user, decision.kind, decision.reason) == (world.admin, "refuse", "Too specific.")
    assert practice_snapshot(world) == before
    with pytest.raises(ConsoleError) as caught:
        promotion_approve(user=world.admin, promotion_id=promotion.public_id, reason="Yes after all.")
    assert caught.value.code == Reason.PROMOTION_DECIDED


def test_redacting_the_project_note_blanks_the_promotions_copy(world):
    memory = note(world)
    promotion = propose(world, memory, reason="Lookback window of two days holds everywhere.")
    promotion_refuse(
        user=world.admin,
        promotion_id=promotion.public_id,
        reason="Use `is_incremental()` with a lookback window of two days. is too vague",
    )
    admin = f.person_writer(world.admin)
    memory_delete(writer=admin, store=world.project_store, memory_id=memory.public_id)
    memory_redact_all_versions(writer=admin, store=world.project_store, memory_id=memory.public_id)
    promotion.refresh_from_db()
    assert (promotion.text, promotion.path, promotion.source_path) == ("", "", "")
    assert "is_incremental" not in PromotionDecision.objects.get().reason


def test_a_secret_pasted_into_a_reason_is_kept_as_its_type_only(world):
    key = "AKIA" + "Q3EGUJXN" + "5B7VTR2M"  # assembled at run time: no secret sits in the repository
    promotion = propose(world, note(world), reason=f"Found while rotating {key}.")
    assert key not in promotion.reason and "[REDACTED:" in promotion.reason
    promotion_refuse(user=world.admin, promotion_id=promotion.public_id, reason=f"Rotate {key} first.")
    assert key not in PromotionDecision.objects.get().reason
