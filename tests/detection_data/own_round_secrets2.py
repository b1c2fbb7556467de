"""A development round written by hand for the secret and client-detail checks (helper secrets2).

Not blind: these cases were written to probe the classes the previous round left missed (a
common-word client name starting a sentence, a name split into two common words, a value spelled
out in words, a pgbouncer ``userlist.txt`` line, a bare vendor prefix) and the usual disguises,
with clean notes full of ordinary words that resemble the registry's names. Every case has a
``half``: "dev" cases guided fixes, "check" cases were only measured after the fixes. Secrets are
built from pieces at run time, from a seeded generator, so the repository holds none.
"""

from __future__ import annotations

import base64
import random
import string
from dataclasses import dataclass

from stores.console_checks.detectors.client_detail import ClientTerm

_RNG = random.Random(4471)
_ALNUM = string.ascii_letters + string.digits


def _r(n: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


@dataclass(frozen=True)
class OwnCase:
    text: str
    refuse: bool
    kind: str
    half: str  # "dev" or "check"
    store: str = "agent"
    own_client: str | None = None


_CLIENTS = {
    "Orbit": {"client alias": ["Orbit Freight"], "project key": ["ORB"], "repository": ["orbit-freight/dbt-core"],
              "dataset": ["orb_shipments", "ops_shared"], "table": ["orb_shipments.fct_pallet_moves"],
              "distinctive table": ["fct_pallet_moves"]},
    "Pinecrest Dental": {"client alias": ["Pinecrest", "PCD"], "project key": ["PCD"],
                         "repository": ["pinecrest-it/claims-etl"], "dataset": ["pcd_claims", "ops_shared"],
                         "table": ["pcd_claims.fct_tooth_chart"], "distinctive table": ["fct_tooth_chart"]},
    "Lantern": {"client alias": ["Lantern Insurance", "Lantern Mutual"], "project key": ["LTN"],
                "repository": ["lantern-ins/pricing"], "dataset": ["ltn_policies"],
                "table": ["ltn_policies.dim_peril_band"], "distinctive table": ["dim_peril_band"]},
    "Quorvane Systems": {"client alias": ["Quorvane"], "project key": ["QVS"], "repository": ["quorvane/ingest"],
                         "dataset": ["qvs_raw"], "table": ["qvs_raw.telemetry_pings"],
                         "distinctive table": ["telemetry_pings_qv"]},
    "Copper Kettle": {"client alias": ["CopperKettle", "Copper Kettle Cafes"], "project key": ["CKC"],
                      "repository": ["copperkettle/loyalty"], "dataset": ["ckc_loyalty"],
                      "table": ["ckc_loyalty.fct_stamp_cards"], "distinctive table": ["fct_stamp_cards"]},
}


def registry() -> list[ClientTerm]:
    """The round's registry, as the console turns clients into terms."""
    terms = [ClientTerm(name, "client name", name) for name in _CLIENTS]
    for name, kinds in _CLIENTS.items():
        for kind, values in kinds.items():
            terms += [ClientTerm(value, kind, name) for value in values]
    return terms


def _b64(s: str) -> str:
    return base64.b64encode(s.encode()).decode()


def client_cases() -> list[OwnCase]:
    """Client detail written into a store, and clean notes around the same words."""
    leak = [
        ("sentence start verb", "Orbit asked for the pallet report to be rerun nightly.", "dev"),
        ("sentence start verb", "Lantern wants quotes rounded to the nearest pound.", "check"),
        ("sentence start verb", "Orbit's finance team closes the month on day three.", "dev"),
        ("sentence start verb", "Lantern signed off the pricing change on Friday.", "check"),
        ("sentence start verb", "Last week Orbit complained about late loads; fixed by retrying.", "dev"),
        ("split two words", "The Pine crest claims feed arrives at 6am.", "dev"),
        ("split two words", "pine crest dental moved to the new warehouse", "check"),
        ("split two words", "Loyalty export for Copper kettle runs hourly.", "dev"),
        ("split two words", "copper  kettle cafes asked for weekly stamps", "check"),
        ("case", "Notes from the QUORVANE call: keep ingest idempotent.", "dev"),
        ("case", "quorvane systems uses a late-arriving-facts pattern", "check"),
        ("plural/possessive", "Pinecrest's dentists hate the new chart view.", "dev"),
        ("plural/possessive", "Both Quorvanes' environments were down.", "check"),
        ("letter spacing", "Working for Q u o r v a n e this sprint.", "dev"),
        ("letter spacing", "P-i-n-e-c-r-e-s-t wants new exports.", "check"),
        ("leetspeak", "Qu0rv4ne ingest lag was 3 hours.", "dev"),
        ("leetspeak", "P1necrest claims backlog cleared.", "check"),
        ("homoglyph", "Quоrvane ingest uses Kafka.", "dev"),  # Cyrillic o
        ("homoglyph", "Ріnecrest asked about exports.", "check"),  # Cyrillic Р, і
        ("code block", "```sql\nselect * from pcd_claims.fct_tooth_chart\n```", "dev"),
        ("code block", "```\nmodel: fct_pallet_moves\n```", "check"),
        ("url", "See https://git.example.com/quorvane/ingest/pull/12 for the fix.", "dev"),
        ("url", "Docs at https://pinecrest-dental.example.net/wiki/exports", "check"),
        ("path", "Config lives in /srv/clients/lantern/pricing.yml", "dev"),
        ("path", "Logs under C:\\work\\CopperKettle\\loyalty\\logs", "check"),
        ("sql", "SELECT count(*) FROM ltn_policies.dim_peril_band WHERE band > 3;", "dev"),
        ("sql", "join qvs_raw.telemetry_pings using (device_id)", "check"),
        ("base64", f"Context blob: {_b64('Quorvane Systems exports')}", "dev"),
        ("base64", f"payload={_b64('client: Pinecrest Dental')}", "check"),
        ("split across lines", "We met Quor-\nvane about ingest.", "dev"),
        ("split across lines", "Pine-\ncrest asked for exports.", "check"),
        ("project key", "Fixed in ORB-1422 by adding a retry.", "dev"),
        ("project key", "Ticket LTN-88 tracks the peril band rewrite.", "check"),
        ("alias", "Lantern Mutual pays claims weekly.", "dev"),
        ("alias", "PCD's warehouse is on Redshift.", "check"),
        ("dataset", "Backfill orb_shipments before Monday.", "dev"),
        ("dataset", "ckc_loyalty is refreshed at noon.", "check"),
        ("repository", "Clone copperkettle/loyalty and run make.", "dev"),
        ("repository", "The lantern-ins/pricing repo has the fix.", "check"),
        ("distinctive table", "fct_stamp_cards double counts refunds.", "dev"),
        ("shared dataset", "The ops_shared dataset is joined by many teams; keep it narrow.", "dev"),
        ("distinctive table", "dim_peril_band needs a surrogate key.", "check"),
        ("common word capital mid", "We shipped the dashboards to Orbit yesterday.", "dev"),
        ("common word capital mid", "The team at Lantern prefers CSV.", "check"),
        ("cue word", "The lantern client wants PDFs.", "dev"),
        ("cue word", "client orbit needs a new SLA.", "check"),
    ]
    clean = [
        ("resembling word", "The satellite's orbit decays faster than the model predicted.", "dev"),
        ("resembling word", "Orbit the camera around the object with the middle mouse button.", "dev"),
        ("resembling word", "Orbit controls in three.js need damping enabled.", "check"),
        ("resembling word", "Lantern festivals draw a crowd; the photo set is public domain.", "dev"),
        ("resembling word", "Lanterns hung along the path make good test images.", "check"),
        ("resembling word", "A pine crest ridge shows on the elevation map.", "dev"),
        ("resembling word", "The copper kettle on the stove whistled.", "check"),
        ("resembling word", "Copper wiring and a kettle lead were in the inventory demo.", "dev"),
        ("resembling word", "Pine needles and the crest of the hill were in the sample photo.", "check"),
        ("tool lesson", "Use dbt's state:modified selector to build only changed models.", "dev"),
        ("tool lesson", "Kafka consumers must commit offsets after processing, not before.", "check"),
        ("tool lesson", "When Airflow tasks hang, check the pool slots first.", "dev"),
        ("tool lesson", "Orbiting debris data from the public catalogue is stale by a day.", "check"),
        ("generic dataset", "Staging tables go in a raw schema, marts in analytics.", "check"),
        ("sentence start", "Lantern slides were an early projector; the history note is fun.", "dev"),
        ("sentence start", "Orbital mechanics notes: keep units in SI.", "check"),
        ("tool lesson", "Kettle (Pentaho) jobs need the JDBC jar on the classpath.", "dev"),
        ("tool lesson", "Copper is a good conductor; the unit test fixtures use it as a label.", "check"),
        ("tool lesson", "Crest and trough detection: use scipy.signal.find_peaks.", "dev"),
        ("tool lesson", "Quarterly reports need the fiscal calendar table.", "check"),
        ("resembling word", "Lantern wick lengths: trim to 5 mm before lighting.", "dev"),
        ("resembling word", "the orbit signed distance field is computed per frame", "dev"),
        ("resembling word", "A copper-kettle finish on the mugs shows in the product photos.", "dev"),
        ("resembling word", "Orbit requires a target; pass it as the first argument.", "dev"),
        ("resembling word", "Lantern writes its log to stdout.", "dev"),
        ("resembling word", "The lantern said nothing in the story; the fixture text is fine.", "dev"),
        ("resembling word", "Pine, crest and dental are three tags in the test vocabulary.", "dev"),
        ("resembling word", "In orbit, satellites reply to pings every 90 minutes.", "dev"),
        ("tool lesson", "Kettle asks for the repository on start; set KETTLE_HOME.", "dev"),
        ("tool lesson", "Quarto renders notebooks; freeze outputs to keep CI fast.", "dev"),
    ]
    own = [
        ("own name", "Lantern asked for the peril bands to be rebuilt.", "dev", "Lantern"),
        ("own dataset", "ltn_policies.dim_peril_band is rebuilt nightly.", "check", "Lantern"),
        ("own shared", "ops_shared holds the calendar for us too.", "dev", "Orbit"),
        ("own repo", "orbit-freight/dbt-core has the pallet model.", "check", "Orbit"),
        ("own key", "ORB-12 fixed the late loads.", "dev", "Orbit"),
        ("own alias", "Pinecrest wants the export at 6am.", "check", "Pinecrest Dental"),
    ]
    other = [
        ("other client in project", "Quorvane had the same bug; see their ingest repo.", "dev", "Orbit"),
        ("other client in project", "Like Pinecrest, we should cache claims.", "check", "Lantern"),
        ("other client in project", "Copy the pattern from ckc_loyalty.fct_stamp_cards.", "dev", "Orbit"),
        ("other client in project", "Orbit asked the same thing last year.", "check", "Lantern"),
    ]
    out = [OwnCase(t, True, k, h) for k, t, h in leak]
    out += [OwnCase(t, False, k, h) for k, t, h in clean]
    out += [OwnCase(t, False, k, h, "project", c) for k, t, h, c in own]
    out += [OwnCase(t, True, k, h, "project", c) for k, t, h, c in other]
    return out


def secret_cases() -> list[OwnCase]:
    """Secrets (positive) and look-alikes (negative) in four languages."""
    pw1 = "Tern" + "wick" + "#" + "4418"
    pw2 = "fjord" + "-" + "saddle" + "-" + "93"
    pw3 = "Mx" + "7!" + "qL" + "2v" + "Rp"
    hexkey = _r(32, "0123456789abcdef")
    nrak = "NRAK" + "-" + _r(27, string.ascii_uppercase + string.digits)
    md5 = "md5" + _r(32, "0123456789abcdef")
    pos = [
        ("pgbouncer userlist", f'userlist.txt:\n"etl_loader" "{pw3}"', "dev"),
        ("pgbouncer userlist", f'"report_ro" "{pw2}"\n"admin" "{pw1}"', "check"),
        ("pgbouncer userlist", f'Added to userlist: "svc_app" "{md5}"', "dev"),
        ("bare vendor prefix", f"New Relic: {nrak}", "dev"),
        ("bare vendor prefix", f"monitoring uses {'NRAK' + '-' + _r(27, string.ascii_uppercase + string.digits)} for the agent", "check"),
        ("bare vendor prefix", f"{'NRJS' + '-' + _r(19, 'abcdef0123456789')} goes in the browser snippet", "dev"),
        ("value in words", "Warehouse password is the word Basalt followed by the digits 2291 and then an exclamation mark.", "dev"),
        ("value in words", "The vpn pass: the word Heron, then 5521, then the symbols #$ (join them).", "check"),
        ("value in words", "Passwort: das Wort Kiesel plus die Ziffern 8810 plus !! (zusammen).", "dev"),
        ("value in words", "Mot de passe : le mot Falaise suivi des chiffres 4402 et du symbole %.", "check"),
        ("prose en", f"The staging database password is {pw1} until rotation.", "dev"),
        ("prose en", f"Log in to the NAS with {pw2}.", "check"),
        ("prose de", f"Das Kennwort für den Jenkins-Admin lautet {pw3}.", "dev"),
        ("prose de", f"Zugang zum Router: admin / {pw1}", "check"),
        ("prose fr", f"Le mot de passe du serveur de test est {pw2}.", "dev"),
        ("prose fr", f"Pour le VPN, utilisez {pw3} comme mot de passe.", "check"),
        ("prose es", f"La contraseña de la base de datos es {pw1}.", "dev"),
        ("prose es", f"Clave del wifi de la oficina: {pw2}", "check"),
        ("hex after keyword", f"api key {hexkey}", "dev"),
        ("hex after keyword", f"signing secret: {_r(40, '0123456789abcdef')}", "check"),
        ("dotenv", f"DB_PASSWORD={pw3}\nDB_USER=app", "dev"),
        ("dotenv", f"export REDIS_PASS='{pw2}'", "check"),
        ("url creds", f"postgres://etl:{pw3}@db.internal:5432/wh", "dev"),
        ("url creds", f"amqp://svc:{pw1}@mq.internal/vhost", "check"),
        ("gh token", "ghp_" + _r(36), "dev"),
        ("gh token", "token for CI: " + "github_pat_" + _r(22) + "_" + _r(59), "check"),
        ("aws", "AKIA" + _r(16, string.ascii_uppercase + "234567") + " with secret " + _r(40), "dev"),
        ("stripe", "sk_live_" + _r(24), "check"),
        ("slack", "xoxb-" + _r(11, string.digits) + "-" + _r(12, string.digits) + "-" + _r(24), "dev"),
        ("base64 cred", "auth blob " + _b64(f"deploy:{pw1}"), "check"),
        ("sql", f"ALTER USER reporting WITH PASSWORD '{pw2}';", "dev"),
        ("sql", f"CREATE USER etl IDENTIFIED BY \"{pw3}\";", "check"),
    ]
    neg = [
        ("git sha", "Reverted in commit " + _r(40, "0123456789abcdef") + ".", "dev"),
        ("git sha", "Der Fix steckt in Commit " + _r(40, "0123456789abcdef") + ".", "check"),
        ("file hash", "sha256sum of the wheel: " + _r(64, "0123456789abcdef"), "dev"),
        ("file hash", "Empreinte SHA-256 du fichier : " + _r(64, "0123456789abcdef"), "check"),
        ("uuid", "Request id 3f2b9c1e-8a4d-4e6f-9b2a-1c7d5e8f0a3b failed twice.", "dev"),
        ("uuid", "El identificador del trabajo es 9e1c2d3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f.", "check"),
        ("public key", "Deploy host key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + _r(43) + " ci@build", "dev"),
        ("public key", "Öffentlicher Schlüssel: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + _r(43) + " deploy", "check"),
        ("version", "Upgrade psycopg to 3.2.9 and Django to 5.2.4.", "dev"),
        ("version", "La versión 2024.11.3-rc2 corrige el error.", "check"),
        ("placeholder", "Set API_KEY=<your-api-key> in .env before running.", "dev"),
        ("placeholder", "password: ${DB_PASSWORD}", "check"),
        ("placeholder", "Mot de passe : VOTRE_MOT_DE_PASSE (à remplacer).", "dev"),
        ("placeholder", "Passwort: <hier-dein-passwort> eintragen.", "check"),
        ("uri template", "GET https://api.example.com/v1/users/{user_id}/tokens/{token_id}", "dev"),
        ("uri template", "postgres://{user}:{password}@{host}:5432/{db}", "check"),
        ("uri template", "La URL es https://{tenant}.example.com/oauth/{client_id}/callback", "dev"),
        ("talk", "Rotate the password every 90 days; never paste it into tickets.", "check"),
        ("talk", "Das Passwort liegt im Vault unter secret/etl, nicht hier.", "dev"),
        ("talk", "Le mot de passe est dans 1Password, coffre Data.", "check"),
        ("talk", "La contraseña está en el gestor, pídela a IT.", "dev"),
        ("pgbouncer doc", 'pgbouncer userlist.txt lines look like "user" "password"; keep the file mode 600.', "check"),
        ("pgbouncer doc", 'auth_type = scram-sha-256 and auth_file = /etc/pgbouncer/userlist.txt', "dev"),
        ("vendor doc", "New Relic user keys start with NRAK- and live in the vault.", "check"),
        ("vendor doc", "Keys prefixed NRAK are user keys; NRII are ingest keys.", "dev"),
        ("words talk", "The password policy: a word, then four digits, then a symbol.", "check"),
        ("words talk", "Das Passwort besteht aus einem Wort und vier Ziffern.", "dev"),
        ("build number", "Build 20241103.7 passed; artefact id 88213.", "check"),
        ("lesson", "pg_dump --no-password reads credentials from ~/.pgpass.", "dev"),
        ("userlist format", '"alice" "<password>"', "dev"),
        ("userlist format", '"report_ro" "${REPORT_RO_PASSWORD}"', "dev"),
        ("header pair", '"Content-Type" "application/json"', "dev"),
        ("quoted pair", 'Translations: "Kennwort" "Passwort"', "dev"),
        ("ulid", "REQL-01HF8Z3K4M5N6P7Q8R9S0T1V2W failed with a timeout (request id).", "dev"),
        ("version", "Version: RELEASE-2024R3Q4B17X9Z shipped to staging.", "dev"),
        ("hash", "SHA256-" + "ab" * 32 + " is the wheel digest.", "dev"),
        ("ticket", "See ORBX-12345 and DATA-99812 for the history.", "dev"),
        ("words talk", "Choose the word Harbor for the test fixture and 2024 as the year.", "dev"),
        ("words talk", "Le mot de passe doit contenir le mot de votre choix et 4 chiffres.", "dev"),
        ("words talk", "La contraseña: la palabra que elijas más 4 dígitos.", "dev"),
        ("uri template", "Die URL lautet https://{host}/api/{version}/keys/{key_id}.", "dev"),
        ("placeholder", "Clave de API: TU_CLAVE_AQUI", "dev"),
        ("git sha", "Le correctif est dans le commit " + "3f9a1c" * 6 + "ab42.", "dev"),
        ("lesson", "Use `psql \"$DATABASE_URL\"` rather than typing the password.", "check"),
    ]
    return [OwnCase(t, True, k, h) for k, t, h in pos] + [OwnCase(t, False, k, h) for k, t, h in neg]
