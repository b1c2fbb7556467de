"""docker/: the compose file and the Dockerfile, checked statically (no Docker engine here).

They parse; the services are there and depend on each other in an order that works; every
environment variable the app services receive is one the settings read, and the settings load
from those variables alone; the modules, commands and files they name exist.
"""

from __future__ import annotations

import importlib
import json
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCKER = ROOT / "docker"
COMPOSE_FILE = DOCKER / "compose.yaml"
DOCKERFILE = DOCKER / "Dockerfile"
APP_SERVICES = ("web", "worker", "beat")
# Variables the compose file reads for itself and for the postgres image, not for the settings.
COMPOSE_ONLY_VARIABLES = {"POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB", "WEB_PORT", "WEB_WORKERS"}
INTERPOLATION = re.compile(r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?])(?P<arg>[^}]*))?\}")


def settings_variables() -> set[str]:
    """Every environment variable memory_console/settings.py reads, found in its source."""
    source = (ROOT / "memory_console" / "settings.py").read_text()
    pattern = r"(?:os\.environ\.get|env_bool|env_int|env_list)\(\s*[\"']([A-Z][A-Z0-9_]*)[\"']"
    return set(re.findall(pattern, source))


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load(COMPOSE_FILE.read_text())


def interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's ${VAR}, ${VAR:-default} and ${VAR:?error} over ``env``; $$ is a literal $."""

    def one(match: re.Match) -> str:
        name, op, arg = match["name"], match["op"], match["arg"]
        if name in env and (env[name] or not (op or "").startswith(":")):
            return env[name]
        if op in (":?", "?"):
            raise KeyError(f"{name} is required: {arg}")
        return arg or ""

    return INTERPOLATION.sub(one, value).replace("$$", "$")


def command_words(service: dict) -> list[str]:
    command = service["command"]
    words = command if isinstance(command, list) else shlex.split(command)
    if words[:2] == ["sh", "-c"]:
        return shlex.split(words[2])
    return words


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, with continuation lines joined and comments dropped."""
    instructions, current = [], ""
    for line in DOCKERFILE.read_text().splitlines():
        stripped = line.strip()
        if not current and (not stripped or stripped.startswith("#")):
            continue
        current += " " + stripped.rstrip("\\").strip()
        if not stripped.endswith("\\"):
            keyword, _, args = current.strip().partition(" ")
            instructions.append((keyword.upper(), args.strip()))
            current = ""
    return instructions


def test_compose_runs_the_five_services(compose):
    assert set(compose["services"]) == {"db", "redis", "web", "worker", "beat"}
    assert compose["services"]["db"]["image"].startswith("postgres:")
    assert compose["services"]["redis"]["image"].startswith("redis:")


def test_app_services_build_this_repository_with_the_dockerfile(compose):
    for name in APP_SERVICES:
        build = compose["services"][name]["build"]
        context = (COMPOSE_FILE.parent / build["context"]).resolve()
        assert context == ROOT, name
        assert (context / build["dockerfile"]).resolve() == DOCKERFILE.resolve(), name


def test_every_variable_passed_to_the_app_is_read_by_the_settings(compose):
    known = settings_variables()
    assert {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS"} <= known
    for name in APP_SERVICES:
        environment = compose["services"][name]["environment"]
        assert set(environment) <= known, f"{name} passes variables the settings never read: {set(environment) - known}"
        assert {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS"} <= set(environment), name


def test_every_variable_the_compose_file_reads_is_a_setting_or_documented():
    text = COMPOSE_FILE.read_text()
    header = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    read = {m["name"] for m in INTERPOLATION.finditer(text.replace("$$", ""))}
    unknown = read - settings_variables() - COMPOSE_ONLY_VARIABLES
    assert not unknown, f"the compose file reads variables nothing uses: {unknown}"
    undocumented = {name for name in read if not re.search(rf"\b{name}\b", header)}
    assert not undocumented, f"variables missing from the compose file's header: {undocumented}"


def test_the_secret_key_and_database_password_have_no_defaults():
    text = COMPOSE_FILE.read_text()
    for name in ("SECRET_KEY", "POSTGRES_PASSWORD"):
        uses = [m for m in INTERPOLATION.finditer(text) if m["name"] == name]
        assert uses and all(m["op"] == ":?" for m in uses), name
    with pytest.raises(KeyError, match="SECRET_KEY"):
        interpolate(yaml.safe_load(text)["services"]["web"]["environment"]["SECRET_KEY"], {})


def test_the_settings_load_from_the_compose_environment_alone(compose):
    """The app's environment, interpolated as compose would, is all the settings need."""
    given = {"SECRET_KEY": "compose-test-" + "k" * 40, "POSTGRES_PASSWORD": "pw" + "x" * 10}  # pragma: allowlist secret
    env = {key: interpolate(str(value), given) for key, value in compose["services"]["web"]["environment"].items()}
    probe = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({'engine': s.DATABASES['default']['ENGINE'], 'host': s.DATABASES['default']['HOST'], "
        "'eager': s.CELERY_TASK_ALWAYS_EAGER, 'broker': s.CELERY_BROKER_URL, 'debug': s.DEBUG, "
        "'hosts': s.ALLOWED_HOSTS, 'beat': s.CELERY_BEAT_SCHEDULER}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "memory_console.settings", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert loaded["engine"] == "django.db.backends.postgresql" and loaded["host"] == "db"
    assert loaded["eager"] is False and loaded["broker"] == "redis://redis:6379/0"
    assert loaded["debug"] is False
    assert "localhost" in loaded["hosts"]
    assert loaded["beat"] == "django_celery_beat.schedulers:DatabaseScheduler"


def test_the_urls_point_at_the_compose_services(compose):
    env = compose["services"]["web"]["environment"]
    assert re.match(r"^postgres://[^@]+@db:5432/", env["DATABASE_URL"])
    assert env["REDIS_URL"].startswith("redis://redis:6379/")
    # The database URL uses the same user, password and name as the postgres service.
    db_env = compose["services"]["db"]["environment"]
    for name in ("POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"):
        assert "${" + name in env["DATABASE_URL"] and "${" + name in db_env[name]


def test_web_runs_the_migrations_then_uvicorn_on_the_asgi_app(compose):
    web = compose["services"]["web"]
    script = web["command"][2] if isinstance(web["command"], list) else web["command"]
    assert script.index("manage.py migrate") < script.index("uvicorn")
    words = command_words(web)
    uvicorn = words[words.index("uvicorn"):]
    assert uvicorn[1] == "memory_console.asgi:application"
    module, _, attr = uvicorn[1].partition(":")
    assert callable(getattr(importlib.import_module(module), attr or "application"))
    container_port = uvicorn[uvicorn.index("--port") + 1]
    assert uvicorn[uvicorn.index("--host") + 1] == "0.0.0.0"
    assert any(str(p).endswith(":" + container_port) for p in web["ports"])


@pytest.mark.parametrize("service", ["worker", "beat"])
def test_celery_services_run_the_project_app(compose, service):
    words = command_words(compose["services"][service])
    assert words[:4] == ["celery", "-A", "memory_console", service]
    # Beat takes its scheduler from the settings, so no -S/--scheduler here.
    assert not {"-S", "--scheduler"} & set(words)
    from memory_console.celery import app

    assert (ROOT / "memory_console" / "celery.py").exists()
    assert app.main == "memory_console"


def test_beat_scheduler_from_the_settings_is_importable():
    from django.conf import settings

    from memory_console.celery import app

    scheduler = app.conf.beat_scheduler
    assert scheduler == settings.CELERY_BEAT_SCHEDULER
    module, _, name = scheduler.partition(":")
    assert hasattr(importlib.import_module(module), name)


def test_services_start_in_an_order_that_works(compose):
    services = compose["services"]
    for name, service in services.items():
        for dependency in service.get("depends_on", {}):
            assert dependency in services, f"{name} depends on a missing service {dependency}"
    for name in ("db", "redis", "web"):
        assert "healthcheck" in services[name], name
    for name in APP_SERVICES:
        deps = services[name]["depends_on"]
        assert deps["db"]["condition"] == deps["redis"]["condition"] == "service_healthy", name
    # The worker and beat wait for a healthy web, which has run the migrations.
    for name in ("worker", "beat"):
        assert services[name]["depends_on"]["web"]["condition"] == "service_healthy"


def test_named_volumes_are_declared(compose):
    declared = set(compose.get("volumes") or {})
    for name, service in compose["services"].items():
        for volume in service.get("volumes", []):
            source = volume.split(":", 1)[0]
            if not source.startswith((".", "/")):
                assert source in declared, f"{name} uses an undeclared volume {source}"


def test_dockerfile_builds_the_app_from_files_that_exist():
    instructions = dockerfile_instructions()
    keywords = [keyword for keyword, _ in instructions]
    assert keywords[0] == "FROM"
    assert re.match(r"python:3\.11(-|$)", dict(instructions)["FROM"])
    copied = set()
    for keyword, args in instructions:
        if keyword == "COPY":
            *sources, _ = shlex.split(args)
            for source in sources:
                assert (ROOT / source).exists(), f"COPY {source}: no such file in the repository"
                copied.add(source.rstrip("/"))
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"]
    for package in packages:
        assert package.rstrip("*") in copied, f"the image misses the package {package}"
    assert {"manage.py", "templates", "pyproject.toml"} <= copied


def test_dockerfile_installs_what_the_services_run():
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {re.split(r"[<>=\[ ;]", dep, maxsplit=1)[0].lower() for dep in dependencies}
    assert {"uvicorn", "gunicorn", "celery", "psycopg", "django-celery-beat"} <= names
    assert "['project']['dependencies']" in DOCKERFILE.read_text()


def test_dockerfile_runs_uvicorn_as_a_non_root_user_on_the_exposed_port():
    instructions = dockerfile_instructions()
    users = [args for keyword, args in instructions if keyword == "USER"]
    assert users and users[-1] not in ("root", "0")
    exposed = [args for keyword, args in instructions if keyword == "EXPOSE"]
    cmd = json.loads([args for keyword, args in instructions if keyword == "CMD"][-1])
    assert cmd[:2] == ["uvicorn", "memory_console.asgi:application"]
    assert cmd[cmd.index("--port") + 1] == exposed[-1]


def test_the_build_context_leaves_out_local_state():
    ignored = (DOCKER / "Dockerfile.dockerignore").read_text().split()
    assert {".git", ".venv", "db.sqlite3", ".env"} <= set(ignored)
