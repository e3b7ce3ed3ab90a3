"""Searching the workout library, ranked, over only what the user may see.

The query is read once (``library.search_terms``): its meaningful words, their synonyms and a
"quick" hint. Then, on PostgreSQL: full-text search on ``search_document`` (a weighted tsvector
kept by a trigger: title A, tags and sport B, description and exercise names C; GIN-indexed) with
every word and synonym as a prefix (``leg:* | day:*``); the score is ``ts_rank`` times the share
of the query's words the workout matches, plus the trigram word similarity of the query to the
title (pg_trgm, GIN-indexed), which also catches typos.

On SQLite (and any other database) the same words are scored in Python over the visible rows:
a title word beats a tag or the sport, which beats the description or an exercise name; an exact
word beats a prefix ("leg" finds "legs"), which beats a near miss (difflib ratio ≥ 0.8); a
synonym counts half; the sum is multiplied by the share of the query's words matched.

Either way a short workout gets a bonus for "quick"/"short", ties go by title, then ID, and the
result is a list of ``WorkoutHit``. ``render_search_results`` turns it into the text a model
reads: user-written titles are quoted, bounded data.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from django.contrib.postgres.search import SearchQuery, SearchRank, TrigramWordSimilarity
from django.db import connection
from django.db.models import Case, ExpressionWrapper, F, FloatField, Q, Value, When
from django.db.models.functions import Greatest, Lower

from .access import visible_workouts
from .models import LibraryWorkout
from .search_terms import SHORT_MINUTES, WORD, ParsedQuery, parse_query

MAX_LIMIT = 10
MAX_QUERY_CHARS = 200
MAX_TITLE_CHARS = 80
TRIGRAM_THRESHOLD = 0.4
FUZZY_WEIGHT = 0.05  # a near miss in the title scores below a real match


@dataclass(frozen=True)
class WorkoutHit:
    id: int
    title: str
    sport: str
    duration_minutes: int
    intensity: str
    tags: tuple[str, ...]
    score: float


def _check(query: Any, limit: Any) -> ParsedQuery:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be a whole number from 1 to {MAX_LIMIT} (got {limit!r}).")
    if not isinstance(query, str):
        raise ValueError("query must be text, e.g. 'leg workout'.")
    if len(query) > MAX_QUERY_CHARS:
        raise ValueError(f"query is {len(query)} characters long; at most {MAX_QUERY_CHARS}.")
    parsed = parse_query(query)
    if not parsed.groups:
        raise ValueError("query needs at least one word, e.g. 'legs' or 'easy run'.")
    return parsed


def search_workouts(*, user: Any, query: str, limit: int = 5) -> list[WorkoutHit]:
    """The ``limit`` (1 to 10) workouts ``user`` may see that best match ``query``, best first.

    A workout that matches every word of the query beats one that matches some of them very
    well; ties go by title. Raises ``ValueError`` for an empty or over-long query or a bad limit."""
    parsed = _check(query, limit)
    workouts = visible_workouts(user)
    if connection.vendor == "postgresql":
        return _search_postgres(workouts, parsed, limit)
    return _search_portable(workouts, parsed, limit)


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


def _tsquery(terms: tuple[str, ...]) -> SearchQuery:
    # Terms are [^\W_]+ only, so they are safe in a raw tsquery; each is a prefix.
    return SearchQuery(" | ".join(f"{t}:*" for t in terms), search_type="raw", config="english")


def _search_postgres(workouts, parsed: ParsedQuery, limit: int) -> list[WorkoutHit]:
    everything = _tsquery(parsed.alternatives)
    similarity = {
        f"similarity_{n}": TrigramWordSimilarity(Value(group[0]), "title")
        for n, group in enumerate(parsed.groups)
    }
    # A word is matched when the document has it (or a synonym), or the title nearly has it.
    matched = [
        Case(
            When(
                Q(search_document=_tsquery(group))
                | Q(**{f"similarity_{n}__gte": TRIGRAM_THRESHOLD}),
                then=Value(1.0),
            ),
            default=Value(0.0),
        )
        for n, group in enumerate(parsed.groups)
    ]
    # Near misses only count for workouts the full-text search did not find, and below them.
    fuzzy = Case(
        When(search_document=everything, then=Value(0.0)),
        default=FUZZY_WEIGHT * Greatest(*(F(name) for name in similarity), Value(0.0)),
        output_field=FloatField(),
    )
    short_bonus = Case(
        When(duration_minutes__lte=SHORT_MINUTES, then=Value(SHORT_BONUS if parsed.short else 1.0)),
        default=Value(1.0),
    )
    ranked = (
        workouts.annotate(rank=SearchRank(F("search_document"), everything), **similarity)
        .annotate(
            coverage=ExpressionWrapper(
                sum(matched, start=Value(0.0)) / len(parsed.groups), output_field=FloatField()
            )
        )
        .filter(coverage__gt=0)
        .annotate(
            score=ExpressionWrapper(
                (F("rank") + fuzzy) * F("coverage") * short_bonus,
                output_field=FloatField(),
            )
        )
        .order_by("-score", Lower("title"), "pk")
        .only("pk", "title", "sport", "duration_minutes", "intensity", "tags")
    )
    return [_hit(w, w.score) for w in ranked[:limit]]


# --- everywhere else ----------------------------------------------------------------------------

TIERS = (("title", 10.0), ("tags", 5.0), ("text", 2.0))  # exact-word score of each tier
PREFIX_FACTOR = 0.6
NEAR_FACTOR = 0.3
NEAR_RATIO = 0.8
SYNONYM_FACTOR = 0.5
SHORT_BONUS = 1.5


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


def _group_score(group: tuple[str, ...], fields: dict[str, set[str]]) -> float:
    """The word's score over the tiers; a synonym counts ``SYNONYM_FACTOR`` as much."""
    word, *synonyms = group
    best = sum(weight * _word_score(word, fields[tier]) for tier, weight in TIERS)
    for synonym in synonyms:
        score = sum(weight * (synonym in fields[tier]) for tier, weight in TIERS)
        best = max(best, SYNONYM_FACTOR * score)
    return best


def portable_score(row: LibraryWorkout, parsed: ParsedQuery) -> float:
    """Sum of the words' scores, times the share of the query's words the workout matches (and
    ``SHORT_BONUS`` for a short workout when the query asked for a quick one)."""
    fields = _fields(row)
    scores = [_group_score(group, fields) for group in parsed.groups]
    coverage = sum(1 for s in scores if s > 0) / len(scores)
    bonus = SHORT_BONUS if parsed.short and row.duration_minutes <= SHORT_MINUTES else 1.0
    return sum(scores) * coverage * bonus


def _search_portable(workouts, parsed: ParsedQuery, limit: int) -> list[WorkoutHit]:
    rows = workouts.only(
        "pk", "title", "sport", "duration_minutes", "intensity", "tags", "description", "template"
    )
    scored = [(portable_score(row, parsed), row) for row in rows]
    scored = [(score, row) for score, row in scored if score > 0]
    scored.sort(key=lambda pair: (-pair[0], pair[1].title.casefold(), pair[1].pk))
    return [_hit(row, score) for score, row in scored[:limit]]


# --- what a model reads -------------------------------------------------------------------------


def quote_title(title: str, *, limit: int = MAX_TITLE_CHARS) -> str:
    """A user-written title as a JSON string literal cut to ``limit`` characters."""
    if len(title) > limit:
        title = title[: limit - 1] + "…"
    return json.dumps(title, ensure_ascii=False)


def plain_title(title: str, *, limit: int = MAX_TITLE_CHARS) -> str:
    """A title as a person reads it: as written, cut to ``limit`` characters."""
    return title if len(title) <= limit else title[: limit - 1] + "…"


def render_search_results(
    hits: list[WorkoutHit],
    *,
    query: str,
    asked: int | None = None,
    title: Callable[[str], str] = quote_title,
) -> str:
    """``Found these workouts:`` then ``1. "Title" (ID: 12)`` lines; or a line saying none
    matched. Titles and the query are quoted data, never instructions (``title=plain_title``: as
    a person reads them). ``asked``: the limit the caller wanted, when it was more than
    ``MAX_LIMIT``; a full page then says it was cut."""
    if not hits:
        return f"No workouts in the library match {quote_title(query)}."
    lines = ["Found these workouts:"]
    lines += [f"{n}. {title(hit.title)} (ID: {hit.id})" for n, hit in enumerate(hits, 1)]
    if asked is not None and asked > MAX_LIMIT and len(hits) >= MAX_LIMIT:
        lines.append(
            f"(A search shows at most {MAX_LIMIT} workouts; you asked for {asked}. Narrow the "
            "query to find others.)"
        )
    return "\n".join(lines)
