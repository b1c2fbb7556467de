"""Client detail in text: client names and aliases, Jira project keys, repositories, datasets, tables.

One matcher per registry. It builds two Aho-Corasick automata once (pyahocorasick) over normalised
forms of every term, then scans a text in one pass per automaton, however many clients there are.

The text is normalised once, with a map from every normalised character back to the original:
markup that splits a word is removed (Markdown emphasis and code marks, inline HTML tags, HTML
entities decoded, zero-width characters and soft hyphens dropped), letters are folded (case,
accents, full-width forms). Two views come out of it:

- the *clean* view keeps separators; identifiers (repositories, datasets, tables, project keys) are
  matched there, whole, with ``_`` counted as part of a word;
- the *names* view also drops spaces, ``-``, ``_`` and commas, so "Big Corp" is found as "bigcorp",
  "big-corp" or "BIG CORP". A match counts only if it starts and ends on word boundaries of the
  clean view and every separator it skipped sits between two words of the name ("stem the tide" is
  not the client "Stemt"; "between" is not the client "Wee").

General ways a name is written without being spelled as registered are also found:

- letter by letter, with the same separator between every letter ("A C M E Labs", "a-c-m-e",
  "A  C  M  E", "a·c·m·e", "A. C. M. E."), identifiers with their underscores and dots among the
  letters ("f c t _ l e g s"): the stretch around each such run is read once more with the run joined;
- split inside a word by a hyphen ("Bright-moor"), by a space where a piece is no common word
  ("Vel trix"; "Bright moor", two common words, needs the evidence a common-word name needs), by a
  line break anywhere (a wrapped line: "Quillf" / "eather", also ``<br>``), or into syllables by one
  repeated mark ("Pel-lu-cid", "Pel·lu·cid");
- identifiers cut by a wrapped line ("hvm_fl" / "eet"): the cut tokens are read once more joined;
- with digits and symbols for letters ("Br1ghtm00r", "Veltr!x", "C4f3"): the names view is read a
  second time through a skeleton that folds each digit or symbol with the letters it stands for,
  in the terms and the text alike (one more automaton pass, only when the text has such a spelling);
- with letters of other scripts or Latin letters that look like ASCII ones (Cyrillic, Greek,
  Cherokee, small capitals, dotless i, mathematical and circled letters): Unicode's confusables
  (confusable-homoglyphs) and the letters' Unicode names fold them; ligatures and letters with no
  base letter are spelled out ("æ" as "ae", "þ" as "th"), and German and Nordic marked letters match
  their spelling without the mark either way ("Müller" / "Mueller", "Søndergaard" / "Soendergaard");
- a name with "&" also as "and", "+" or without it ("marlowequist", "marlowe-quist");
- with an English plural or possessive ending after it ("Acmes", "Acme's", "Acmes'", "Tidewell's"), and
  a name ending in consonant + "y" also with "ies" ("Tidy", "Tidies");
- inside identifiers and addresses: a camelCase or letter-to-digit step is a word boundary
  ("loadAcmeOrders", "acme2024"), and a long rare name counts even glued to other words inside a
  host, address, path or identifier ("getquorvane.io", "quorvanedata-prod");
- encoded: base64 (standard or URL-safe, padded or not) and hex tokens that decode to printable
  text, percent-encoded tokens, and the whole text rot13'd or reversed where it says so.

A project key counts as a ticket (KEY-12, KEY#12, in any case; key_12 in lower case for a key that
is no word; "ticket key 12") or alone in capitals; alone in any case when it is no word (below).

An acronym of three to five letters, or a project key, whose lower-case form is no word that notes
write counts in any case: "NWO" is also "nwo" and "Nwo". A word is an English one (wordfreq's Zipf
>= 3: "ace", "arc", "api"; >= 2 for a token English could spell, "yore", "harv", where "nwo" and
"kpmg" open as no English word does) or one of the trade's: its abbreviations ("etl", "dbt", "cte"), names in
code ("ctx", "src"), the data tools, units ("gib", "qps") and every language or file format
Pygments names ("yaml", "hcl"). A file extension is one of those or no name's (a client "NWO" in
``export.nwo`` is still named); a flag ``--nwo`` names the client as ``nwo_orders`` does, and
``--ci`` passes for a client "CI" (two letters stay capitals only). Spelled letter by letter
("n.w.o.", "a c e") an acronym counts as it does in capitals. A Latin name written by its sound in
Cyrillic or Greek letters ("Нортвинд") is found too (``client_detail_phonetic``).

Two kinds of name need more than a match. An acronym that is a word ("PNL", "ACE", "C&F") counts in
capitals, as a project key does; in lower case ("pnl" is profit and loss) it needs evidence like a
common word. A name that is one common English word (wordfreq's
Zipf frequency >= 3: "Harbor", "Summit") counts only with evidence that the client is meant: written
capitalised mid-sentence, in capitals or odd case, possessive, disguised (split, leet, encoded),
after "client" or "tenant" or before "engagement" or a legal form ("Ltd"), as a sentence's subject
before an auxiliary ("Harbor is on BigQuery") or a person's verb ("Orbit asked"), with no
determiner after a preposition and before the verb ("resync of kettle duplicated rows"), or beside
another term of the same client. "Plan for the harbor" passes. A name of three common words or
more, one of them not an everyday word, counts in full in lower case ("saffron ridge capital"). A
client named like a data tool ("Delta", "Spark") needs a cue word, a legal form, a person's verb or
another of its terms: notes name the tools in every other way.

``scan(text, own_client=...)`` is for a project store: it reports only other clients' detail, and
a term that also belongs to ``own_client`` (two clients share a dataset name) is that client's.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import codecs
import html
import itertools
import re
import string
import unicodedata
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass

import ahocorasick
from confusable_homoglyphs import confusables
from pygments.lexers import get_all_lexers
from wordfreq import zipf_frequency

from .client_detail_phonetic import PhoneticNames

__all__ = ["ClientDetailFinding", "ClientDetailMatcher", "ClientTerm", "KINDS"]

KINDS = ("client name", "client alias", "repository", "dataset", "table", "distinctive table", "project key")
_NAME_KINDS = frozenset({"client name", "client alias"})


@dataclass(frozen=True)
class ClientTerm:
    """One name the registry knows: the term, its kind (one of KINDS) and its client."""

    term: str
    kind: str
    client: str


@dataclass(frozen=True)
class ClientDetailFinding:
    """A registry term found in a text."""

    term: str
    kind: str
    client: str


# Characters that split a word without being seen: zero-width, joiners, soft hyphen, bidi controls,
# BOM, Unicode tags, variation selectors, combining grapheme joiner.
_INVISIBLE = frozenset(
    [chr(c) for c in range(0x200B, 0x2010)]
    + [chr(c) for c in range(0x2060, 0x2070)]
    + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0xFE00, 0xFE10)]
    + ["\u00ad", "\ufeff", "\u034f", "\u061c", "\u180e"]
)
# Characters that end a line as "\n" does (a wrapped line can cut a word at any of them).
_LINE_SEPARATORS = frozenset("\u2028\u2029\x85")
# HTML elements that sit inside a word ("Ac<b>me</b>"); any other tag separates words.
_INLINE_TAGS = frozenset(
    "a abbr b bdi bdo big cite code del dfn em font i ins kbd mark q s samp small span strike strong sub sup "
    "tt u var wbr".split()
)
# It opens on a look-ahead at its first characters, so the scan skips plain text in C.
_SPECIAL = re.compile(
    r"(?=[<&*~`_\-\x80-\U0010ffff])(?:<!--|-->"
    r"|<(?P<close>/?)(?P<tag>[A-Za-z][A-Za-z0-9]*)(?:\s[^<>]*)?/?>"
    r"|(?P<entity>&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)"
    r"|[*~`]"
    r"|(?P<underscores>_+)"
    r"|[^\x00-\x7f])"
)
# Separators a name may have, or not have, between its words; apostrophes may come and go anywhere
# ("McDonald's", "McDonalds").
_NAME_SEPARATORS = frozenset(" \t\n\r\f\v-_,./+")
# Look-alike letters from other scripts that spell Latin ones ("Acmе" with a Cyrillic e), and the
# dashes that stand for a hyphen.
_CONFUSABLES = {
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y",
    "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ɡ": "g", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "У": "Y",
    "Х": "X", "І": "I", "Ј": "J", "Ѕ": "S", "Ԛ": "Q", "Ԝ": "W",
    "α": "a", "ο": "o", "ρ": "p", "ι": "i", "κ": "k", "ν": "v", "τ": "t", "υ": "u", "ε": "e",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P",
    "Τ": "T", "Υ": "Y", "Χ": "X",
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
    "\ufe63": "-", "\uff0d": "-",
    "ɑ": "a", "ɩ": "i", "ɛ": "e",
}
# Letters as they are written without their marks, in German and the Nordic languages ("Müller"
# is also "Mueller", "Søndergaard" also "Soendergaard", "Ålesund" also "Aalesund"). A name is
# matched in both spellings whichever of them the registry holds.
_TRANSLITERATIONS = (
    ("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss"), ("ø", "oe"), ("å", "aa"), ("æ", "ae"),
    ("Ä", "Ae"), ("Ö", "Oe"), ("Ü", "Ue"), ("Ø", "Oe"), ("Å", "Aa"), ("Æ", "Ae"),
)
_TRANSLITERATED = re.compile("[" + "".join(mark for mark, _ in _TRANSLITERATIONS) + "]")
# Letters with no base letter to fold to, spelled as the letters they join ("æ" is "ae", "þ" "th").
_LIGATURES = {
    "ß": "ss", "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D",
    "ĸ": "k", "ŋ": "ng", "Ŋ": "Ng",
}
_APOSTROPHES = frozenset("'\u2019")
# One line break, with the white space around it, that a wrapped line put inside a word.
_LINE_BREAK = re.compile(r"[ \t]*\r?\n[ \t]*")
# What may follow a name and still be the name: a plural or possessive ending.
_PLURAL_ENDING = re.compile(r"(?:e?s)(?:['\u2019]s?)?|['\u2019]s?")
# Three or more single letters or digits, each pair split by the same separator: one to three
# spaces, or a hyphen, dot, plus, bar, slash, middle dot or bullet, with or without a space after
# it ("a c m e", "A  C  M  E", "a·c·m·e", "A. C. M. E.").
# An identifier spelled out keeps its underscores and dots as letters of the run ("f c t _ l e g s",
# "r a w . l e g s"); the run starts and ends on a letter or digit.
_LETTER_RUN = re.compile(
    r"(?<![^\W_])[^\W_](?P<sep> {1,3}|[.\-+|/\u00b7\u2022\u2027\u22c5] ?)"
    r"(?:(?!(?P=sep))[\w.](?P=sep))+[^\W_](?![^\W_])"
)
# A token that may be base64 (standard or URL-safe), long enough to hold a name.
_RUN_CONTEXT = 60  # characters read again either side of a run of single letters
# It may follow a key and "=" ("ctx=Tm9y..."): a value in a query string or a config line.
# Base64 of text mixes the cases all through (a capital after a small letter or a digit), so a token
# without that step ("orders_v2", "Evidence", "DBT_TOKEN") is not read as one.
_BASE64_TOKEN = re.compile(
    r"(?<![A-Za-z0-9+/_-])(?=[A-Za-z0-9+/_-]*?[a-z0-9+/][A-Z])[A-Za-z0-9+/_-]{6,}={0,2}(?![A-Za-z0-9+/=_-])"
)
# A quote or bracket beside the dot of a qualified name, dropped from the view.
_QUOTED_DOT = re.compile(r"['\"\[\]](?:(?=\.)|(?<=\.['\"\[\]]))")  # the mark first: a fast scan
# The characters the names view drops: separators, apostrophes, white space.
_NAME_DROP = re.compile(r"[\s\-_,./+'\u2019\u00b7\u2027\u2022]+")
# The marks that cut a word into syllables when repeated inside it ("Pel-lu-cid", "Pel·lu·cid").
_SYLLABLE_MARKS = frozenset("-.\u00b7\u2027\u2022")
# Digits and symbols written for letters ("Br1ghtm00r", "Veltr!x", "C4f3"), folded with the letters
# they stand for into one skeleton letter on both sides, so a "1" may be an "i" or an "l".
_SKELETON = str.maketrans({
    "0": "o", "1": "i", "l": "i", "!": "i", "|": "i", "3": "e", "4": "a", "@": "a", "5": "s", "$": "s",
    "7": "t", "8": "b", "9": "g", "6": "g", "2": "z", "€": "e", "£": "i", "¥": "y", "¢": "c", "©": "c", "®": "r",
})
_LEET_CHARS = frozenset("0123456789!|@$€£¥¢©®")
# Whether a text may hold such a spelling at all: a letter beside a digit or symbol that stands for one.
_LEET_HINT = re.compile(r"[0-9!|@$€£¥¢©®](?:(?<=[A-Za-z].)|(?=[A-Za-z]))")  # the rarer side first: a fast scan
# A word at least this frequent in English (wordfreq's Zipf scale: 3 is about once per million words)
# is a common word: a client named "Harbor" is not named by "the harbor".
_COMMON_ZIPF = 3.0
# Words at least this frequent are everyday words ("global", "data", "north", "bank").
_EVERYDAY_ZIPF = 4.5
# An acronym alias or name ("PNL", "C&F"): it counts in capitals only, as a project key does, unless
# it is one that is no word (below).
_ACRONYM = re.compile(r"[A-Z][A-Z0-9&]{1,4}")
# An acronym of three to five letters (a project key: to ten) whose lower-case form is no word notes
# write ("NWO", "KPMG"): found in any case ("nwo", "Nwo"), as a longer name is. Two letters, digits
# or "&" ("NW", "S3", "C&F") stay capitals only: in lower case such tokens are units, variables,
# versions, by chance.
_ANY_CASE_ACRONYM = re.compile(r"[A-Z]{3,10}")
# Abbreviations of the trade that notes write in lower case ("the etl job", "dbt run", "a cte"):
# an acronym registered as one of these is read as the term unless written in capitals. Beside them,
# every language and file format Pygments knows by a short name ("yaml", "hcl", "toml") and the data
# tools above.
_TRADE_ABBREVIATIONS = frozenset(
    # data modelling and pipelines
    "etl elt dbt cte udf ddl dml scd cdc dag olap oltp ods edw dwh mdm sql nosql orm csv tsv json xml "
    # delivery and environments
    "api cli sdk gui qa uat dev stg prd prod repo ci cd pr mr wip tbd fyi eta asap poc mvp todo "
    # infrastructure, security, compliance
    "aws gcp gcs bq vpc iam sso rbac rls jwt tls ssl ssh dns cdn sre ssd cpu gpu ram vm npm pip "
    "pii phi gdpr hipaa sox kpi okr sla slo sli "
    # business and finance metrics
    "crm erp saas arr mrr ltv cac roi nps ytd qoq yoy pnl ebitda capex opex cogs gmv aov aum "
    # protocols and web security
    "smtp imap ftp sftp tcp udp ldap saml oauth oidc cors csrf xss ipv "
    # the shorthand of tickets and reviews
    "misc mgmt intl excl incl cnt qty amt tbc fwiw afaik tldr lgtm ack wontfix dupe repro hotfix "
    # time zones, week days and currencies as data carries them
    "utc gmt cet cest eet aest tues thur thurs usd eur gbp chf jpy sek nok dkk inr cny msec usec "
    # names in code and shell commands
    "ctx src dst tgt req resp obj idx buf ptr fmt args kwargs cur sess util utils pkg opts impl init attr "
    "param params expr stmt tbl col dim fct agg dedup uuid dbo sys usr async regex sudo grep wget chmod "
    "mkdir cron "
    # file types Pygments has no lexer for
    "xlsx xls docx pptx pdf png jpg jpeg gif zip tar tgz bak tmp log dat bin exe dll lock env".split()
)
# The consonant clusters English words open with (beyond a single consonant); a token opening with
# another ("nw", "kpm", "bc") is spelled as no word is.
_ONSETS = frozenset(
    "bl br ch cl cr dr dw fl fr gl gn gr kl kn kr ph pl pr ps qu sc sch scr sh shr sk sl sm sn sp sph spl spr "
    "squ st str sw th thr tr tw wh wr".split()
)
_ONSET = re.compile(r"[^aeiouy]*")
# A token English could spell is a word from this Zipf frequency on ("yore", "pram"): rare, but written.
_RARE_WORD_ZIPF = 2.0
# Units notes write after a number: bytes with a decimal or binary prefix, rates per second, hertz
# ("3 gib", "40 qps", "2 ghz"); mostly three letters, so no word says what they are.
_UNIT = re.compile(r"[kmgtpe]i?b(?:ps)?|[a-z]ps|[kmg]hz|kwh")
# Words around a common-word name that say it is the client ("client Harbor", "the Harbor engagement").
# Not "company" or "organisation": they also stand before a noun ("the company summit").
_CUE_BEFORE = frozenset({"client", "clients", "customer", "customers", "tenant", "tenants"})
# ... or a company's legal form after it ("orchard ltd", "kettle gmbh").
_CUE_AFTER = frozenset(
    {"engagement", "account", "client", "inc", "ltd", "llc", "llp", "plc", "gmbh", "corp", "corporation", "limited"}
)
# A name this long and this rare (Zipf) is found glued to other words inside an identifier or host.
_GLUABLE_LENGTH = 6
_RARE_ZIPF = 2.5
_IDENTIFIER_MARKS = frozenset(":/@-_0123456789")
_AUXILIARIES = frozenset(
    "is isn was wasn are were has hasn have had does doesn did didn will won would wouldn can cannot could "
    "couldn should shouldn must may might shall".split()
)
# Words that open a verb's object: after a word in -s they say it was a verb ("wants every"), where
# a plural noun is followed by a preposition or a verb ("meetings in", "models should").
_FUNCTION_WORDS = frozenset(
    "the a an every each all any some no its their our his her my your this these those it them us me".split()
)
# Verbs whose subject is a person or an organisation: a common word followed by one is a name as the
# subject ("Orbit asked for", "lantern signed off"), where the noun has no such verb ("the orbit decays").
_AGENT_STEMS = (
    "ask agree approve complain decide demand email escalate insist mention phone prefer promise reply sign tell want"
).split()  # not "require", "send", "reject", "write": tools do those ("Kettle writes to disk")
_AGENT_IRREGULAR = frozenset("said says told chose replied".split())


def _key_words(key: str) -> list[str]:
    """The words of a config key or identifier ("client_name", "tenantId" -> client, name; tenant, id)."""
    return [part.lower() for chunk in key.split("_") for part in _CAMEL.split(chunk) if part]


def _finite_verb(word: str) -> bool:
    """Whether a word is a verb in the past or an auxiliary ("rebuilt", "failed", "was", "should")."""
    if word in _AUXILIARIES or word in _IRREGULAR_PAST or word in _AGENT_VERBS:
        return True
    return len(word) >= 5 and word.endswith("ed") and not word.endswith("eed")


def _inflections(stem: str) -> set[str]:
    """A regular verb's forms in -s and -ed ("ask" -> asks, asked; "agree" -> agrees, agreed)."""
    if stem.endswith("e"):
        return {stem + "s", stem + "d"}
    if stem.endswith("y"):
        return {stem[:-1] + "ies", stem[:-1] + "ied"}
    if stem.endswith(("sh", "ch", "s")):
        return {stem + "es", stem + "ed"}
    return {stem + "s", stem + "ed"}


_AGENT_VERBS = frozenset(form for stem in _AGENT_STEMS for form in _inflections(stem)) | _AGENT_IRREGULAR
_DETERMINERS = frozenset("the a an this that these those my our your their its his her every each".split())
# A singular count noun takes a determiner ("the orchard"); one without any, after a preposition
# and before the sentence's verb ("built over orchard rebuilt", "resync of kettle duplicated
# rows"), is used as a name. Not "at" or "by", whose bare nouns are idioms ("at sea", "by hand").
_PREPOSITIONS = frozenset(
    "of on over for from in into onto to with about under against across via behind after before during "
    "between without within through throughout per like".split()
)
_IRREGULAR_PAST = frozenset(
    "built rebuilt broke ran took went got fell grew sent made kept lost came gave threw found brought began "
    "stuck spent wrote drew".split()
)
# Data tools, formats and vendors that notes name in every way a client is named ("writes to delta
# failed", "Spark's executors", "SPARK_HOME", "/opt/spark/"): a client with such a name is meant only
# where a word says so ("client Spark", "Spark Ltd") or beside another term of the client.
_TOOL_WORDS = frozenset(
    "airbyte airflow arrow athena avro beam bigquery census composer dagster databricks dataflow dataform delta "
    "docker druid duckdb elastic excel fivetran flink git github gitlab glue hex hive hudi iceberg jenkins jira "
    "kafka kinesis lambda looker matillion meltano metabase mode mongo notion omni oracle orc pandas parquet "
    "pinot polars postgres prefect presto pubsub redis redshift segment sheets sigma slack snowflake spark "
    "stitch superset tableau talend terraform trino".split()
)
_NAME_FUNCTION_WORDS = frozenset("and of the for in on at by to a an de la le du von van der".split())
_WORD = re.compile(r"[a-z]+")
# A config key just before a value: ``client_name: ``, ``"tenantId": "``, ``customer_id='``.
_CONFIG_KEY = re.compile(r"([A-Za-z][A-Za-z0-9_]*)[\"']?\s*[:=]\s*[\"']?$")
_TICKET_CUES = frozenset("ticket tickets issue issues jira story epic bug task subtask".split())
_SENTENCE_END = frozenset(".!?:;\n")


def _fold(ch: str) -> str:
    """One character as the matcher sees it, case kept: accents and compatibility forms folded."""
    if ch in _INVISIBLE or 0xE0000 <= ord(ch) <= 0xE007F:
        return ""
    if ch.isspace():
        return "\n" if ch in _LINE_SEPARATORS else " "
    if ch in _CONFUSABLES:
        return _CONFUSABLES[ch]
    if ch in _LIGATURES:
        return _LIGATURES[ch]
    decomposed = unicodedata.normalize("NFKD", ch)
    folded = "".join(c for c in decomposed if not unicodedata.combining(c) and c not in _INVISIBLE)
    if folded.isascii() or not ch.isalpha():
        return folded
    return _latin_letter(ch) or _lookalike(ch) or folded


# A Latin letter's name gives its base letter: "LATIN SMALL LETTER DOTLESS I", "LATIN LETTER SMALL
# CAPITAL A", "LATIN SMALL LETTER B WITH STROKE".
_LATIN_NAME = re.compile(r"LATIN (?:(SMALL|CAPITAL) )?LETTER (?:SMALL CAPITAL |DOTLESS |SCRIPT )?([A-Z])(?: WITH .*)?")


def _latin_letter(ch: str) -> str:
    if len(ch) != 1:  # a confusable may be a sequence ("θ" looks like "0" + a stroke): no one letter
        return ""
    m = _LATIN_NAME.fullmatch(unicodedata.name(ch, ""))
    if m is None:
        return ""
    return m.group(2) if m.group(1) == "CAPITAL" else m.group(2).lower()


def _lookalike(ch: str) -> str:
    """The ASCII letter a letter of another script looks like (Unicode's confusables: Cherokee "Ꮋ" is "H")."""
    for found in confusables.is_confusable(ch, greedy=True, preferred_aliases=["latin"]) or []:
        for glyph in found["homoglyphs"]:
            letter = glyph["c"] if glyph["c"].isascii() else _latin_letter(glyph["c"])
            if len(letter) == 1 and letter.isalpha():
                return letter
    return ""


_FOLD_CACHE: dict[str, str] = {}


def _fold_cached(ch: str) -> str:
    folded = _FOLD_CACHE.get(ch)
    if folded is None:
        folded = _fold(ch)
        if len(_FOLD_CACHE) < 65536:
            _FOLD_CACHE[ch] = folded
    return folded


class _View:
    """A text normalised for matching, with maps back to the original positions."""

    def __init__(self, text: str) -> None:
        chars: list[str] = []  # folded, case kept
        where: list[int] = []  # index in ``text`` of each folded character

        def emit(piece: str, at: int) -> None:
            for ch in piece:
                folded = ch if ch.isascii() else _fold_cached(ch)
                for out in folded:
                    chars.append(out)
                    where.append(at)

        pos = 0
        for m in _SPECIAL.finditer(text):
            if m.start() > pos:  # plain ASCII run: copy as is
                chars.extend(text[pos : m.start()])
                where.extend(range(pos, m.start()))
            pos = m.end()
            token = m.group(0)
            if m.group("tag"):
                tag = m.group("tag").lower()
                if tag == "br":  # a line break, as "\n" is ("Ket<br>tle")
                    chars.append("\n")
                    where.append(m.start())
                elif tag not in _INLINE_TAGS:
                    chars.append(" ")
                    where.append(m.start())
            elif m.group("entity"):
                decoded = html.unescape(token)
                emit(" " if decoded == token else decoded, m.start())
            elif m.group("underscores"):
                before = text[m.start() - 1] if m.start() > 0 else " "
                after = text[m.end()] if m.end() < len(text) else " "
                if before.isalnum() and after.isalnum():  # inside an identifier, not emphasis
                    chars.extend(token)
                    where.extend(range(m.start(), m.end()))
            elif len(token) == 1 and not token.isascii():
                emit(token, m.start())
            # else: emphasis or code marks, comment delimiters: removed
        if pos < len(text):
            chars.extend(text[pos:])
            where.extend(range(pos, len(text)))

        # Quotes and brackets around the dot of a qualified name: "ACME"."ORDERS", [raw].[orders].
        joined = "".join(chars)
        drop = [m.start() for m in _QUOTED_DOT.finditer(joined)]
        if not drop:  # the common case: nothing to drop
            self.cased, self.where = joined, where
        else:
            kept, kept_where, previous = [], [], 0
            for i in drop:
                kept.append(joined[previous:i])
                kept_where += where[previous:i]
                previous = i + 1
            kept.append(joined[previous:])
            kept_where += where[previous:]
            self.cased, self.where = "".join(kept), kept_where
        self.text = text
        self.clean = self.cased.lower()
        if len(self.clean) != len(self.cased):  # a letter that lower-cases to two: keep the map exact
            self.clean = "".join(c.lower() if len(c.lower()) == 1 else c for c in self.cased)
        # The names view: clean without separators, and where each character sits in clean.
        self.names = _NAME_DROP.sub("", self.clean)
        self._kept_before: list[int] | None = None
        self._dropped: list[int] = []
        # Where, in ``text``, a run of single letters was joined ("n.w.o." -> "nwo"): spelled letter
        # by letter, an acronym is written as it is in capitals.
        self.spelled: list[tuple[int, int]] = []

    def spelled_at(self, start: int, end: int) -> bool:
        """Whether clean ``start``..``end`` lies inside a run of single letters that was joined."""
        return any(a <= self.where[start] and self.where[end] < b for a, b in self.spelled)

    def at_clean(self, k: int) -> int:
        """Where the ``k``-th character of the names view sits in the clean view.

        Worked out from the runs of dropped characters (one per word gap, not one per character),
        and only once a text has a match at all.
        """
        if self._kept_before is None:
            # Names characters before each dropped run, and characters dropped up to its end (the
            # pieces between runs and the runs themselves, each measured in one C-level pass).
            pieces = _NAME_DROP.split(self.clean)
            self._kept_before = list(itertools.accumulate(map(len, pieces[:-1])))
            self._dropped = list(itertools.accumulate(map(len, _NAME_DROP.findall(self.clean))))
        runs = bisect.bisect_right(self._kept_before, k)
        return k + (self._dropped[runs - 1] if runs else 0)

    def is_word(self, i: int, underscore: bool) -> bool:
        if i < 0 or i >= len(self.clean):
            return False
        ch = self.clean[i]
        return ch.isalnum() or (underscore and ch == "_")

    def ends_plural(self, end: int) -> bool:
        """Whether a word ending at ``end`` goes on with only a plural or possessive ending ("s", "es", "s'")."""
        m = _PLURAL_ENDING.match(self.clean, end + 1)
        return m is not None and not self.is_word(m.end(), underscore=False)



@dataclass(frozen=True)
class _Entry:
    term: ClientTerm
    gaps: frozenset[int]  # for names: offsets in the joined form where a separator may sit
    edge_start: bool  # whether the form starts with a word character (so a boundary is needed)
    edge_end: bool
    # For names: offsets inside a word where a hyphen may split it ("Bright-moor"), and where a space
    # may ("Vel trix"); a space between two common words ("Bright moor") is weak, as is a common word.
    hyphen_gaps: frozenset[int] = frozenset()
    space_gaps: frozenset[int] = frozenset()
    weak_gaps: frozenset[int] = frozenset()  # space splits into two common words ("Bright moor")
    # Where a line break may split a word ("Quillf" / "eather"): a wrapped line cuts anywhere. Weak
    # where both pieces are common words ("copper" / "line"), or in a name that is common words.
    break_gaps: frozenset[int] = frozenset()
    weak_break_gaps: frozenset[int] = frozenset()
    common_word: bool = False  # one common English word ("Harbor"): counted only with evidence
    # Three or more common content words ("Saffron Ridge Capital"): that phrase, in full, is the
    # client even in lower case; two ("copper kettle") may be the words.
    long_phrase: bool = False
    capitals_only: bool = False  # an acronym that is a word ("ACE", "ETL"): counted in capitals only
    any_case: bool = False  # a project key that is no word ("ZQX"): counted alone in any case
    gluable: bool = False  # long and rare enough to count glued to other words inside an identifier


def _fold_term(term: str) -> str:
    return "".join(_fold(ch) if not ch.isascii() else ch for ch in term).strip()


_SPLIT_NAME = re.compile(r"[\s\-_,]+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])")


def _name_forms(term: str) -> list[tuple[str, frozenset[int]]]:
    """A client name's forms: as written, transliterated ("Mueller"), with "&" as "and" and as "+"."""
    variants = [term]
    if _TRANSLITERATED.search(term):
        variants.append(_transliterate(term))
    if "&" in term:
        # "Marlowe & Quist" is also "Marlowe and Quist", "Marlowe + Quist", and in hosts, addresses
        # and identifiers "marlowequist", "marlowe-quist" (an acronym keeps its "&": "C&F" is not "cf").
        ands = [v.replace("&", " and ") for v in variants]
        if not _ACRONYM.fullmatch(term.strip()):
            ands += [re.sub(r"\s*&\s*", " ", v) for v in variants]
        variants += ands
    forms = [form for form in map(_name_form, variants) if form is not None]
    # A name ending in consonant + "y" has the plural "-ies" ("Tidy" -> "Tidies"); "-s" is the ending rule's.
    forms += [
        (joined[:-1] + "ies", gaps)
        for joined, gaps in forms
        if len(joined) >= 3 and joined.endswith("y") and joined[-2] not in "aeiouy"
    ]
    return list(dict.fromkeys(forms))


def _transliterate(text: str) -> str:
    """``text`` with each marked letter spelled as it is without its mark ("Müller" -> "Mueller")."""
    for mark, plain in _TRANSLITERATIONS:
        text = text.replace(mark, plain)
    return text


def _leet_spelled(spelled: str) -> bool:
    """Whether a skeleton match is a word spelled with digits or symbols for letters, not a number."""
    letters = sum(ch.isalpha() for ch in spelled)
    if not _LEET_CHARS.intersection(spelled) or letters < 2:
        return False
    # A short word needs half its characters to be letters; a long one a quarter ("$70n38r1d93").
    return 2 * letters >= len(spelled) or (len(spelled) >= 6 and 4 * letters >= len(spelled))


def _in_address(clean: str, start: int, end: int) -> bool:
    """Whether ``start``..``end`` sits in the domain of an e-mail address or the host of a URL."""
    left = max(clean.rfind(" ", 0, start), clean.rfind("\n", 0, start)) + 1
    prefix = clean[left:start]
    if "@" in prefix:
        return "/" not in prefix[prefix.rindex("@") :]
    scheme = prefix.find("://")
    return scheme >= 0 and "/" not in prefix[scheme + 3 :]


def _other_script(view: _View, start: int, end: int) -> bool:
    """Whether a letter of ``start``..``end`` was written in another script than Latin (a look-alike)."""
    for i in range(start, min(end + 1, len(view.where))):
        ch = view.text[view.where[i]] if view.where[i] < len(view.text) else ""
        if ch and not ch.isascii() and ch.isalpha() and not unicodedata.name(ch, "").startswith("LATIN"):
            return True
    return False


def _is_common(word: str) -> bool:
    return zipf_frequency(word, "en") >= _COMMON_ZIPF


def _format_names() -> frozenset[str]:
    """Short names of languages and file formats ("yaml", "hcl", "sql"): Pygments' lexer aliases and extensions."""
    names: set[str] = set()
    for _, aliases, filenames, _ in get_all_lexers(plugins=False):
        names.update(a for a in aliases if a.isalpha())
        names.update(f[2:].lower() for f in filenames if f.startswith("*.") and f[2:].isalpha())
    return frozenset(names)


_TRADE_TERMS = _TRADE_ABBREVIATIONS | _TOOL_WORDS | _format_names()


def _word_like(lower: str) -> bool:
    """Whether an acronym's lower-case form is a word notes write: English (wordfreq) or the trade's ("etl").

    A common word (Zipf >= 3) is one, and two run together ("dataeng"); so is a rarer one that
    English could spell ("yore", "pram", "harv": Zipf >= 2 and its first letters can open a word),
    where letters no English word opens with ("nwo", "kpmg") are an acronym's however often they
    are written.
    """
    if lower in _TRADE_TERMS or (lower.endswith("s") and lower[:-1] in _TRADE_TERMS):  # "ctes", "srcs"
        return True
    if _UNIT.fullmatch(lower) is not None or _is_common(lower):
        return True
    if any(_is_common(lower[:k]) and _word_like(lower[k:]) for k in range(3, len(lower) - 2)):
        return True  # two words run together, as keys and channels are named ("dataeng", "webops")
    return _spellable(lower) and zipf_frequency(lower, "en") >= _RARE_WORD_ZIPF


def _spellable(lower: str) -> bool:
    """Whether a token opens as an English word may: on a vowel, one consonant, or a cluster English
    words open with ("str", "pl"; not "nw", "kpm"), and has a vowel at all."""
    onset = _ONSET.match(lower).group(0)
    return len(onset) < len(lower) and (len(onset) <= 1 or onset in _ONSETS)


def _any_case(term: str, longest: int = 5) -> bool:
    """Whether an acronym or a project key counts in any case: three letters or more (``longest`` at
    most) whose lower-case form is no word ("NWO" is also "nwo"; "ACE", "ETL" are not "ace", "etl")."""
    return (
        len(term) <= longest and _ANY_CASE_ACRONYM.fullmatch(term) is not None and not _word_like(term.lower())
    )


def _common_words(joined: str, gaps: frozenset[int]) -> bool:
    """Whether a name is made of common English words only ("Harbor", "Copper Kettle").

    Such a name counts only with evidence: "the copper kettle on the stove" is the phrase, where
    "Copper Kettle asked" or "the copper kettle client" is the client.
    """
    if not joined.isalpha():
        return False
    bounds = [0, *sorted(gaps), len(joined)]
    return all(_is_common(joined[a:b]) for a, b in zip(bounds, bounds[1:], strict=False))


def _long_phrase(joined: str, gaps: frozenset[int]) -> bool:
    """Whether a name of common words is a phrase that prose does not write by chance.

    Three content words or more ("Saffron Ridge Capital"; "Bank of the West" has two), one of them
    less usual than the everyday words a generic name is made of ("Global Data Solutions", "North
    Star Bank" are phrases prose may write).
    """
    bounds = [0, *sorted(gaps), len(joined)]
    content = [joined[a:b] for a, b in zip(bounds, bounds[1:], strict=False) if joined[a:b] not in _NAME_FUNCTION_WORDS]
    return len(content) >= 3 and min(zipf_frequency(word, "en") for word in content) < _EVERYDAY_ZIPF


def _split_gaps(joined: str, gaps: frozenset[int]) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
    """Where a word of a name may be split by a hyphen or a space ("Bright-moor", "Vel trix").

    Returns (hyphen gaps, space gaps, weak space gaps). A one-word name that is a common word has no
    splits (a client "Harbor" is not found in "har-bor"; the words of "Marlowe & Pike" may split). A
    space split whose two pieces are both common words ("Bright moor") is weak: it counts only with
    the evidence a common-word name needs.
    """
    hyphen: set[int] = set()
    space: set[int] = set()
    weak: set[int] = set()
    bounds = [0, *sorted(gaps), len(joined)]
    for a, b in zip(bounds, bounds[1:], strict=False):
        word = joined[a:b]
        if len(word) < 5 or not word.isalpha():
            continue
        if not gaps and _is_common(word):
            # A common one-word name split by a hyphen ("Lan-tern") is found, but as the word is:
            # only with evidence (``_split`` makes it weak), so "har-bor" in prose passes.
            hyphen.update(a + k for k in range(2, len(word) - 1))
            continue
        for k in range(2, len(word) - 1):
            hyphen.add(a + k)
            left, right = word[:k], word[k:]
            if len(left) >= 2 and len(right) >= 2:
                (weak if _is_common(left) and _is_common(right) else space).add(a + k)
    return frozenset(hyphen), frozenset(space), frozenset(weak)


def _break_gaps(joined: str, gaps: frozenset[int]) -> tuple[frozenset[int], frozenset[int]]:
    """Where a line break may split a word of a name, and which of those splits are weak.

    A wrapped line cuts a word anywhere, one letter from either end too ("Saffro" / "n Ridge"), so
    every offset inside a word of four letters or more may hold one. A split into two common words
    ("copper" / "line") is weak, as the same split by a space is.
    """
    breaks: set[int] = set()
    weak: set[int] = set()
    bounds = [0, *sorted(gaps), len(joined)]
    for a, b in zip(bounds, bounds[1:], strict=False):
        word = joined[a:b]
        if len(word) < 4 or not word.isalpha():
            continue
        for k in range(1, len(word)):
            breaks.add(a + k)
            if _is_common(word[:k]) and _is_common(word[k:]) and min(k, len(word) - k) >= 2:
                weak.add(a + k)
    return frozenset(breaks), frozenset(weak)


def _name_form(term: str) -> tuple[str, frozenset[int]] | None:
    """A client name's joined lower-case form and the offsets between its words."""
    folded = "".join(ch for ch in _fold_term(term) if ch not in _APOSTROPHES).strip(" .")
    words: list[str] = []
    for chunk in _SPLIT_NAME.split(folded):
        words.extend(part for part in _CAMEL.split(chunk) if part)
    if not words:
        return None
    gaps: set[int] = set()
    offset = 0
    for word in words[:-1]:
        offset += len(word)
        gaps.add(offset)
    joined = "".join(words).lower()
    return (joined, frozenset(gaps)) if len(joined) >= 2 else None


def _identifier_forms(term: ClientTerm) -> list[str]:
    """An identifier's lower-case forms: as given, without quotes; a repository also by its own name."""
    folded = _fold_term(term.term).lower()
    folded = re.sub(r"[`\"]", "", folded)
    folded = re.sub(r"['\[\]]?\.['\[\]]?", ".", folded).strip("'[] ")
    forms = [folded] if len(folded) >= 2 else []
    if term.kind == "repository":
        folded = re.sub(r"^(?:https?://)?(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org)/", "", folded)
        folded = folded.removesuffix(".git")
        forms.append(folded)
        last = folded.rsplit("/", 1)[-1]
        # "org/acme-dbt" is also written "acme-dbt"; a bare "org/dbt" is too plain to stand alone.
        if last != folded and len(last) >= 4 and ("-" in last or "_" in last):
            forms.append(last)
    if term.kind != "project key":
        # An identifier's words may be joined by "-", "_" or nothing ("acme_raw", "acme-raw", "acmeraw").
        for form in list(forms):
            forms += [form.replace("_", "-"), form.replace("-", "_")]
            squeezed = re.sub(r"(?<=[a-z0-9])[_\-](?=[a-z0-9])", "", form)
            if len(squeezed.replace(".", "").replace("/", "")) >= 5:
                forms.append(squeezed)
    return [f for f in dict.fromkeys(forms) if len(f) >= 2]


def _letter_run_texts(text: str) -> list[tuple[int, str, list[tuple[int, int]]]]:
    """Each stretch of text around runs of single letters, with the runs joined ("A C M E Labs" -> "ACME Labs").

    Only the runs and a few words either side are read again, so a long note costs no second full
    reading. Returns where each stretch starts, its joined text and where the joined runs sit in it.
    """
    runs = list(_LETTER_RUN.finditer(text))
    if not runs:
        return []
    windows: list[list[int]] = []
    for m in runs:
        start, end = max(0, m.start() - _RUN_CONTEXT), min(len(text), m.end() + _RUN_CONTEXT)
        if windows and start <= windows[-1][1]:
            windows[-1][1] = end
        else:
            windows.append([start, end])
    out = []
    for start, end in windows:
        inside = [m for m in runs if start <= m.start() and m.end() <= end]
        # Begin and end on white space, never inside a word the window cut.
        if start > 0 and not text[start - 1].isspace():
            cut = next((i for i in range(start, inside[0].start()) if text[i].isspace()), None)
            start = inside[0].start() if cut is None else cut + 1
        if end < len(text) and not text[end].isspace():
            cut = next((i for i in range(end - 1, inside[-1].end() - 1, -1) if text[i].isspace()), None)
            end = inside[-1].end() if cut is None else cut
        pieces, pos, spans, length = [], start, [], 0
        for m in inside:
            run = m.group(0).replace(m.group("sep"), "")
            pieces += [text[pos : m.start()], run]
            length += m.start() - pos
            spans.append((length, length + len(run)))
            length += len(run)
            pos = m.end()
        pieces.append(text[pos:end])
        out.append((start, "".join(pieces), spans))
    return out


# A line break cuts an identifier when an identifier's character is before it and a word's after it.
_WORD_START = frozenset(string.ascii_letters + string.digits + "_")
_TOKEN_START = _WORD_START | frozenset("./-")
_TOKEN_CHARS = _TOKEN_START | frozenset("@:`\"[]")
# A line break between an identifier's character and, past the next line's indent, a word's.
_CUT_TOKEN = re.compile(r"\n(?:(?<=[A-Za-z0-9_./-]\n)|(?<=[A-Za-z0-9_./-]\r\n))[ \t]*(?=[A-Za-z0-9_])")
_IDENTIFIER_HINT = re.compile(r"[_./-]|\d")
_TOKEN_REACH = 120  # at most this many characters of a token either side of the break


def _broken_identifier_texts(text: str) -> list[tuple[int, str]]:
    """Each stretch of tokens a line break cuts ("hvm_fl" / "eet"), joined again, with where it starts.

    Only tokens that look like identifiers once joined (an underscore, dot, slash, hyphen or digit)
    are read again, and a sentence that ends at the break and a capitalised one after it is prose.
    Cut tokens that touch are read as one stretch, so a text of many short lines costs one reading.
    """
    cuts: list[tuple[int, int, int, int]] = []  # token start, break start, next line's token, token end
    for m in _CUT_TOKEN.finditer(text):
        end, begin = m.start(), m.end()  # the break's start; the next line's first character
        if text[end - 1] == "\r":
            end -= 1
        left = end
        while left > 0 and end - left < _TOKEN_REACH and text[left - 1] in _TOKEN_CHARS:
            left -= 1
        right = begin
        while right < len(text) and right - begin < _TOKEN_REACH and text[right] in _TOKEN_CHARS:
            right += 1
        before, after = text[left:end], text[begin:right]
        if before.endswith(".") and after[:1].isupper():
            continue  # a sentence ends on one line and the next begins on the next
        cuts.append((left, end, begin, right))
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(cuts):
        first, pieces, pos, last = cuts[i][0], [], cuts[i][0], cuts[i][3]
        while i < len(cuts) and cuts[i][0] <= last:  # this cut's token touches the stretch so far
            _, end, begin, right = cuts[i]
            pieces.append(text[pos:end])
            pos, last = begin, max(last, right)
            i += 1
        pieces.append(text[pos:last])
        joined = "".join(pieces)
        if _IDENTIFIER_HINT.search(joined):
            out.append((first, joined))
    return out


# Hex of text: every byte of a letter starts with a digit, so a run of hex pairs holding digits.
_HEX_TOKEN = re.compile(r"(?<![0-9A-Za-z])(?:0x)?((?:[0-9a-fA-F]{2}){4,})(?![0-9A-Za-z])")
_HEX_RUN = re.compile(r"[0-9][0-9a-fA-F]{7}")  # whether a text may hold one at all: text's hex opens on a digit
_PERCENT_TOKEN = re.compile(r"[^\s%]*(?:%[0-9A-Fa-f]{2}[^\s%]*)+")
_ENCODED_ALNUM = re.compile(r"%(?:3[0-9]|4[1-9A-Fa-f]|5[0-9Aa]|6[1-9A-Fa-f]|7[0-9Aa])")  # "%41" is "A"
# Text that says how it is written: the transforms it names are undone before reading it again.
_ROT13_SAID = re.compile(r"\brot[-_ ]?13\b", re.IGNORECASE)
_REVERSED_SAID = re.compile(r"\b(?:reversed|backwards?|mirrored)\b", re.IGNORECASE)


def _mostly_text(decoded: str) -> bool:
    """Printable, and mostly letters and spaces: text that was encoded, not bytes that happen to decode."""
    return bool(decoded) and all(ch.isprintable() or ch.isspace() for ch in decoded) and (
        sum(ch.isalpha() or ch.isspace() for ch in decoded) >= 0.6 * len(decoded)
    )


def _hex_texts(text: str) -> list[tuple[int, str]]:
    """Each run of hex pairs in ``text`` that decodes to printable text, with where it starts."""
    out = []
    if _HEX_RUN.search(text) is None:
        return out
    for m in _HEX_TOKEN.finditer(text):
        token = m.group(1)
        if not any(ch.isdigit() for ch in token):
            continue
        try:
            decoded = bytes.fromhex(token).decode("utf-8")
        except ValueError:
            continue
        if _mostly_text(decoded):
            out.append((m.start(), decoded))
    return out


def _spelled_texts(text: str) -> list[tuple[int, str, bool]]:
    """The text with percent-encoding undone, marked letters transliterated, and rot13 or reversal
    undone where the text says it uses them; each with where it starts and whether it is a disguise.

    A reading is a disguise (a name in it needs no more evidence) when the text was written so a
    match would miss it: rot13 or reversal it names, or letters and digits percent-encoded where a
    URL never needs them ("%4B%65%74"); a space encoded as "%20" is only a URL's spelling.
    """
    out = []
    if "%" in text:
        for m in _PERCENT_TOKEN.finditer(text):  # only the tokens that hold percent-escapes
            out.append((m.start(), urllib.parse.unquote(m.group(0)), _ENCODED_ALNUM.search(m.group(0)) is not None))
    if _TRANSLITERATED.search(text):  # "Müller" for a client registered as "Mueller"
        out.append((0, _transliterate(text), False))
    lower = text.lower()
    if "rot" in lower and _ROT13_SAID.search(text):
        out.append((0, codecs.encode(text, "rot13"), True))
    if any(word in lower for word in ("revers", "backward", "mirror")) and _REVERSED_SAID.search(text):
        out.append((0, text[::-1], True))
    return out


def _base64_texts(text: str) -> list[tuple[int, str]]:
    """Each token of ``text`` that decodes from base64 to printable text, with where it starts."""
    out = []
    for m in _BASE64_TOKEN.finditer(text):
        token = m.group(0)
        if token.isalpha() and (token.islower() or token.isupper() or token.istitle()):
            continue  # a plain word, not an encoding
        body = token.rstrip("=")
        if len(body) % 4 == 1:
            continue
        padded = body + "=" * (-len(body) % 4)
        try:
            raw = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
            decoded = raw.decode("utf-8")
        except (binascii.Error, ValueError):
            continue
        if _mostly_text(decoded):
            out.append((m.start(), decoded))
    return out


class ClientDetailMatcher:
    """Finds client detail in texts; build once per registry, scan many texts."""

    def __init__(self, terms: Iterable[ClientTerm]) -> None:
        names: dict[str, list[_Entry]] = {}
        skeletons: dict[str, list[_Entry]] = {}  # the names again, as leet spellings are read
        identifier_skeletons: dict[str, list[_Entry]] = {}  # identifiers too, project keys apart
        identifiers: dict[str, list[_Entry]] = {}
        for term in terms:
            if not term.term or not term.term.strip():
                continue
            if term.kind in _NAME_KINDS:
                acronym = _ACRONYM.fullmatch(term.term.strip()) is not None and not _any_case(term.term.strip())
                for joined, gaps in _name_forms(term.term):
                    hyphen, space, weak = _split_gaps(joined, gaps)
                    breaks, weak_breaks = _break_gaps(joined, gaps)
                    entry = _Entry(
                        term, gaps, joined[0].isalnum(), joined[-1].isalnum(),
                        hyphen_gaps=hyphen, space_gaps=space | weak, weak_gaps=weak,
                        break_gaps=breaks, weak_break_gaps=weak_breaks,
                        common_word=_common_words(joined, gaps),
                        long_phrase=_long_phrase(joined, gaps),
                        capitals_only=acronym,
                        gluable=len(joined) >= _GLUABLE_LENGTH and joined.isalpha()
                        and zipf_frequency(joined, "en") < _RARE_ZIPF,
                    )
                    names.setdefault(joined, []).append(entry)
                    skeletons.setdefault(joined.translate(_SKELETON), []).append(entry)
            else:
                for form in _identifier_forms(term):
                    entry = _Entry(term, frozenset(), form[0].isalnum() or form[0] == "_",
                                   form[-1].isalnum() or form[-1] == "_",
                                   any_case=term.kind == "project key" and _any_case(term.term.strip(), 10))
                    identifiers.setdefault(form, []).append(entry)
                    if term.kind != "project key":
                        identifier_skeletons.setdefault(form.translate(_SKELETON), []).append(entry)
        self._names = self._automaton(names)
        self._skeletons = self._automaton(skeletons)
        self._identifier_skeletons = self._automaton(identifier_skeletons)
        self._identifiers = self._automaton(identifiers)
        # Names written by their sound in Cyrillic or Greek letters ("Нортвинд"): acronyms are not.
        self._phonetic = PhoneticNames(
            (t.term, t) for t in dict.fromkeys(e.term for entries in names.values() for e in entries)
            if not _ACRONYM.fullmatch(t.term.strip())
        )
        self.size = sum(len(v) for v in names.values()) + sum(len(v) for v in identifiers.values())

    @staticmethod
    def _automaton(forms: dict[str, list[_Entry]]) -> ahocorasick.Automaton | None:
        if not forms:
            return None
        automaton = ahocorasick.Automaton()
        for form, entries in forms.items():
            automaton.add_word(form, (len(form), tuple(entries)))
        automaton.make_automaton()
        return automaton

    def scan(self, text: str, own_client: str | None = None) -> list[ClientDetailFinding]:
        """Every registry term named in ``text``, each once, in order of first appearance.

        With ``own_client``, only other clients' terms, and none where the words matched, or words
        around them, name a term of ``own_client`` (its table ``x_mart.orders`` holds another
        client's dataset name ``x_mart``: it is still the own client's table).

        A client name that is one common English word ("Harbor") counts only with evidence that the
        client is meant: written capitalised mid-sentence, in capitals or odd case, possessive,
        disguised (split, leet, base64), next to a cue word ("client"), or beside another term of the
        same client in the text. "Plan for the harbor" passes.
        """
        if not text or (self._names is None and self._identifiers is None):
            return []
        found: dict[ClientDetailFinding, int] = {}
        weak: dict[ClientDetailFinding, int] = {}
        # The text itself, then each derived reading of it: (view, where it sits, whether it is a
        # decoding, whether names are read in it too).
        views: list[tuple[_View, int | None, bool, bool]] = [(_View(text), None, False, True)]
        for at, joined, spans in _letter_run_texts(text):
            view = _View(joined)
            view.spelled = spans
            views.append((view, at, False, True))
        views += [(_View(decoded), at, True, True) for at, decoded in _base64_texts(text) + _hex_texts(text)]
        views += [(_View(spelled), at, disguise, True) for at, spelled, disguise in _spelled_texts(text)]
        # An identifier cut by a wrapped line, joined again; names there are the names view's (it
        # reads a line break inside a word, with the evidence a common word needs).
        views += [(_View(joined), at, False, False) for at, joined in _broken_identifier_texts(text)]
        for view, at, decoded, names in views:
            self._scan_view(view, found, weak, own_client, offset=at, disguised=decoded, names=names)
            if self._skeletons is not None and _LEET_HINT.search(view.cased):
                self._scan_view(
                    view, found, weak, own_client, offset=at, disguised=decoded, skeleton=True, names=names
                )
        self._scan_phonetic(text, found, own_client)
        clients = {f.client for f in found}
        for finding, position in weak.items():
            if finding.client in clients and finding not in found:
                found[finding] = position
        return sorted(found, key=lambda f: found[f])

    def _scan_phonetic(self, text: str, found: dict[ClientDetailFinding, int], own_client: str | None) -> None:
        """Add the names written by sound in Cyrillic or Greek letters: each a disguise, found outright."""
        spotted: dict[int, list[ClientTerm]] = {}
        for position, term in self._phonetic.find(text):
            spotted.setdefault(position, []).append(term)
        for position, terms in spotted.items():
            if own_client is not None and any(t.client == own_client for t in terms):
                continue  # these words are (also) a name of the store's own client
            for term in terms:
                finding = ClientDetailFinding(term.term, term.kind, term.client)
                if finding not in found or position < found[finding]:
                    found[finding] = position

    def _scan_view(
        self,
        view: _View,
        found: dict[ClientDetailFinding, int],
        weak: dict[ClientDetailFinding, int],
        own_client: str | None,
        offset: int | None,
        disguised: bool = False,
        skeleton: bool = False,
        names: bool = True,
    ) -> None:
        """Add the findings of one view of a text; ``offset`` places a derived view's findings in the text.

        ``disguised``: the view is a decoding (base64), so every name in it is evidence enough.
        ``skeleton``: read the names view with digits and symbols as letters; only names spelled with
        at least one of them count (the plain reading finds the rest).
        ``names``: whether client names are read in this view, or only identifiers.
        """
        matches: list[tuple[int, int, list[_Entry], list[_Entry]]] = []  # clean start, end, strong, weak
        automaton = (self._skeletons if skeleton else self._names) if names else None
        joined = view.names.translate(_SKELETON) if skeleton else view.names
        if automaton is not None and joined:
            for end, (length, entries) in automaton.iter(joined):
                start = end - length + 1
                if skeleton and not _leet_spelled(view.names[start : end + 1]):
                    continue
                clean_start, clean_end = view.at_clean(start), view.at_clean(end)
                # Where, in the joined form, the text skipped a separator, and what it skipped.
                skipped: dict[int, str] = {}
                for k in range(start + 1, end + 1):
                    before, at = view.at_clean(k - 1), view.at_clean(k)
                    between = view.clean[before + 1 : at]
                    if at != before + 1 and not _APOSTROPHES.issuperset(between):
                        skipped[k - start] = between
                strong_entries, weak_entries = [], []
                for entry in entries:
                    split = self._split(entry, skipped)
                    if split is None:
                        continue
                    glued_start = entry.edge_start and self._joined(
                        view, clean_start - 1, clean_start, len(entry.term.term)
                    )
                    glued_end = (
                        entry.edge_end
                        and self._joined(view, clean_end, clean_end + 1, len(entry.term.term))
                        and not view.ends_plural(clean_end)
                    )
                    if glued_start or glued_end:
                        # Glued to another word counts only for a long rare name inside a host, an
                        # address, a path or an identifier ("getquorvane.io", "quorvanedata-prod").
                        if not (entry.gluable and self._in_identifier(view, clean_start, clean_end)):
                            continue
                        split = "disguise"
                    # An acronym not in capitals ("pnl") is as weak as a common word: it needs evidence.
                    # Spelled letter by letter ("a.c.e.", "a c e") it is written as the capitals are.
                    spelled = entry.capitals_only and view.spelled_at(clean_start, clean_end)
                    lowered = (
                        entry.capitals_only
                        and not spelled
                        and not all(c.isupper() for c in view.cased[clean_start : clean_end + 1] if c.isalpha())
                    )
                    if split == "plain" and _other_script(view, clean_start, clean_end):
                        split = "disguise"  # "Lаntern" with a Cyrillic a: written to slip past a match
                    # A name of common words needs evidence written as the words ("big corp"); glued
                    # or joined by "-" or "_" ("bigcorp", "big_corp") it is an identifier, the client's.
                    as_words = (
                        entry.common_word
                        and not (entry.long_phrase and split == "plain")
                        and all(skipped.get(k, "x").isspace() for k in entry.gaps)
                    )
                    needs_evidence = as_words or split == "weak" or lowered
                    evident = not needs_evidence or disguised or skeleton or spelled or split == "disguise"
                    if not evident:
                        evident = self._evidence(view, clean_start, clean_end)
                    (strong_entries if evident else weak_entries).append(entry)
                if strong_entries or weak_entries:
                    matches.append((clean_start, clean_end, strong_entries, weak_entries))

        automaton = self._identifier_skeletons if skeleton else self._identifiers
        clean = view.clean.translate(_SKELETON) if skeleton else view.clean
        if automaton is not None and clean:
            for end, (length, entries) in automaton.iter(clean):
                start = end - length + 1
                if skeleton and not _leet_spelled(view.clean[start : end + 1]):
                    continue
                matched = []
                for entry in entries:
                    if entry.term.kind == "project key":
                        if self._key_matches(view, start, end, entry.any_case):
                            matched.append(entry)
                        continue
                    if entry.term.kind == "table" and "." not in entry.term.term:
                        # A bare name in the qualified-tables list counts only qualified ("raw.ledger"):
                        # bare table names count only where the registry marks them distinctive.
                        if start == 0 or view.clean[start - 1] != ".":
                            continue
                    if entry.edge_start and view.is_word(start - 1, underscore=True):
                        continue
                    if entry.edge_end and view.is_word(end + 1, underscore=True):
                        continue
                    matched.append(entry)
                if matched:
                    matches.append((start, end, matched, []))

        own_spans = []
        if own_client is not None:
            own_spans = [
                (s, e) for s, e, strong, soft in matches if any(x.term.client == own_client for x in strong + soft)
            ]
        for start, end, strong, soft in matches:
            if any(s <= start and end <= e for s, e in own_spans):
                continue  # these words are (inside) a term of the store's own client
            position = view.where[start] if offset is None else offset
            for entries, into in ((strong, found), (soft, weak)):
                for entry in entries:
                    term = entry.term
                    finding = ClientDetailFinding(term.term, term.kind, term.client)
                    if finding not in into or position < into[finding]:
                        into[finding] = position

    @staticmethod
    def _split(entry: _Entry, skipped: dict[int, str]) -> str | None:
        """Whether the separators a match skipped fit the name: "plain", "disguise", "weak", or None.

        A separator between the name's words is plain. One more, inside a word, is a disguise when it
        is a hyphen ("Bright-moor"), a space with a rare piece ("Vel trix") or a line break
        ("Quillf" / "eather"), and weak when it is a space between two common words ("Bright moor").
        Several, all one hyphen, dot or middle dot, cut a word into syllables ("Pel-lu-cid").
        """
        odd = [(k, sep) for k, sep in skipped.items() if k not in entry.gaps]
        if not odd:
            return "plain"
        if len(odd) > 1:
            # A word cut into syllables by one mark, repeated ("Pel-lu-cid", "Pel·lu·cid").
            marks = {sep for _, sep in odd}
            if len(marks) == 1 and marks <= _SYLLABLE_MARKS and all(k in entry.hyphen_gaps for k, _ in odd):
                return "weak" if entry.common_word else "disguise"
            return None
        k, sep = odd[0]
        if sep.replace(" ", "").replace("\n", "") == "-" and k in entry.hyphen_gaps:  # also "Bright-\nmoor"
            return "weak" if entry.common_word else "disguise"
        if sep == " " and k in entry.space_gaps:
            # Two common pieces are weak on their own ("Pine crest"), not inside a longer name whose
            # other words are in the text too ("pine crest dental"): that phrase is only the client.
            return "weak" if k in entry.weak_gaps and (not entry.gaps or entry.common_word) else "disguise"
        if _LINE_BREAK.fullmatch(sep) and k in entry.break_gaps:
            # A word cut by a wrapped line ("Quillf" / "eather"). A name of common words is still
            # weak ("Em" / "ber" is the word "ember" until something says it is the client).
            return "weak" if entry.common_word or k in entry.weak_break_gaps else "disguise"
        return None

    @staticmethod
    def _joined(view: _View, left: int, right: int, length: int) -> bool:
        """Whether the characters at ``left`` and ``right`` belong to one word (no boundary between).

        A camelCase or letter-to-digit step is a boundary too ("getHarborData", "veltrix2024"), for
        names of four letters or more.
        """
        if not (view.is_word(left, underscore=False) and view.is_word(right, underscore=False)):
            return False
        if length < 4:
            return True
        a, b = view.cased[left], view.cased[right]
        if a.islower() and b.isupper():
            return False  # "getQuorvane"
        if a.isupper() and b.isupper() and right + 1 < len(view.cased) and view.cased[right + 1].islower():
            return False  # "APIQuorvane": capitals, then a capitalised word
        return a.isdigit() == b.isdigit()

    @staticmethod
    def _in_identifier(view: _View, start: int, end: int) -> bool:
        """Whether ``start``..``end`` sits in a token that is a host, address, path or identifier, not prose."""
        if any(ch.isspace() or ch == "," for ch in view.clean[start : end + 1]):
            return False  # the name runs across words of prose
        left = max(view.clean.rfind(" ", 0, start), view.clean.rfind("\n", 0, start)) + 1
        right = min(i for i in (view.clean.find(" ", end), view.clean.find("\n", end), len(view.clean)) if i >= 0)
        token = view.clean[left:right].rstrip(".,;:!?)]'\"")
        return bool(_IDENTIFIER_MARKS.intersection(token)) or "." in token.strip(".")

    @staticmethod
    def _evidence(view: _View, start: int, end: int) -> bool:
        """Whether a common word at ``start``..``end`` is written as the client's name, not as the word."""
        cased = view.cased[start : end + 1]
        letters = [c for c in cased if c.isalpha()]
        ending = _PLURAL_ENDING.match(view.clean, end + 1)
        after = ending.end() if ending is not None and not view.is_word(ending.end(), underscore=False) else end + 1
        words_before = _WORD.findall(view.clean, max(0, start - 40), start)
        words_after = _WORD.findall(view.clean, after, after + 40)
        if words_before and words_before[-1] in _CUE_BEFORE:
            return True  # "client harbor", "~/clients/harbor/"
        key = _CONFIG_KEY.search(view.cased, max(0, start - 40), start)
        if key is not None and _CUE_BEFORE.intersection(_key_words(key.group(1))):
            return True  # the value of a key that names a client: client_name: harbor, "tenantId": "harbor"
        if words_after and words_after[0] in _CUE_AFTER:
            return True
        if (
            after == end + 1
            and words_after
            and words_after[0] in _AGENT_VERBS
            and view.clean[end + 1 : end + 2] == " "
            and not (words_before and words_before[-1] in _DETERMINERS)
        ):
            return True  # the subject of a person's verb: "Orbit asked for", "orbit wants"
        if view.clean[start : end + 1] in _TOOL_WORDS:
            # A client named like a data tool ("Spark", "Delta"): notes write the tool capitalised, in
            # capitals (SPARK_HOME), possessive and in paths (/opt/spark/), so only the words above say
            # the client is meant.
            return False
        if any(c.isupper() for c in letters[1:]):
            return True  # HARBOR, hArBoR, or a split name capitalised again ("Bright Moor")
        if view.ends_plural(end) and view.clean[end + 1 : end + 2] in _APOSTROPHES:
            return True  # possessive: "Harbor's"
        if _in_address(view.clean, start, end):
            return True  # a label of an e-mail domain or a URL's host: "ops@harbor-data.com"
        if start > 0 and view.clean[start - 1] == "/" and view.clean[end + 1 : end + 2] == "/":
            return True  # a whole folder of a path: "/srv/exports/harbor/daily/" names the client's data
        if (
            after == end + 1
            and words_before
            and words_before[-1] in _PREPOSITIONS
            and view.clean[start - 1 : start] == " "
            and view.clean[start - 1 - len(words_before[-1]) : start - 1] == words_before[-1]
            and view.clean[end + 1 : end + 2] == " "
            and words_after
            and _finite_verb(words_after[0])
        ):
            # No determiner after a preposition, then the verb: "resync of kettle duplicated rows". Not
            # the clause's end alone: idioms and mass nouns end there ("out of order;", "to source:").
            return True
        if letters and letters[0].isupper():
            before = view.clean[:start].rstrip(" \t*_`\"'([#>-")
            if before and before[-1] not in _SENTENCE_END:
                return True  # capitalised mid-sentence
            # At a sentence start a capital says nothing, but a bare name as the subject of a verb
            # does: an auxiliary or modal ("Harbor is on BigQuery"), or a person's verb in -s
            # followed by a determiner, pronoun or preposition ("Beacon wants every PR"). A tool's
            # verb says nothing ("Lantern writes its log", "Orbit requires a target": tools do
            # those), nor a noun phrase ("Mart models should").
            if not words_after:
                return False
            if words_after[0] in _AUXILIARIES:
                return True
            following = words_after[:2] if after == end + 1 else []  # a plural takes no verb in -s
            return (
                len(following) == 2
                and following[0] in _AGENT_VERBS
                and following[1] in _FUNCTION_WORDS
            )
        # In lower case where prose writes a capital, after the end of a sentence in the text ("... not
        # build. lantern reminded me"): a name written as a handle, not the word.
        before = view.clean[:start].rstrip(" \t")
        return (
            len(before) >= 2
            and before[-1] in ".!?"
            and view.clean[start - 1 : start] == " "
            and before[-2].isalnum()
            and not view.is_word(end + 1, underscore=False)  # "beacons" at a sentence start is the plural noun
        )

    @staticmethod
    def _key_matches(view: _View, start: int, end: int, any_case: bool) -> bool:
        """A Jira key counts as a ticket (KEY-123, any case) or alone in capitals ("DATA", not "data"), or
        alone in any case when it is no word (``any_case``: "nwo" for NWO)."""
        if view.is_word(start - 1, underscore=False):
            return False
        after = end + 1
        if after + 1 < len(view.clean) and view.clean[after] in "-_#" and view.clean[after + 1].isdigit():
            if view.clean[after] in "-#":
                return True  # a ticket, in any case, also inside a branch name ("feature/acme-12-fix", "acme#12")
            # "ACME_12", or "feature/acme_12" in a branch name; "data_2024" alone is a table name,
            # where "qfx_12", a key that is no word, is the ticket.
            token_start = view.clean.rfind(" ", 0, start) + 1
            if (
                "/" in view.clean[token_start:start]
                or all(c.isupper() for c in view.cased[start : end + 1] if c.isalpha())
                or not _word_like(view.clean[start : end + 1])
            ):
                return True
        cue = _WORD.findall(view.clean, max(0, start - 12), start)
        if (
            view.clean[after : after + 1] == " "
            and view.clean[after + 1 : after + 2].isdigit()
            and cue
            and cue[-1] in _TICKET_CUES
        ):
            return True  # "ticket acme 12": a ticket written with a space, after a word that says so
        if view.is_word(after, underscore=True):  # ACME_RAW is another word, not the key
            return False
        letters = [c for c in view.cased[start : end + 1] if c.isalpha()]
        if any_case:
            # Not where the text had an underscore the view dropped ("hvm_" cut at a line's end).
            after_text = view.where[end] + 1
            return view.text[after_text : after_text + 1] != "_"
        return bool(letters) and (all(c.isupper() for c in letters) or view.spelled_at(start, end))
