"""The admin: a project's governance template with a malformed promotion block is refused, naming
the line; promotions are read there, never edited."""

from __future__ import annotations

import pytest
from django.urls import reverse

from stores.models import JiraProject
from stores.services.promotions import promotion_propose
from tests import factories as f

pytestmark = pytest.mark.django_db


def project_form(project: JiraProject, template: str) -> dict:
    """The project's change form as the admin page posts it (no standing decisions inline)."""
    return {
        "key": project.key,
        "client": project.client_id,
        "toolsets": [t.pk for t in project.toolsets.all()],
        "escalation_contacts": [u.pk for u in project.escalation_contacts.all()],
        "governance_template": template,
        "engagement_closed_on": "",
        "standing_decisions-TOTAL_FORMS": "0",
        "standing_decisions-INITIAL_FORMS": "0",
        "standing_decisions-MIN_NUM_FORMS": "0",
        "standing_decisions-MAX_NUM_FORMS": "1000",
        "_save": "Save",
    }


def test_the_admin_refuses_a_malformed_block_naming_the_line(client, world):
    client.force_login(world.admin)
    url = reverse("admin:stores_jiraproject_change", args=[world.project.pk])
    bad = "---\npromotion:\n  approvals: 0\n---\n# Rules\n"
    response = client.post(url, project_form(world.project, bad))
    assert response.status_code == 200  # the form again, with the error
    page = response.content.decode()
    assert "Governance template, line 3: approvals is 0" in page
    assert JiraProject.objects.get(pk=world.project.pk).governance_template == ""

    good = (
        "---\npromotion:\n  approvals: 2\n  approvers: [console_admins, escalation_contacts]\n---\n# Rules\n"
    )
    response = client.post(url, project_form(world.project, good))
    assert response.status_code == 302
    assert JiraProject.objects.get(pk=world.project.pk).governance_template == good.strip()


def test_promotions_are_read_only_in_the_admin(client, world):
    memory = f.make_memory(world.project_store, "/conventions/lookback.md", "Use a two-day lookback.\n")
    promotion = promotion_propose(
        user=world.contact,
        store=world.project_store,
        memory_id=memory.public_id,
        target_store_id=world.practice.public_id,
        path=memory.path,
        text="Use a two-day lookback.\n",
        reason="General.",
    )
    client.force_login(world.admin)
    assert client.get(reverse("admin:stores_promotion_changelist")).status_code == 200
    page = client.get(reverse("admin:stores_promotion_change", args=[promotion.pk]))
    assert page.status_code == 200 and promotion.public_id in page.content.decode()
    assert client.get(reverse("admin:stores_promotion_add")).status_code == 403
    response = client.post(
        reverse("admin:stores_promotion_change", args=[promotion.pk]), {"path": "/other.md"}
    )
    assert response.status_code == 403
    promotion.refresh_from_db()
    assert promotion.path == "/conventions/lookback.md"
