"""`memory-sync`: check a run's stores out into a folder and keep it in step with the console.

    memory-sync checkout DIR --url URL --token RUN_TOKEN --run RUN_ID
    memory-sync once DIR
    memory-sync watch DIR [--interval SECONDS] [--no-wait]
    memory-sync end DIR [--qa-failed] [--needed-ruling] [--worked-past-error] [--attempts N] [--keep]
    memory-sync answer DIR --nothing-to-record WHY [--keep]

`end` removes the run's copy of the stores from DIR once the run has ended (a person may delete or
redact a memory afterwards; a copy left behind would keep it), unless --keep is given, the run was
asked for a lesson (then `answer`, or `end` again once the lesson is saved, removes it), or a file
differs from the console's copy (then nothing is removed, and the output says which).

Every subcommand takes --json to print one JSON object. Exit codes: 0 done (refused changes
included: they are undone in the folder, with the reason beside each, and listed in the output),
1 failed, 2 usage.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any, TextIO

from .cleanup import Removal
from .state import STATE_DIR
from .sync import Folder, PassResult, SyncFailed, UsageError
from .watch import RETRY_SECONDS, HeldFeed, wait_for_work

DEFAULT_INTERVAL = 2.0
TOKEN_ENV = "MEMORY_SYNC_TOKEN"
RUN_TOKEN_PREFIX = "mcr_"  # as the console issues them (stores.services.tokens); no Django here
AGENT_TOKEN_PREFIX = "mca_"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memory-sync",
        description="Keep a run's memory folder in step with the Memory Console.",
    )
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", help="print one JSON object")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("checkout", parents=[common], help="check the run's stores out into DIR")
    p.add_argument("dir", metavar="DIR", help="a folder that does not exist yet, or is empty")
    p.add_argument("--url", required=True, help="the console's root URL, e.g. https://console.example")
    p.add_argument("--token", default=None, help=f"the run token (or set {TOKEN_ENV})")
    p.add_argument("--run", required=True, help="the run id (run_...)")

    p = sub.add_parser("once", parents=[common], help="one pass: push local changes, pull the console's")
    p.add_argument("dir", metavar="DIR")

    p = sub.add_parser("watch", parents=[common],
                       help="passes as either side changes, until SIGTERM or SIGINT (then a last pass)")
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--interval", type=_interval, default=DEFAULT_INTERVAL,
                   help=f"seconds between passes when the console cannot hold a request (default "
                        f"{DEFAULT_INTERVAL:g})")
    p.add_argument("--no-wait", action="store_true",
                   help="a pass every interval; do not hold a change-feed request open between passes")

    p = sub.add_parser("end", parents=[common], help="a last pass, then end the run; prints any lesson prompt")
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--qa-failed", action="store_true", help="the run hit a QA failure")
    p.add_argument("--needed-ruling", action="store_true", help="the run needed a ruling")
    p.add_argument("--worked-past-error", action="store_true", help="the run worked past an error")
    p.add_argument("--attempts", type=_attempts, default=1, help="how many attempts the run took (default 1)")
    p.add_argument("--keep", action="store_true",
                   help="keep the run's copy of the stores in DIR (by default `end` removes it once the run ended)")

    p = sub.add_parser("answer", parents=[common], help="answer the lesson prompt")
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--nothing-to-record", required=True, metavar="WHY",
                   help="there is nothing worth recording, and why")
    p.add_argument("--keep", action="store_true",
                   help="keep the run's copy of the stores in DIR (by default it is removed once answered)")
    return parser


def _interval(raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{raw!r} is not a number of seconds") from None
    if not 0.05 <= value <= 3600:
        raise argparse.ArgumentTypeError("the interval must be from 0.05 to 3600 seconds")
    return value


def _attempts(raw: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{raw!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("attempts must be 1 or more")
    return value


class Output:
    """Human lines, or one JSON object at the end with --json."""

    def __init__(self, as_json: bool, out: TextIO, err: TextIO) -> None:
        self.as_json = as_json
        self.out = out
        self.err = err

    def line(self, text: str) -> None:
        if not self.as_json:
            print(_printable(text), file=self.out, flush=True)

    def result(self, obj: dict[str, Any]) -> None:
        if self.as_json:
            text = json.dumps(obj, ensure_ascii=False)
            if _printable(text) is not text:
                # A file name that is not UTF-8 (a lone surrogate): JSON's own escapes carry it exactly.
                text = json.dumps(obj)
            print(text, file=self.out, flush=True)

    def error(self, text: str) -> None:
        print(f"memory-sync: {_printable(text)}", file=self.err, flush=True)


def _printable(text: str) -> str:
    """The text itself, or, when it holds a lone surrogate (a file name that is not UTF-8), escaped."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def _describe(result: PassResult) -> list[str]:
    lines = [f"pushed {result.pushed}, pulled {result.pulled}, deleted {result.deleted}, "
             f"refused {len(result.refused)}" + ("" if result.complete else ", some changes wait for the next pass")]
    lines += [f"  refused {r['path']}: {r['reason_code']} (see {r['path']}.refused)" for r in result.refused]
    lines += [f"  not saved yet {f['path'] or '(change feed)'}: {f['error']}" for f in result.failed]
    lines += [f"  ignored {i['path']}: {i['why']}; never synced" for i in result.ignored]
    return lines


def _pass_json(result: PassResult) -> dict[str, Any]:
    return result.as_json()


def _describe_removal(folder: Folder, removal: Removal) -> list[str]:
    """What ending the run removed from the folder, or why it kept the folder."""
    if removal.kept:
        return [f"kept {folder.root}: {removal.kept}."]
    files = f"{removal.files} file{'' if removal.files == 1 else 's'} of the stores"
    lines = [f"removed the run's copy of the stores from {folder.root}: {', '.join(removal.removed) or 'nothing'} "
             f"({files})."]
    if removal.left:
        shown = ", ".join(removal.left[:10]) + (", ..." if len(removal.left) > 10 else "")
        lines.append(f"  left {len(removal.left)} entries where they are (the folder never syncs them, or they "
                     f"changed after the last pass): {shown}")
    lines.append(f"  {folder.root / STATE_DIR} keeps only that the run ended (no token, no texts); "
                 f"remove {folder.root} when done with it.")
    return lines


def cmd_checkout(args: argparse.Namespace, out: Output) -> int:
    token = args.token or os.environ.get(TOKEN_ENV)
    if not token:
        raise UsageError(f"give the run token with --token or in {TOKEN_ENV}")
    if not token.startswith(RUN_TOKEN_PREFIX):
        # Told apart by prefix: the agent's own token (mca_) starts runs, a run's token (mcr_) syncs.
        kind = "the agent's own token (mca_...)" if token.startswith(AGENT_TOKEN_PREFIX) else "not a run token"
        raise UsageError(
            f"the token given is {kind}; checkout needs the run token ({RUN_TOKEN_PREFIX}...) that "
            "POST /api/v1/runs answered with (its `token`), so the folder writes as the run"
        )
    _, summary = Folder.checkout(args.dir, url=args.url, token=token, run_id=args.run)
    out.line(f"checked out {summary['files']} files of run {args.run} into {summary['dir']}")
    for store in summary["stores"]:
        out.line(f"  {store['folder']}/ ({store['access']}): {store['files']} files")
    out.result(summary)
    return 0


def cmd_once(args: argparse.Namespace, out: Output) -> int:
    folder = Folder.open(args.dir)
    folder.require_copy()
    with folder.locked():
        result = folder.sync_pass()
    for line in _describe(result):
        out.line(line)
    out.result(_pass_json(result))
    return 0 if result.complete else 1


class StopFlag:
    """Set by SIGTERM or SIGINT, or by a caller's event (tests run `watch` in a thread)."""

    def __init__(self, event: threading.Event | None = None) -> None:
        self.signalled = False
        self.event = event

    def __call__(self, signum: int, frame: Any) -> None:
        # Only a plain attribute: a handler must not take locks the interrupted code may hold.
        self.signalled = True

    @property
    def set(self) -> bool:
        return self.signalled or (self.event is not None and self.event.is_set())

    def sleep(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not self.set:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(0.05, left))


def watch(folder: Folder, interval: float, stop: StopFlag, out: Output, *,
          hold: bool = True) -> tuple[int, PassResult, int]:
    """Passes until stopped, then a last pass. Returns (code, totals, passes).

    Between passes the console holds a change-feed request (``hold``), and the folder is looked
    at for local changes, so either side's change starts a pass at once; a console that does not
    hold requests, or a pass that left a change unsaved, gets the next pass ``interval`` seconds
    later. The code is 1 when the last pass could not save every change (they stay in the folder).
    """
    totals = PassResult()
    passes = 0
    feed = HeldFeed(folder.state["url"], folder.state["token"], folder.run_id) if hold else None
    try:
        while True:
            last = stop.set
            started = time.monotonic()
            with folder.locked():
                result = folder.sync_pass(feed.take() if feed is not None else None)
            passes += 1
            totals.add(result)
            if result.busy:
                for line in _describe(result):
                    out.line(line)
            if last:
                # Like `once`: a last pass that left a change unsaved (the console away) is a failure.
                return (0 if result.complete else 1), totals, passes
            if feed is not None and feed.holds is not False and result.complete:
                feed.ask(folder.state["cursor"])
                wait_for_work(lambda: stop.set, feed, folder.changed_since_pass)
            elif feed is not None and feed.holds is not False:
                # A change left unsaved (the console away for a moment): try again soon, not an interval away.
                stop.sleep(min(interval, RETRY_SECONDS) - (time.monotonic() - started))
            else:
                stop.sleep(interval - (time.monotonic() - started))
    finally:
        if feed is not None:
            feed.stop()


def cmd_watch(args: argparse.Namespace, out: Output, stop_event: threading.Event | None = None) -> int:
    folder = Folder.open(args.dir)
    folder.require_copy()
    stop = StopFlag(stop_event)
    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, signal.SIGINT):
            previous[signum] = signal.signal(signum, stop)
    how = (f"every {args.interval:g} s" if args.no_wait else
           f"as changes come (every {args.interval:g} s if the console cannot hold a request)")
    out.line(f"watching {folder.root} {how} (SIGTERM or SIGINT ends it after a last pass)")
    try:
        code, totals, passes = watch(folder, args.interval, stop, out, hold=not args.no_wait)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    out.result({"passes": passes, **_pass_json(totals)})
    return code


def cmd_end(args: argparse.Namespace, out: Output) -> int:
    folder = Folder.open(args.dir)
    folder.require_copy()
    signals = {
        "qa_failed": args.qa_failed,
        "needed_ruling": args.needed_ruling,
        "worked_past_error": args.worked_past_error,
        "attempts": args.attempts,
    }
    with folder.locked():
        ended = folder.end(signals, keep=args.keep)
    for line in _describe(ended["pass"]):
        out.line(line)
    prompt = ended["lesson_prompt"]
    out.line(f"run {folder.run_id} ended." + ("" if prompt else " No lesson prompt."))
    for line in _describe_removal(folder, ended["removal"]):
        out.line(line)
    if prompt:
        out.line("")
        out.line(prompt)
    out.result({"lesson_prompt": prompt, **ended["removal"].as_json()})
    return 0


def cmd_answer(args: argparse.Namespace, out: Output) -> int:
    folder = Folder.open(args.dir)
    why = args.nothing_to_record.strip()
    if not why:
        raise UsageError("say why there is nothing to record: --nothing-to-record WHY")
    if folder.no_prompt_issued():
        # A harness runs `end` then `answer` as one script: with no prompt there is nothing to do,
        # which is success, not a failure to report.
        out.line(f"run {folder.run_id} ended with no lesson prompt (it wrote memory): nothing to answer, nothing sent.")
        out.result({"lesson_answer": None, "no_lesson_prompt": True})
        return 0
    with folder.locked():
        answered = folder.answer(why, keep=args.keep)
    out.line(f"answered the lesson prompt of run {folder.run_id}: nothing to record.")
    removal = answered.pop("removal")
    for line in _describe_removal(folder, removal):
        out.line(line)
    out.result({**answered, **removal.as_json()})
    return 0


COMMANDS = {"checkout": cmd_checkout, "once": cmd_once, "watch": cmd_watch, "end": cmd_end, "answer": cmd_answer}


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None, stderr: TextIO | None = None,
         stop_event: threading.Event | None = None) -> int:
    """Run one subcommand; returns the exit code (0 done, 1 failed, 2 usage)."""
    out_stream = stdout or sys.stdout
    err_stream = stderr or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed the usage
        return 0 if exc.code == 0 else 2
    out = Output(args.json, out_stream, err_stream)
    try:
        if args.command == "watch":
            return cmd_watch(args, out, stop_event)
        return COMMANDS[args.command](args, out)
    except UsageError as exc:
        out.error(str(exc))
        return 2
    except SyncFailed as exc:
        if exc.result is not None:
            for line in _describe(exc.result):
                out.line(line)
        out.error(str(exc))
        if args.json:
            out.result({"error": str(exc), **(_pass_json(exc.result) if exc.result is not None else {})})
        return 1
    except OSError as exc:
        out.error(f"the folder could not be used: {exc}")
        if args.json:
            out.result({"error": str(exc)})
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
