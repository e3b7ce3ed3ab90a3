"""Helpers for the coach's calendar and availability tests: a coach with an athlete's program,
and the calendar's URLs and posts as the page sends them."""

from __future__ import annotations

from django.urls import reverse

from programs.models import Program, Session
from tests.factories import build_program
from tests.programs.admin_support import make_coach


def coached_program(username: str, **fields) -> Program:
    """A 2 × 3 program (week 1 from Mon 2 Nov 2026: sessions Mon, Tue, Wed) coached by a new
    coach called ``username``."""
    return build_program(weeks=2, sessions=3, exercises=2, coach=make_coach(username), **fields)


def url(athlete, step: str = "calendar") -> str:
    return reverse(f"training_coach:{step}", args=[athlete.pk])


def session(program, week: int, number: int) -> Session:
    return Session.objects.get(week__program=program, week__position=week, position=number)


def post(client, program, step: str, **fields):
    data = {"version": Program.objects.get(pk=program.pk).version, **fields}
    return client.post(url(program.athlete, step), data)


def move(client, program, target: Session, day: str, **more):
    return post(client, program, "preview", kind="move", session=target.pk, date=day, **more)
