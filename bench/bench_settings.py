"""Benchmark settings: the console's own, plus a bare endpoint to compare against."""

import os

os.environ.setdefault("SECRET_KEY", "benchmark-only-not-a-secret")
os.environ.setdefault("ALLOWED_HOSTS", "*")
# A benchmark sends thousands of calls a minute with one token: budgets high, the throttle still runs.
os.environ.setdefault("API_WRITES_PER_MINUTE", "100000000")
os.environ.setdefault("API_READS_PER_MINUTE", "100000000")

from memory_console.settings import *  # noqa: E402,F401,F403

ROOT_URLCONF = "bench.bench_urls"
MEMORY_STORE_MAX_MEMORIES = 10_000_000
AXES_ENABLED = False
LOGGING = {"version": 1, "disable_existing_loggers": False, "root": {"level": "WARNING"}}
