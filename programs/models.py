"""The relational training data: a Program has Weeks, a Week has Sessions, a Session has Exercises
and at most one CardioBlock, an Exercise has logged SetResults.

Weeks, sessions and exercises carry a 1-based ``position`` among their siblings. Positions are
unique (a database constraint) and contiguous (kept by ``programs.services``, the only code that
inserts, removes or moves children). Refs such as ``week-2-session-1-exercise-3`` are derived from
positions and never stored; primary keys stay stable when things move.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from coach.vocabulary import CARDIO_TYPES, text_choices


class Program(models.Model):
    athlete = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="programs"
    )
    coach = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="coached_programs",
        help_text="The coach who may edit this program in the admin.",
    )
    name = models.CharField(max_length=200)
    start_date = models.DateField()
    version = models.PositiveIntegerField(
        default=1,
        editable=False,
        help_text="Increases on every change by any path; a preview made on an older version is stale.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(version__gte=1), name="program_version_gte_1")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.athlete})"

    def get_owner_object(self) -> "Program":
        return self


class Week(models.Model):
    program = models.ForeignKey(Program, on_delete=models.CASCADE, related_name="weeks")
    position = models.PositiveIntegerField(help_text="1-based week number within the program.")
    phase = models.CharField(max_length=100, help_text='e.g. "Accumulation", "Deload".')
    start_date = models.DateField()
    end_date = models.DateField()
    description = models.TextField(blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["program", "position"], name="week_unique_position"),
            models.CheckConstraint(condition=Q(position__gte=1), name="week_position_gte_1"),
            models.CheckConstraint(
                condition=Q(end_date__gte=models.F("start_date")), name="week_dates_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"Week {self.position}: {self.phase}"

    @property
    def ref(self) -> str:
        return f"week-{self.position}"

    def get_owner_object(self) -> Program:
        return self.program


class Session(models.Model):
    week = models.ForeignKey(Week, on_delete=models.CASCADE, related_name="sessions")
    position = models.PositiveIntegerField(help_text="1-based session number within the week.")
    name = models.CharField(
        max_length=200, help_text='e.g. "Upper Body A", "Rest", "Zone 2 Cardio".'
    )
    scheduled_date = models.DateField(null=True, blank=True)
    day_of_week = models.CharField(max_length=20, blank=True)
    warmup = models.JSONField(default=list, blank=True, help_text="A list of warm-up activities.")
    notes = models.TextField(blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    completed = models.BooleanField(default=False)
    completed_date = models.DateField(null=True, blank=True)
    duration = models.PositiveIntegerField(null=True, blank=True, help_text="Minutes, once logged.")
    rating = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="1 (awful) to 5 (great)."
    )
    skipped = models.BooleanField(
        default=False,
        help_text="Skipped on purpose: kept in the plan with its reason, planned load 0.",
    )
    skip_reason = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["week", "position"], name="session_unique_position"),
            models.CheckConstraint(condition=Q(position__gte=1), name="session_position_gte_1"),
            models.CheckConstraint(
                condition=Q(rating__isnull=True) | Q(rating__gte=1, rating__lte=5),
                name="session_rating_1_to_5",
            ),
        ]

    def __str__(self) -> str:
        return f"Session {self.position}: {self.name}"

    @property
    def ref(self) -> str:
        return f"week-{self.week.position}-session-{self.position}"

    def get_owner_object(self) -> Program:
        return self.week.program


# ZONE2 = "zone2" ("Zone 2"), INTERVALS, SWEETSPOT, THRESHOLD, VO2MAX (``coach.vocabulary``).
CardioType = text_choices("CardioType", CARDIO_TYPES, CARDIO_TYPES)


class CardioBlock(models.Model):
    """The cardio part of a session; a cardio-only day is a session with no exercises and one of these."""

    session = models.OneToOneField(Session, on_delete=models.CASCADE, related_name="cardio")
    type = models.CharField(max_length=20, choices=CardioType.choices)
    duration = models.PositiveIntegerField(help_text="Planned minutes.")
    modality = models.CharField(max_length=100, blank=True, help_text='e.g. "Running", "Rowing".')
    instructions = models.TextField(blank=True)
    completed = models.BooleanField(default=False)
    actual_duration = models.PositiveIntegerField(null=True, blank=True, help_text="Minutes done.")
    avg_heart_rate = models.PositiveIntegerField(null=True, blank=True)
    notes = models.TextField(blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(type__in=CardioType.values), name="cardio_type_valid"
            ),
            models.CheckConstraint(condition=Q(duration__gte=1), name="cardio_duration_gte_1"),
        ]

    def __str__(self) -> str:
        return f"{self.get_type_display()} {self.duration} min"

    def get_owner_object(self) -> Program:
        return self.session.week.program


class Exercise(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="exercises")
    position = models.PositiveIntegerField(help_text="1-based exercise number within the session.")
    name = models.CharField(max_length=200)
    group_label = models.CharField(
        max_length=20, blank=True, help_text="Superset/circuit label, e.g. A."
    )
    warmup_sets = models.PositiveSmallIntegerField(default=0)
    working_sets = models.PositiveSmallIntegerField()
    reps = models.CharField(max_length=50, help_text='Target reps, may be a range like "8-10".')
    target_load = models.CharField(
        max_length=100, help_text='e.g. "185 lbs", "70% 1RM", "bodyweight".'
    )
    rest_seconds = models.PositiveIntegerField(default=120)
    notes = models.TextField(blank=True)
    skipped = models.BooleanField(
        default=False, help_text="Skipped in the current session, not removed."
    )

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "position"], name="exercise_unique_position"
            ),
            models.CheckConstraint(condition=Q(position__gte=1), name="exercise_position_gte_1"),
            models.CheckConstraint(
                condition=Q(warmup_sets__gte=0), name="exercise_warmup_sets_gte_0"
            ),
            models.CheckConstraint(
                condition=Q(working_sets__gte=0), name="exercise_working_sets_gte_0"
            ),
            models.CheckConstraint(condition=Q(rest_seconds__gte=0), name="exercise_rest_gte_0"),
        ]

    def __str__(self) -> str:
        return f"Exercise {self.position}: {self.name}"

    @property
    def ref(self) -> str:
        return f"week-{self.session.week.position}-session-{self.session.position}-exercise-{self.position}"

    def get_owner_object(self) -> Program:
        return self.session.week.program


class SetResult(models.Model):
    """One logged set of an exercise."""

    exercise = models.ForeignKey(Exercise, on_delete=models.CASCADE, related_name="sets")
    set_number = models.PositiveSmallIntegerField()
    reps = models.PositiveSmallIntegerField(null=True, blank=True)
    load = models.CharField(max_length=100, blank=True)
    rpe = models.DecimalField(max_digits=3, decimal_places=1, null=True, blank=True)
    is_warmup = models.BooleanField(default=False)
    completed = models.BooleanField(default=True)
    notes = models.TextField(blank=True)
    logged_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["set_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["exercise", "set_number"], name="setresult_unique_number"
            ),
            models.CheckConstraint(condition=Q(set_number__gte=1), name="setresult_number_gte_1"),
            models.CheckConstraint(
                condition=Q(rpe__isnull=True) | Q(rpe__gte=1, rpe__lte=10),
                name="setresult_rpe_1_to_10",
            ),
        ]

    def __str__(self) -> str:
        return f"Set {self.set_number}: {self.reps} × {self.load}"

    def get_owner_object(self) -> Program:
        return self.exercise.session.week.program


class RevisionVia(models.TextChoices):
    CHAT = "chat", "Chat"
    ADMIN = "admin", "Admin"
    IMPORT = "import", "Import"
    UNDO = "undo", "Undo"
    RESTORE = "restore", "Restore"
    SEED = "seed", "Seed"
    COMMAND = "command", "Command line (coach_tools)"


class ProgramRevision(models.Model):
    """One recorded change of a program: who, when, how, and the diff (``programs.history``).

    ``changes`` is a list of ``{"model", "pk", "op", "before", "after", "where"}``: ``op`` is
    create, update or delete; an update holds only the changed fields, a create or delete the
    whole row (with its parent id) so it can be removed or recreated with the same primary key;
    ``where`` names the row by its positions at the time ("Week 2, Session 1, Exercise 3")."""

    program = models.ForeignKey(Program, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField(help_text="1-based, per program, in order of recording.")
    created_at = models.DateTimeField(auto_now_add=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="program_revisions",
        help_text="Who made the change (empty for the system).",
    )
    via = models.CharField(max_length=10, choices=RevisionVia.choices)
    summary = models.TextField(blank=True)
    source = models.CharField(
        max_length=100, blank=True, help_text='What caused it, e.g. "batch:12".'
    )
    changes = models.JSONField(default=list)
    program_version = models.PositiveIntegerField(help_text="The program's version after it.")
    undoes = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="undone_by",
        help_text="The revision this one undid.",
    )

    class Meta:
        ordering = ["program", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["program", "number"], name="revision_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="revision_number_gte_1"),
        ]

    def __str__(self) -> str:
        return f"Change #{self.number} of {self.program.name} ({self.via})"

    def get_owner_object(self) -> Program:
        return self.program


# --- templates: one program for many athletes (``programs.plan_templates``) ----------------------


class ProgramTemplate(models.Model):
    """A coach's program for many athletes. Its weeks, sessions and exercises are those of
    ``program``: a program of the coach's own (athlete and coach both the coach), so the one-page
    editor and the tool engine edit it as any program. It is never anyone's plan: the plan, the
    roster and who-coaches-whom leave it out (``AthleteProgram``)."""

    coach = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="program_templates"
    )
    name = models.CharField(max_length=200)
    program = models.OneToOneField(Program, on_delete=models.CASCADE, related_name="as_template")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    def get_owner_object(self) -> Program:
        return self.program


class TemplateVersion(models.Model):
    """The template's tree as it was after one save (``programs.history.snapshot``'s weeks,
    sessions, cardio blocks and exercises): what an assignment came from, the base of the next
    change proposed to it."""

    template = models.ForeignKey(ProgramTemplate, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField(help_text="1-based, per template.")
    program_version = models.PositiveIntegerField(help_text="The template program's version.")
    tree = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["template", "number"]
        constraints = [
            models.UniqueConstraint(fields=["template", "number"], name="template_version_unique")
        ]

    def __str__(self) -> str:
        return f"{self.template} v{self.number}"

    def get_owner_object(self) -> Program:
        return self.template.program


class TemplateAssignment(models.Model):
    """One athlete's program made from a template: its start date, the template version it was
    made from and the one it is in step with, and which of its rows came from which of the template's (``links``: ``{"week":
    {template pk: pk}, "session": ..., "exercise": ...}``)."""

    template = models.ForeignKey(
        ProgramTemplate, on_delete=models.CASCADE, related_name="assignments"
    )
    program = models.OneToOneField(Program, on_delete=models.CASCADE, related_name="from_template")
    start_date = models.DateField()
    version = models.ForeignKey(
        TemplateVersion,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="The template version the program is in step with (applied or decided).",
    )
    made_from = models.PositiveIntegerField(help_text="The template version it was made from.")
    links = models.JSONField(default=dict)
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["template", "pk"]

    def __str__(self) -> str:
        return f"{self.template} → {self.program.athlete}"

    def get_owner_object(self) -> Program:
        return self.program


class AthleteProgramManager(models.Manager):
    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().filter(as_template__isnull=True)


class AthleteProgram(Program):
    """Programs that are an athlete's plan, templates left out: who coaches whom is read here
    (``programs.access.COACHING``), so a coach is never their own athlete through a template."""

    objects = AthleteProgramManager()

    class Meta:
        proxy = True
