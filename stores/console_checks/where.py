"""Where the change may go: clean paths, and a project store's fixed folders."""

from __future__ import annotations

from stores.models import HostedAgent, StoreKind
from stores.operations import Operation
from stores.paths import AGENTS_FOLDER, PROJECT_FOLDERS, path_problem, segments_of

from .reasons import Reason
from .request import ChangeRequest, Decision, refuse

FOLDER_LIST = ", ".join(f"/{name}/" for name in PROJECT_FOLDERS)


def check_path_syntax(req: ChangeRequest) -> Decision | None:
    """Every path a change brings must follow the path rules."""
    if req.path is None:
        return None
    problem = path_problem(req.path)
    if problem:
        return refuse(Reason.PATH_INVALID, problem)
    return None


def _folder_refusal(req: ChangeRequest, path: str) -> Decision | None:
    segments = segments_of(path)
    top = segments[0]
    if top in PROJECT_FOLDERS and len(segments) >= 2:
        return None
    if top == AGENTS_FOLDER and len(segments) >= 3:
        owner = segments[1]
        writer = req.writer
        if writer.is_agent:
            if owner == writer.agent.name:
                return None
            return refuse(
                Reason.NOT_OWN_AGENT_FOLDER,
                f"{path} is in another agent's notes folder; write under /agents/{writer.agent.name}/ instead.",
            )
        if HostedAgent.objects.filter(name=owner).exists():
            return None
        return refuse(
            Reason.PATH_OUTSIDE_FOLDERS,
            f"/agents/{owner}/ is not the notes folder of any hosted agent.",
        )
    hint = f"/agents/{req.writer.agent.name}/" if req.writer.is_agent else "/agents/<name>/"
    return refuse(
        Reason.PATH_OUTSIDE_FOLDERS,
        f"{path} is outside the project store's fixed folders. Use one of {FOLDER_LIST} or {hint} "
        "(names are matched exactly, lower case).",
    )


def check_folders(req: ChangeRequest) -> Decision | None:
    """Project stores take notes only in their fixed folders; /agents/ only in one's own.

    Renames are checked at both ends. A delete is judged only by whose notes folder it
    touches, never by what the old file holds.
    """
    if req.store.kind != StoreKind.PROJECT:
        return None
    if req.path is not None:
        decision = _folder_refusal(req, req.path)
        if decision is not None:
            return decision
    if req.old_path is not None and req.writer.is_agent and req.operation in (Operation.UPDATE, Operation.DELETE):
        segments = segments_of(req.old_path)
        if segments[0] == AGENTS_FOLDER and len(segments) >= 3 and segments[1] != req.writer.agent.name:
            return refuse(
                Reason.NOT_OWN_AGENT_FOLDER,
                f"{req.old_path} is in another agent's notes folder; only {segments[1]} changes it.",
            )
        if req.operation == Operation.UPDATE and req.path is not None and req.path != req.old_path:
            return _folder_refusal(req, req.old_path)
    return None
