"""Where the web server listens (issue 18 item 4): 127.0.0.1 unless HOST says otherwise, and never a
public address while SECRET_KEY is the development key (config.listen).

The unit tests pin down the check; the others start the real programs: the supervisor that
``bin/run`` execs, ``bin/run`` itself (in a copy of the project whose .venv points at the shared
packages, so its installer has nothing to do) and gunicorn as ``bin/serve`` runs it.
"""

import hashlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil
import pytest

from config import listen
from config.supervisor import programs_from_environment

ROOT = Path(__file__).resolve().parents[2]
DEV = listen.DEV_SECRET_KEY
OWN_KEY = "k" * 30 + "-a-key-of-its-own-" + "z" * 20
REFUSED = "Refusing to listen on 0.0.0.0"
GUNICORN = [sys.executable, "-m", "gunicorn", "--config", "python:config.gunicorn"]


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"])
def test_a_loopback_address_is_allowed_with_the_development_key(host):
    assert listen.refusal(host, DEV) is None


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "[::]", "192.168.1.10", "spotter.example.com"])
@pytest.mark.parametrize("key", [DEV, "", None])
def test_a_public_address_with_the_development_key_is_refused_saying_what_to_set(host, key):
    problem = listen.refusal(host, key)
    assert problem is not None
    assert f"Refusing to listen on {host}" in problem
    assert "Set DJANGO_SECRET_KEY to a long random value" in problem
    assert "unset HOST to listen on 127.0.0.1 only" in problem


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.10"])
def test_a_public_address_with_a_key_of_its_own_is_allowed(host):
    assert listen.refusal(host, OWN_KEY) is None


def test_the_host_is_loopback_unless_host_says_otherwise():
    assert listen.host_from({}) == "127.0.0.1"
    assert listen.host_from({"HOST": "  "}) == "127.0.0.1"
    assert listen.host_from({"HOST": "0.0.0.0"}) == "0.0.0.0"
    assert listen.bind_address("127.0.0.1", 8000) == "127.0.0.1:8000"
    assert listen.bind_address("::1", "8000") == "[::1]:8000"
    assert listen.bind_address("[::]", "8000") == "[::]:8000"


@pytest.mark.parametrize(
    ("bind", "host"),
    [
        ("0.0.0.0:8000", "0.0.0.0"),
        ("127.0.0.1:9000", "127.0.0.1"),
        ("[::]:8000", "::"),
        ("localhost", "localhost"),
        ("unix:/run/spotter.sock", None),
        ("fd://3", None),
    ],
)
def test_the_host_of_each_of_gunicorns_binds(bind, host):
    assert listen.host_of_bind(bind) == host


def test_the_supervisors_web_server_listens_on_host_default_loopback(monkeypatch):
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")  # no embedded Redis to prepare
    monkeypatch.setenv("PORT", "8123")
    monkeypatch.delenv("HOST", raising=False)
    web = programs_from_environment()[-1]
    assert web.name == "web server"
    assert "--bind=127.0.0.1:8123" in web.command
    assert web.command[-1] == "config.asgi:application"  # what bin/serve runs
    monkeypatch.setenv("HOST", "0.0.0.0")
    assert "--bind=0.0.0.0:8123" in programs_from_environment()[-1].command


def test_gunicorns_bind_defaults_to_loopback():
    done = subprocess.run(
        [sys.executable, "-c", "import config.gunicorn as g; print(g.bind)"],
        cwd=ROOT,
        env=_env({}),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.strip() == "127.0.0.1:8000", done.stderr


# --- The real start-up paths ---------------------------------------------------------------------


def _env(extra: dict[str, str]) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"HOST", "PORT", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "DJANGO_DEBUG"}
        and not k.startswith("DJANGO_SECRET")
    }
    return {**env, **extra}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _nothing_listens_on(port: int) -> bool:
    return not [
        c
        for c in psutil.net_connections(kind="inet")
        if c.status == psutil.CONN_LISTEN and c.laddr.port == port
    ]


def _run(command: list[str], *, cwd: Path, env: dict[str, str], timeout: float):
    """Run to the end in a session of its own; on timeout (a refusal that did not happen) the
    whole session goes, so no server outlives the test."""
    proc = subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        stdout, stderr = proc.communicate()
    return subprocess.CompletedProcess(command, proc.returncode, stdout, stderr)


def _http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


@pytest.mark.integration
def test_the_supervisor_refuses_a_public_address_with_the_development_key_before_starting_anything(
    tmp_path,
):
    port = _free_port()
    done = _run(
        [sys.executable, "-m", "config.supervisor"],
        cwd=ROOT,
        env=_env({"HOST": "0.0.0.0", "PORT": str(port), "SPOTTER_VAR_DIR": str(tmp_path)}),
        timeout=60,
    )
    assert done.returncode == 2
    assert REFUSED in done.stderr and "Set DJANGO_SECRET_KEY" in done.stderr
    assert "started" not in done.stderr  # no Redis, worker, beat or web server
    assert _nothing_listens_on(port)


@pytest.mark.integration
def test_the_supervisor_serves_on_loopback_only_by_default(tmp_path):
    port = _free_port()
    log = tmp_path / "run.log"
    env = _env(
        {
            "PORT": str(port),
            "SPOTTER_VAR_DIR": str(tmp_path / "var"),
            "DATABASE_URL": f"sqlite:///{tmp_path / 'run.sqlite3'}",
            "AGENT_CONCURRENCY": "2",
        }
    )
    with log.open("wb") as out:
        run = subprocess.Popen(
            [sys.executable, "-m", "config.supervisor"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 90
        while not _http_ok(f"http://127.0.0.1:{port}/healthz"):
            assert time.monotonic() < deadline, log.read_text()[-4000:]
            assert run.poll() is None, log.read_text()[-4000:]
            time.sleep(0.2)
        web_pid = int(re.search(r"started web server \(pid (\d+)\)", log.read_text())[1])
        listening = {
            (c.laddr.ip, c.laddr.port)
            for c in psutil.Process(web_pid).net_connections(kind="inet")
            if c.status == psutil.CONN_LISTEN
        }
        assert listening == {("127.0.0.1", port)}
    finally:
        os.killpg(run.pid, signal.SIGINT)
        try:
            run.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()


@pytest.mark.integration
@pytest.mark.parametrize("how", ["HOST", "--bind"])
def test_gunicorn_refuses_a_public_address_with_the_development_key_before_binding(how):
    port = _free_port()
    env = _env({"DJANGO_SETTINGS_MODULE": "config.settings.base", "PORT": str(port)})
    command = list(GUNICORN)
    if how == "HOST":
        env["HOST"] = "0.0.0.0"
    else:
        command += ["--bind", f"0.0.0.0:{port}"]
    done = _run([*command, "config.asgi:application"], cwd=ROOT, env=env, timeout=60)
    assert done.returncode == 2, done.stderr
    assert REFUSED in done.stderr
    assert _nothing_listens_on(port)


@pytest.mark.integration
def test_gunicorn_serves_a_public_address_with_a_key_of_its_own(tmp_path):
    port = _free_port()
    env = _env(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.base",
            "DJANGO_SECRET_KEY": OWN_KEY,
            "HOST": "0.0.0.0",
            "PORT": str(port),
            "WEB_CONCURRENCY": "1",
            "SPOTTER_VAR_DIR": str(tmp_path),
        }
    )
    server = subprocess.Popen(
        [*GUNICORN, "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not _http_ok(f"http://127.0.0.1:{port}/healthz"):
            assert time.monotonic() < deadline and server.poll() is None
            time.sleep(0.2)
        listening = {
            (c.laddr.ip, c.laddr.port)
            for c in psutil.Process(server.pid).net_connections(kind="inet")
            if c.status == psutil.CONN_LISTEN
        }
        assert listening == {("0.0.0.0", port)}
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


# --- bin/run itself, in a copy of the project ------------------------------------------------------


@pytest.fixture
def project_copy(tmp_path) -> Path:
    """The project as symlinks, with a .venv of its own that borrows the shared packages and is
    marked installed: bin/run runs as written, and its installer leaves the shared venv alone."""
    copy = tmp_path / "project"
    copy.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in {".venv", ".git", "var"}:
            (copy / entry.name).symlink_to(entry)
    shared = Path(sys.prefix)
    venv = copy / ".venv"
    venv.mkdir()
    for name in ("bin", "lib", "include"):
        (venv / name).symlink_to(shared / name)
    (venv / "pyvenv.cfg").write_text((shared / "pyvenv.cfg").read_text())
    stamp = hashlib.sha256((ROOT / "pyproject.toml").read_bytes())
    stamp.update((ROOT / "requirements.lock").read_bytes())
    (venv / ".spotter-installed").write_text(stamp.hexdigest() + "\n")
    return copy


@pytest.mark.integration
def test_bin_run_refuses_a_public_address_with_the_development_key_before_migrating(
    project_copy, tmp_path
):
    database = tmp_path / "run.sqlite3"
    done = _run(
        ["bash", "bin/run"],
        cwd=project_copy,
        env=_env(
            {
                "HOST": "0.0.0.0",
                "PORT": str(_free_port()),
                "SPOTTER_VAR_DIR": str(tmp_path / "var"),
                "DATABASE_URL": f"sqlite:///{database}",
            }
        ),
        timeout=120,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert REFUSED in done.stderr and "Set DJANGO_SECRET_KEY" in done.stderr
    assert "installing packages" not in done.stdout  # the shared venv was left alone
    assert not database.exists()  # nothing migrated, nothing started
