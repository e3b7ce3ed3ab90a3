"""The program editor: a coach's whole program on one admin page (weeks → sessions → exercises),
saved through the tool engine like the chat's changes (docs/program-editor.md).

* ``tree``: the program as the page shows it (three queries) and as the page posts it back;
* ``translate``: the edited tree as the program family's tool calls;
* ``service``: preview and apply through ``coach.engine``, bound to the page's version;
* ``views``: the page and its two POSTs, mounted by ``ProgramAdmin.get_urls``.
"""
