"""Issue 11's fixes from trying the console as a new user: Redact asks for a reason and the path
typed in, Delete warns of waiting set-aside text, the API's own pages, times with their zone, a
phone-width page, and the people's API redaction keeping the reason."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders

from stores.models import Memory

pytestmark = pytest.mark.django_db


@pytest.fixture
def carol(signed_in):
    return signed_in("contact")


def redact_url(scene) -> str:
    return f"/console/stores/{scene.store.public_id}/deleted/{scene.deleted.public_id}/redact/"


def test_redact_page_asks_for_a_reason_and_the_path(carol, scene):
    body = carol.get(redact_url(scene)).content.decode()
    assert 'name="reason"' in body and 'name="confirm_path"' in body


def test_redact_refuses_a_path_that_does_not_match(carol, scene):
    response = carol.post(redact_url(scene), {"confirm": "yes", "reason": "wrong time", "confirm_path": "/data/other.md"})
    assert response.status_code == 400
    assert "does not match /data/orders-feed.md" in response.content.decode()
    assert Memory.objects.get(pk=scene.deleted.pk).redacted_at is None


def test_redact_needs_a_reason(carol, scene):
    response = carol.post(redact_url(scene), {"confirm": "yes", "confirm_path": scene.deleted.path})
    assert response.status_code == 400
    assert "Give a reason" in response.content.decode()
    assert Memory.objects.get(pk=scene.deleted.pk).redacted_at is None


def test_redact_keeps_the_reason_without_the_text(carol, scene):
    reason = "It named the feed time: The orders feed arrived at 06:00 UTC."
    response = carol.post(redact_url(scene), {"confirm": "yes", "reason": reason, "confirm_path": scene.deleted.path})
    assert response.status_code == 302
    memory = Memory.objects.get(pk=scene.deleted.pk)
    assert memory.redacted_at is not None
    assert memory.redacted_by["reason"].startswith("It named the feed time")
    assert "06:00" not in memory.redacted_by["reason"]  # the redacted text's line is not quoted back


def test_delete_warns_when_set_aside_text_is_waiting(carol, scene):
    url = f"/console/stores/{scene.store.public_id}/memories/{scene.live.public_id}/delete/"
    body = carol.get(url).content.decode()
    assert "Set-aside text is waiting for this file." in body
    assert f"/console/set-asides/{scene.set_aside.public_id}/" in body


def test_delete_without_set_aside_text_does_not_warn(carol, scene, world):
    from tests import factories as f

    other = f.make_memory(scene.store, "/data/plain.md", "A plain note.\n")
    body = carol.get(f"/console/stores/{scene.store.public_id}/memories/{other.public_id}/delete/").content.decode()
    assert "Set-aside text is waiting" not in body


def test_times_show_their_time_zone(carol, scene):
    body = carol.get(f"/console/stores/{scene.store.public_id}/memories/{scene.live.public_id}/").content.decode()
    assert re.search(r"\d{2}:\d{2}:\d{2} UTC", body)
    body = carol.get(f"/console/stores/{scene.store.public_id}/").content.decode()
    assert re.search(r"\d{2}:\d{2} UTC", body)


def test_pages_have_a_viewport_and_a_phone_layout(carol):
    body = carol.get("/console/").content.decode()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in body
    assert "@media (max-width: 640px)" in body


def test_api_index_names_the_schema_and_the_docs(client):
    response = client.get("/api/")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    body = response.content.decode()
    assert 'href="/api/schema/"' in body and 'href="/api/docs/"' in body


def test_api_docs_use_installed_files_and_no_inline_script(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    body = response.content.decode()
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", body, re.S)
    assert scripts and all('src="/static/' in attrs and not inner.strip() for attrs, inner in scripts)
    assert "http://" not in body and "https://" not in body  # nothing from a CDN
    for path in re.findall(r'(?:src|href)="/static/([^"]+)"', body):
        assert finders.find(path), path  # served from installed packages and the project
    assert 'data-schema-url="/api/schema/"' in body
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert "unsafe-inline" not in response["Content-Security-Policy"].split("script-src", 1)[1].split(";")[0]
    assert client.get("/api/schema/").status_code == 200


def test_unknown_api_routes_still_answer_in_the_api_envelope(client):
    response = client.get("/api/v1/nothing-here")
    assert response.status_code == 404
    assert response.json()["type"] == "error"


def test_people_api_redaction_keeps_the_reason(api, world, scene):
    url = f"/api/v1/memory_stores/{scene.store.public_id}/deleted_memories/{scene.deleted.public_id}/redact"
    response = api.as_token(world.contact_token).post(url, {"reason": "holds a time we must not keep"}, format="json")
    assert response.status_code == 200
    assert Memory.objects.get(pk=scene.deleted.pk).redacted_by["reason"] == "holds a time we must not keep"
