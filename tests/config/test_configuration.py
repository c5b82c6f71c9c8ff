"""Configuration comes from the environment only; mistakes stop the process with one
clear line naming the variable (run in subprocesses: settings load once per process)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "kq3-Vt8ZrW0pLm5yXc2NbA7sDf4GhJ9uEi1oRw6TyUz-PaQe-Lk2Nm7Bv",
    "ALLOWED_HOSTS": "agon.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://agon.example.org",
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY"}
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_production_settings_pass_the_deploy_check():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_production_without_secret_key_refuses_to_start():
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}
    result = manage("check", **env)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "SECRET_KEY" in lines[0]


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("DATABASE_URL", "postgres://agon@localhost:notaport/agon"),
        ("DATABASE_URL", "mysql://agon@localhost/agon"),
        ("DATABASE_URL", "postgres://agon@localhost"),
        ("REDIS_URL", "http://127.0.0.1:6379/0"),
        ("DEBUG", "maybe"),
    ],
)
def test_malformed_variables_fail_with_one_line_naming_them(variable, value):
    result = manage("check", **{variable: value})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert variable in lines[0] and "Traceback" not in result.stderr


def test_an_unreachable_redis_fails_at_start_naming_the_variable():
    result = manage("check", REDIS_URL=f"redis://127.0.0.1:{closed_port()}/0")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert "REDIS_URL" in result.stderr and "unreachable" in result.stderr


def test_an_unreachable_redis_is_named_without_its_password():
    result = manage("check", REDIS_URL=f"redis://agon:s3cret-pw@127.0.0.1:{closed_port()}/0")
    assert result.returncode == 2
    assert "s3cret-pw" not in result.stderr
    assert "redis://agon:***@127.0.0.1:" in result.stderr


def test_the_worker_also_fails_with_one_line():
    clean = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    result = subprocess.run(
        [sys.executable, "-m", "celery", "-A", "config.worker", "worker"],
        cwd=ROOT,
        env={**clean, "REDIS_URL": f"redis://127.0.0.1:{closed_port()}/0"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "REDIS_URL" in result.stderr and "Traceback" not in result.stderr


def test_the_embedded_default_uses_sqlite_eager_tasks_and_local_memory():
    code = (
        "import django; django.setup();"
        "from django.conf import settings as s; from config.celery import app;"
        "print(s.DATABASES['default']['ENGINE'], app.conf.task_always_eager,"
        " s.CACHES['default']['BACKEND'])"
    )
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings"},
    )
    assert result.stdout.split() == [
        "django.db.backends.sqlite3",
        "True",
        "django.core.cache.backends.locmem.LocMemCache",
    ]


def test_env_example_lists_every_variable_the_settings_read():
    import re

    root = Path(__file__).resolve().parents[2]
    read = set()
    for module in (root / "config").glob("*.py"):
        read |= set(re.findall(r'env_(?:str|bool|int|list)\(\s*"([A-Z_0-9]+)"', module.read_text()))
    listed = set(re.findall(r"^([A-Z_0-9]+)=", (root / ".env.example").read_text(), re.M))
    assert read and not read - listed
