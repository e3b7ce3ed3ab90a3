"""A toy tool family that lives only here (issue 19): one read tool and one write tool, declared
the way a real family app declares its tools; ``tests/coach/test_discovery.py`` installs it."""
