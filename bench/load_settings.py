"""Settings for the load benchmark: the console's own, with the API's per-token budgets at their defaults.

Unlike ``bench_settings`` (which raises the budgets so a single-token benchmark never meets them),
the load test runs under the rates a deployment gets when it sets nothing.
"""

import os

os.environ.setdefault("SECRET_KEY", "benchmark-only-not-a-secret")
os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1")
for _budget in ("API_WRITES_PER_MINUTE", "API_READS_PER_MINUTE"):
    os.environ.pop(_budget, None)  # the settings' defaults, whatever they are

from memory_console.settings import *  # noqa: E402,F401,F403

AXES_ENABLED = False
LOGGING = {"version": 1, "disable_existing_loggers": False, "root": {"level": "WARNING"}}
