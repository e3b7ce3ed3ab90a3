"""A safe markdown subset for the coach's replies: paragraphs, line breaks, **bold**, *italics*,
bullet and numbered lists, `inline code` and fenced code blocks.

Everything is HTML-escaped first; the renderer only ever adds its own tags (``p``, ``br``,
``strong``, ``em``, ``ul``, ``ol``, ``li``, ``code``, ``pre``) and no attribute but an ordered
list's ``start`` number (digits only). Links are not
followed: ``[text](url)`` is shown as "text (url)" in plain text, so a ``javascript:`` URL is
just characters. A dozen regexes suffice for what a coach writes; a full CommonMark parser
(markdown-it-py) would add a dependency and a sanitising step for no visible gain.
"""

from __future__ import annotations

import re

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

_FENCE = re.compile(r"^\s*(```|~~~)")
_BULLET = re.compile(r"^\s*[-*+]\s+(.*)$")
_NUMBERED = re.compile(r"^\s*(\d{1,3})[.)]\s+(.*)$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"\[([^\]\n]*)\]\(([^)\s]*)\)")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__")
_ITALIC = re.compile(
    r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])|(?<!\w)_(?=\S)([^_\n]+?)(?<=\S)_(?!\w)"
)
_PLACEHOLDER = "\x00{}\x00"


def _inline(text: str) -> str:
    """One line of text → escaped HTML with code spans, bold and italics; links as plain text."""
    codes: list[str] = []

    def keep_code(match: re.Match[str]) -> str:
        codes.append(f"<code>{escape(match.group(1))}</code>")
        return _PLACEHOLDER.format(len(codes) - 1)

    text = _CODE_SPAN.sub(keep_code, text.replace("\x00", ""))
    text = _LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})" if m.group(2) else m.group(1), text)
    html = escape(text)
    html = _BOLD.sub(lambda m: f"<strong>{m.group(1) or m.group(2)}</strong>", html)
    html = _ITALIC.sub(lambda m: f"<em>{m.group(1) or m.group(2)}</em>", html)
    return re.sub("\x00(\\d+)\x00", lambda m: codes[int(m.group(1))], html)


def render_markdown(text: str | None) -> SafeString:
    """The safe HTML of ``text`` (see the module docstring for the subset)."""
    lines = (text or "").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blocks: list[str] = []
    paragraph: list[str] = []
    items: list[str] = []
    list_tag = ""
    start = 1  # an ordered list's first number (digits only: the one attribute ever written)

    def close_paragraph() -> None:
        if paragraph:
            blocks.append("<p>" + "<br>".join(_inline(line) for line in paragraph) + "</p>")
            paragraph.clear()

    def close_list() -> None:
        nonlocal list_tag, start
        if items:
            opening = (
                f'<ol start="{start}">' if list_tag == "ol" and start != 1 else f"<{list_tag}>"
            )
            blocks.append(opening + "".join(f"<li>{i}</li>" for i in items) + f"</{list_tag}>")
            items.clear()
        list_tag, start = "", 1

    index = 0
    while index < len(lines):
        line = lines[index]
        if fence := _FENCE.match(line):
            close_paragraph()
            close_list()
            code: list[str] = []
            index += 1
            while index < len(lines) and not lines[index].strip().startswith(fence.group(1)):
                code.append(lines[index])
                index += 1
            blocks.append("<pre><code>" + escape("\n".join(code)) + "</code></pre>")
            index += 1
            continue
        bullet, numbered = _BULLET.match(line), _NUMBERED.match(line)
        if bullet or numbered:
            close_paragraph()
            tag = "ul" if bullet else "ol"
            if list_tag and list_tag != tag:
                close_list()
            if not list_tag and numbered:
                start = int(numbered.group(1))
            list_tag = tag
            items.append(_inline(bullet.group(1) if bullet else numbered.group(2)))  # type: ignore[union-attr]
        elif not line.strip():
            close_paragraph()
            close_list()
        elif heading := _HEADING.match(line):
            close_paragraph()
            close_list()
            blocks.append(f"<p><strong>{_inline(heading.group(1))}</strong></p>")
        elif items and line.startswith((" ", "\t")):
            items[-1] += "<br>" + _inline(line.strip())  # a list item's continuation line
        else:
            close_list()
            paragraph.append(line.strip())
        index += 1
    close_paragraph()
    close_list()
    return mark_safe("".join(blocks))  # every piece above is escaped
