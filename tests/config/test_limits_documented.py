"""Every limit one user may reach is a setting, and the security page and .env.example name it."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _limit_names() -> list[str]:
    tree = ast.parse((ROOT / "config/settings/limits.py").read_text())
    return [
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name) and target.id.isupper()
    ]


def test_limits_module_defines_the_limits_of_the_security_page():
    assert {"UPLOAD_MAX_MB", "CHAT_STREAMS_PER_ACCOUNT", "LOGIN_FAILURE_LIMIT"} <= set(
        _limit_names()
    )


def test_every_limit_is_on_the_security_page():
    page = (ROOT / "docs/security.md").read_text()
    missing = [name for name in _limit_names() if f"`{name}`" not in page]
    assert missing == []


def test_every_limit_is_in_the_example_environment():
    example = (ROOT / ".env.example").read_text()
    missing = [name for name in _limit_names() if name not in example]
    assert missing == []
