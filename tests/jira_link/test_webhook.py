"""The Jira webhook: signed issue events refresh a ticket, and a reassignment takes effect at once."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets

import pytest

from jira_link.models import JiraTicket
from jira_link.services import ticket_assignee

URL = "/jira/webhook"
ABC_1 = "/rest/api/3/issue/ABC-1"


@pytest.fixture
def webhook_secret(settings) -> str:
    secret = "".join(["whsec", "-", secrets.token_hex(16)])  # built at run time: no secret in the repository
    settings.JIRA_WEBHOOK_SECRET = secret
    return secret


def sign(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def issue_event(
    key: str, assignee: str | None, *, project: str = "ABC", event: str = "jira:issue_updated"
) -> bytes:
    fields = {
        "assignee": None if assignee is None else {"accountId": assignee, "displayName": "Hosted Agent"},
        "project": {"key": project, "name": "ABC project"},
        "status": {"name": "In Progress"},
    }
    return json.dumps(
        {
            "timestamp": 1764510000000,
            "webhookEvent": event,
            "issue_event_type_name": "issue_assigned",
            "issue": {"id": "10002", "key": key, "fields": fields},
            "changelog": {"id": "10100", "items": [{"field": "assignee", "fieldtype": "jira"}]},
        }
    ).encode()


def post(client, body: bytes, signature: str | None):
    headers = {} if signature is None else {"HTTP_X_HUB_SIGNATURE": signature}
    return client.post(URL, data=body, content_type="application/json", **headers)


@pytest.mark.django_db
def test_signed_event_records_the_ticket(client, webhook_secret):
    body = issue_event("ABC-1", "acct-7")

    response = post(client, body, sign(webhook_secret, body))

    assert response.status_code == 200
    assert response.json() == {"ok": True}
    ticket = JiraTicket.objects.get(key="ABC-1")
    assert (ticket.project_key, ticket.assignee_account_id, ticket.status) == ("ABC", "acct-7", "In Progress")


@pytest.mark.django_db
def test_reassignment_takes_effect_at_once(client, jira_standin, webhook_secret):
    jira_standin.set_issue("ABC-1", "ABC", "acct-7")
    assert ticket_assignee("ABC-1") == "acct-7"
    jira_standin.set_issue("ABC-1", "ABC", "acct-8")
    assert ticket_assignee("ABC-1") == "acct-7"  # still the cached answer: no webhook yet

    body = issue_event("ABC-1", "acct-8")
    assert post(client, body, sign(webhook_secret, body)).status_code == 200

    assert ticket_assignee("ABC-1") == "acct-8"
    assert jira_standin.requests_count(ABC_1) == 2


@pytest.mark.django_db
def test_unassignment_clears_the_row(client, webhook_secret):
    JiraTicket.objects.create(key="ABC-1", project_key="ABC", assignee_account_id="acct-7")
    body = issue_event("ABC-1", None)

    assert post(client, body, sign(webhook_secret, body)).status_code == 200

    assert JiraTicket.objects.get(key="ABC-1").assignee_account_id == ""


@pytest.mark.django_db
def test_deleted_issue_removes_the_row(client, webhook_secret):
    JiraTicket.objects.create(key="ABC-1", project_key="ABC", assignee_account_id="acct-7")
    body = issue_event("ABC-1", "acct-7", event="jira:issue_deleted")

    assert post(client, body, sign(webhook_secret, body)).json() == {"ok": True}

    assert not JiraTicket.objects.filter(key="ABC-1").exists()


@pytest.mark.django_db
def test_an_event_without_an_assignee_field_keeps_the_known_assignee(client, webhook_secret):
    JiraTicket.objects.create(key="ABC-1", project_key="ABC", assignee_account_id="acct-7")
    body = json.dumps(
        {"webhookEvent": "jira:issue_updated", "issue": {"key": "ABC-1", "fields": {}}}
    ).encode()

    assert post(client, body, sign(webhook_secret, body)).status_code == 200

    ticket = JiraTicket.objects.get(key="ABC-1")
    assert (ticket.project_key, ticket.assignee_account_id) == ("ABC", "acct-7")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "signature",
    [
        None,  # missing
        "",
        "sha256=",
        "sha256=" + "0" * 64,  # wrong
        "sha1=whatever",  # another method
        "deadbeef",  # no method
    ],
)
def test_unsigned_or_badly_signed_event_is_refused(client, webhook_secret, signature):
    body = issue_event("ABC-1", "acct-7")

    response = post(client, body, signature)

    assert response.status_code == 401
    assert response.json() == {"ok": False, "error": "invalid_signature"}
    assert not JiraTicket.objects.exists()


@pytest.mark.django_db
def test_signature_over_a_different_body_is_refused(client, webhook_secret):
    signed = issue_event("ABC-1", "acct-7")
    sent = issue_event("ABC-1", "acct-evil")

    assert post(client, sent, sign(webhook_secret, signed)).status_code == 401


@pytest.mark.django_db
def test_signature_under_another_secret_is_refused(client, webhook_secret):
    body = issue_event("ABC-1", "acct-7")

    assert post(client, body, sign(webhook_secret + "x", body)).status_code == 401


@pytest.mark.django_db
def test_no_secret_configured_refuses_everything(client, settings):
    settings.JIRA_WEBHOOK_SECRET = ""
    body = issue_event("ABC-1", "acct-7")

    response = post(client, body, sign("", body))

    assert response.status_code == 401
    assert response.json()["ok"] is False


@pytest.mark.django_db
def test_upper_case_hex_signature_is_accepted(client, webhook_secret):
    body = issue_event("ABC-1", "acct-7")
    method, digest = sign(webhook_secret, body).split("=", 1)

    assert post(client, body, f"{method}={digest.upper()}").status_code == 200


@pytest.mark.django_db
def test_only_post(client, webhook_secret):
    response = client.get(URL)

    assert response.status_code == 405
    assert response["Allow"] == "POST"


@pytest.mark.django_db
def test_post_needs_no_csrf_token(webhook_secret):
    from django.test import Client

    csrf_client = Client(enforce_csrf_checks=True)
    body = issue_event("ABC-1", "acct-7")

    assert post(csrf_client, body, sign(webhook_secret, body)).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "error"),
    [
        (b"{not json", "invalid_json"),
        (json.dumps({"webhookEvent": "jira:issue_updated"}).encode(), "invalid_payload"),
        (
            json.dumps({"webhookEvent": "jira:issue_updated", "issue": {"key": "../x"}}).encode(),
            "invalid_payload",
        ),
    ],
)
def test_signed_but_unreadable_body_is_400(client, webhook_secret, body, error):
    response = post(client, body, sign(webhook_secret, body))

    assert response.status_code == 400
    assert response.json()["error"] == error


@pytest.mark.django_db
def test_other_events_are_acknowledged_and_ignored(client, webhook_secret):
    body = json.dumps({"webhookEvent": "comment_created", "issue": {"key": "ABC-1", "fields": {}}}).encode()

    response = post(client, body, sign(webhook_secret, body))

    assert response.json() == {"ok": True, "ignored": True}
    assert not JiraTicket.objects.exists()


@pytest.mark.django_db
def test_the_answers_keep_their_bytes_whatever_the_client_accepts(client, webhook_secret):
    body = issue_event("ABC-1", "acct-7")
    response = client.post(URL, data=body, content_type="application/json", HTTP_ACCEPT="text/html",
                           HTTP_X_HUB_SIGNATURE=sign(webhook_secret, body))
    assert (response.status_code, response["Content-Type"], response.content) == (200, "application/json", b'{"ok": true}')
    refused = post(client, body, None)
    assert refused.content == b'{"ok": false, "error": "invalid_signature"}' and "WWW-Authenticate" not in refused
    assert client.put(URL, data=body).content == b'{"ok": false, "error": "method_not_allowed"}'


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "answer"),
    [
        (b"", (400, {"ok": False, "error": "invalid_json"})),  # empty is not JSON
        (b"[1, 2]", (200, {"ok": True, "ignored": True})),  # not an object: no issue event
        (json.dumps({"webhookEvent": "jira:issue_updated", "issue": "ABC-1"}).encode(),
         (400, {"ok": False, "error": "invalid_payload", "message": "The body has no issue."})),
        (json.dumps({"webhookEvent": "jira:issue_updated", "issue": {"key": 12}}).encode(),
         (400, {"ok": False, "error": "invalid_payload", "message": "The issue has no valid key."})),
    ],
)
def test_odd_bodies_are_answered_as_before(client, webhook_secret, body, answer):
    response = client.post(URL, data=body, content_type="text/plain", HTTP_X_HUB_SIGNATURE=sign(webhook_secret, body))
    assert (response.status_code, response.json()) == answer


@pytest.mark.django_db
def test_the_webhook_is_not_in_the_agent_api_schema(client):
    schema = json.loads(client.get("/api/schema/?format=json").content)
    assert not any(path.startswith("/jira/") for path in schema["paths"])
