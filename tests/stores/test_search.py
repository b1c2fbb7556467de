"""The full-text search service, on whichever database the run uses (PostgreSQL with DATABASE_URL,
SQLite without): the index follows every write, any query text is safe, filters narrow, and
redaction takes the text out of the index's own rows."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from runs.search import RecordQueryError, read_record_query
from stores.models import SearchEntry, Store
from stores.services.memories import memory_delete, memory_restore, memory_update
from stores.services.redaction import memory_redact_all_versions
from stores.services.search import (
    FTS_TABLE,
    MEMORY_SOURCE,
    parse_query,
    search,
    search_index_rebuild_memories,
)
from tests import factories as f

pytestmark = pytest.mark.django_db

REFUND = "Shopify refunds arrive as separate rows with a negative total_price.\n"
LATE = "Late-arriving orders are caught by a three-day lookback on updated_at.\n"


def paths(results) -> list[str]:
    return [hit.entry.path for hit in results.hits]


@pytest.fixture
def notes(world):
    store = world.project_store
    return {
        "refund": f.make_memory(store, "/data/orders-refunds.md", REFUND),
        "late": f.make_memory(store, "/solutions/late-orders.md", LATE),
        "practice": f.make_memory(world.practice, "/dbt/layout.md", "Keep staging, intermediate and marts folders.\n"),
    }


def test_finds_a_word_ranked_and_highlighted(world, notes):
    results = search("refunds", store_ids=[world.project_store.pk])
    assert paths(results) == ["/data/orders-refunds.md"]
    assert "<mark>" in results.hits[0].snippet
    assert "refunds" in results.hits[0].snippet.lower()


def test_stemmed_words_match(world, notes):
    assert paths(search("refund", store_ids=[world.project_store.pk])) == ["/data/orders-refunds.md"]


def test_path_words_match(world, notes):
    assert paths(search("lookback", store_ids=None)) == ["/solutions/late-orders.md"]
    assert "/dbt/layout.md" in paths(search("layout", store_ids=None))


def test_only_the_stores_given_are_searched(world, notes):
    assert paths(search("staging", store_ids=[world.project_store.pk])) == []
    assert paths(search("staging", store_ids=[world.practice.pk])) == ["/dbt/layout.md"]
    assert search("staging", store_ids=[]).hits == []


def test_index_follows_update_rename_delete_and_restore(world, notes):
    store = world.project_store
    writer = f.person_writer(world.admin)
    refund = notes["refund"]
    memory_update(writer=writer, store=store, memory_id=refund.public_id, content="Chargebacks are rows too.\n",
                  path="/data/chargebacks.md")
    assert paths(search("refunds", store_ids=[store.pk])) == []
    assert paths(search("chargebacks", store_ids=[store.pk])) == ["/data/chargebacks.md"]
    memory_delete(writer=writer, store=store, memory_id=refund.public_id, reason="moved")
    assert search("chargebacks", store_ids=[store.pk]).hits == []
    assert paths(search("chargebacks", store_ids=[store.pk], deleted=True)) == ["/data/chargebacks.md"]
    memory_restore(writer=writer, store=store, memory_id=refund.public_id)
    assert paths(search("chargebacks", store_ids=[store.pk])) == ["/data/chargebacks.md"]


@pytest.mark.parametrize(
    "query",
    [
        '"unclosed phrase', "refunds:", "a:b:c", "AND OR NOT", "NEAR(refunds orders)", "(((", ")", "*", "-",
        "refunds -", '""', "'; DROP TABLE stores_memory; --", "total_price^2", "col:refunds", "\\", "%_%",
        "refunds OR", "OR refunds", "x" * 2000, "ünïcödé ☃", "{refunds}", "refunds*", "<script>", "refunds\x00", "\ud800", "refunds \udce9",
    ],
)
def test_any_query_text_is_safe(world, notes, query):
    results = search(query, store_ids=None)
    assert results.hits or results.message


def test_websearch_syntax(world, notes):
    ids = [world.project_store.pk]
    assert paths(search('"negative total_price"', store_ids=ids)) == ["/data/orders-refunds.md"]
    assert sorted(paths(search("refunds OR lookback", store_ids=ids))) == [
        "/data/orders-refunds.md", "/solutions/late-orders.md",
    ]
    assert paths(search("orders -refunds", store_ids=ids)) == ["/solutions/late-orders.md"]


@pytest.mark.parametrize("query,problem", [
    ('"negative total_price', "The quote at character 1 is never closed"),
    ("refunds OR", "The search ends with OR"),
    ("OR refunds", "OR at character 1 must stand between two words"),
    ("refunds -", "The - at character 9 must be followed by a word"),
])
def test_a_query_it_cannot_read_is_explained_not_guessed(world, notes, query, problem):
    results = search(query, store_ids=[world.project_store.pk])
    assert results.hits == [] and not results.ran
    assert results.message == results.problem
    assert results.message.startswith(f"The search cannot be read: {problem}"), results.message
    # The run-record search says the same, from the same parser.
    with pytest.raises(RecordQueryError) as caught:
        read_record_query(query)
    assert caught.value.message == results.message


def test_only_words_to_leave_out_says_so(world, notes):
    results = search("-refunds", store_ids=None)
    assert results.hits == []
    assert "Add a word" in results.message
    assert search("   ", store_ids=None).message == "Type one or more words to look for."
    # A term with nothing to look for is explained as the run-record search explains it.
    assert "'::' at character 3 holds no letter or digit" in search("  :: ", store_ids=None).message


def test_markup_in_a_note_is_escaped_in_the_snippet(world):
    f.make_memory(world.project_store, "/data/html-export.md", "Beware <script>alert(1)</script> in refunds exports.\n")
    snippet = search("refunds", store_ids=None).hits[0].snippet
    assert "<script>" not in snippet
    assert "alert(1)" in snippet  # SQLite keeps the tag as escaped text; PostgreSQL's headline drops it
    assert "<mark>refunds</mark>" in snippet


def test_filters_folder_writer_and_dates(world, notes):
    ids = [world.project_store.pk]
    assert paths(search("orders", store_ids=ids, folder="/solutions")) == ["/solutions/late-orders.md"]
    assert paths(search("orders", store_ids=ids, folder="/solutions/")) == ["/solutions/late-orders.md"]
    assert search("orders", store_ids=ids, folder="/sol").hits == []
    f.make_memory(world.project_store, "/data/agent-note.md", "Orders by the agent.\n", writer=f.agent_writer(world.agent))
    assert paths(search("orders", store_ids=ids, writer="ADA")) == ["/data/agent-note.md"]
    today = timezone.localdate()
    assert len(search("orders", store_ids=ids, after=today, before=today).hits) == 3
    assert search("orders", store_ids=ids, after=today + timedelta(days=1)).hits == []
    assert search("orders", store_ids=ids, before=today - timedelta(days=1)).hits == []


def test_parse_query_quotes_every_term_for_fts5():
    parsed = parse_query('dbt "state modified" OR tips -legacy NEAR: col:x* tip*')
    assert parsed.fts5() == '(("dbt" AND "state modified") OR ("tips" AND "NEAR" AND "col x" AND "tip"*)) NOT "legacy"'


def _index_rows_holding(word: str) -> list:
    """Rows of the index's own tables that still hold ``word`` (SQL over the index, not the ORM)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT id FROM stores_searchentry WHERE body LIKE %s OR path LIKE %s",
                       [f"%{word}%", f"%{word}%"])
        rows = list(cursor.fetchall())
        if connection.vendor == "postgresql":
            cursor.execute("SELECT id FROM stores_searchentry WHERE search_vector::text LIKE %s", [f"%{word}%"])
            rows += cursor.fetchall()
        else:
            cursor.execute(f"SELECT rowid FROM {FTS_TABLE} WHERE body LIKE %s OR path LIKE %s",
                           [f"%{word}%", f"%{word}%"])
            rows += cursor.fetchall()
            # The terms FTS5's own b-tree still knows, whichever row they came from.
            cursor.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_terms USING fts5vocab(main, {FTS_TABLE}, row)")
            cursor.execute("SELECT term FROM temp.fts_terms WHERE term LIKE %s", [f"%{word}%"])
            rows += cursor.fetchall()
    return rows


def test_redaction_takes_the_text_out_of_the_index(world, notes):
    store = world.project_store
    writer = f.person_writer(world.admin)
    refund = notes["refund"]
    memory_update(writer=writer, store=store, memory_id=refund.public_id,
                  content="Zanzibarquux chargeback rows.\n", path="/data/zanzibarquux.md")
    assert _index_rows_holding("zanzibarquux")
    memory_delete(writer=writer, store=store, memory_id=refund.public_id)
    memory_redact_all_versions(writer=writer, store=store, memory_id=refund.public_id)
    assert _index_rows_holding("zanzibarquux") == []
    assert _index_rows_holding("negative") == []  # an older version's words
    assert search("zanzibarquux", store_ids=None).hits == []
    assert search("zanzibarquux", store_ids=None, deleted=True).hits == []
    assert not SearchEntry.objects.filter(source=MEMORY_SOURCE, source_id=refund.pk).exists()
    # The other notes are still found.
    assert paths(search("lookback", store_ids=None)) == ["/solutions/late-orders.md"]


def test_rebuild_matches_what_the_services_wrote(world, notes):
    before = sorted(SearchEntry.objects.values_list("source_id", "path", "writer_name"))
    assert search_index_rebuild_memories() == 3
    assert sorted(SearchEntry.objects.values_list("source_id", "path", "writer_name")) == before
    assert paths(search("refunds", store_ids=[Store.objects.get(project=world.project).pk])) == [
        "/data/orders-refunds.md"
    ]


def test_rebuild_search_index_command(world, notes):
    import io
    import json

    from django.core.management import call_command

    out = io.StringIO()
    call_command("rebuild_search_index", "--json", stdout=out)
    assert json.loads(out.getvalue()) == {"memories_indexed": 3, "run_records_indexed": 0}
    assert paths(search("lookback", store_ids=None)) == ["/solutions/late-orders.md"]
