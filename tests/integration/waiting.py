"""Waiting on real processes in the integration tests."""

import time


def wait_for(check, timeout: float, what: str, log=None, every: float = 0.05):
    """``check()``'s first truthy value within ``timeout`` seconds; otherwise fail naming ``what``
    with the tail of ``log`` (a worker's output), if given."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    tail = log.read_text()[-3000:] if log is not None and log.exists() else ""
    raise AssertionError(f"{what} after {timeout} s\n{tail}")
