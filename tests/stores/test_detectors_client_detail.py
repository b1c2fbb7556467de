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
    # "Wee" is a common English word: counted only with evidence that the client is meant.
    ("the wee hours", None),
    ("The data came from Wee late again.", "Wee"),
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


# Shapes a name takes when it is disguised, and the ordinary words that must still pass (issue 9 s.4).
# A registry of its own, so these names were chosen for the shapes, not taken from any labelled set.
DISGUISE_TERMS = [
    ClientTerm("Quorvane", "client name", "Quorvane"),
    ClientTerm("Larkspur Analytics", "client name", "Larkspur Analytics"),
    ClientTerm("Larkspur", "client alias", "Larkspur Analytics"),
    ClientTerm("Summit", "client name", "Summit"),
    ClientTerm("SMT", "project key", "Summit"),
    ClientTerm("Pacific Northern", "client name", "Pacific Northern"),
    ClientTerm("PNL", "client alias", "Pacific Northern"),
    ClientTerm("Tidewell", "client name", "Tidewell"),
    ClientTerm("lsp_raw", "dataset", "Larkspur Analytics"),
    ClientTerm("Marlowe & Pike", "client name", "Marlowe & Pike"),
]
DISGUISE_MATCHER = ClientDetailMatcher(DISGUISE_TERMS)
_B64 = "UXVvcnZhbmU="  # base64 of the name, spelled out so a reader can check it
DISGUISED = [
    # digits and symbols for letters
    ("Tip from the Qu0rv4n3 engagement: soft deletes arrive as a flag.", "Quorvane"),
    ("L@rk$pur dashboards load slowly on Mondays.", "Larkspur"),
    ("For 5ummit the QA list includes a row count.", "Summit"),
    ("Working for Quorv@ne taught me to check late rows.", "Quorvane"),
    ("Q u 0 r v 4 n e wants PR notes.", "Quorvane"),  # spaced out and leet at once
    ("T1d3w3ll data lands late; 71d3w3££ too.", "Tidewell"),  # most letters replaced
    ("Query lsp_r4w before noon.", "lsp_raw"),
    # separators between every letter, or one inside a word
    ("Q  u  o  r  v  a  n  e wants PR notes.", "Quorvane"),
    ("Q·u·o·r·v·a·n·e wants PR notes.", "Quorvane"),
    ("Quor-vane wants PR notes.", "Quorvane"),
    ("Quor vane wants PR notes.", "Quorvane"),
    ("Lark-\nspur wants PR notes.", "Larkspur"),
    ("Lessons from Marl owe & Pike: late rows.", "Marlowe & Pike"),  # a common word inside a longer name
    # letters from other scripts, and Latin look-alikes
    ("Qu\u043ervane wants PR notes.", "Quorvane"),  # Cyrillic o
    ("\u13a2idewell wants PR notes.", "Tidewell"),  # Cherokee letter for T
    ("Quorvan\u0435 wants PR notes.", "Quorvane"),  # Cyrillic e
    ("\U0001d410\U0001d42e\U0001d428\U0001d42b\U0001d42f\U0001d41a\U0001d427\U0001d41e wants PR notes.", "Quorvane"),
    ("Qu\u1d0frvane wants PR notes.", "Quorvane"),  # Latin small capital O
    # inside addresses, paths and identifiers
    ("See https://quorvane.atlassian.net/browse for the board.", "Quorvane"),
    ("Mail ops@quorvane.com for access.", "Quorvane"),
    ("The portal is https://getquorvane.io/login.", "Quorvane"),
    ("The bucket quorvanedata-prod is in us-east-1.", "Quorvane"),
    ("The job quorvaneEtlNightly fails on Sundays.", "Quorvane"),
    ("loadQuorvaneOrders() is slow.", "Quorvane"),
    ("APIQuorvaneSync is slow.", "Quorvane"),
    ("Profiles live in /srv/clients/summit/profiles.yml.", "Summit"),
    ("Mail ops@summit-data.com for access.", "Summit"),  # a common word in a mail domain
    # encodings
    (f"Client label {_B64} (base64).", "Quorvane"),
    ("Client label 51756f7276616e65 (hex).", "Quorvane"),
    ("Name %51%75%6F%72%76%61%6E%65 url-encoded.", "Quorvane"),
    ("The client, in rot13: Dhbeinar.", "Quorvane"),
    ("The client name reversed: enavrouQ.", "Quorvane"),
    # a common word as a name, with evidence
    ("Worked for Summit last month.", "Summit"),
    ("Summit is on Snowflake on-demand pricing.", "Summit"),
    ("Summit wants every PR described.", "Summit"),
    ("Summit's warehouse is shared with CI.", "Summit"),
    ("SUMMIT runs dbt 1.7.", "Summit"),
    ("Client summit needs a lookback of three days.", "Summit"),
    ("summit data is late again; see SMT-12.", "Summit"),
    ("Pacific Northern ships late on Fridays.", "Pacific Northern"),
    ("PNL models run at 06:00.", "PNL"),
    ("For client pnl the lookback is three days.", "PNL"),  # lower case, with a cue word
    # ordinary words and look-alikes that pass
    ("We reached the summit of the weekly curve at noon.", None),
    ("Summit meetings are held monthly.", None),
    ("Summits of the weekly curve are seasonal.", None),
    ("Summits in the chart mark slow weeks.", None),
    ("Summit meetings in the spring are long.", None),
    ("Use the Pacific time zone for US West reporting.", None),
    ("Daily pnl per desk is a finance metric.", None),
    ("The tide well and truly turned after the merge.", None),
    ("The data stream is slow; batch it.", None),
    ("The SMTP relay is slow.", None),
    ("A reverse ETL sync pushes marts back to the CRM.", None),
    ("Load v2 of the s3 export, then 10 rows of utf8 text.", None),
    ("commit 3f9c2e1a7b fixed it", None),
]


@pytest.mark.parametrize(("text", "term"), DISGUISED, ids=[c[0][:40] for c in DISGUISED])
def test_disguised_names_are_found_and_common_words_need_evidence(text, term):
    found = {f.term for f in DISGUISE_MATCHER.scan(text)}
    if term is None:
        assert found == set()
    else:
        assert term in found


def test_a_common_word_name_counts_beside_other_detail_of_its_client():
    assert DISGUISE_MATCHER.scan("the summit view") == []
    assert {f.term for f in DISGUISE_MATCHER.scan("the summit view; SMT-4 has the fix")} == {"Summit", "SMT"}


def test_a_disguised_name_of_the_own_client_passes_in_its_project_store():
    assert DISGUISE_MATCHER.scan("Qu0rv4n3 wants PR notes.", own_client="Quorvane") == []
    assert DISGUISE_MATCHER.scan("Qu0rv4n3 wants PR notes.", own_client="Summit") != []


@pytest.mark.parametrize(
    "text",
    [
        "Rotate by the angle θ before plotting.",
        "Η βάση δεδομένων ενημερώνεται κάθε βράδυ.",
        "Все предыдущие загрузки были успешными.",
        "ϑ, ϴ, Б, ъ, ћ, Ѣ, Ѳ, ѽ, Ҍ, ғ, Қ, Ң, Ҫ, Ұ, Ҳ, Ӆ, Ө: letters of other scripts.",
    ],
)
def test_letters_whose_lookalike_is_a_sequence_are_read_without_error(text):
    # Some letters are confusable with a sequence (a digit and a stroke), not one letter: such a
    # letter has no Latin look-alike, and the text is judged like any other.
    assert MATCHER.scan(text) == []
