"""Build the POST data of an admin change form from its rendered page, the way a browser would:
every named input, select and textarea inside the form, with its current value."""

from html.parser import HTMLParser


class _FormReader(HTMLParser):
    def __init__(self, form_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = False
        self.data: dict[str, str | list[str]] = {}
        self._select: str | None = None
        self._select_multiple = False
        self._select_first: str | None = None
        self._select_chosen = False
        self._textarea: str | None = None
        self._text: list[str] = []

    def _put(self, name: str, value: str, *, multiple: bool = False) -> None:
        if "__prefix__" in name:
            return
        if multiple:
            self.data.setdefault(name, [])
            self.data[name].append(value)  # type: ignore[union-attr]
        else:
            self.data[name] = value

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form" and a.get("id") == self.form_id:
            self.inside = True
            return
        if not self.inside:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            if kind in {"submit", "button", "image", "reset", "file"}:
                return
            if kind in {"checkbox", "radio"}:
                if "checked" in a:
                    self._put(name, a.get("value", "on"))
                return
            self._put(name, a.get("value", ""))
        elif tag == "select" and name:
            self._select = name
            self._select_multiple = "multiple" in a
            self._select_first = None
            self._select_chosen = False
        elif tag == "option" and self._select:
            if self._select_first is None:
                self._select_first = a.get("value", "")
            if "selected" in a:
                self._select_chosen = True
                self._put(self._select, a.get("value", ""), multiple=self._select_multiple)
        elif tag == "textarea" and name:
            self._textarea = name
            self._text = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self.inside:
            self.inside = False
        elif tag == "select" and self._select:
            # A browser sends the first option of a single select when none is selected.
            if (
                not self._select_chosen
                and not self._select_multiple
                and self._select_first is not None
            ):
                self._put(self._select, self._select_first)
            self._select = None
        elif tag == "textarea" and self._textarea:
            text = "".join(self._text)
            self._put(self._textarea, text[1:] if text.startswith("\n") else text)
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self._text.append(data)


def form_data(html: str, *, form_id: str) -> dict[str, str | list[str]]:
    reader = _FormReader(form_id)
    reader.feed(html)
    if not reader.data:
        raise AssertionError(f"No form with id {form_id!r} (or it has no fields) in the page.")
    return reader.data
