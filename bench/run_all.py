"""Run every benchmark in bench/, one after another, each in its own process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOT_BENCHMARKS = {"__init__.py", "run_all.py", "common.py", "bench_settings.py", "bench_urls.py", "bench_wsgi.py"}


def main() -> int:
    failed = []
    for script in sorted(HERE.glob("*.py")):
        if script.name in NOT_BENCHMARKS or "__main__" not in script.read_text():
            continue
        print(f"\n=== {script.name} ===", flush=True)
        if subprocess.call([sys.executable, str(script)], cwd=HERE.parent) != 0:
            failed.append(script.name)
    if failed:
        print("\nfailed:", ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
