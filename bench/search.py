"""Full-text search on 10,000 memories: the search service against a plain ``icontains`` scan of
the same rows, in the same run, on PostgreSQL and on SQLite.

Each database gets a scratch database, 10,000 memories in 10 stores (Markdown notes of 40 to 120
words drawn from a fixed vocabulary, so the run is the same every time), indexed by the search
service's own rebuild. Then the same queries (common words, rare words, two words, a phrase, a
prefix) run through ``stores.services.search.search`` and through
``Memory.objects.filter(content__icontains=...)`` (one icontains per word), best 50 each, and the
mean, p50 and p99 of each are printed. The target: search p99 under 100 ms on both databases.

    .venv/bin/python bench/search.py [--memories 10000] [--queries 300] [--only postgresql|sqlite]

PostgreSQL is the one DATABASE_URL (or BENCH_DATABASE_URL) names, default
postgres://postgres@127.0.0.1:5432/mc_bench_search; it is skipped, saying so, when it does not answer.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ROOT = Path(__file__).resolve().parent.parent
STORES = 10
LIMIT = 50
TARGET_P99_MS = 100.0
DOMAIN = (
    "dbt model staging mart incremental merge partition bigquery snapshot refund order customer loyalty "
    "shopify looker dashboard lookback predicate schema test unique source freshness seed macro ref "
    "warehouse table column join grain surrogate key deduplicate backfill schedule airflow fivetran "
    "sync cursor timestamp timezone late arriving duplicate guest checkout tier currency exchange rate"
).split()


def vocabulary(rng: random.Random, size: int = 3000) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = set(DOMAIN)
    while len(words) < size:
        words.add("".join(rng.choice(letters) for _ in range(rng.randint(4, 10))))
    return sorted(words)


def note(rng: random.Random, words: list[str]) -> str:
    # Zipf-like: a few words are common, most are rare, as in real notes.
    picks = [words[min(len(words) - 1, int(rng.paretovariate(1.1)) - 1)] if rng.random() < 0.5
             else rng.choice(words) for _ in range(rng.randint(40, 120))]
    title = " ".join(picks[:5]).capitalize()
    return f"# {title}\n\n" + " ".join(picks[5:]) + ".\n\nEvidence: DEMO-" + str(rng.randint(1, 999)) + ".\n"


def queries(rng: random.Random, words: list[str], n: int) -> list[str]:
    out = []
    for i in range(n):
        kind = i % 5
        if kind == 0:
            out.append(rng.choice(DOMAIN))
        elif kind == 1:
            out.append(rng.choice(words))
        elif kind == 2:
            out.append(f"{rng.choice(DOMAIN)} {rng.choice(DOMAIN)}")
        elif kind == 3:
            out.append(f'"{rng.choice(words[:20])} {rng.choice(words[:20])}"')
        else:
            out.append(rng.choice(DOMAIN)[:4] + "*")
    return out


def child(memories: int, n_queries: int) -> dict:
    """Load, index and measure on the database this process was started with."""
    from bench.common import use_scratch_database

    url = use_scratch_database(os.environ["BENCH_URL"])
    from django.db import connection
    from django.utils import timezone

    from stores.models import Memory, Store, StoreKind
    from stores.services.content import first_line_of, sha256_hex
    from stores.services.search import parse_query, search, search_index_rebuild_memories

    rng = random.Random(11)
    words = vocabulary(rng)
    stores = [Store.objects.create(kind=StoreKind.SHARED, name=f"Bench {i}") for i in range(STORES)]
    now = timezone.now()
    batch = []
    for i in range(memories):
        text = note(rng, words)
        batch.append(Memory(store=stores[i % STORES], path=f"/notes/{i:05d}.md", content=text,
                            content_sha256=sha256_hex(text), size_bytes=len(text), first_line=first_line_of(text),
                            created_at=now, updated_at=now))
    Memory.objects.bulk_create(batch, batch_size=1000)
    started = time.perf_counter()
    indexed = search_index_rebuild_memories()
    index_seconds = time.perf_counter() - started
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE stores_searchentry")
    store_ids = [s.pk for s in stores]
    qs = queries(random.Random(5), words, n_queries)

    def run_search(q: str) -> int:
        return len(search(q, store_ids=store_ids, limit=LIMIT).hits)

    def run_icontains(q: str) -> int:
        rows = Memory.objects.filter(store_id__in=store_ids, deleted_at__isnull=True)
        for group in parse_query(q).groups[:1]:
            for phrase, _prefix in group:
                rows = rows.filter(content__icontains=phrase)
        return len(list(rows.only("id", "path", "content")[:LIMIT]))

    results = {}
    for label, fn in (("search service", run_search), ("icontains scan", run_icontains)):
        for q in qs[:10]:
            fn(q)  # warm caches and the connection
        samples, found = [], 0
        for q in qs:
            t0 = time.perf_counter()
            found += fn(q)
            samples.append(time.perf_counter() - t0)
        ordered = sorted(samples)
        results[label] = {
            "mean_ms": 1000 * sum(samples) / len(samples),
            "p50_ms": 1000 * ordered[len(ordered) // 2],
            "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
            "rows_returned": found,
        }
    return {"database": connection.vendor, "url": url.split("@")[-1], "memories": memories, "indexed": indexed,
            "index_seconds": index_seconds, "queries": len(qs), "results": results}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--only", choices=["postgresql", "sqlite"])
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.memories, args.queries)))
        return 0
    pg = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("DATABASE_URL") or ""
    pg = pg.rsplit("/", 1)[0] + "/mc_bench_search" if pg.startswith("postgres") else (
        "postgres://postgres@127.0.0.1:5432/mc_bench_search")
    targets = {"postgresql": pg, "sqlite": f"sqlite:///{ROOT / 'bench-search.sqlite3'}"}
    ok = True
    print(f"search on {args.memories:,} memories in {STORES} stores, {args.queries} queries, best {LIMIT} each")
    for name, url in targets.items():
        if args.only and args.only != name:
            continue
        env = dict(os.environ, BENCH_URL=url, DJANGO_SETTINGS_MODULE="bench.bench_settings")
        env.pop("DATABASE_URL", None)
        proc = subprocess.run([sys.executable, __file__, "--child", "--memories", str(args.memories),
                               "--queries", str(args.queries)], env=env, cwd=ROOT, capture_output=True, text=True)
        if proc.returncode != 0:
            print(proc.stderr[-2000:])
            ok = False
            continue
        report = json.loads(proc.stdout.strip().splitlines()[-1])
        if report["database"] != name:
            print(f"\n{name}: not answering at {url.split('@')[-1]}; skipped")
            continue
        print(f"\n{name} ({report['url']}): indexed {report['indexed']:,} in {report['index_seconds']:.1f} s")
        for label, r in report["results"].items():
            print(f"  {label:<16} mean {r['mean_ms']:7.2f} ms   p50 {r['p50_ms']:7.2f} ms   "
                  f"p99 {r['p99_ms']:7.2f} ms   rows {r['rows_returned']:,}")
        service, scan = report["results"]["search service"], report["results"]["icontains scan"]
        verdict = "under" if service["p99_ms"] < TARGET_P99_MS else "OVER"
        ok &= service["p99_ms"] < TARGET_P99_MS
        print(f"  search p99 {verdict} the {TARGET_P99_MS:.0f} ms target; icontains p99 / search p99 = "
              f"{scan['p99_ms'] / max(service['p99_ms'], 1e-6):.1f}x")
    Path(targets["sqlite"].removeprefix("sqlite:///")).unlink(missing_ok=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
