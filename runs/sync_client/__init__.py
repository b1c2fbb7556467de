"""`memory-sync`: keeps a run's folder in step with the console. No Django: `requests` only.

The folder holds one sub-folder per attached store (``project/``, ``agent/``, ``practice/``,
``shared/<name>/``, ``toolsets/<name>/``), ``INSTRUCTIONS.md``, and the client's own state in
``.memory-sync/`` (URL, run, token and what was last synced), which is never uploaded. Once the run
has ended, ``end`` removes the copy of the stores (``cleanup``).
"""

from .http import Api, ApiError
from .sync import Folder, PassResult, SyncFailed, UsageError

__all__ = ["Api", "ApiError", "Folder", "PassResult", "SyncFailed", "UsageError"]
