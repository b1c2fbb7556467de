"""Search across past run records: the service, GET /api/v1/run_records (DRF's test client and
plain HTTP on a live server), and /console/records/, on whichever database the run uses.

Who sees what, every filter, paging, queries the syntax cannot read (400, never 500), markup in
a record kept inert in its snippet, and the index following every door that changes a record:
retention purges, engagement close, redaction's scrubber, the rescrub, a run deleted with its
records, and the rebuild command.
"""

from __future__ import annotations

import io
import json
import secrets
from dataclasses import dataclass
from datetime import timedelta

import pytest
import requests
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from runs.models import Run, RunRecord
from runs.rescrub import run_records_rescrub
from runs.retention import close_engagement, purge_run_records
from runs.search import RECORD_FTS_TABLE, RecordFilters, RecordQueryError, record_search
from runs.services import run_record_add
from stores.models import hash_token
from stores.services.memories import memory_delete
from stores.services.redaction import memory_redact_all_versions
from stores.services.search import parse_query
from tests import factories as f

from .conftest import aws_key, error_code

pytestmark = pytest.mark.django_db

URL = "/api/v1/run_records"


def make_run(agent, project, ticket: str, *, days_ago: float, ended: bool = True, **signals) -> Run:
    """A run on ``ticket`` that started ``days_ago`` days ago, with its end-of-run signals."""
    run = Run.objects.create(agent=agent, project=project, ticket_key=ticket, host="vm-1",
                             token_hash=hash_token("mcr_" + secrets.token_hex(12)))
    started = timezone.now() - timedelta(days=days_ago)
    Run.objects.filter(pk=run.pk).update(started_at=started, ended_at=started + timedelta(hours=1) if ended else None,
                                         **signals)
    run.refresh_from_db()
    return run


def add_record(run: Run, transcript: str, events=None) -> RunRecord:
    """The run's record, through the service, kept (as a run's record is) an hour after it started."""
    record = run_record_add(run=run, transcript=transcript, events=events)
    RunRecord.objects.filter(pk=record.pk).update(created_at=run.started_at + timedelta(hours=1))
    record.refresh_from_db()
    return record


@dataclass
class Scene:
    qa: Run
    ruling: Run
    past_error: Run
    other: Run
    routine: Run


@pytest.fixture
def scene(world) -> Scene:
    acme, othr, ada, bob = world.project, world.other_project, world.agent, world.outsider
    qa = make_run(ada, acme, "ACME-1", days_ago=40, qa_failed=True)
    add_record(qa, "The refund export failed on the orders model; reran dbt build.\n",
               events=[{"tool": "dbt", "output": "Compilation error in stg_ledger: column missing"}])
    ruling = make_run(ada, acme, "ACME-2", days_ago=30, needed_ruling=True, attempts=2)
    add_record(ruling, "Asked the contact about the refund policy for partial returns.\n")
    past_error = make_run(ada, acme, "ACME-3", days_ago=20, worked_past_error=True)
    add_record(past_error, "The customers snapshot ran late; no refund change needed.\n")
    other = make_run(bob, othr, "OTHR-1", days_ago=25)
    add_record(other, "Refund totals checked against the finance ledger.\n")
    routine = make_run(ada, acme, "ACME-4", days_ago=10, ended=False)
    add_record(routine, "Routine loyalty tier update.\n")
    return Scene(qa=qa, ruling=ruling, past_error=past_error, other=other, routine=routine)


def run_ids(body: dict) -> list[str]:
    return [hit["run_id"] for hit in body["data"]]


def get(api, token, **params):
    return api.as_token(token).get(URL, params)


# --- the service -------------------------------------------------------------------------------


def test_finds_words_in_transcripts_and_events_newest_first(world, scene):
    results = record_search("refund", project_ids=None)
    assert [h.run.public_id for h in results.hits] == [
        scene.past_error.public_id, scene.other.public_id, scene.ruling.public_id, scene.qa.public_id,
    ]
    assert "<mark>refund</mark>" in results.hits[0].snippet.lower()
    # Strings inside the events are searched and shown too (their keys are not).
    [hit] = record_search("compilation", project_ids=None).hits
    assert hit.run == scene.qa and "<mark>Compilation</mark>" in hit.snippet
    assert record_search("output", project_ids=None).hits == []


def test_the_query_syntax_is_the_memory_search_one(world, scene):
    def found(q: str) -> set[str]:
        return {h.run.ticket_key for h in record_search(q, project_ids=None).hits}

    assert found('"refund policy"') == {"ACME-2"}
    assert found('"policy refund"') == set()
    assert found("loyalty OR ledger") == {"ACME-4", "OTHR-1", "ACME-1"}
    assert found("refund -snapshot") == {"ACME-1", "ACME-2", "OTHR-1"}
    assert found("refu*") == {"ACME-1", "ACME-2", "ACME-3", "OTHR-1"}
    assert found("refunds") == found("refund")  # stemmed on both databases


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ('"unclosed phrase', "never closed"),
        ("refund OR", "ends with OR"),
        ("OR refund", "must stand between two words"),
        ("refund OR OR ledger", "must stand between two words"),
        ("-refund", "only words to leave out"),
        ("refund -", "followed by a word"),
        ('refund ""', "holds no letter or digit"),
        ("*", "holds no letter or digit"),
        ("", "Type one or more words"),
        ("   ", "Type one or more words"),
        ("refund " + "x" * 600, "at most 500"),
    ],
)
def test_a_query_the_syntax_cannot_read_is_refused_naming_the_problem(world, scene, query, says):
    with pytest.raises(RecordQueryError) as caught:
        record_search(query, project_ids=None)
    assert says in caught.value.message
    assert caught.value.status == 400


def test_markup_in_a_record_is_inert_in_the_snippet(world, scene):
    run = make_run(world.agent, world.project, "ACME-9", days_ago=1)
    run_record_add(run=run, transcript='The export wrote <script>alert("x")</script> and <b onmouseover=1>bold</b> '
                                       "into the zebrafish column.\n")
    [hit] = record_search("zebrafish", project_ids=None).hits
    snippet = str(hit.snippet)
    assert "<script" not in snippet and "<b " not in snippet and "onmouseover=1>" not in snippet
    assert "<mark>zebrafish</mark>" in snippet
    # Only the marks are markup: without them the snippet is the escaped text.
    assert "<" not in snippet.replace("<mark>", "").replace("</mark>", "")


def test_filters_each_and_together(world, scene):
    def found(**kw) -> list[str]:
        return sorted(h.run.ticket_key for h in record_search("refund OR loyalty", project_ids=None,
                                                              filters=RecordFilters(**kw)).hits)

    assert found() == ["ACME-1", "ACME-2", "ACME-3", "ACME-4", "OTHR-1"]
    assert found(project="OTHR") == ["OTHR-1"]
    assert found(project="othr") == ["OTHR-1"]
    assert found(project="NOPE") == []
    assert found(ticket="ACME-2") == ["ACME-2"]
    assert found(agent="bob") == ["OTHR-1"]
    assert found(agent="nobody") == []
    now = timezone.now()
    assert found(kept_from=now - timedelta(days=22)) == ["ACME-3", "ACME-4"]
    assert found(kept_before=now - timedelta(days=28)) == ["ACME-1", "ACME-2"]
    assert found(kept_from=now - timedelta(days=35), kept_before=now - timedelta(days=15)) == [
        "ACME-2", "ACME-3", "OTHR-1",
    ]
    assert found(outcomes=("qa_failed",)) == ["ACME-1"]
    assert found(outcomes=("needed_ruling",)) == ["ACME-2"]
    assert found(outcomes=("worked_past_error",)) == ["ACME-3"]
    assert found(outcomes=("retried",)) == ["ACME-2"]
    assert found(outcomes=("qa_failed", "worked_past_error")) == ["ACME-1", "ACME-3"]
    assert found(project="ACME", agent="ada", outcomes=("qa_failed", "retried"),
                 kept_from=now - timedelta(days=35)) == ["ACME-2"]


def test_the_projects_given_bound_the_search(world, scene):
    assert {h.run.ticket_key for h in record_search("refund", project_ids=[world.other_project.pk]).hits} == {"OTHR-1"}
    assert record_search("refund", project_ids=[]).hits == []


# --- the API -----------------------------------------------------------------------------------


def test_admin_sees_every_project_with_every_hit_field(api, world, scene):
    response = get(api, world.admin_token, q="refund")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["next_page"] is None
    assert run_ids(body) == [scene.past_error.public_id, scene.other.public_id, scene.ruling.public_id,
                             scene.qa.public_id]
    hit = body["data"][2]
    assert set(hit) == {"type", "run_id", "ticket_key", "project_key", "agent", "started_at", "ended_at", "signals",
                        "snippet"}
    assert hit["ticket_key"] == "ACME-2" and hit["project_key"] == "ACME" and hit["agent"] == "ada"
    assert hit["started_at"].endswith("Z") and hit["ended_at"].endswith("Z")
    assert hit["signals"] == ["needed_ruling", "retried"]
    assert "<mark>refund</mark>" in hit["snippet"]
    [routine] = get(api, world.admin_token, q="loyalty").json()["data"]
    assert routine["ended_at"] is None and routine["signals"] == []


@pytest.mark.parametrize(
    ("role", "status", "tickets"),
    [
        ("admin", 200, {"ACME-1", "ACME-2", "ACME-3", "OTHR-1"}),
        ("contact", 200, {"ACME-1", "ACME-2", "ACME-3"}),  # carol: ACME's contact
        ("other_contact", 200, {"OTHR-1"}),  # dave: OTHR's contact
        ("staff", 200, set()),  # erin: staff, but no project's contact and no console admin
        ("agent", 403, None),
        ("outsider", 403, None),
        ("anonymous", 401, None),
    ],
)
def test_who_sees_which_records(api, world, scene, role, status, tickets):
    token = {
        "admin": world.admin_token, "contact": world.contact_token, "other_contact": f.user_token(world.other_contact),
        "staff": f.user_token(world.staff), "agent": world.agent_token, "outsider": world.outsider_token,
        "anonymous": None,
    }[role]
    response = get(api, token, q="refund")
    assert response.status_code == status, response.content
    if status == 200:
        assert {hit["ticket_key"] for hit in response.json()["data"]} == tickets
    if status == 403:
        assert response.json()["type"] == "error"
        assert response.json()["error"]["type"] == "permission_error"
        assert error_code(response) == "people_only"


def test_a_contact_cannot_reach_another_project_through_a_filter(api, world, scene):
    assert get(api, world.contact_token, q="refund", project="OTHR").json()["data"] == []
    assert get(api, world.contact_token, q="refund", ticket="OTHR-1").json()["data"] == []
    assert get(api, world.contact_token, q="refund", agent="bob").json()["data"] == []


def test_a_run_token_is_refused(api, world, scene):
    token = "mcr_" + secrets.token_urlsafe(16)
    run = make_run(world.agent, world.project, "ACME-7", days_ago=0, ended=False)
    Run.objects.filter(pk=run.pk).update(token_hash=hash_token(token))
    response = get(api, token, q="refund")
    assert response.status_code == 403 and error_code(response) == "people_only"


def test_every_filter_through_the_api(api, world, scene):
    token = world.admin_token
    day = (timezone.localdate() - timedelta(days=22)).isoformat()

    def tickets(**params) -> list[str]:
        response = get(api, token, q="refund OR loyalty", **params)
        assert response.status_code == 200, response.content
        return sorted(hit["ticket_key"] for hit in response.json()["data"])

    assert tickets(project="ACME") == ["ACME-1", "ACME-2", "ACME-3", "ACME-4"]
    assert tickets(ticket="acme-3") == ["ACME-3"]
    assert tickets(agent="bob") == ["OTHR-1"]
    assert tickets(after=day) == ["ACME-3", "ACME-4"]
    assert tickets(before=day) == ["ACME-1", "ACME-2", "OTHR-1"]  # a day given as `before` includes it
    stamp = (timezone.now() - timedelta(days=27)).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert tickets(after=stamp) == ["ACME-3", "ACME-4", "OTHR-1"]
    assert tickets(before=stamp) == ["ACME-1", "ACME-2"]
    assert tickets(outcome="qa_failed") == ["ACME-1"]
    assert tickets(outcome="retried") == ["ACME-2"]
    assert tickets(outcome="needed_ruling,worked_past_error") == ["ACME-2", "ACME-3"]
    response = api.as_token(token).get(f"{URL}?q=refund&outcome=qa_failed&outcome=worked_past_error")
    assert sorted(hit["ticket_key"] for hit in response.json()["data"]) == ["ACME-1", "ACME-3"]


def test_pages_walk_every_hit_once(api, world, scene):
    seen, page, pages = [], None, 0
    while True:
        params = {"q": "refund OR loyalty", "limit": 2, **({"page": page} if page else {})}
        body = get(api, world.admin_token, **params).json()
        assert len(body["data"]) <= 2
        seen += run_ids(body)
        pages += 1
        page = body["next_page"]
        if page is None:
            break
        assert page.startswith("page_")
    assert pages == 3
    everything = run_ids(get(api, world.admin_token, q="refund OR loyalty", limit=100).json())
    assert seen == everything and len(set(seen)) == 5


@pytest.mark.parametrize(
    ("params", "says"),
    [
        ({"q": '"refund'}, "never closed"),
        ({"q": "refund OR"}, "ends with OR"),
        ({"q": "-refund"}, "only words to leave out"),
        ({"q": "((("}, "holds no letter or digit"),
        ({}, "`q` is required"),
        ({"q": ""}, "`q`"),
        ({"q": "x" * 501}, "`q` is at most 500"),
        ({"q": "refund", "limit": "0"}, "`limit`"),
        ({"q": "refund", "limit": "101"}, "`limit`"),
        ({"q": "refund", "limit": "ten"}, "`limit`"),
        ({"q": "refund", "after": "last week"}, "`after`"),
        ({"q": "refund", "before": "2026-13-01"}, "`before`"),
        ({"q": "refund", "before": "9999-12-31T23:59:59-23:00"}, "`before`"),
        ({"q": "refund", "after": "2026-11-02", "before": "2026-11-01"}, "`after` must come before `before`"),
        ({"q": "refund", "outcome": "qa_failed,crashed"}, "`outcome` must be any of"),
        ({"q": "refund", "ticket": "not a ticket"}, "`ticket`"),
        ({"q": "refund", "project": "AC ME"}, "`project`"),
        ({"q": "refund", "page": "not-a-cursor"}, "`page`"),
        ({"q": "refund", "page": "page_bm90IGpzb24"}, "`page`"),
        ({"q": "refund", "page": "page_WyJub3QgYSB0aW1lIiwgMV0"}, "`page`"),
        ({"q": "refund\x00"}, "NUL"),
    ],
)
def test_a_wrong_parameter_answers_400_naming_it(api, world, scene, params, says):
    response = get(api, world.admin_token, **params)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["type"] == "error" and body["error"]["type"] == "invalid_request_error"
    assert says in body["error"]["message"], body["error"]["message"]


def test_plain_http_on_a_live_server(live_server, world, scene):
    headers = {"Authorization": f"Bearer {world.contact_token}"}
    response = requests.get(f"{live_server.url}{URL}", params={"q": "refund", "outcome": "qa_failed"},
                            headers=headers, timeout=10)
    assert response.status_code == 200 and response.headers["content-type"].startswith("application/json")
    assert run_ids(response.json()) == [scene.qa.public_id]
    response = requests.get(f"{live_server.url}{URL}", params={"q": '"refund'}, headers=headers, timeout=10)
    assert response.status_code == 400 and "never closed" in response.json()["error"]["message"]
    response = requests.get(f"{live_server.url}{URL}", params={"q": "refund"},
                            headers={"x-api-key": world.agent_token}, timeout=10)
    assert response.status_code == 403 and response.json()["error"]["details"]["error_code"] == "people_only"


def test_the_schema_describes_the_route(api):
    schema = api.get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/v1/run_records"]["get"]
    assert {p["name"] for p in operation["parameters"]} >= {
        "q", "project", "ticket", "agent", "after", "before", "outcome", "limit", "page",
    }
    hit = operation["responses"]["200"]["content"]["application/json"]["schema"]["properties"]["data"]["items"]
    assert "$ref" in hit or "properties" in hit


# --- the index follows every door ------------------------------------------------------------


def index_text() -> str:
    """Everything the database's own index holds, as text (lexemes on PostgreSQL, text on SQLite)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT coalesce(string_agg(search_vector::text, ' '), '') FROM runs_runrecord")
        else:
            cursor.execute(f"SELECT coalesce(group_concat(body, ' '), '') FROM {RECORD_FTS_TABLE}")
        return cursor.fetchone()[0]


def index_rows() -> int:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT count(*) FROM runs_runrecord WHERE search_vector IS NOT NULL")
        else:
            cursor.execute(f"SELECT count(*) FROM {RECORD_FTS_TABLE}")
        return cursor.fetchone()[0]


@override_settings(RUN_RECORD_RETENTION_DAYS=90)
def test_a_retention_purge_takes_the_records_out_of_the_index(world, scene):
    assert index_rows() == 5
    RunRecord.objects.filter(run=scene.qa).update(created_at=timezone.now() - timedelta(days=91))
    assert purge_run_records().deleted == 1
    assert record_search("compilation", project_ids=None).hits == []
    assert "compil" not in index_text() and index_rows() == 4
    assert {h.run.ticket_key for h in record_search("refund", project_ids=None).hits} == {"ACME-2", "ACME-3", "OTHR-1"}


def test_an_engagement_close_takes_the_projects_records_out_of_the_index(world, scene):
    assert close_engagement(world.project).deleted == 4
    assert {h.run.ticket_key for h in record_search("refund OR loyalty", project_ids=None).hits} == {"OTHR-1"}
    assert "loyalti" not in index_text() and "loyalty" not in index_text()
    assert index_rows() == 1


def test_a_run_deleted_with_its_records_leaves_the_index(world, scene):
    Run.objects.filter(pk=scene.routine.pk).delete()
    assert record_search("loyalty", project_ids=None).hits == []
    assert index_rows() == 4


def test_redaction_takes_the_quoted_text_out_of_hits_snippets_and_the_index(world, scene):
    store = world.project_store
    mark = "quokka" + secrets.token_hex(3)
    text = f"The {mark} feed lands in raw.zeta_orders at 02:00 UTC.\n"
    memory = f.make_memory(store, "/data/feed.md", text)
    run = make_run(world.agent, world.project, "ACME-5", days_ago=2)
    run_record_add(run=run, transcript=f"read /data/feed.md\n{text}then rebuilt the orders model.\n")
    assert [h.run for h in record_search(mark, project_ids=None).hits] == [run]
    assert mark in index_text()

    person = f.person_writer(world.contact)
    memory_delete(writer=person, store=store, memory_id=memory.public_id, reason="a client's detail")
    memory_redact_all_versions(writer=person, store=store, memory_id=memory.public_id, reason="a client's detail")

    assert record_search(mark, project_ids=None).hits == []
    assert mark not in index_text()
    [hit] = record_search("rebuilt", project_ids=None).hits
    assert "[REDACTED:memory]" in hit.snippet or "REDACTED" in hit.snippet
    assert mark not in hit.snippet


def test_the_rescrub_changes_the_index_too(world, scene):
    run = make_run(world.agent, world.project, "ACME-6", days_ago=1)
    record = run_record_add(run=run, transcript="deployed with the key in the log\n")
    # A record kept before the detector knew this kind of secret: written straight to the row.
    key = aws_key()
    # (In SQL: every door of the ORM scrubs the transcript as it saves it.)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {RunRecord._meta.db_table} SET transcript = %s WHERE id = %s",
                       [f"deployed with {key} in the log\n", record.pk])
    assert [h.run for h in record_search(key, project_ids=None).hits] == [run]
    assert run_records_rescrub().records_changed == 1
    assert record_search(key, project_ids=None).hits == []
    assert key.lower() not in index_text().lower()


def test_the_rebuild_command_refills_the_index(world, scene):
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {RECORD_FTS_TABLE}")
        assert record_search("refund", project_ids=None).hits == []
    out = io.StringIO()
    call_command("rebuild_search_index", "--json", stdout=out)
    assert json.loads(out.getvalue())["run_records_indexed"] == 5
    assert len(record_search("refund", project_ids=None).hits) == 4
    assert index_rows() == 5


# --- the console page --------------------------------------------------------------------------


def test_the_console_page_finds_highlights_and_links_to_the_run(client, world, scene):
    client.force_login(world.admin)
    response = client.get("/console/records/", {"q": "refund", "outcome": ["qa_failed", "retried"]})
    assert response.status_code == 200
    html = response.content.decode()
    assert f'href="/console/runs/{scene.qa.public_id}/"' in html
    assert f'href="/console/runs/{scene.ruling.public_id}/"' in html
    assert scene.past_error.public_id not in html
    assert "<mark>refund</mark>" in html and "QA failed" in html and "Retried" in html
    assert "script-src 'none'" in response.headers["Content-Security-Policy"]
    # The run page the hit links to opens for the same person.
    assert client.get(f"/console/runs/{scene.qa.public_id}/").status_code == 200


def test_the_console_page_is_scoped_like_the_api(client, world, scene):
    client.force_login(world.contact)
    html = client.get("/console/records/", {"q": "refund"}).content.decode()
    assert scene.qa.public_id in html and scene.other.public_id not in html
    assert '<option value="OTHR"' not in html
    client.force_login(world.staff)
    assert "Nothing matches." in client.get("/console/records/", {"q": "refund"}).content.decode()


def test_the_console_page_says_what_it_cannot_read(client, world, scene):
    client.force_login(world.contact)
    response = client.get("/console/records/", {"q": 'refund "policy'})
    assert response.status_code == 400 and "never closed" in response.content.decode()
    response = client.get("/console/records/", {"q": "refund", "ticket": "no such"})
    assert response.status_code == 400 and "`ticket` must be a Jira ticket key" in response.content.decode()
    assert client.get("/console/records/", {"q": "refund", "page": "junk"}).status_code == 400
    assert client.get("/console/records/").status_code == 200  # the empty form


def test_the_console_page_pages(client, world, scene, monkeypatch):
    monkeypatch.setattr("runs.console.views.PER_PAGE", 2)
    client.force_login(world.admin)
    seen = []
    response = client.get("/console/records/", {"q": "refund OR loyalty"})
    for _ in range(5):
        html = response.content.decode()
        seen += [run.public_id for run in Run.objects.all() if f"/console/runs/{run.public_id}/" in html]
        if "Next page" not in html:
            break
        href = html.split('class="next-page" href="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
        response = client.get("/console/records/" + href)
    assert len(seen) == 5 and len(set(seen)) == 5


def test_the_console_page_needs_a_sign_in(client, scene):
    response = client.get("/console/records/", {"q": "refund"})
    assert response.status_code == 302 and "/console/login/" in response["Location"]


def test_a_record_older_than_every_window_is_found(world, scene):
    run = make_run(world.agent, world.project, "ACME-8", days_ago=400)
    add_record(run, "An ancient wombat migration note.\n")
    assert [h.run for h in record_search("wombat", project_ids=None).hits] == [run]
    kept = timezone.now() - timedelta(days=399)
    assert record_search("wombat", project_ids=None, filters=RecordFilters(kept_from=kept)).hits == []
    assert [h.run for h in record_search("wombat", project_ids=None, filters=RecordFilters(kept_before=kept)).hits] == [
        run]


def test_the_parsed_query_is_written_out_for_both_engines():
    parsed = parse_query('dbt "state modified" OR tips -legacy tip*')
    assert parsed.problem == ""
    assert parsed.fts5() == '(("dbt" AND "state modified") OR ("tips" AND "tip"*)) NOT "legacy"'
    sql, params = parsed.tsquery()
    assert sql == (
        "(((phraseto_tsquery('english', %s) && phraseto_tsquery('english', %s)) || "
        "(phraseto_tsquery('english', %s) && to_tsquery('english', %s))) && !!phraseto_tsquery('english', %s))"
    )
    assert params == ["dbt", "state modified", "tips", "'tip':*", "legacy"]
