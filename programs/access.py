"""What the programs family tells the access policy (``access.policy``, the one rule, which
discovers this module): the program as an owner, and who coaches whom.

* A program is its athlete's; its coach is ``Program.coach``, who reads and changes it. Staff
  read every program and change none, unless it is their own as athlete or coach; a superuser
  changes everything.
* Programs also say who coaches whom: an athlete's coaches are the coaches of their programs
  (``COACHING``), which is how a coach reaches the training data, logs, workouts and household of
  the athletes they coach.

Every object of the programs app names its program (``get_owner_object()``), so the policy's
checks serve weeks, sessions, exercises, logged sets and revisions alike.
"""

from __future__ import annotations

from access.policy import Coaching, Owner

from .models import AthleteProgram, Program

OWNERS = [
    # Fields of the program's own row: the policy reads them there, asking nothing of this family.
    Owner(model=Program, people_lookup="athlete", coaches_lookup="coach")
]
# A coach's templates are programs of their own, never an athlete they coach: read without them.
COACHING = Coaching(model=AthleteProgram, athlete="athlete", coach="coach")
