"""Acceptance review of the console for people (issue 5), from the outside: what a contact or an
admin meets at each address, including the pages no happy path reaches (a typed logout address,
a 404, an expired form, a lockout in the admin, a second submit, a memory deleted long ago)."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from stores.console.markdown import render_markdown
from stores.models import Memory, Store
from stores.services.memories import memory_delete
from tests import factories as f

from .html_tags import tags_in, unsafe_parts

ROOT = Path(__file__).resolve().parents[2]
CSRF_VALUE = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def _deploy_env(tmp_path: Path, **switches: str) -> dict[str, str]:
    """The environment of a production process: no DEBUG, a key made now, the given switches."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "SECURE_", "SESSION_", "CSRF_", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS"))
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "memory_console.settings",
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(64),
            "ALLOWED_HOSTS": "console.example.com",
            **switches,
        }
    )
    env.setdefault("DATABASE_URL", f"sqlite:///{tmp_path / 'deploy.sqlite3'}")
    return env


# The four HTTPS switches the README and docker/compose.yaml name, and nothing else.
DOCUMENTED_SWITCHES = {
    "SECURE_SSL_REDIRECT": "1",
    "SESSION_COOKIE_SECURE": "1",
    "CSRF_COOKIE_SECURE": "1",
    "SECURE_HSTS_SECONDS": "31536000",
}


def test_check_deploy_is_quiet_with_only_the_documented_https_switches(tmp_path):
    """Found: with the README's four switches, `check --deploy` warned W005 and W021 (HSTS
    subdomains and preload had to be set as well, and nothing said so)."""
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_deploy_env(tmp_path, **DOCUMENTED_SWITCHES),
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues" in output, output


def test_hsts_companions_follow_hsts_and_can_still_be_turned_off(tmp_path):
    probe = "from django.conf import settings as s; print(s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD)"

    def settings_with(**switches: str) -> str:
        result = subprocess.run(
            [sys.executable, "-c", f"import django; django.setup(); {probe}"],
            cwd=ROOT,
            env=_deploy_env(tmp_path, **switches),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout.strip().splitlines()[-1]

    assert settings_with() == "False False"  # no HSTS (plain HTTP, as in tests): nothing follows
    assert settings_with(SECURE_HSTS_SECONDS="60") == "True True"
    assert settings_with(SECURE_HSTS_SECONDS="60", SECURE_HSTS_PRELOAD="0") == "True False"


# --- pages no button leads to ---------------------------------------------------------------------


@pytest.mark.django_db
def test_a_typed_logout_address_answers_with_the_log_out_button_and_signs_nobody_out(client, world):
    """Found: GET /console/logout/ answered 405 with an empty body."""
    client.force_login(world.contact)
    response = client.get("/console/logout/")
    assert response.status_code == 405
    assert "POST" in response["Allow"] and "GET" not in response["Allow"]
    body = response.content.decode()
    assert "<h1>Log out</h1>" in body and "signed in as carol" in body
    forms = [attrs for tag, attrs in tags_in(body) if tag == "form" and attrs.get("action") == "/console/logout/"]
    assert forms and all(attrs.get("method") == "post" for attrs in forms)
    assert client.get("/console/").status_code == 200  # still signed in
    assert client.post("/console/logout/")["Location"] == "/console/login/"


@pytest.mark.django_db
def test_the_404_page_is_the_consoles_and_the_same_for_a_hidden_and_a_missing_store(client, world, settings):
    """Found: the 404 was Django's bare "Not Found". It must still give no hint that a store exists."""
    settings.DEBUG = False
    client.force_login(world.contact)
    hidden = Store.objects.get(project=world.other_project)
    seen = client.get(f"/console/stores/{hidden.public_id}/")
    missing = client.get("/console/stores/memstore_doesnotexist00000000/")
    assert seen.status_code == missing.status_code == 404
    assert "<h1>Not found</h1>" in seen.content.decode()
    assert 'href="/console/"' in seen.content.decode()
    # Only the per-response CSRF mask of the header's Log out form may differ.
    strip = lambda r: CSRF_VALUE.sub("", r.content.decode())  # noqa: E731
    assert strip(seen) == strip(missing)
    assert hidden.public_id not in seen.content.decode() and "OTHR" not in seen.content.decode()


@pytest.mark.django_db
def test_an_expired_form_gets_a_page_that_says_nothing_changed(world):
    """Found: a POST without a valid CSRF token got Django's bare 403 page."""
    store = world.project_store
    memory = f.make_memory(store, "/conventions/keep.md", "Keep this.\n")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(world.contact)
    response = strict.post(f"/console/stores/{store.public_id}/memories/{memory.public_id}/delete/", {"reason": "x"})
    assert response.status_code == 403
    body = response.content.decode()
    assert "Nothing was changed" in body and "reload the page" in body
    assert Memory.objects.get(pk=memory.pk).deleted_at is None


@pytest.mark.django_db
def test_a_lockout_at_the_admin_sign_in_is_a_page_saying_why_and_how_long(client, world, settings):
    """Found: the admin's sign-in answered a lockout with one bare line of text."""
    settings.AXES_FAILURE_LIMIT = 3
    for attempt in range(3):
        client.post("/admin/login/", {"username": "erin", "password": f"wrong-{attempt}", "next": "/admin/"})
    locked = client.post("/admin/login/", {"username": "erin", "password": "pw-for-tests-only", "next": "/admin/"})
    assert locked.status_code == 429
    body = locked.content.decode()
    assert "<h1>Sign-in locked</h1>" in body
    assert "Too many failed sign-ins" in body and "15 minutes" in body
    assert "_auth_user_id" not in client.session


# --- Delete, Recently deleted, Redact ---------------------------------------------------------


@pytest.mark.django_db
def test_the_delete_message_links_to_recently_deleted(client, world):
    """The message names the place to restore from as a link, not as text a person must find."""
    store = world.project_store
    memory = f.make_memory(store, "/issues/late-feed.md", "The feed is late.\n")
    client.force_login(world.contact)
    response = client.post(
        f"/console/stores/{store.public_id}/memories/{memory.public_id}/delete/", {"reason": "wrong"}, follow=True
    )
    body = response.content.decode()
    assert "Deleted /issues/late-feed.md." in body
    assert f'<a href="/console/stores/{store.public_id}/deleted/">Recently deleted</a>' in body


@pytest.mark.django_db
def test_a_message_quoting_a_path_escapes_it(client, world):
    """The delete message is built as HTML (for its link); the path inside it stays text."""
    store = world.project_store
    memory = f.make_memory(store, "/issues/a&b.md", "Ampersands in names.\n")
    client.force_login(world.contact)
    response = client.post(f"/console/stores/{store.public_id}/memories/{memory.public_id}/delete/", follow=True)
    assert "Deleted /issues/a&amp;b.md." in response.content.decode()


@pytest.mark.django_db
def test_a_memory_deleted_before_the_window_can_still_be_found_and_redacted(client, world):
    """Found: past 30 days a deleted memory left Recently deleted and its page offered nothing, so
    its versions ("staying until redacted") could not be redacted from the console at all."""
    store = world.project_store
    old = f.make_memory(store, "/data/old-secret.md", "The warehouse password was in here.\n")
    recent = f.make_memory(store, "/data/recent.md", "Recently deleted.\n")
    for memory in (old, recent):
        memory_delete(writer=f.person_writer(world.admin), store=store, memory_id=memory.public_id, reason="bad")
    Memory.objects.filter(pk=old.pk).update(deleted_at=timezone.now() - timedelta(days=31))
    client.force_login(world.contact)
    sid = store.public_id

    listing = client.get(f"/console/stores/{sid}/deleted/").content.decode()
    assert "old-secret" not in listing and "/data/recent.md" in listing
    assert "1 memory deleted more than 30 days ago" in listing and 'href="?older=1"' in listing

    older = client.get(f"/console/stores/{sid}/deleted/", {"older": "1"})
    assert [row.memory.pk for row in older.context["rows"]] == [old.pk]
    older_body = older.content.decode()
    assert "/data/old-secret.md" in older_body and ">Redact all versions</a>" in older_body
    assert ">Restore</button>" not in older_body and "can no longer be restored" in older_body

    page = client.get(f"/console/stores/{sid}/memories/{old.public_id}/").content.decode()
    assert "can no longer be restored" in page
    assert f'href="/console/stores/{sid}/deleted/{old.public_id}/redact/"' in page
    assert ">Restore</button>" not in page

    done = client.post(f"/console/stores/{sid}/deleted/{old.public_id}/redact/",
                       {"confirm": "yes", "reason": "holds a card number", "confirm_path": "/data/old-secret.md"},
                       follow=True)
    assert done.status_code == 200
    old.refresh_from_db()
    assert old.redacted_at is not None and old.content == "" and old.path == ""
    assert client.get(f"/console/stores/{sid}/deleted/", {"older": "1"}).context["rows"] == []


@pytest.mark.django_db
def test_confirming_a_redaction_twice_says_it_was_already_done_and_keeps_who_did_it(client, world):
    """Found: a second submit said "Redacted all versions" again, as though it had just happened."""
    store = world.project_store
    memory = f.make_memory(store, "/data/pii.md", "A customer's phone number.\n")
    memory_delete(writer=f.person_writer(world.contact), store=store, memory_id=memory.public_id)
    url = f"/console/stores/{store.public_id}/deleted/{memory.public_id}/redact/"
    client.force_login(world.contact)
    confirmed = {"confirm": "yes", "reason": "a phone number", "confirm_path": "/data/pii.md"}
    client.post(url, confirmed, follow=True)  # follow: its own message is shown and spent
    first = Memory.objects.get(pk=memory.pk)

    client.force_login(world.admin)
    again = client.post(url, confirmed, follow=True)
    texts = [str(m) for m in again.context["messages"]]
    assert any("already redacted by carol" in t for t in texts), texts
    assert not any(t.startswith("Redacted all versions") for t in texts)
    after = Memory.objects.get(pk=memory.pk)
    assert (after.redacted_at, after.redacted_by) == (first.redacted_at, first.redacted_by)


# --- Markdown, rendered safely --------------------------------------------------------------------

HOSTILE = [
    "[a](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[b](vbscript:msgbox(1))",
    "[c](JaVaScRiPt:alert(1))",
    "[d](&#106;avascript:alert(1))",
    "[e](java\tscript:alert(1))",
    "<javascript:alert(1)>",
    '![f](x" onerror="alert(1))',
    "![g](javascript:alert(1))",
    "<svg onload=alert(1)></svg>",
    "<details open ontoggle=alert(1)>",
    '<a href="javascript:alert(1)">h</a>',
    "<!-- a comment --> <style>body{display:none}</style>",
    "[i](https://example.com/ok \"title\" onmouseover=alert(1))",
]


def browser_scheme(href: str) -> str | None:
    """The scheme a browser would find in ``href``: it trims C0 controls and spaces at the ends
    and drops tabs and newlines anywhere (WHATWG URL parsing) before reading the scheme."""
    cleaned = re.sub(r"[\t\n\r]", "", href.strip("".join(chr(i) for i in range(0x21))))
    match = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", cleaned)
    return match.group(1).lower() if match else None


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_markdown_renders_to_nothing_executable(text):
    html = str(render_markdown(f"# Probe\n\n{text}\n"))
    # Tags, handlers, styles and comments as the shared helper sees them; hrefs judged as a browser would.
    assert [p for p in unsafe_parts(html) if " href=" not in p] == [], html
    for _tag, attrs in tags_in(html):
        if "href" in attrs:
            assert browser_scheme(attrs["href"]) in {None, "http", "https", "mailto"}, html


@pytest.mark.django_db
def test_a_link_whose_address_was_removed_does_not_look_like_a_link(client, world):
    store = world.project_store
    memory = f.make_memory(store, "/issues/links.md", "See [the fix](javascript:alert(1)) and [docs](https://example.com).\n")
    client.force_login(world.contact)
    body = client.get(f"/console/stores/{store.public_id}/memories/{memory.public_id}/").content.decode()
    links = [attrs for tag, attrs in tags_in(body) if tag == "a" and "noopener" in attrs.get("rel", "")]
    assert [a.get("href") for a in links] == [None, "https://example.com"]
    assert ".markdown a:not([href])" in body  # styled as plain text


@pytest.mark.django_db
def test_every_folder_table_on_the_store_page_has_the_same_columns(client, world):
    """Found: each folder's table sized its own columns, so file names wrapped mid-word and the
    columns jumped from folder to folder."""
    store = world.project_store
    f.make_memory(store, "/conventions/a-rather-long-file-name.md", "Short.\n")
    f.make_memory(store, "/solutions/b.md", "A much longer first line that would push the other columns about. " * 2)
    client.force_login(world.contact)
    body = client.get(f"/console/stores/{store.public_id}/").content.decode()
    tables = [attrs for tag, attrs in tags_in(body) if tag == "table"]
    assert len(tables) == 2 and all(attrs.get("class") == "files" for attrs in tables)
    assert body.count('<colgroup><col class="name"><col><col class="changed"><col class="by"></colgroup>') == 2


# --- escalation contacts named in the admin ------------------------------------------------------------


@pytest.mark.django_db
def test_naming_and_removing_a_contact_in_the_admin_takes_effect_at_once(world, api):
    """The admin's project form is the other way to name a contact: the person's open session and
    API token follow it on the next request, both ways."""
    erin = world.staff
    token = f.user_token(erin)
    store = world.project_store
    person = Client()
    person.force_login(erin)
    admin = Client()
    admin.force_login(world.admin)
    project = world.project

    def post_contacts(users) -> None:
        data = {
            "key": project.key,
            "client": project.client_id,
            "toolsets": [t.pk for t in project.toolsets.all()],
            "escalation_contacts": [u.pk for u in users],
            "governance_template": "",
            "engagement_closed_on": "",
            "standing_decisions-TOTAL_FORMS": "0",
            "standing_decisions-INITIAL_FORMS": "0",
            "standing_decisions-MIN_NUM_FORMS": "0",
            "standing_decisions-MAX_NUM_FORMS": "1000",
            "_save": "Save",
        }
        response = admin.post(f"/admin/stores/jiraproject/{project.pk}/change/", data)
        assert response.status_code == 302, response.content.decode()[:1500]

    def can_see() -> tuple[int, int]:
        page = person.get(f"/console/stores/{store.public_id}/").status_code
        listing = api.as_token(token).get(f"/api/v1/memory_stores/{store.public_id}/deleted_memories").status_code
        return page, listing

    assert can_see() == (404, 404)
    post_contacts([world.contact, erin])
    assert can_see() == (200, 200)
    post_contacts([world.contact])
    assert can_see() == (404, 404)


def test_the_500_page_renders_without_a_request_context(rf):
    """Django renders 500.html with an empty context; the page must not depend on one."""
    from django.views.defaults import server_error

    response = server_error(rf.get("/console/"))
    assert response.status_code == 500
    body = response.content.decode()
    assert "<h1>Something went wrong</h1>" in body and 'href="/console/"' in body


# --- in Chromium, as a person clicks -------------------------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
@pytest.mark.django_db(transaction=True)
def test_in_chromium_without_javascript_the_words_lead_where_they_say(live_server, world, monkeypatch):
    """Delete, then the words "Recently deleted" (the first on the page is now the message's link),
    an old deletion found and redacted, and a typed logout address: each by clicking, no script."""
    from django.db import connections
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread; the ORM calls here are synchronous.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    store = world.project_store
    memory = f.make_memory(store, "/data/orders.md", "# Orders\n\nOne row per order line.\n")
    old = f.make_memory(store, "/data/old-card.md", "A card number was pasted here.\n")
    memory_delete(writer=f.person_writer(world.admin), store=store, memory_id=old.public_id, reason="card number")
    Memory.objects.filter(pk=old.pk).update(deleted_at=timezone.now() - timedelta(days=40))
    SHOTS.mkdir(parents=True, exist_ok=True)
    base = live_server.url
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 860}, java_script_enabled=False)
        context.set_default_timeout(15_000)
        page = context.new_page()
        try:
            page.goto(f"{base}/console/login/")
            page.fill("input[name=username]", "carol")
            page.fill("input[name=password]", "pw-for-tests-only")
            page.click("button:has-text('Sign in')")
            page.wait_for_url(f"{base}/console/")

            page.goto(f"{base}/console/stores/{store.public_id}/memories/{memory.public_id}/delete/")
            page.fill("textarea[name=reason]", "Lines, not orders.")
            page.click("button:has-text('Delete')")
            page.wait_for_url(f"{base}/console/stores/{store.public_id}/")
            page.click("text=Recently deleted")
            page.wait_for_url(f"{base}/console/stores/{store.public_id}/deleted/")
            assert page.locator("h1").inner_text() == "Recently deleted"
            page.screenshot(path=str(SHOTS / "acceptance-01-recently-deleted.png"), full_page=True)

            page.click("a:has-text('Show it to redact')")
            page.wait_for_url("**/deleted/?older=1")
            row = page.locator("tr", has_text="/data/old-card.md")
            assert row.locator("button:has-text('Restore')").count() == 0
            page.screenshot(path=str(SHOTS / "acceptance-02-deleted-earlier.png"), full_page=True)
            row.locator("a:has-text('Redact all versions')").click()
            page.wait_for_url("**/redact/")
            page.fill("textarea[name=reason]", "It holds a card number.")
            page.fill("input[name=confirm_path]", "/data/old-card.md")
            page.click("button:has-text('Redact all versions')")
            page.wait_for_url(f"{base}/console/stores/{store.public_id}/deleted/")
            assert Memory.objects.get(pk=old.pk).redacted_at is not None

            page.goto(f"{base}/console/logout/")
            assert page.locator("h1").inner_text() == "Log out"
            page.screenshot(path=str(SHOTS / "acceptance-03-logout-typed.png"), full_page=True)
            page.click("main button:has-text('Log out')")
            page.wait_for_url(f"{base}/console/login/")
        finally:
            connections.close_all()
            context.close()
            browser.close()
