"""Public prompt-injection corpora that PyPI packages ship in their wheels, read where they are installed.

Nothing is copied into the repository: the training script finds each package's data folder with
``importlib.util.find_spec`` (which locates a package without importing it, so none of its own
dependencies are needed at training time either) and reads the files from there.

- ``pyrit`` 1.1.0 (MIT): jailbreak templates (``datasets/jailbreak/templates``, each with a
  ``{{ prompt }}`` slot) and the prompt-injection seed sets (system-prompt extraction, leakage).
- ``spikee`` 0.9.2 (Apache-2.0): jailbreak wrappers with an ``<INSTRUCTION>`` slot, injected
  instructions, and benign documents and questions (the negatives).
"""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import yaml

__all__ = ["package_dir", "pyrit_positives", "spikee_negatives", "spikee_positives"]


def package_dir(name: str) -> Path:
    """Where an installed package's files are; a clear error if it is not installed."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{name} is not installed: pip install -e '.[train]'")
    return Path(next(iter(spec.submodule_search_locations)))


def _fill(template: str, slot: str, orders: list[str], rng: random.Random) -> str:
    return template.replace(slot, rng.choice(orders))


def pyrit_positives(orders: list[str], rng: random.Random) -> list[tuple[str, str]]:
    """(family, text): every pyrit jailbreak template with an order in its slot, and the injection seeds."""
    root = package_dir("pyrit") / "datasets"
    out: list[tuple[str, str]] = []
    for path in sorted((root / "jailbreak" / "templates").rglob("*.yaml")):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (yaml.YAMLError, UnicodeDecodeError):
            continue
        value = data.get("value") if isinstance(data, dict) else None
        if not isinstance(value, str) or len(value) < 20:
            continue
        for slot in ("{{ prompt }}", "{{prompt}}"):
            value = value.replace(slot, "{{ prompt }}")
        text = _fill(value, "{{ prompt }}", orders, rng)
        out.append((f"pyrit:{path.relative_to(root).parent}:{path.stem}", text))
    for name in ("garak/system_prompt_extraction.prompt", "airt/leakage.prompt"):
        data = yaml.safe_load((root / "seed_datasets" / "local" / name).read_text(encoding="utf-8"))
        for i, seed in enumerate(data.get("seeds", [])):
            if isinstance(seed, dict) and isinstance(seed.get("value"), str):
                out.append((f"pyrit:seed:{name}:{i % 7}", seed["value"]))
    return out


def _jsonl(path: Path) -> list[dict]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line:
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return rows


def spikee_positives(orders: list[str], rng: random.Random) -> list[tuple[str, str]]:
    """(family, text): spikee's jailbreak wrappers around its injected instructions and around our orders."""
    root = package_dir("spikee") / "data" / "workspace" / "datasets"
    instructions: list[str] = []
    wrappers: list[tuple[str, str]] = []
    for folder in sorted(root.glob("seeds-*")):
        if "harmful" in folder.name or "investment" in folder.name:
            continue  # requests for harmful content or advice: not orders about the agent's own work
        if (folder / "instructions.jsonl").exists():
            instructions += [r["instruction"] for r in _jsonl(folder / "instructions.jsonl") if r.get("instruction")]
        if (folder / "jailbreaks.jsonl").exists():
            wrappers += [(f"spikee:{r.get('jailbreak_type', folder.name)}", r["text"])
                         for r in _jsonl(folder / "jailbreaks.jsonl") if r.get("text")]
    out: list[tuple[str, str]] = []
    for family, wrapper in wrappers:
        for _ in range(2):
            payload = rng.choice(instructions) if rng.random() < 0.5 else rng.choice(orders)
            out.append((family, wrapper.replace("<INSTRUCTION>", payload)))
    for i, instruction in enumerate(instructions):
        out.append((f"spikee:instruction:{i % 11}", instruction))
    return out


def spikee_negatives() -> list[tuple[str, str]]:
    """(family, text): spikee's benign documents (emails, articles) and benign questions."""
    root = package_dir("spikee") / "data" / "workspace" / "datasets"
    out: list[tuple[str, str]] = []
    for path in sorted(root.glob("seeds-*/base_user_inputs.jsonl")):
        for row in _jsonl(path):
            doc = str(row.get("document", "")).replace(str(row.get("placeholder") or "<PLACEHOLDER>"), "")
            if len(doc) > 40:
                out.append((f"spikee:doc:{row.get('id', '')}", doc.replace("|", "\n")))
    for path in sorted(root.glob("seeds-*-fp/standalone_user_inputs.jsonl")):
        for i, row in enumerate(_jsonl(path)):
            if row.get("text"):
                out.append((f"spikee:fp:{i % 13}", row["text"]))
    return out


# Packages whose docstrings and comments are read as lessons: technical English, much of it in the
# imperative about tools ("Skip the tests that need a database", "Ignore the default ordering").
DOC_PACKAGES = ("django", "rest_framework", "celery", "kombu", "sklearn", "requests", "pytest", "_pytest",
                "detect_secrets", "simple_history", "guardian", "drf_spectacular", "psycopg", "redis")


def docstring_negatives(rng: random.Random, limit: int = 6000) -> list[tuple[str, str]]:
    """(family, text): paragraphs of docstrings and comments from installed packages, as lessons."""
    import ast
    import io
    import tokenize

    paragraphs: list[tuple[str, str]] = []
    for name in DOC_PACKAGES:
        try:
            root = package_dir(name)
        except SystemExit:
            continue
        for path in sorted(root.rglob("*.py")):
            if "/tests/" in str(path) or "/migrations/" in str(path) or "/locale/" in str(path):
                continue
            try:
                source = path.read_text(encoding="utf-8")
                tree = ast.parse(source)
            except (SyntaxError, UnicodeDecodeError, ValueError):
                continue
            family = f"docs:{name}:{path.parent.name}"
            texts: list[str] = []
            for node in ast.walk(tree):
                if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                    doc = ast.get_docstring(node)
                    if doc:
                        texts += doc.split("\n\n")
            comment: list[str] = []
            try:
                for tok in tokenize.generate_tokens(io.StringIO(source).readline):
                    if tok.type == tokenize.COMMENT:
                        comment.append(tok.string.lstrip("#").strip())
                    elif comment and tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
                        texts.append(" ".join(comment))
                        comment = []
            except (tokenize.TokenError, IndentationError, SyntaxError):
                pass
            for text in texts:
                text = " ".join(text.split())
                if 40 <= len(text) <= 400 and sum(c.isalpha() for c in text) > len(text) * 0.6:
                    paragraphs.append((family, text))
    paragraphs = list(dict(((t, (f, t)) for f, t in paragraphs)).values())
    rng.shuffle(paragraphs)
    return paragraphs[:limit]
