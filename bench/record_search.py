"""Search across 100,000 run records: the search service and the API against a plain ``icontains``
scan of the same rows, in the same run, on PostgreSQL.

A scratch database gets 10 projects, 20 agents, 25,000 runs over 90 days (a tenth with a QA
failure, some needing a ruling, working past an error or retried) and four records a run: a
transcript of 15 to 40 lines of agent, tool and dbt output drawn from a fixed vocabulary (so the
run is the same every time) and a few JSON events, bulk inserted. Then the same queries (a common
word, a rare word, two words, a phrase, a prefix, an OR, and filters by project, outcome and
dates) run through ``runs.search.record_search`` (as an admin, every project, and as a contact
of two projects), through ``GET /api/v1/run_records`` in process (DRF, a person's token), and
as ``RunRecord.objects.filter(transcript__icontains=...)`` with the same filters and order, the
first 20 each. Mean, p50 and p99 are printed, and the ratio. The target: search p99 under 200 ms.
Apart, outside the target, the known weak case: a phrase of two words most records hold but
rarely side by side (every candidate record is read back to check positions).

    .venv/bin/python bench/record_search.py [--records 100000] [--queries 200]

PostgreSQL is the server DATABASE_URL (or BENCH_DATABASE_URL) names, in a scratch database
mc_bench_record_search that is dropped at the end; without PostgreSQL the script says so and stops.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import summary, use_scratch_database  # noqa: E402

TARGET_P99_MS = 200.0
LIMIT = 20
PROJECTS = 10
AGENTS = 20
RECORDS_PER_RUN = 4
DOMAIN = (
    "dbt model staging mart incremental merge partition bigquery snapshot refund order customer loyalty "
    "shopify looker dashboard lookback predicate schema test unique source freshness seed macro ref "
    "warehouse table column join grain surrogate key deduplicate backfill schedule airflow fivetran "
    "sync cursor timestamp timezone late arriving duplicate guest checkout tier currency exchange rate"
).split()
LINES = [
    "agent: reading {model} before changing the {word} logic.",
    "tool: dbt build --select {model}+ -> {n} models, {m} tests passed.",
    "tool: dbt test --select {model} -> FAIL {n} unique_{word}_id",
    "agent: the {word} column in {model} is null for {n} rows since the {word2} change.",
    "agent: QA comparison shows {n} more rows in {model} than in the {word} report.",
    "tool: bq query 'select count(*) from raw.{word}_{word2}' -> {m}",
    "agent: asked the contact whether {word} should follow the {word2} rule; waiting for a ruling.",
    "error: Database Error in model {model}: column {word}_{word2} does not exist",
    "agent: reran after the error; {model} now builds with the {word} filter.",
    "agent: opened a PR for {ticket} with the {word} fix and a test on {word2}.",
]


def vocabulary(rng: random.Random, size: int = 3000) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = set(DOMAIN)
    while len(words) < size:
        words.add("".join(rng.choice(letters) for _ in range(rng.randint(4, 10))))
    return sorted(words)


def pick(rng: random.Random, words: list[str]) -> str:
    # Zipf-like: a few words are common, most are rare, as in real transcripts.
    if rng.random() < 0.5:
        return words[min(len(words) - 1, int(rng.paretovariate(1.1)) - 1)]
    return rng.choice(words)


def transcript(rng: random.Random, words: list[str], ticket: str) -> str:
    out = []
    for _ in range(rng.randint(15, 40)):
        w1, w2 = pick(rng, words), pick(rng, words)
        out.append(rng.choice(LINES).format(model=f"stg_{w1}", word=w1, word2=w2, n=rng.randint(1, 900),
                                            m=rng.randint(1, 90000), ticket=ticket))
    return "\n".join(out) + "\n"


def queries(rng: random.Random, words: list[str], n: int) -> list[tuple[str, dict]]:
    """(q, filters) pairs: the words of each kind, some with filters."""
    out = []
    for i in range(n):
        kind = i % 8
        if kind == 0:
            q = rng.choice(DOMAIN)
        elif kind == 1:
            q = rng.choice(words)
        elif kind == 2:
            q = f"{rng.choice(DOMAIN)} {rng.choice(DOMAIN)}"
        elif kind == 3:
            # Phrases as people look for them: wording the transcripts hold.
            q = rng.choice(['"dbt build"', '"qa comparison"', '"database error"', '"waiting for a ruling"',
                            f'"stg_{rng.choice(words)}"', f'"unique_{rng.choice(words)}_id"'])
        elif kind == 4:
            q = rng.choice(DOMAIN)[:4] + "*"
        elif kind == 5:
            q = f"{rng.choice(words)} OR {rng.choice(DOMAIN)}"
        elif kind == 6:
            q = rng.choice(DOMAIN)
        else:
            q = f"{rng.choice(DOMAIN)} {rng.choice(words)}"
        filters: dict = {}
        if i % 3 == 1:
            filters["project"] = f"P{rng.randrange(PROJECTS)}"
        if i % 4 == 2:
            filters["outcomes"] = ("qa_failed",)
        if i % 5 == 3:
            filters["days"] = (rng.randint(30, 90), rng.randint(0, 29))
        out.append((q, filters))
    return out


def load(n_records: int) -> dict:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone

    from runs.models import Run, RunRecord
    from stores.models import Client, HostedAgent, JiraProject
    from stores.services.escalation_contacts import escalation_contact_add
    from stores.services.stores import store_ensure_for_project
    from stores.services.tokens import token_issue_for_user

    rng = random.Random(17)
    words = vocabulary(rng)
    client = Client.objects.create(name="Bench Client")
    projects = [JiraProject.objects.create(key=f"P{i}", client=client) for i in range(PROJECTS)]
    for project in projects:
        store_ensure_for_project(project)
    agents = HostedAgent.objects.bulk_create([HostedAgent(name=f"agent-{i}") for i in range(AGENTS)])
    now = timezone.now()
    n_runs = max(1, n_records // RECORDS_PER_RUN)
    runs = []
    for i in range(n_runs):
        project = projects[i % PROJECTS]
        runs.append(Run(agent=agents[i % AGENTS], project=project, ticket_key=f"{project.key}-{i}",
                        token_hash=f"{i:064x}", qa_failed=rng.random() < 0.1, needed_ruling=rng.random() < 0.05,
                        worked_past_error=rng.random() < 0.15, attempts=2 if rng.random() < 0.08 else 1))
    started = time.perf_counter()
    Run.objects.bulk_create(runs, batch_size=5000)
    # started_at is set on insert (auto_now_add): spread the runs over 90 days afterwards.
    with connection.cursor() as cursor:
        cursor.execute("UPDATE runs_run SET started_at = %s - (id %% %s) * (interval '90 days' / %s), "
                       "ended_at = %s - (id %% %s) * (interval '90 days' / %s) + interval '40 minutes'",
                       [now, n_runs, n_runs, now, n_runs, n_runs])
    runs = list(Run.objects.order_by("pk").values_list("pk", "project_id", "ticket_key", "started_at"))
    batch, made, chars = [], 0, 0
    for pk, project_id, ticket, run_started in runs:
        for j in range(RECORDS_PER_RUN):
            text = transcript(rng, words, ticket)
            chars += len(text)
            events = [{"type": "tool", "name": "dbt", "output": f"{pick(rng, words)} built"},
                      {"type": "note", "text": f"{ticket} step {j}: {pick(rng, words)} {pick(rng, words)}"}]
            # Kept as a run's record is, at its end.
            kept_at = run_started + timedelta(minutes=30 + j)
            batch.append(RunRecord(run_id=pk, project_id=project_id, created_at=kept_at, transcript=text,
                                   events=events))
            made += 1
        if len(batch) >= 4000:
            RunRecord.objects.bulk_create(batch)
            batch = []
    if batch:
        RunRecord.objects.bulk_create(batch)
    load_seconds = time.perf_counter() - started
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE runs_run")
        cursor.execute("VACUUM ANALYZE runs_runrecord")
        cursor.execute("SELECT pg_size_pretty(pg_total_relation_size('runs_runrecord')), "
                       "pg_size_pretty(pg_relation_size('runs_runrecord_vector'))")
        table_size, index_size = cursor.fetchone()
    user_model = get_user_model()
    admin = user_model.objects.create_user("bench-admin", is_superuser=True, is_staff=True)
    contact = user_model.objects.create_user("bench-contact")
    for project in projects[:2]:
        escalation_contact_add(key=project.key, username=contact.username)
    return {"records": made, "runs": len(runs), "mean_chars": chars // max(made, 1), "load_seconds": load_seconds,
            "table_size": table_size, "index_size": index_size, "words": words,
            "admin": admin, "admin_token": token_issue_for_user(admin)[1], "contact": contact,
            "projects": projects}


def measure(fn, cases) -> tuple[dict, int]:
    for case in cases[:10]:
        fn(*case)  # warm caches and the connection
    samples, found = [], 0
    for case in cases:
        t0 = time.perf_counter()
        found += fn(*case)
        samples.append(time.perf_counter() - t0)
    return summary(samples), found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--keep", action="store_true", help="keep the scratch database for a look afterwards")
    args = parser.parse_args()
    base = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/x"
    if not base.startswith("postgres"):
        print("bench/record_search.py needs PostgreSQL: set DATABASE_URL or BENCH_DATABASE_URL to postgres://...")
        return 1
    url = use_scratch_database(base.rsplit("/", 1)[0] + "/mc_bench_record_search")
    from django.db import connection

    if connection.vendor != "postgresql":
        print(f"PostgreSQL is not answering at {base.rsplit('@', 1)[-1]}; nothing measured")
        return 1
    import psycopg
    from django.utils import timezone
    from rest_framework.test import APIClient

    from runs.models import RunRecord
    from runs.search import clean_filters, record_search
    from runs.selectors import record_project_ids_for_person
    from stores.services.search import parse_query

    world = load(args.records)
    print(f"run-record search on PostgreSQL ({url.rsplit('@', 1)[-1]}): {world['records']:,} records of "
          f"{world['runs']:,} runs, {world['mean_chars']:,} characters each on average; loaded in "
          f"{world['load_seconds']:.0f} s; table {world['table_size']}, GIN index {world['index_size']}")
    now = timezone.now()
    keys = {p.key: p.pk for p in world["projects"]}
    cases = queries(random.Random(5), world["words"], args.queries)

    def filters_of(spec: dict):
        days = spec.get("days")
        return clean_filters(
            project=spec.get("project", ""), outcomes=spec.get("outcomes", ()),
            kept_from=now - timedelta(days=days[0]) if days else None,
            kept_before=now - timedelta(days=days[1]) if days else None,
        )

    admin_scope = record_project_ids_for_person(world["admin"])
    contact_scope = record_project_ids_for_person(world["contact"])

    def service(scope):
        def run(q: str, spec: dict) -> int:
            return len(record_search(q, project_ids=scope, filters=filters_of(spec), limit=LIMIT).hits)

        return run

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {world['admin_token']}")

    def through_api(q: str, spec: dict) -> int:
        params = {"q": q, "limit": LIMIT}
        if spec.get("project"):
            params["project"] = spec["project"]
        if spec.get("outcomes"):
            params["outcome"] = ",".join(spec["outcomes"])
        if spec.get("days"):
            params["after"] = (now - timedelta(days=spec["days"][0])).strftime("%Y-%m-%dT%H:%M:%SZ")
            params["before"] = (now - timedelta(days=spec["days"][1])).strftime("%Y-%m-%dT%H:%M:%SZ")
        response = api.get("/api/v1/run_records", params)
        assert response.status_code == 200, response.content[:300]
        return len(response.json()["data"])

    def icontains(q: str, spec: dict) -> int:
        # The plain way: one icontains per word of the first group, the same filters and order.
        rows = RunRecord.objects.all()
        for phrase, _prefix in parse_query(q).groups[0]:
            rows = rows.filter(transcript__icontains=phrase)
        if spec.get("project"):
            rows = rows.filter(project_id=keys[spec["project"]])
        if spec.get("outcomes"):
            rows = rows.filter(run__qa_failed=True)
        if spec.get("days"):
            rows = rows.filter(created_at__gte=now - timedelta(days=spec["days"][0]),
                               created_at__lt=now - timedelta(days=spec["days"][1]))
        return len(list(rows.order_by("-created_at", "-pk").only("id", "transcript")[:LIMIT]))

    results = {}
    for label, fn in (("search service (admin, every project)", service(admin_scope)),
                      ("search service (contact, 2 projects)", service(contact_scope)),
                      ("GET /api/v1/run_records (admin)", through_api),
                      ("icontains scan (admin)", icontains)):
        stats, found = measure(fn, [(q, spec) for q, spec in cases])
        results[label] = stats
        print(f"  {label:<40} mean {stats['mean_ms']:8.2f} ms   p50 {stats['p50_ms']:8.2f} ms   "
              f"p99 {stats['p99_ms']:8.2f} ms   hits {found:,}")
    # Apart, and outside the target: the known weak case. A phrase of two words that most records
    # hold but rarely side by side: GIN finds the records holding both, and each must be read back
    # to check the words' positions, window after window, until the page fills or the windows end.
    rng = random.Random(9)
    common = world["words"][:20]
    rare_phrases = [(f'"{rng.choice(common)} {rng.choice(common)}"', {}) for _ in range(20)]
    weak, weak_found = measure(service(admin_scope), rare_phrases)
    print(f"  {'(apart) rare phrase of 2 ubiquitous words':<40} mean {weak['mean_ms']:8.2f} ms   "
          f"p50 {weak['p50_ms']:8.2f} ms   p99 {weak['p99_ms']:8.2f} ms   hits {weak_found:,}")
    service_p99 = results["search service (admin, every project)"]["p99_ms"]
    api_p99 = results["GET /api/v1/run_records (admin)"]["p99_ms"]
    scan = results["icontains scan (admin)"]
    ok = service_p99 < TARGET_P99_MS and api_p99 < TARGET_P99_MS
    print(f"  search p99 {service_p99:.1f} ms, API p99 {api_p99:.1f} ms: {'under' if ok else 'OVER'} the "
          f"{TARGET_P99_MS:.0f} ms target; icontains p99 / search p99 = {scan['p99_ms'] / max(service_p99, 1e-6):.1f}x, "
          f"p50 ratio {scan['p50_ms'] / max(results['search service (admin, every project)']['p50_ms'], 1e-6):.1f}x")
    connection.close()
    if not args.keep:
        admin_url = url.rsplit("/", 1)[0].replace("postgres://", "postgresql://") + "/postgres"
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute('DROP DATABASE IF EXISTS "mc_bench_record_search" WITH (FORCE)')
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
