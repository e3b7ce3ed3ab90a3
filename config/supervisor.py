"""A small process supervisor for ``bin/run``: the embedded Redis, a Celery worker, Celery beat and
the web server, on ``HOST`` (127.0.0.1 unless told otherwise; a public address is refused while
SECRET_KEY is the development key, config.listen).

``python -m config.supervisor`` starts each program in a process group of its own, restarts one
that exits (saying so on stderr, with a back-off when it keeps dying), and on Ctrl-C / SIGTERM
stops every group (SIGTERM, then SIGKILL after a grace period) so that no process is left behind,
not even a child a killed program had started. The web server is not restarted: if it exits,
everything stops (it usually means the port is taken). Should the supervisor itself be killed,
each program gets its ``death_signal`` from the kernel (Linux's parent-death signal): SIGTERM for
Redis, beat and the web server, which stop at once; SIGKILL for the Celery worker, whose warm
shutdown waits for its turns (nothing is lost by it: an unfinished turn is recovered by
``chat.recovery`` like any worker killed mid-reply). Beat is a program of its own, as in
production (``bin/serve beat``), not the worker's ``--beat``: that runs it in a child process of
the worker, which no parent-death signal reaches, so a killed supervisor left it running for good.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from config import embedded_redis, listen

GRACE_SECONDS = 10.0
STABLE_SECONDS = 10.0  # a program that ran this long before dying is restarted at once


PR_SET_PDEATHSIG = 1


def die_with(supervisor_pid: int, signum: int) -> None:
    """In the child before exec (Linux): ``signum`` when the supervisor dies, even by SIGKILL.

    The kernel only signals a parent's death that happens after the prctl; a supervisor that died
    between the fork and here left the child with another parent already, so it goes at once.
    """
    if not sys.platform.startswith("linux"):
        return
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signum)
    if os.getppid() != supervisor_pid:
        os.kill(os.getpid(), signum)


def say(text: str) -> None:
    print(f"[supervisor] {text}", file=sys.stderr, flush=True)


@dataclass
class Program:
    name: str
    command: list[str]
    restart: bool = True
    ready: object = None  # a callable returning True when the program is up, or None
    death_signal: int = signal.SIGTERM  # what the kernel sends it should the supervisor be killed
    proc: subprocess.Popen | None = None
    started_at: float = 0.0
    restarts: int = 0
    failures_in_a_row: int = field(default=0)

    def start(self) -> None:
        # process_group=0: the program leads a new group, so a signal to the group reaches every
        # process it starts (Celery pool children included), and Ctrl-C in the terminal reaches
        # only the supervisor, which decides the order of shutdown.
        supervisor_pid, death_signal = os.getpid(), self.death_signal
        self.proc = subprocess.Popen(
            self.command,
            process_group=0,
            preexec_fn=lambda: die_with(supervisor_pid, death_signal),
        )
        self.started_at = time.monotonic()
        say(f"started {self.name} (pid {self.proc.pid})")

    def wait_ready(self, timeout: float = 15.0) -> None:
        if self.ready is None:
            return
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.ready():  # type: ignore[operator]
                return
            if self.proc is not None and self.proc.poll() is not None:
                return
            time.sleep(0.05)
        say(f"{self.name} is not ready after {timeout:.0f} s; going on")

    def signal_group(self, signum: int) -> None:
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signum)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stop_all(programs: list[Program]) -> None:
    """SIGTERM every group (the web server first, then the worker, Redis last), then SIGKILL."""
    for program in reversed(programs):
        program.signal_group(signal.SIGTERM)
    deadline = time.monotonic() + GRACE_SECONDS
    for program in reversed(programs):
        if program.proc is None:
            continue
        try:
            program.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            say(f"{program.name} did not stop in {GRACE_SECONDS:.0f} s: killing it")
    for program in programs:
        if program.proc is None:
            continue
        while _group_alive(program.proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        program.signal_group(signal.SIGKILL)
        if program.proc.poll() is None:
            program.proc.wait()
    say("stopped everything")


def supervise(programs: list[Program], *, poll: float = 0.2) -> int:
    stopping = {"signal": 0}

    def on_signal(signum: int, _frame: object) -> None:
        stopping["signal"] = signum

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    status = 0
    try:
        for program in programs:
            if stopping["signal"]:
                break
            program.start()
            program.wait_ready()
        while not stopping["signal"]:
            for program in programs:
                code = program.proc.poll() if program.proc is not None else None
                if code is None or stopping["signal"]:
                    continue
                # Whatever the program left in its group (pool children) goes with it.
                program.signal_group(signal.SIGKILL)
                if not program.restart:
                    say(f"{program.name} exited with status {code}: stopping everything")
                    status = code or 1
                    stopping["signal"] = signal.SIGTERM
                    break
                lived = time.monotonic() - program.started_at
                program.failures_in_a_row = (
                    0 if lived > STABLE_SECONDS else program.failures_in_a_row + 1
                )
                delay = min(10.0, 0.5 * 2 ** max(0, program.failures_in_a_row - 1))
                program.restarts += 1
                say(
                    f"{program.name} (pid {program.proc.pid}) died with status {code} "
                    f"after {lived:.1f} s: restarting it (restart #{program.restarts})"
                    + (f" in {delay:.1f} s" if program.failures_in_a_row else "")
                )
                if program.failures_in_a_row:
                    time.sleep(delay)
                program.start()
                program.wait_ready()
            time.sleep(poll)
    finally:
        stop_all(programs)
    return status


def programs_from_environment() -> list[Program]:
    """What ``bin/run`` runs, read from the environment it prepared."""
    python = sys.executable
    port = os.environ.get("PORT", "8000")
    host = listen.host_from(os.environ)  # 127.0.0.1 unless HOST says otherwise
    programs: list[Program] = []
    if not os.environ.get("REDIS_URL"):
        var_dir = Path(os.environ.get("SPOTTER_VAR_DIR", "var")).resolve()
        embedded_redis.prepare(var_dir)
        programs.append(
            Program(
                name="embedded Redis",
                command=embedded_redis.server_command(var_dir),
                ready=lambda: embedded_redis.is_up(var_dir),
            )
        )
    concurrency = os.environ.get("AGENT_CONCURRENCY", "64")
    programs.append(
        Program(
            name="Celery worker",
            command=[
                python,
                "-m",
                "celery",
                "--quiet",
                "-A",
                "config",
                "worker",
                "--pool=threads",
                f"--concurrency={concurrency}",
                "--without-gossip",
                "--without-mingle",
                "--loglevel=INFO",
            ],
            death_signal=signal.SIGKILL,
        )
    )
    # Exactly one beat: the recovery sweep of replies that can't finish (chat.recovery), the
    # expiry of undecided proposals and the reminders.
    programs.append(
        Program(
            name="Celery beat",
            command=[python, "-m", "celery", "--quiet", "-A", "config", "beat", "--loglevel=INFO"],
        )
    )
    programs.append(
        Program(
            name="web server",
            # What bin/serve runs (config/gunicorn.py, config.asgi): async views (the reply
            # streams) on the event loop, the rest on threads; one process unless
            # WEB_CONCURRENCY says otherwise.
            command=[
                python,
                "-m",
                "gunicorn",
                "--config",
                "python:config.gunicorn",
                f"--bind={listen.bind_address(host, port)}",
                f"--workers={os.environ.get('WEB_CONCURRENCY') or 1}",
                "config.asgi:application",
            ],
            restart=False,
        )
    )
    return programs


def main() -> None:
    # Before anything starts: no public address with the development SECRET_KEY (config.listen).
    problem = listen.refusal_from_environment()
    if problem:
        say(problem)
        sys.exit(2)
    sys.exit(supervise(programs_from_environment()))


if __name__ == "__main__":
    main()
