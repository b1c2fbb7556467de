"""Running `memory-sync` in process against a live console, and reading a folder."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from runs.sync_client.cli import main


def sync(*args: str) -> tuple[int, dict[str, Any]]:
    """Run one `memory-sync` subcommand with --json; returns the exit code and the JSON it printed."""
    out, err = io.StringIO(), io.StringIO()
    code = main([*args, "--json"], stdout=out, stderr=err)
    text = out.getvalue().strip()
    return code, (json.loads(text.splitlines()[-1]) if text else {"stderr": err.getvalue()})


def checkout(folder: Path, url: str, run: dict) -> dict[str, Any]:
    code, body = sync("checkout", str(folder), "--url", url, "--token", run["token"], "--run", run["id"])
    assert code == 0, body
    return body


def once(folder: Path) -> dict[str, Any]:
    code, body = sync("once", str(folder))
    assert code == 0, body
    return body


def refused(folder: Path, rel: str) -> tuple[str, str]:
    """The reason code and message of a `.refused` file."""
    code, _, message = (folder / (rel + ".refused")).read_text(encoding="utf-8").partition("\n")
    return code, message.strip()


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777
