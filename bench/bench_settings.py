"""Benchmark settings: the console's own, plus a bare endpoint to compare against."""

import os

os.environ.setdefault("SECRET_KEY", "benchmark-only-not-a-secret")
os.environ.setdefault("ALLOWED_HOSTS", "*")

from memory_console.settings import *  # noqa: E402,F401,F403

ROOT_URLCONF = "bench.bench_urls"
MEMORY_STORE_MAX_MEMORIES = 10_000_000
AXES_ENABLED = False
LOGGING = {"version": 1, "disable_existing_loggers": False, "root": {"level": "WARNING"}}
