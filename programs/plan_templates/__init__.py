"""Templates: one program for many athletes (issue 22, part 3; docs/program-templates.md).

* ``trees``: a program's tree as specs to copy (dates moved), a template's versions (snapshots),
  and which row of a copy came from which row of the template (``links``);
* ``assign``: save a program as a template, assign it to athletes with a start date each;
* ``merge``: a template edit as each athlete's own wanted tree (three-way: the version they are in
  step with, the template now, their program now), with what was done kept and their own edits
  as conflicts in words;
* ``propagate``: each athlete's dry run and apply through the tool engine;
* ``views`` and ``admin``: the template's pages in the admin (its editor is the program editor).
"""
