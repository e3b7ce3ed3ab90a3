"""Searching the workout library, ranked, over only what the user may see.

PostgreSQL: full-text search on ``search_document`` (a weighted tsvector kept by a trigger:
title A, tags and sport B, description and exercise names C; GIN-indexed) with every query word
as a prefix (``leg:* | day:*``), ranked by ``ts_rank`` plus the trigram word similarity of the
query to the title (pg_trgm, GIN-indexed), which also catches typos ("sqaut").

SQLite (and any other database): the same words are scored in Python over the visible rows:
a title word beats a tag or the sport, which beats the description or an exercise name; an exact
word beats a prefix ("leg" finds "legs"), which beats a near miss (difflib ratio ≥ 0.8).

Either way ties go by title, then ID, and the result is a list of ``WorkoutHit``.
``render_search_results`` turns it into the text a model reads: user-written titles are quoted,
bounded data.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from django.contrib.postgres.search import SearchQuery, SearchRank, TrigramWordSimilarity
from django.db import connection
from django.db.models import F, Q, Value
from django.db.models.functions import Lower

from .access import visible_workouts
from .models import LibraryWorkout

MAX_LIMIT = 10
MAX_QUERY_CHARS = 200
MAX_TITLE_CHARS = 80
TRIGRAM_THRESHOLD = 0.3
# Words that say "a workout" without saying which: ignored unless they are all the query has.
FILLER_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "any",
        "for",
        "find",
        "give",
        "i",
        "me",
        "my",
        "of",
        "please",
        "show",
        "some",
        "the",
        "to",
        "with",
        "workout",
        "workouts",
        "session",
        "sessions",
        "training",
        "routine",
    ]
)
WORD = re.compile(r"[^\W_]+", re.UNICODE)


@dataclass(frozen=True)
class WorkoutHit:
    id: int
    title: str
    sport: str
    duration_minutes: int
    intensity: str
    tags: tuple[str, ...]
    score: float


def query_words(query: str) -> list[str]:
    """The lower-case words of ``query``, without filler words (unless nothing else is left)."""
    words = list(dict.fromkeys(WORD.findall(query.lower())))
    meaningful = [w for w in words if w not in FILLER_WORDS]
    return meaningful or words


def _check(query: Any, limit: Any) -> list[str]:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be a whole number from 1 to {MAX_LIMIT} (got {limit!r}).")
    if not isinstance(query, str):
        raise ValueError("query must be text, e.g. 'leg workout'.")
    if len(query) > MAX_QUERY_CHARS:
        raise ValueError(f"query is {len(query)} characters long; at most {MAX_QUERY_CHARS}.")
    words = query_words(query)
    if not words:
        raise ValueError("query needs at least one word, e.g. 'legs' or 'easy run'.")
    return words


def search_workouts(*, user: Any, query: str, limit: int = 5) -> list[WorkoutHit]:
    """The ``limit`` (1 to 10) workouts ``user`` may see that best match ``query``, best first."""
    words = _check(query, limit)
    workouts = visible_workouts(user)
    if connection.vendor == "postgresql":
        return _search_postgres(workouts, words, limit)
    return _search_portable(workouts, words, limit)


def _hit(workout: Any, score: float) -> WorkoutHit:
    return WorkoutHit(
        id=workout.pk,
        title=workout.title,
        sport=workout.sport,
        duration_minutes=workout.duration_minutes,
        intensity=workout.intensity,
        tags=tuple(workout.tags or ()),
        score=round(float(score), 4),
    )


# --- PostgreSQL ---------------------------------------------------------------------------------


def _search_postgres(workouts, words: list[str], limit: int) -> list[WorkoutHit]:
    # Words are [^\W_]+ only, so they are safe in a raw tsquery; each is a prefix.
    tsquery = SearchQuery(" | ".join(f"{w}:*" for w in words), search_type="raw", config="english")
    text = " ".join(words)
    ranked = (
        workouts.annotate(
            rank=SearchRank(F("search_document"), tsquery),
            similarity=TrigramWordSimilarity(Value(text), "title"),
        )
        .annotate(score=F("rank") + F("similarity"))
        .filter(Q(search_document=tsquery) | Q(similarity__gte=TRIGRAM_THRESHOLD))
        .order_by("-score", Lower("title"), "pk")
        .only("pk", "title", "sport", "duration_minutes", "intensity", "tags")
    )
    return [_hit(w, w.score) for w in ranked[:limit]]


# --- everywhere else ----------------------------------------------------------------------------

TIERS = (("title", 10.0), ("tags", 5.0), ("text", 2.0))  # exact-word score of each tier
PREFIX_FACTOR = 0.6
NEAR_FACTOR = 0.3
NEAR_RATIO = 0.8


def _word_score(word: str, candidates: set[str]) -> float:
    """1 for an exact word, ``PREFIX_FACTOR`` for a prefix either way (3+ letters),
    ``NEAR_FACTOR`` for a near miss (4+ letters), else 0."""
    if word in candidates:
        return 1.0
    if any(
        min(len(word), len(c)) >= 3 and (c.startswith(word) or word.startswith(c))
        for c in candidates
    ):
        return PREFIX_FACTOR
    if len(word) >= 4 and any(
        len(c) >= 4 and SequenceMatcher(None, word, c).ratio() >= NEAR_RATIO for c in candidates
    ):
        return NEAR_FACTOR
    return 0.0


def _fields(row: LibraryWorkout) -> dict[str, set[str]]:
    template = row.template if isinstance(row.template, dict) else {}
    exercise_names = " ".join(e.get("name", "") for e in template.get("exercises") or [])
    cardio = template.get("cardio") or {}
    return {
        "title": set(WORD.findall(row.title.lower())),
        "tags": set(WORD.findall(" ".join([*(row.tags or []), row.sport]).lower())),
        "text": set(
            WORD.findall(f"{row.description} {exercise_names} {cardio.get('modality', '')}".lower())
        ),
    }


def portable_score(row: LibraryWorkout, words: list[str]) -> float:
    fields = _fields(row)
    return sum(weight * _word_score(w, fields[tier]) for w in words for tier, weight in TIERS)


def _search_portable(workouts, words: list[str], limit: int) -> list[WorkoutHit]:
    rows = workouts.only(
        "pk", "title", "sport", "duration_minutes", "intensity", "tags", "description", "template"
    )
    scored = [(portable_score(row, words), row) for row in rows]
    scored = [(score, row) for score, row in scored if score > 0]
    scored.sort(key=lambda pair: (-pair[0], pair[1].title.casefold(), pair[1].pk))
    return [_hit(row, score) for score, row in scored[:limit]]


# --- what a model reads -------------------------------------------------------------------------


def quote_title(title: str, *, limit: int = MAX_TITLE_CHARS) -> str:
    """A user-written title as a JSON string literal cut to ``limit`` characters."""
    if len(title) > limit:
        title = title[: limit - 1] + "…"
    return json.dumps(title, ensure_ascii=False)


def render_search_results(hits: list[WorkoutHit], *, query: str) -> str:
    """``Found these workouts:`` then ``1. "Title" (ID: 12)`` lines; or a line saying none
    matched. Titles and the query are quoted data, never instructions."""
    if not hits:
        return f"No workouts in the library match {quote_title(query)}."
    lines = ["Found these workouts:"]
    lines += [f"{n}. {quote_title(hit.title)} (ID: {hit.id})" for n, hit in enumerate(hits, 1)]
    return "\n".join(lines)
