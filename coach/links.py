"""The links shown under a reply: for each successful call stored in the reply's steps whose tool
declares a ``page_link`` (``ToolSpec``), the link it gives for the call's arguments. Only stored,
validated calls make links, never the model's text; a failed call, an unknown tool or arguments
that name no page make none, and each link is shown once."""

from __future__ import annotations

from typing import Any

from .registry import get_tool


def page_links(steps: Any) -> list[dict[str, str]]:
    """``[{"label", "url"}]`` for the reply's ``steps`` (``Message.steps``), in call order."""
    links: list[dict[str, str]] = []
    for step in steps if isinstance(steps, list) else []:
        if not isinstance(step, dict):
            continue
        failed = {
            r.get("tool_call_id")
            for r in step.get("results") or []
            if isinstance(r, dict) and r.get("is_error")
        }
        calls = step.get("tool_calls")
        for call in calls if isinstance(calls, list) else []:
            if not isinstance(call, dict) or call.get("id") in failed:
                continue
            spec = get_tool(str(call.get("name")))
            if spec is None or spec.page_link is None:
                continue
            arguments = call.get("arguments")
            link = spec.page_link(arguments if isinstance(arguments, dict) else {})
            if link is not None and link not in links:
                links.append(link)
    return links
