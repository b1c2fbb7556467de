"""Settings for the test suite: the environment's, with test-only defaults filled in."""

import os

os.environ.setdefault("SECRET_KEY", "test-suite-only-not-a-secret")
os.environ.setdefault("ALLOWED_HOSTS", "*")
# The suite's own calls are never throttled by accident (one test may write hundreds of times with
# one token); tests/stores/test_api_throttle.py sets low budgets where it tests the throttle.
os.environ.setdefault("API_WRITES_PER_MINUTE", "1000000")
os.environ.setdefault("API_READS_PER_MINUTE", "1000000")

from .settings import *  # noqa: E402,F401,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast logins in tests
AXES_ENABLED = os.environ.get("AXES_ENABLED_IN_TESTS", "1") == "1"
