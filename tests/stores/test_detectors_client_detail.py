"""The client-detail matcher: registry terms found whole, however disguised; ordinary words pass."""

from __future__ import annotations

import pytest

from stores.console_checks.detectors.client_detail import ClientDetailFinding, ClientDetailMatcher, ClientTerm
from tests.detection_data.labelled_sets import client_registry, legitimate_lessons

TERMS = [
    ClientTerm("Acme", "client name", "Acme"),
    ClientTerm("Big Corp", "client name", "Big Corp"),
    ClientTerm("BigCo", "client alias", "Big Corp"),
    ClientTerm("Stemt", "client name", "Stemt"),
    ClientTerm("Temthe", "client name", "Temthe"),
    ClientTerm("Wee", "client name", "Wee Ltd"),
    ClientTerm("DATA", "project key", "Data Works"),
    ClientTerm("ACME", "project key", "Acme"),
    ClientTerm("org/acme-dbt", "repository", "Acme"),
    ClientTerm("northwind-looker", "repository", "Northwind"),
    ClientTerm("nw_raw", "dataset", "Northwind"),
    ClientTerm("nw_raw.orders", "table", "Northwind"),
    ClientTerm("fct_anvil_returns", "distinctive table", "Acme"),
    ClientTerm("Café Nero", "client alias", "Nero Group"),
    ClientTerm("AT&T Data", "client name", "AT&T Data"),
]
MATCHER = ClientDetailMatcher(TERMS)

# (text, term found or None): counted and not counted side by side.
CASES = [
    ("Worked on Acme last week.", "Acme"),
    ("Worked on acmeish ideas last week.", None),
    ("**Ac**me uses BigQuery.", "Acme"),
    ("`acme` uses BigQuery.", "Acme"),
    ("Ac<b>me</b> uses BigQuery.", "Acme"),
    ("Ac&#109;e uses BigQuery.", "Acme"),
    ("Ac\u200bme uses BigQuery.", "Acme"),
    ("Ac\u00adme uses BigQuery.", "Acme"),
    ("ACME's warehouse is large.", "Acme"),
    ("A_c_m_e is not a split by emphasis.", None),
    ("Ac me is two words, not the name.", None),
    ("bigcorp", "Big Corp"),
    ("big-corp", "Big Corp"),
    ("big_corp", "Big Corp"),
    ("BIG CORP", "Big Corp"),
    ("Big\u00a0Corp", "Big Corp"),
    ("a big corporation", None),
    ("stem the tide of late rows", None),
    ("run it between two loads", None),
    ("the wee hours", "Wee"),
    ("put it in the data folder", None),
    ("data-12 is the ticket", "DATA"),
    ("See DATA-7 for details.", "DATA"),
    ("The DATA board.", "DATA"),
    ("Data quality tests run nightly.", None),
    ("feature/acme-123-fix", "ACME"),
    ("ACME-123_fix", "ACME"),
    ("ACME_RAW is the acme dataset, not the key", "Acme"),
    ("cloned org/acme-dbt", "org/acme-dbt"),
    ("the acme-dbt repo", "org/acme-dbt"),
    ("northwind-looker has the LookML", "northwind-looker"),
    ("query `nw_raw`", "nw_raw"),
    ("query NW_RAW", "nw_raw"),
    ("query nw_raw_v2", None),
    ("`nw_raw`.`orders`", "nw_raw.orders"),
    ('"NW_RAW"."ORDERS"', "nw_raw.orders"),
    ("[nw_raw].[orders]", "nw_raw.orders"),
    ("`analytics-prod.nw_raw.orders`", "nw_raw.orders"),
    ("fct_anvil_returns is slow", "fct_anvil_returns"),
    ("fct_anvil_returns_v2 is a different table", None),
    ("Cafe Nero", "Café Nero"),
    ("AT&amp;T Data", "AT&T Data"),
]


@pytest.mark.parametrize(("text", "term"), CASES, ids=[c[0][:40] for c in CASES])
def test_terms_count_whole_however_written_and_ordinary_words_do_not(text, term):
    found = {f.term for f in MATCHER.scan(text)}
    if term is None:
        assert found == set()
    else:
        assert term in found


def test_a_finding_names_the_term_its_kind_and_its_client():
    assert MATCHER.scan("Ticket ACME-42 on the nw_raw.orders table") == [
        ClientDetailFinding("Acme", "client name", "Acme"),
        ClientDetailFinding("ACME", "project key", "Acme"),
        ClientDetailFinding("nw_raw", "dataset", "Northwind"),
        ClientDetailFinding("nw_raw.orders", "table", "Northwind"),
    ]


def test_each_term_is_reported_once():
    assert len(MATCHER.scan("Acme, acme, ACME corp and **Acme**")) == 2  # the name, and ACME as a key


def test_paths_are_scanned_like_text():
    assert {f.term for f in MATCHER.scan("/agents/qa-bot/acme-dbt-notes.md")} >= {"Acme"}


def test_an_empty_registry_finds_nothing():
    assert ClientDetailMatcher([]).scan("Acme and ACME-1") == []


def test_thousands_of_clients_build_into_one_matcher():
    """One matcher holds every term of 2,200 clients and finds them whole (speed: bench/pathological_inputs.py)."""
    registry = client_registry()
    assert len({t.client for t in registry}) >= 2000
    matcher = ClientDetailMatcher(registry)
    note = "\n\n".join(legitimate_lessons()[:12])
    assert matcher.scan(note) == []
    name = next(t for t in registry if t.kind == "client name" and " " in t.term)
    assert ClientDetailFinding(name.term, "client name", name.client) in matcher.scan(f"{note}\n\nWe met {name.term}.")
