"""Refusals recorded before the checks gave a record-safe message kept the writer's answer, which
quotes the refused passage (an instruction's sentence, a client's name). Those messages are
rewritten here from what can be read back without the quote: the line, and the kind of finding
when it is one of the kinds the checks name (a closed list, so nothing of the passage can pass for
one). Only the two codes whose messages quoted the text are touched; the others quote nothing.
Not reversible: the quotes are gone, which is the point.
"""

import re

from django.db import migrations

INSTRUCTIONS = "instructions_detected"
CLIENT_DETAIL = "client_detail"

# The kinds the instructions check has named (its signals' and its detector's), and the kinds of a
# client term, as the messages wrote them.
INSTRUCTION_KINDS = (
    "overrides the agent's instructions",
    "order to the agent reading the note",
    "addresses the agent reading the note",
    "role or system marker",
    "tells the agent to hide things from people or cover its tracks",
    "tells the agent to send data out",
    "claims the authority of a standing decision or the governance template",
    "claims that QA, review, approval or the checks are off or not needed",
    "tells the agent to skip QA, tests, hooks, reviews, approvals or the escalation contact",
    "grants the agent permissions",
    "reads as orders to the agent reading the note",
    "a file name that gives orders",
    "instructions in a hidden comment",
    "hidden text",
    "invisible characters",
    "encoded instructions",
)
TERM_KINDS = ("client name", "client alias", "repository", "dataset", "distinctive table", "table", "project key")

_LINE = re.compile(r"\ALine (\d+)\b")
_MORE = re.compile(r"\((\d+) more line\(s\) too\)")
_SHARED = re.compile(r"\AAn? (agent|practice|toolset|shared) store (?:is shared across clients|holds no client detail)")
_TERM_KIND = re.compile(r"\bnames an? (" + "|".join(re.escape(k) for k in TERM_KINDS) + r") \('")
_TERM_WHERE = re.compile(r"'\)(?: on line (\d+)| (in the path))?[ .]")


def _instruction_kind(message: str) -> str:
    """The last kind the message names after "reads as instructions to an agent (", or ""."""
    found = ""
    for kind in INSTRUCTION_KINDS:
        at = message.rfind(f"reads as instructions to an agent ({kind}")
        if at >= 0 and (not found or at > message.rfind(f"reads as instructions to an agent ({found}")):
            found = kind
    return found


def quotes_the_text(code: str, message: str) -> bool:
    """True for a message that quotes the refused text: a passage, the words that weighed, a term."""
    if code == INSTRUCTIONS:
        return "\u201c" in message or "; words: " in message
    return code == CLIENT_DETAIL and " ('" in message


def record_safe(code: str, message: str) -> str | None:
    """The message a refusal of ``code`` keeps now, read from an old ``message``; None to leave it."""
    if not quotes_the_text(code, message):
        return None
    if code == INSTRUCTIONS:
        kind = _instruction_kind(message)
        kind_part = f" ({kind})" if kind else ""
        if message.startswith("The path reads as instructions"):
            return f"The path reads as instructions to an agent{kind_part}."
        line = _LINE.match(message)
        more = _MORE.search(message)
        where = f"Line {line.group(1)}" if line else "The text"
        more_part = f" ({more.group(1)} more line(s) too)" if more and line else ""
        return f"{where} reads as instructions to an agent{kind_part}{more_part}."
    if code == CLIENT_DETAIL:
        term_kind = _TERM_KIND.search(message)
        named = f"a {term_kind.group(1)}" if term_kind else "client detail"
        where_match = _TERM_WHERE.search(message, term_kind.end() if term_kind else 0)
        where = ""
        if where_match and where_match.group(1):
            where = f" on line {where_match.group(1)}"
        elif where_match and where_match.group(2):
            where = " in the path"
        shared = _SHARED.match(message)
        if shared:
            store = shared.group(1)
            return (f"A{'n' if store[0] in 'aeiou' else ''} {store} store is shared across clients and holds no "
                    f"client detail, and this named {named}{where}.")
        return f"This named {named}{where} that belongs to another client, not to this project's client."
    return None


def rewrite(apps, schema_editor):
    Refusal = apps.get_model("stores", "Refusal")
    for pk, code, message in Refusal.objects.filter(code__in=(INSTRUCTIONS, CLIENT_DETAIL)).values_list(
        "pk", "code", "message"
    ).iterator():
        new = record_safe(code, message)
        if new is not None and new != message:
            Refusal.objects.filter(pk=pk).update(message=new)


class Migration(migrations.Migration):

    dependencies = [
        ("stores", "0008_scrubbed_fields"),
    ]

    operations = [
        migrations.RunPython(rewrite, migrations.RunPython.noop),
    ]
