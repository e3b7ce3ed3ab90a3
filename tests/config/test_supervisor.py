"""``config.supervisor``: what happens to its programs when the supervisor itself is killed.

``test_bin_run.py`` drives the whole of ``bin/run``; these tests pin down the two ways a program
could outlive a supervisor killed by SIGKILL, with stand-in programs and no Django.
"""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from config.supervisor import die_with, programs_from_environment

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's"
)

# A program whose shutdown never ends: SIGTERM is ignored, as a Celery worker's warm shutdown
# waiting on its turns can look from outside.
STUBBORN = textwrap.dedent(
    """
    import pathlib, signal, sys, time
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    pathlib.Path(sys.argv[1]).write_text("up")
    time.sleep(600)
    """
)

SUPERVISOR = textwrap.dedent(
    """
    import signal, sys
    from config.supervisor import Program, supervise
    stub, ready = sys.argv[1], sys.argv[2]
    program = Program(
        name="stubborn",
        command=[sys.executable, "-c", stub, ready],
        death_signal=signal.SIGKILL,
    )
    sys.exit(supervise([program]))
    """
)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by init) counts as gone.
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().split(") ", 1)[1][0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def _wait_until(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_a_program_that_ignores_sigterm_dies_with_a_killed_supervisor(tmp_path):
    ready = tmp_path / "ready"
    supervisor = subprocess.Popen(
        [sys.executable, "-c", SUPERVISOR, STUBBORN, str(ready)],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert _wait_until(ready.exists, 60), "the stand-in program never started"
        started = supervisor.stderr.readline()
        stubborn_pid = int(started.rsplit("pid ", 1)[1].rstrip(")\n"))
        assert _alive(stubborn_pid)
    finally:
        supervisor.kill()  # SIGKILL: the supervisor can't clean up after itself
        supervisor.wait()
    try:
        assert _wait_until(lambda: not _alive(stubborn_pid), 10), (
            "a program that ignores SIGTERM outlived its killed supervisor"
        )
    finally:
        if _alive(stubborn_pid):
            os.kill(stubborn_pid, signal.SIGKILL)


def test_a_child_whose_supervisor_died_before_the_prctl_goes_at_once():
    # The race the kernel can't cover: the supervisor died between the fork and the prctl, so the
    # child's parent is already another process. die_with is told a pid that isn't the parent's.
    not_the_parent = os.getpid() + 1_000_000
    child = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(600)"],
        preexec_fn=lambda: die_with(not_the_parent, signal.SIGTERM),
    )
    try:
        assert child.wait(timeout=10) == -signal.SIGTERM
    finally:
        if child.poll() is None:
            child.kill()


def test_a_child_whose_supervisor_lives_runs_on():
    parent = os.getpid()
    child = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(600)"],
        preexec_fn=lambda: die_with(parent, signal.SIGTERM),
    )
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            child.wait(timeout=1)
    finally:
        child.kill()
        child.wait()


def test_bin_runs_worker_gets_sigkill_and_the_others_sigterm_as_their_death_signal(
    tmp_path, monkeypatch
):
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("SPOTTER_VAR_DIR", str(tmp_path / "var"))
    signals = {program.name: program.death_signal for program in programs_from_environment()}
    assert signals == {
        "embedded Redis": signal.SIGTERM,
        "Celery worker": signal.SIGKILL,
        "Celery beat": signal.SIGTERM,
        "web server": signal.SIGTERM,
    }
