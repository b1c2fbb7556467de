"""A review of a store of 2,000 notes, without a model (target: under 10 s), and its memory.

Builds project stores of 500, 1,000 and 2,000 notes (each with some near-duplicates, notes naming
tables the registry has since removed, a standing decision restated, and set-aside texts), then
for each: times ``start_review`` and its peak Python memory (tracemalloc, in a second review so
the tracing does not slow the timed one). Two baselines in the same run: reading the store alone
(every note's text, as the review streams it), and the naive way to find near-duplicates, every
pair's exact shingle similarity, timed on 500 notes and extrapolated to 2,000 (pairs grow as n²).

    .venv/bin/python bench/review.py [--sizes 500,1000,2000]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import use_scratch_database  # noqa: E402

TARGET_SECONDS = 10.0
FOLDERS = ("conventions", "data", "rationale", "solutions", "issues")
DECISION = ("Revenue is always reported in the client's reporting currency, converted at the daily rate of "
            "the transaction date, never at month-end rates.")


def vocabulary() -> list[str]:
    from wordfreq import top_n_list

    return [w for w in top_n_list("en", 4000) if w.isalpha() and len(w) > 2]


def note_text(rng: random.Random, words: list[str], i: int, extra: str = "") -> str:
    lines = [f"# Lesson {i}: {' '.join(rng.sample(words, 3))}", ""]
    for _ in range(rng.randint(3, 6)):
        lines.append(" ".join(rng.choice(words) for _ in range(rng.randint(12, 24))) + ".")
    if extra:
        lines.append(extra)
    return "\n".join(lines) + "\n"


def build_store(n: int, key: str, words: list[str]):
    """A project store of ``n`` notes: 3% near-duplicates, 1% naming a removed table, 1% restating
    the standing decision, and 10 set-aside texts that merge cleanly. Rows written in bulk."""
    from django.db import transaction
    from django.utils import timezone

    from stores.ids import new_memory_id, new_version_id
    from stores.models import Client, JiraProject, Memory, SetAside, StandingDecision, Store
    from stores.services.content import first_line_of
    from stores.services.stores import store_ensure_for_project

    rng = random.Random(n)
    client = Client.objects.create(name=f"Bench {key}", tables=["raw.orders", "raw.customers", "raw.events"])
    project = JiraProject.objects.create(key=key, client=client)
    store = store_ensure_for_project(project)
    StandingDecision.objects.create(project=project, title="Reporting currency", text=DECISION)
    now = timezone.now()
    texts: list[str] = []
    for i in range(n):
        if i % 33 == 1 and texts:  # a near-duplicate of an earlier note: one line more
            text = texts[-1] + "Seen again on " + f"{key}-{i}.\n"
        elif i % 100 == 7:
            text = note_text(rng, words, i, "The nightly export lands in raw.orders at 02:00 UTC.")
        elif i % 100 == 9:
            text = f"# Currency {i}\n\n{DECISION[:-len(' never at month-end rates.')]}.\n"
        else:
            text = note_text(rng, words, i)
        texts.append(text)
    rows = [
        Memory(public_id=new_memory_id(), store=store, path=f"/{FOLDERS[i % 5]}/note-{i:05d}.md", content=t,
               content_sha256=hashlib.sha256(t.encode()).hexdigest(), size_bytes=len(t.encode()),
               first_line=first_line_of(t), head_version_id=new_version_id(), change_seq=i + 1,
               created_at=now, updated_at=now)
        for i, t in enumerate(texts)
    ]
    with transaction.atomic():
        Memory.objects.bulk_create(rows, batch_size=1000)
        Store.objects.filter(pk=store.pk).update(change_seq=n)
        for memory in Memory.objects.filter(store=store).order_by("pk")[:: max(1, n // 10)][:10]:
            incoming = "Checked again this week.\n" + memory.content
            SetAside.objects.create(
                store=store, memory=memory, path=memory.path, text=incoming,
                text_sha256=hashlib.sha256(incoming.encode()).hexdigest(), base_sha256="",
                lost_to_version_id=memory.head_version_id, writer_key="agent:bench",
                created_by={"type": "api_actor", "name": "bench-agent"},
            )
    client.tables = ["raw.customers", "raw.events"]  # raw.orders leaves the registry
    client.save()
    return store


def read_alone(store) -> float:
    from stores.models import Memory

    t0 = time.perf_counter()
    total = 0
    rows = Memory.objects.filter(store=store, deleted_at__isnull=True).order_by("pk").values_list("content", flat=True)
    for content in rows.iterator(chunk_size=500):
        total += len(content)
    return time.perf_counter() - t0


def naive_pairs(store, n: int) -> float:
    """Every pair's exact shingle Jaccard on the first ``n`` notes: the baseline MinHash/LSH avoids."""
    from reviews.services.similarity import jaccard, shingles
    from stores.models import Memory

    texts = list(Memory.objects.filter(store=store).order_by("pk").values_list("content", flat=True)[:n])
    t0 = time.perf_counter()
    sets = [shingles(t) for t in texts]
    close = 0
    for i in range(len(sets)):
        for j in range(i + 1, len(sets)):
            if jaccard(sets[i], sets[j]) >= 0.6:
                close += 1
    return time.perf_counter() - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="500,1000,2000")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    db = use_scratch_database()
    print(f"database: {db.split('@')[-1]}")
    from reviews.models import Review
    from reviews.services.review import start_review

    words = vocabulary()
    # The detectors load their data once a process (the instructions classifier's weights): paid
    # here, before anything is timed, as a running console has paid it long before.
    from stores.console_checks.pipeline import decide_where_and_what
    from stores.console_checks.request import ChangeRequest, Writer
    from stores.models import Store

    t0 = time.perf_counter()
    decide_where_and_what(ChangeRequest(writer=Writer(door="review"), store=Store.objects.get(kind="practice"),
                              operation="update", path="/warm.md", old_path="/warm.md", content="Warm up.\n"))
    print(f"  detectors loaded in {time.perf_counter() - t0:.2f} s (once a process; not in the figures below)")
    print(f"  load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    results = []
    for n in sizes:
        store = build_store(n, f"REV{n}", words)
        read = read_alone(store)
        t0 = time.perf_counter()
        review = start_review(store=store)
        took = time.perf_counter() - t0
        kinds: dict[str, int] = {}
        for kind in review.proposals.values_list("kind", flat=True):
            kinds[kind] = kinds.get(kind, 0) + 1
        tracemalloc.start()
        start_review(store=store)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        results.append((n, took, read, peak, kinds))
        print(f"  {n:>5} notes: review {took:6.2f} s (read alone {read:5.2f} s, ratio {took / read:5.1f}x)   "
              f"peak {peak / 2**20:6.1f} MiB ({peak / n / 1024:5.1f} KiB a note)   proposals {kinds}, "
              f"{review.refused_count} refused by the checks", flush=True)
    assert Review.objects.filter(status="finished").count() == 2 * len(sizes)

    small = min(500, sizes[0])
    naive = naive_pairs(store, small)
    biggest = max(sizes)
    extrapolated = naive * (biggest * (biggest - 1)) / (small * (small - 1))
    review_big = next(r[1] for r in results if r[0] == biggest)
    print(f"  baseline: all-pairs exact similarity on {small} notes {naive:.2f} s, "
          f"extrapolated to {biggest}: {extrapolated:.1f} s ({extrapolated / review_big:.1f}x the whole review)")
    peaks = {n: peak for n, _, _, peak, _ in results}
    if len(peaks) > 1:
        lo, hi = min(peaks), max(peaks)
        print(f"  memory: {peaks[hi] / peaks[lo]:.2f}x the peak for {hi / lo:.0f}x the notes")
    if review_big >= TARGET_SECONDS:
        print(f"FAIL: the review of {biggest} notes took {review_big:.1f} s (target < {TARGET_SECONDS:.0f} s)")
        return 1
    print(f"ok: a review of {biggest} notes in {review_big:.1f} s (target < {TARGET_SECONDS:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
