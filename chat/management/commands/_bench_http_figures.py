"""What ``bench_http`` measures of one batch of requests, and the gunicorn workers' CPU time."""

from __future__ import annotations

import os
from pathlib import Path


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


class Figures:
    """One batch of requests: how long it took, each request's latency, the errors and the
    gunicorn workers' CPU seconds."""

    def __init__(self, *, elapsed: float, latencies: list[float], errors: int, cpu: float):
        self.elapsed, self.latencies, self.errors, self.cpu = elapsed, latencies, errors, cpu

    @property
    def count(self) -> int:
        return len(self.latencies)

    @property
    def rate(self) -> float:
        return self.count / self.elapsed

    @property
    def p50(self) -> float:
        return quantile(self.latencies, 0.5)

    @property
    def p99(self) -> float:
        return quantile(self.latencies, 0.99)

    @property
    def cpu_ms(self) -> float:
        return self.cpu * 1000 / max(1, self.count)


def combined(a: Figures, b: Figures) -> Figures:
    return Figures(
        elapsed=a.elapsed + b.elapsed,
        latencies=a.latencies + b.latencies,
        errors=a.errors + b.errors,
        cpu=a.cpu + b.cpu,
    )


class Workers:
    """The CPU time (user + system) of gunicorn's worker processes, read from ``/proc`` (Linux;
    0 elsewhere): the master's children."""

    def __init__(self, master_pid: int) -> None:
        self.master = master_pid
        self.ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def _children(self) -> list[int]:
        try:
            text = Path(f"/proc/{self.master}/task/{self.master}/children").read_text()
        except OSError:
            return []
        return [int(pid) for pid in text.split()]

    def cpu_seconds(self) -> float:
        total = 0
        for pid in self._children():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
        return total / self.ticks
