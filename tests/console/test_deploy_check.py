"""With production settings from the environment, `manage.py check --deploy` reports nothing."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_check_deploy_reports_no_issues_with_production_settings(tmp_path):
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "SECURE_", "SESSION_", "CSRF_", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS"))
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "memory_console.settings",
            "DEBUG": "0",
            # Made at run time, so no key lives in the repository.
            "SECRET_KEY": secrets.token_urlsafe(64),
            "SECURE_SSL_REDIRECT": "1",
            "SESSION_COOKIE_SECURE": "1",
            "CSRF_COOKIE_SECURE": "1",
            "SECURE_HSTS_SECONDS": "31536000",
            "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
            "SECURE_HSTS_PRELOAD": "1",
            "ALLOWED_HOSTS": "console.example.com",
        }
    )
    env.setdefault("DATABASE_URL", f"sqlite:///{tmp_path / 'deploy-check.sqlite3'}")
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues" in output, output
