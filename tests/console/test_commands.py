"""`add_escalation_contact` and `remove_escalation_contact`: one JSON object each, grants at once."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from stores.selectors import stores_for_person
from tests import factories as f

pytestmark = pytest.mark.django_db


def run(*args: str) -> dict:
    out = StringIO()
    call_command(*args, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_add_then_remove_grants_and_withdraws_the_project_store_at_once(client, world):
    frank = f.make_user("frank")
    store = world.project_store
    client.force_login(frank)
    assert client.get(f"/console/stores/{store.public_id}/").status_code == 404

    assert run("add_escalation_contact", "ACME", "frank") == {"key": "ACME", "username": "frank"}
    assert list(stores_for_person(frank)) == [store]
    assert client.get(f"/console/stores/{store.public_id}/").status_code == 200

    # Naming them twice changes nothing.
    assert run("add_escalation_contact", "acme", "frank") == {"key": "ACME", "username": "frank"}
    assert world.project.escalation_contacts.filter(pk=frank.pk).count() == 1

    assert run("remove_escalation_contact", "ACME", "frank") == {"key": "ACME", "username": "frank"}
    assert list(stores_for_person(frank)) == []
    assert client.get(f"/console/stores/{store.public_id}/").status_code == 404


def test_a_persons_token_follows_the_grant(api, world):
    frank = f.make_user("frank")
    api.as_token(f.user_token(frank))
    url = f"/api/v1/memory_stores/{world.project_store.public_id}/deleted_memories"
    assert api.get(url).status_code == 404
    run("add_escalation_contact", "ACME", "frank")
    assert api.get(url).status_code == 200
    run("remove_escalation_contact", "ACME", "frank")
    assert api.get(url).status_code == 404


@pytest.mark.parametrize("command", ["add_escalation_contact", "remove_escalation_contact"])
def test_unknown_project_or_person_is_a_clear_error(world, command):
    with pytest.raises(CommandError, match="No Jira project NOPE"):
        call_command(command, "NOPE", "carol")
    with pytest.raises(CommandError, match="No person with the username 'nobody'"):
        call_command(command, "ACME", "nobody")


def test_plain_output_names_key_and_username(world):
    f.make_user("frank")
    out = StringIO()
    call_command("add_escalation_contact", "ACME", "frank", stdout=out)
    assert out.getvalue().splitlines() == ["key: ACME", "username: frank"]
