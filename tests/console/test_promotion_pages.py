"""The promotion pages through Django's test client: Propose for the practice store, the list, a
promotion's page with Approve and Refuse, and the links between the project note and what landed."""

from __future__ import annotations

import pytest

from stores.models import Memory, Promotion, PromotionStatus, Store
from tests import factories as f

from .html_tags import tags_in
from .test_csp import assert_locked_down

pytestmark = pytest.mark.django_db

NOTE = (
    "# Incremental models\n\nUse `is_incremental()` with a lookback window of two days.\n\nSeen on ACME-12.\n"
)
GENERAL = "# Incremental models\n\nUse `is_incremental()` with a lookback window of two days.\n"


@pytest.fixture
def memory(world) -> Memory:
    return f.make_memory(world.project_store, "/conventions/incremental.md", NOTE)


def promote_url(memory: Memory) -> str:
    return f"/console/stores/{memory.store.public_id}/memories/{memory.public_id}/promote/"


def memory_url(memory: Memory) -> str:
    return f"/console/stores/{memory.store.public_id}/memories/{memory.public_id}/"


def form(world, memory: Memory, **changes) -> dict:
    data = {
        "target_store": world.practice.public_id,
        "path": memory.path,
        "text": GENERAL,
        "reason": "Holds for every dbt project.",
    }
    data.update(changes)
    return data


def test_the_project_note_offers_the_proposal_to_those_who_may_edit_it(signed_in, world, memory):
    for role in ("contact", "admin"):
        page = signed_in(role).get(memory_url(memory)).content.decode()
        assert "Propose for the practice store" in page, role
    # A practice note offers no promotion.
    practice_note = f.make_memory(world.practice, "/lessons/general.md", "A general lesson.\n")
    assert (
        "Propose for the practice store"
        not in signed_in("admin").get(memory_url(practice_note)).content.decode()
    )
    assert signed_in("admin").get(promote_url(practice_note)).status_code == 404


@pytest.mark.parametrize("role", ["other_contact", "staff"])
def test_people_who_may_not_edit_the_project_store_get_404(signed_in, world, memory, role):
    client = signed_in(role)
    assert client.get(promote_url(memory)).status_code == 404
    assert client.post(promote_url(memory), form(world, memory)).status_code == 404
    assert not Promotion.objects.exists()


def test_the_form_defaults_to_the_project_path_and_the_notes_text(signed_in, world, memory):
    response = signed_in("contact").get(promote_url(memory))
    assert response.status_code == 200
    assert_locked_down(response)
    tags = tags_in(response.content.decode())
    path = next(a for t, a in tags if t == "input" and a.get("name") == "path")
    assert path["value"] == memory.path
    options = [a.get("value") for t, a in tags if t == "option"]
    assert options == [world.practice.public_id, Store.objects.get(toolset=world.toolset).public_id]
    assert "Seen on ACME-12." in response.content.decode()  # the text, editable, in the textarea


def test_a_clients_name_is_refused_naming_the_passage_and_the_form_keeps_the_text(signed_in, world, memory):
    text = (
        "# Incremental models\n\nUse a lookback window of two days.\nAcme Analytics loads late on Mondays.\n"
    )
    response = signed_in("contact").post(promote_url(memory), form(world, memory, text=text))
    assert response.status_code == 400
    page = response.content.decode()
    assert "client_detail" in page and "on line 4" in page
    assert "line 4:</span> Acme Analytics loads late on Mondays." in page
    assert "Your text is still in the form below." in page
    textarea = page.split('name="text"', 1)[1]
    assert "Acme Analytics loads late on Mondays." in textarea
    assert not Promotion.objects.exists()


def test_propose_then_approve_lands_and_the_pages_link_each_other(signed_in, world, memory):
    contact = signed_in("contact")
    response = contact.post(promote_url(memory), form(world, memory))
    promotion = Promotion.objects.get()
    assert (
        response.status_code == 302 and response["Location"] == f"/console/promotions/{promotion.public_id}/"
    )
    page = contact.get(response["Location"])
    assert_locked_down(page)
    html = page.content.decode()
    assert "Rule applied:" in html and "1 approval from console admins" in html
    assert "You proposed this promotion, so your approval does not count" in html
    assert '<button type="submit" name="approve">' not in html
    # The proposer's approve is refused, and nothing changes.
    refused = contact.post(f"/console/promotions/{promotion.public_id}/approve/", {"reason": "mine"})
    assert refused.status_code == 403 and "person_not_permitted" in refused.content.decode()
    assert not promotion.decisions.exists()
    pending = contact.get("/console/promotions/").content.decode().split("<h2>Decided</h2>")[0]
    assert f"/console/promotions/{promotion.public_id}/" in pending

    admin = signed_in("admin")
    page = admin.get(f"/console/promotions/{promotion.public_id}/").content.decode()
    assert 'name="approve"' in page and 'name="refuse"' in page
    assert (
        admin.post(f"/console/promotions/{promotion.public_id}/approve/", {"reason": ""}).status_code == 400
    )
    response = admin.post(
        f"/console/promotions/{promotion.public_id}/approve/", {"reason": "General lesson."}
    )
    assert response.status_code == 302
    promotion.refresh_from_db()
    assert promotion.status == PromotionStatus.APPROVED
    landed = promotion.landed_memory
    detail = admin.get(f"/console/promotions/{promotion.public_id}/").content.decode()
    assert "Landed in Practice" in detail and memory_url(landed) in detail and "General lesson." in detail
    # The project note links to what landed; the landed note links back to the promotion.
    note_page = admin.get(memory_url(memory)).content.decode()
    assert memory_url(landed) in note_page and promotion.public_id in note_page
    landed_page = admin.get(memory_url(landed)).content.decode()
    assert f"/console/promotions/{promotion.public_id}/" in landed_page
    assert f"promoted from {memory.public_id}" in landed_page


def test_the_list_shows_pending_and_decided_to_those_who_may_see(signed_in, world, memory):
    signed_in("contact").post(promote_url(memory), form(world, memory))
    other = f.make_memory(world.project_store, "/conventions/other.md", "Another lesson.\n")
    signed_in("contact").post(promote_url(other), form(world, other, text="Another lesson.\n"))
    first, second = Promotion.objects.order_by("created_at", "id")
    signed_in("admin").post(f"/console/promotions/{second.public_id}/refuse/", {"reason": "Too thin."})
    response = signed_in("admin").get("/console/promotions/")
    assert_locked_down(response)
    pending, decided = response.content.decode().split("<h2>Decided</h2>")
    assert first.public_id in pending and second.public_id in decided and "Refused" in decided
    assert first.public_id in signed_in("contact").get("/console/promotions/").content.decode()
    # An escalation contact of another project sees none of ACME's, and its page is a 404.
    dave = signed_in("other_contact")
    assert first.public_id not in dave.get("/console/promotions/").content.decode()
    assert dave.get(f"/console/promotions/{first.public_id}/").status_code == 404
    assert dave.post(f"/console/promotions/{first.public_id}/approve/", {"reason": "x"}).status_code == 404


def test_a_path_taken_by_approval_shows_path_taken_and_the_failed_promotion(signed_in, world, memory):
    signed_in("contact").post(promote_url(memory), form(world, memory))
    promotion = Promotion.objects.get()
    f.make_memory(world.practice, memory.path, "Written meanwhile.\n")
    response = signed_in("admin").post(
        f"/console/promotions/{promotion.public_id}/approve/", {"reason": "Yes."}
    )
    assert response.status_code == 409
    page = response.content.decode()
    assert "path_taken" in page and "It could not land, and no store changed" in page
    assert Memory.objects.get(store=world.practice, path=memory.path).content == "Written meanwhile.\n"


def test_a_two_approval_rule_shows_what_is_missing(signed_in, world, memory):
    world.project.governance_template = (
        "---\npromotion:\n  approvals: 2\n  approvers: [console_admins, escalation_contacts]\n---\n"
    )
    world.project.save()
    signed_in("admin").post(promote_url(memory), form(world, memory))  # an admin proposes
    promotion = Promotion.objects.get()
    page = signed_in("contact").get(f"/console/promotions/{promotion.public_id}/").content.decode()
    assert "2 approvals from console admins or the project&#x27;s escalation contacts" in page
    assert "0 of 2; 2 more needed; a console admin's still needed" in page
    signed_in("contact").post(f"/console/promotions/{promotion.public_id}/approve/", {"reason": "Agreed."})
    promotion.refresh_from_db()
    assert promotion.status == PromotionStatus.PENDING
    page = signed_in("admin").get(f"/console/promotions/{promotion.public_id}/").content.decode()
    assert "1 of 2; 1 more needed; a console admin's still needed" in page
    # The proposing admin cannot complete it: another admin must.
    assert "You proposed this promotion" in page
    second_admin = f.make_user("grace", admin=True)
    client = signed_in("anonymous")
    client.force_login(second_admin)
    client.post(f"/console/promotions/{promotion.public_id}/approve/", {"reason": "Yes."})
    promotion.refresh_from_db()
    assert promotion.status == PromotionStatus.APPROVED
