"""A `memory-sync` pass that finds nothing changed, for stores of 10, 1,000 and 10,000 memories.

The pass must cost one small request and the same server time whatever the store size: it
stats the files (no reads) and asks the run's change feed once. The baseline, measured in the
same run, is the no-change pass of a listing-based client (Anthropic's sync worker lists every
memory, 100 a page, on every sync). Prints the figures and the 10,000 / 10 ratios.

    .venv/bin/python bench/sync_pass.py [--passes 30] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import gunicorn, show, use_scratch_database  # noqa: E402
from bench.runs_common import make_world, start_run, wait_past_racy_window  # noqa: E402

SIZES = {"SMALL": 10, "MID": 1_000, "LARGE": 10_000}


class CountingApi:
    """The client's Api, counting requests and timing each one (the server's share of a pass)."""

    def __init__(self, api) -> None:
        self.api = api
        self.requests = 0
        self.seconds = 0.0

    def __getattr__(self, name):
        return getattr(self.api, name)

    def request(self, *args, **kwargs):
        self.requests += 1
        started = time.perf_counter()
        try:
            return self.api.request(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - started

    def get(self, path, **query):
        return self.request("GET", path, query=query or None)

    def post(self, path, body, **query):
        return self.request("POST", path, body=body, query=query or None)

    def delete(self, path, **query):
        return self.request("DELETE", path, query=query or None)


def listing_pass(session, url: str, token: str, store_id: str) -> int:
    """A listing-based client's no-change pass: every page of the basic listing. Returns requests."""
    pages, page = 0, None
    while True:
        params = {"view": "basic", "limit": 100, **({"page": page} if page else {})}
        body = session.get(f"{url}/api/v1/memory_stores/{store_id}/memories", params=params,
                           headers={"Authorization": f"Bearer {token}"}, timeout=60).json()
        pages += 1
        page = body["next_page"]
        if not page:
            return pages


def run(passes: int, workdir: str | None) -> None:
    db = use_scratch_database()
    print(f"database: {db.split('@')[-1]}")
    _, agent_token, _ = make_world(SIZES)
    import requests

    from runs.sync_client.sync import Folder

    work = Path(tempfile.mkdtemp(prefix="mc-bench-pass-", dir=workdir))
    figures: dict[str, dict[str, dict[str, float]]] = {}
    try:
        with gunicorn(workers=2) as url:
            session = requests.Session()
            folders = {}
            for key in SIZES:
                run_ = start_run(session, url, agent_token, f"{key}-1")
                folder, _ = Folder.checkout(work / key, url=url, token=run_["token"], run_id=run_["id"])
                folder.api = CountingApi(folder.api)
                folders[key] = (folder, run_)
            wait_past_racy_window()
            for folder, _ in folders.values():
                for _ in range(3):  # warm: settle every file's times, warm both workers
                    folder.sync_pass()
            samples = {key: {"server": [], "whole": [], "listing": [], "requests": []} for key in SIZES}
            pages = {}
            for _ in range(passes):  # the sizes take turns, so load on the machine hits them alike
                for key in SIZES:
                    folder, run_ = folders[key]
                    folder.api.requests, folder.api.seconds = 0, 0.0
                    started = time.perf_counter()
                    result = folder.sync_pass()
                    samples[key]["whole"].append(time.perf_counter() - started)
                    samples[key]["server"].append(folder.api.seconds)
                    samples[key]["requests"].append(folder.api.requests)
                    assert not result.busy and result.complete, result
                    started = time.perf_counter()
                    pages[key] = listing_pass(session, url, run_["token"], run_["stores"][0]["memory_store_id"])
                    samples[key]["listing"].append(time.perf_counter() - started)
            for key, n in SIZES.items():
                folder, _ = folders[key]
                got = samples[key]
                assert set(got["requests"]) == {1}, got["requests"]
                print(f"\nNo-change pass, project store of {n:,} memories ({len(folder.files):,} files in the "
                      f"folder), {passes} passes; requests per pass: 1 (the change feed)")
                figures[key] = {
                    "server": show("the change-feed request (server + loopback)", got["server"]),
                    "whole": show("the whole pass (stat scan + request)", got["whole"]),
                    "listing": show(f"baseline: listing pass ({pages[key]} requests)", got["listing"]),
                }
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print("\nRatios, 10,000 memories against 10 (p50; flat is 1.0)")
    for part, label in (("server", "change-feed request"), ("whole", "whole pass"), ("listing", "baseline listing")):
        ratio = figures["LARGE"][part]["p50_ms"] / figures["SMALL"][part]["p50_ms"]
        print(f"  {label:<22} {ratio:7.2f}x")
    ours, theirs = figures["LARGE"]["whole"]["p50_ms"], figures["LARGE"]["listing"]["p50_ms"]
    print(f"  at 10,000 memories, a listing pass costs {theirs / ours:.1f}x a memory-sync pass")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=30)
    parser.add_argument("--workdir", default=None, help="where to check out (default: the system temp folder)")
    args = parser.parse_args()
    run(args.passes, args.workdir)
