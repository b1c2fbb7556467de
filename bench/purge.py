"""Purging run records: the batched retention service against one SQL DELETE with database-side cascade.

Both run in the same process on the same data: the rows are loaded into the console's own tables,
then copied row for row into twin tables (same columns, same indexes) whose run_id foreign key is
declared ON DELETE CASCADE in this script's SQL (Django 5.2 has no database-level cascade). The
baseline deletes the old runs in one statement and lets PostgreSQL cascade to their records; the
service deletes the same records in batches of DEFAULT_BATCH_SIZE ids, one short transaction each.
Time and peak Python memory (tracemalloc) of each, at two sizes to show memory does not grow with
the rows. Needs PostgreSQL; works in a scratch database it creates and drops.

    .venv/bin/python bench/purge.py [--rows 1000000] [--small 100000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import tracemalloc
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import use_scratch_database  # noqa: E402

NOW = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)
RUNS_PER_RECORDS = 100  # records per run
KEPT_FRACTION = 20  # one record kept (inside retention) for every 20 purged
TRANSCRIPT = (
    "agent: checked the orders model against the QA comparison; row counts match after the merge.\n"
    "tool: dbt build --select orders -> 1 model, 4 tests passed.\n"
) * 4


def scratch_url() -> str:
    base = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/test"
    if not base.startswith("postgres"):
        sys.exit("bench/purge.py needs PostgreSQL: set DATABASE_URL=postgres://... (default postgres://postgres@127.0.0.1:5432/test)")
    head, name = base.rsplit("/", 1)
    return f"{head}/{name.split('?')[0]}_purge_bench"


def drop_database(url: str) -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    admin = url.rsplit("/", 1)[0].replace("postgres://", "postgresql://") + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')


def load(purged: int) -> int:
    """Load ``purged`` records past retention and a twentieth as many inside it; copy them to the twin tables."""
    from django.db import connection

    from runs.models import Run, RunRecord
    from stores.models import Client, HostedAgent, JiraProject

    kept = purged // KEPT_FRACTION
    client = Client.objects.get_or_create(name="Bench Client")[0]
    project = JiraProject.objects.get_or_create(key="BENCH", client=client)[0]
    agent = HostedAgent.objects.get_or_create(name="bench-agent")[0]
    old_runs, new_runs = purged // RUNS_PER_RECORDS, max(1, kept // RUNS_PER_RECORDS)
    Run.objects.bulk_create(
        [Run(agent=agent, project=project, ticket_key=f"OLD-{i}", token_hash=uuid.uuid4().hex) for i in range(old_runs)]
        + [Run(agent=agent, project=project, ticket_key=f"NEW-{i}", token_hash=uuid.uuid4().hex) for i in range(new_runs)],
        batch_size=5000,
    )
    template = RunRecord.objects.create(
        run=Run.objects.filter(ticket_key="OLD-0").get(), project=project, created_at=NOW,
        transcript=TRANSCRIPT, events=[{"type": "tool", "name": "dbt", "ok": True}],
    )
    # Every column not set here is copied from one template row made by the ORM, so a column
    # added to RunRecord later is filled as Django would fill it.
    columns = [f.column for f in RunRecord._meta.concrete_fields if f.column != "id"]
    overrides = {"run_id": "runs.ids[1 + mod(g, array_length(runs.ids, 1))]", "created_at": "%(start)s + g * %(step)s"}
    select = ", ".join(overrides.get(c, f't."{c}"') for c in columns)
    insert = (
        f'INSERT INTO runs_runrecord ({", ".join(chr(34) + c + chr(34) for c in columns)}) '
        f"SELECT {select} FROM runs_runrecord t, generate_series(1, %(n)s) g, "
        "(SELECT array_agg(id ORDER BY id) AS ids FROM runs_run WHERE ticket_key LIKE %(prefix)s) runs "
        "WHERE t.id = %(template)s"
    )
    with connection.cursor() as cur:
        # Past retention: spread over the 100 days before the 91st; inside it: the last 30 days.
        cur.execute(insert, {"n": purged, "prefix": "OLD-%", "template": template.pk,
                             "start": NOW - timedelta(days=191), "step": timedelta(days=100) / purged})
        cur.execute(insert, {"n": kept, "prefix": "NEW-%", "template": template.pk,
                             "start": NOW - timedelta(days=30), "step": timedelta(days=29) / max(kept, 1)})
        cur.execute("DELETE FROM runs_runrecord WHERE id = %s", [template.pk])
        cur.execute("UPDATE runs_run SET started_at = %s WHERE ticket_key LIKE 'OLD-%%'", [NOW - timedelta(days=200)])
        cur.execute("DROP TABLE IF EXISTS bench_runrecord, bench_run")
        cur.execute("CREATE TABLE bench_run (LIKE runs_run INCLUDING ALL)")
        cur.execute("CREATE TABLE bench_runrecord (LIKE runs_runrecord INCLUDING ALL)")
        cur.execute("INSERT INTO bench_run SELECT * FROM runs_run")
        # Named columns: the search index's generated column is computed by each table itself.
        named = ", ".join(f'"{c}"' for c in ["id", *columns])
        cur.execute(f"INSERT INTO bench_runrecord ({named}) SELECT {named} FROM runs_runrecord")
        # The baseline's database-side cascade, declared here: Django 5.2 cannot declare it.
        cur.execute(
            "ALTER TABLE bench_runrecord ADD CONSTRAINT bench_runrecord_run_cascade "
            "FOREIGN KEY (run_id) REFERENCES bench_run (id) ON DELETE CASCADE"
        )
        # No autovacuum during the timings: a background vacuum of one side would slow the other.
        for table in ("runs_run", "runs_runrecord", "bench_run", "bench_runrecord"):
            cur.execute(f"ALTER TABLE {table} SET (autovacuum_enabled = false)")
        cur.execute("SELECT count(*) FROM runs_runrecord")
        total = cur.fetchone()[0]
    settle()
    return total


def settle() -> None:
    """Fresh statistics and visibility map, and no checkpoint pending, before a timed step."""
    from django.db import connection

    with connection.cursor() as cur:
        for table in ("runs_run", "runs_runrecord", "bench_run", "bench_runrecord"):
            cur.execute(f"VACUUM ANALYZE {table}")
        cur.execute("CHECKPOINT")


def measure(fn):
    tracemalloc.start()
    started = time.perf_counter()
    try:
        result = fn()
    finally:
        seconds = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return result, seconds, peak


def single_delete_with_cascade() -> int:
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cur:
        cur.execute("DELETE FROM bench_run WHERE started_at < %s", [NOW - timedelta(days=91)])
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM bench_runrecord")
        return cur.fetchone()[0]


def batched_service() -> int:
    from runs.retention import purge_run_records

    return purge_run_records(now=NOW).deleted


def run_size(purged: int, rounds: int) -> dict[str, float]:
    """Load, then time both ways on the same rows; ``rounds`` times, alternating which goes first."""
    from django.db import connection

    from runs.models import RunRecord

    ours_s, base_s, ours_peak, base_peak = [], [], 0, 0
    for round_no in range(rounds):
        total = load(purged)
        kept = total - purged

        def ours(kept: int = kept) -> None:
            nonlocal ours_peak
            deleted, seconds, peak = measure(batched_service)
            assert deleted == purged and RunRecord.objects.count() == kept, (deleted, RunRecord.objects.count())
            ours_s.append(seconds)
            ours_peak = max(ours_peak, peak)

        def baseline(kept: int = kept) -> None:
            nonlocal base_peak
            left, seconds, peak = measure(single_delete_with_cascade)
            assert left == kept, left
            base_s.append(seconds)
            base_peak = max(base_peak, peak)

        for step in (ours, baseline) if round_no % 2 == 0 else (baseline, ours):
            step()
            settle()
        with connection.cursor() as cur:
            cur.execute("TRUNCATE runs_runrecord, runs_run, bench_runrecord, bench_run CASCADE")
    ours_med, base_med = statistics.median(ours_s), statistics.median(base_s)
    print(
        f"  {purged:>9,} rows  batched service  {ours_med:6.2f} s  peak {ours_peak / 1024:5.0f} KiB"
        f"  | one DELETE + ON DELETE CASCADE  {base_med:6.2f} s  peak {base_peak / 1024:3.0f} KiB"
        f"  | ratio {ours_med / base_med:4.2f}x   (medians of {rounds}; runs: "
        f"{' '.join(f'{x:.2f}' for x in ours_s)} vs {' '.join(f'{x:.2f}' for x in base_s)})",
        flush=True,
    )
    return {"rows": purged, "ours_s": ours_med, "ours_peak": ours_peak, "base_s": base_med, "base_peak": base_peak}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="records to purge in the main run")
    parser.add_argument("--small", type=int, default=100_000, help="records to purge in the memory check run")
    parser.add_argument("--rounds", type=int, default=3, help="loads per size; medians are reported")
    args = parser.parse_args()

    url = scratch_url()
    use_scratch_database(url)
    from django.db import connection

    if connection.vendor != "postgresql":
        sys.exit(f"bench/purge.py needs PostgreSQL; {url.split('@')[-1]} did not answer")
    from runs.retention import DEFAULT_BATCH_SIZE

    print(f"database: {url.split('@')[-1]} (dropped afterwards); batch size {DEFAULT_BATCH_SIZE:,}; "
          f"{100 // KEPT_FRACTION}% more rows inside retention are kept")
    try:
        small = run_size(args.small, args.rounds)
        big = run_size(args.rows, args.rounds)
    finally:
        drop_database(url)
    ratio = big["ours_s"] / big["base_s"]
    growth = big["ours_peak"] / max(small["ours_peak"], 1)
    print(f"\n  at {args.rows:,} rows: batched purge takes {ratio:.2f}x the single cascading DELETE "
          f"(target: within 1.5x) -> {'MET' if ratio <= 1.5 else 'NOT MET'}")
    print(f"  peak memory {small['ours_peak'] / 1024:.0f} KiB at {args.small:,} rows, {big['ours_peak'] / 1024:.0f} KiB "
          f"at {args.rows:,} ({growth:.2f}x for {args.rows / args.small:.0f}x the rows) -> "
          f"{'flat' if growth < 1.5 else 'GROWS'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
