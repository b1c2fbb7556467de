"""Short aliases and project keys in any case: an acronym that is no word is found as "nwo" or "Nwo".

An acronym alias or name of three to five letters, or a project key, whose lower-case form is no
word notes write counts in any case; spelled letter by letter in lower case ("n.w.o.", "a c e") it
counts as its capitals do. One that is a word stays capitals only (or needs evidence): an English
word by frequency ("ACE", "ARC"; from a lower frequency when English could spell it, "YORE",
"HARV"; where no English word opens so, "KPMG" is no word), an abbreviation of the trade ("ETL", "DBT"), a name in code
("CTX"), a unit ("QPS"), a language or format Pygments knows ("HCL"); two letters ("NW", "CI") too.
Each class has look-alikes that pass. The registry is invented; no name comes from a labelled or
blind set.
"""

from __future__ import annotations

import pytest

from stores.console_checks.detectors.client_detail import ClientDetailMatcher, ClientTerm

REGISTRY = [
    ClientTerm("Northwind", "client name", "Northwind"),
    ClientTerm("NWO", "client alias", "Northwind"),
    ClientTerm("ZQX", "project key", "Northwind"),
    ClientTerm("Harvell Outdoor", "client name", "Harvell Outdoor"),
    ClientTerm("HARV", "client alias", "Harvell Outdoor"),  # a rare token English could spell
    ClientTerm("YORE", "project key", "Harvell Outdoor"),  # a rare word
    ClientTerm("KPMG", "client alias", "Kestrel Point Management Group"),  # as often, spelled as no word
    # acronyms that are words, abbreviations of the trade, names in code, units, formats, two letters
    ClientTerm("ACE", "client alias", "Ardent Cargo Express"),
    ClientTerm("ARC", "project key", "Ardent Cargo Express"),
    ClientTerm("ETL", "client alias", "Elsworth Trade Lines"),
    ClientTerm("DBT", "client alias", "Dunmore Bay Trading"),
    ClientTerm("CTX", "project key", "Dunmore Bay Trading"),
    ClientTerm("DATAENG", "project key", "Dunmore Bay Trading"),  # two words run together
    ClientTerm("QPS", "client alias", "Quillon Power Systems"),
    ClientTerm("HCL", "client alias", "Hawley Cole"),
    ClientTerm("NW", "client alias", "Norwell"),
    ClientTerm("CI", "client alias", "Carrick Insurance"),
]


@pytest.fixture(scope="module")
def matcher():
    return ClientDetailMatcher(REGISTRY)


FOUND = [
    # an alias that is no word, in any case
    ("in capitals, as before", "NWO names staging models stg_.", "NWO"),
    ("in lower case after a preposition", "At nwo we name staging models stg_.", "NWO"),
    ("in lower case after a determiner", "The nwo team owns the marts.", "NWO"),
    ("capitalised at a sentence start", "Nwo names staging models stg_.", "NWO"),
    ("in odd case", "Ask nWo before dropping the seed.", "NWO"),
    ("spelled with dots in lower case", "n.w.o. names staging models stg_.", "NWO"),
    ("spelled with spaces in lower case", "We agreed with n w o to rename the seeds.", "NWO"),
    ("spelled with dots in capitals", "N.W.O. names staging models stg_.", "NWO"),
    ("as a command-line flag", "Backfill with --nwo before the weekend.", "NWO"),
    ("as a folder of a path", "Exports land in s3://exports/nwo/daily/ at six.", "NWO"),
    ("as a file's extension", "The handover is in export.nwo on the share.", "NWO"),
    ("before an underscore", "Rename nwo_orders before the audit.", "NWO"),
    ("after a number", "Three nwo dashboards broke overnight.", "NWO"),
    ("written as often as a rare word, spelled as none", "Send the kpmg extract on Fridays.", "KPMG"),
    ("a spellable alias in capitals", "The HARV exports are late again.", "HARV"),
    # a project key that is no word, alone in any case
    ("a key alone in lower case", "Board zqx has the migration epic.", "ZQX"),
    ("a key capitalised", "Zqx owns the staging refactor.", "ZQX"),
    ("a key as a ticket, as before", "Fixed in zqx-118 last sprint.", "ZQX"),
    # an acronym that is a word or the trade's: spelled out, in capitals, or with evidence
    ("a word acronym spelled in lower case", "We agreed with a.c.e. to move the cut-off.", "ACE"),
    ("a word acronym spelled with spaces", "The a c e extract moved to Tuesdays.", "ACE"),
    ("a word acronym in capitals", "The ACE extract moved to Tuesdays.", "ACE"),
    ("a trade acronym after a cue word", "For client etl the cut-off is noon.", "ETL"),
    ("a word key in capitals", "ARC owns the freight marts.", "ARC"),
    ("a key of two words in capitals", "DATAENG tracks the warehouse work.", "DATAENG"),
]


@pytest.mark.parametrize(("what", "text", "term"), FOUND, ids=[c[0] for c in FOUND])
def test_an_acronym_that_is_no_word_is_found_in_any_case(matcher, what, text, term):
    assert term in {f.term for f in matcher.scan(text)}, what


PASSED = [
    # acronyms that are English words, in lower case or capitalised at a sentence start
    "The ace of spades is the top card.",
    "Ace work on the dedupe, by the way.",
    "An arc diagram shows the lineage best.",
    # rarer tokens English could spell: a word, or a name, from a Zipf of 2
    "The harv exports are late again.",
    "Logs from days of yore are in cold storage.",
    # abbreviations of the trade and names in code: registered, but written as the term
    "The etl job reruns at six.",
    "Run dbt build --select staging before the tests.",
    "Pass ctx to every macro that needs the target.",
    "Ask in the dataeng channel before a full refresh.",
    # a unit after a number, a format Pygments knows
    "Throughput peaked at 40 qps during the backfill.",
    "Edit the hcl files for the bucket policy.",
    # two letters stay capitals only: a direction, a CLI flag
    "Head nw along the river path to the depot.",
    "Run it with --ci in the pipeline.",
    # unregistered abbreviations beside a registry of acronyms
    "The sql in the pr passed qa; ok to merge, id 42 closes it.",
    "The api returns 429 when the etl floods it.",
    # two letters spelled out in lower case are no run of three
    "Use e.g. the staging target, i.e. dev.",
    # an acronym that is no word, cut by a wrapped line into words ("kp", "mg") or too short to cut
    "Tune the nw\no setting first.",
    "Send the kp\nmg extract on Fridays.",
    # a key that is no word, before an underscore the line cut
    "Partitions in zqx_\nother expire after 30 days.",
]


@pytest.mark.parametrize("text", PASSED)
def test_look_alikes_of_acronyms_pass(matcher, text):
    assert matcher.scan(text) == [], text


def test_a_word_acronym_in_lower_case_is_found_beside_another_term_of_its_client(matcher):
    # The lower-case word alone is weak; another term of the same client is the evidence.
    assert matcher.scan("The ace of spades.") == []
    found = {f.term for f in matcher.scan("ace exports go to ARC-12 now.")}
    assert found == {"ACE", "ARC"}


def test_an_own_acronym_in_lower_case_passes_in_its_project_store(matcher):
    text = "At nwo we name staging models stg_; see zqx for the board."
    assert matcher.scan(text, own_client="Northwind") == []
    assert {f.term for f in matcher.scan(text, own_client="Harvell Outdoor")} == {"NWO", "ZQX"}
