"""The nutrition pages: recipes, the week's meal plan, and a grocery list to tick off on a phone.

Views are thin: find the household the user may read (their own; ``?household=ID`` for a coach or
staff reading an athlete's), else 404, never someone else's data; writes (ticking an item) only
for the household's members. Joining and leaving are each person's own act (``households``). A tick is an htmx POST that swaps
the item's row; without JavaScript the form posts and the page reloads.
"""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from access.login import login_required
from access.policy import may_act, visible
from config.params import date_bounds, date_param, id_param

from . import households, selectors, services
from .access import household_for
from .aggregation import quantity_text
from .models import GroceryItem, GroceryList, Household, MealType, Recipe


def _household(request: HttpRequest) -> Household | None:
    wanted = request.GET.get("household", "")
    if wanted:
        household_id = id_param(wanted)
        if household_id is None:
            raise Http404("No such household.")
        found = visible(Household.objects.all(), request.user).filter(pk=household_id).first()
        if found is None:
            raise Http404("No such household.")
        return found
    return household_for(request.user)


def _context(request: HttpRequest, household: Household | None, **extra) -> dict:
    return {
        "household": household,
        "query": f"?household={household.pk}" if household and request.GET.get("household") else "",
        "can_change": household is not None and may_act(request.user, household),
        **extra,
    }


def _ingredient_rows(recipe: Recipe) -> list[str]:
    rows = []
    for line in recipe.ingredients:
        text = f"{quantity_text(services.Decimal(line['quantity']))} {line['unit']} {line['name']}"
        rows.append(f"{text}, {line['prep_state']}" if line["prep_state"] else text)
    return rows


@login_required
@require_GET
def recipes(request: HttpRequest) -> HttpResponse:
    household = _household(request)
    tag = request.GET.get("tag", "").strip()
    found = selectors.recipes(household, tags=[tag] if tag else None)
    return render(
        request, "nutrition/recipes.html", _context(request, household, recipes=found, tag=tag)
    )


def _readable(request: HttpRequest, model, pk: int, lookup: str = "household"):
    obj = visible(model.objects.all(), request.user, lookup=lookup).filter(pk=pk).first()
    if obj is None:
        raise Http404("Not found.")
    return obj


@login_required
@require_GET
def recipe(request: HttpRequest, recipe_id: int) -> HttpResponse:
    found = _readable(request, Recipe, recipe_id)
    context = _context(request, found.household, recipe=found, ingredients=_ingredient_rows(found))
    return render(request, "nutrition/recipe.html", context)


def _monday(raw: str) -> datetime.date:
    """The Monday of ``?week=`` (any day of that week; empty: this week); a date that isn't
    one, or outside ``URL_DATE_MIN``..``URL_DATE_MAX``, is a 404 that says so."""
    day = date_param(raw, default=timezone.localdate(), name="week")
    return day - datetime.timedelta(days=day.weekday())


@login_required
@require_GET
def meals(request: HttpRequest) -> HttpResponse:
    household = _household(request)
    monday = _monday(request.GET.get("week", ""))
    days = [monday + datetime.timedelta(days=n) for n in range(7)]
    earliest, latest = date_bounds()
    week_before, week_after = (
        monday - datetime.timedelta(days=7),
        monday + datetime.timedelta(days=7),
    )
    planned = list(selectors.meals(household, days[0], days[-1]))
    grid = {(m.date, m.meal_type): [] for m in planned}
    for meal in planned:
        grid[(meal.date, meal.meal_type)].append(meal)
    rows = [
        {"day": day, "slots": [(kind, grid.get((day, kind), [])) for kind in MealType.values]}
        for day in days
    ]
    context = _context(
        request,
        household,
        rows=rows,
        meal_types=MealType.values,
        monday=monday,
        # no link to a week the page would refuse
        previous=(
            max(week_before, earliest)
            if week_before + datetime.timedelta(days=6) >= earliest
            else None
        ),
        next=week_after if week_after <= latest else None,
    )
    return render(request, "nutrition/meals.html", context)


@login_required
@require_GET
def lists(request: HttpRequest) -> HttpResponse:
    household = _household(request)
    found = list(household.lists.all()) if household else []
    return render(request, "nutrition/lists.html", _context(request, household, lists=found))


@login_required
@require_GET
def grocery_list(request: HttpRequest, list_id: int) -> HttpResponse:
    found = _readable(request, GroceryList, list_id)
    items = list(selectors.items(found))
    context = _context(request, found.household, grocery_list=found, items=items)
    return render(request, "nutrition/list.html", context)


@login_required
@require_POST
def item_toggle(request: HttpRequest, item_id: int) -> HttpResponse:
    """Tick or untick an item (only the household's people; anyone else gets a 404)."""
    item = (
        GroceryItem.objects.select_related("grocery_list__household")
        .filter(grocery_list__deleted_at=None, pk=item_id)
        .first()
    )
    if item is None or not may_act(request.user, item.grocery_list.household):
        raise Http404("Not found.")
    services.item_set_checked(item=item, checked=request.POST.get("checked") == "1")
    if not request.htmx:
        return redirect("nutrition:list", list_id=item.grocery_list_id)
    context = _context(request, item.grocery_list.household, item=item)
    return render(request, "nutrition/list.html#item", context)


def _invitation_id(request: HttpRequest) -> int:
    raw = request.POST.get("invitation", "")
    if not raw.isdigit():
        raise Http404("No such invitation.")
    return int(raw)


def _household_post(request: HttpRequest) -> HttpResponse:
    """The viewer's own acts, on their own household and invitations only (a ``?household=`` in
    the address is ignored here): invite, accept, decline, leave. Someone else's invitation, or
    one no longer open, is a 404."""
    action = request.POST.get("action", "")
    try:
        if action == "invite":
            answer = households.invite(by=request.user, username=request.POST.get("username", ""))
            messages.success(request, answer)
        elif action == "accept":
            joined = households.accept(user=request.user, invitation_id=_invitation_id(request))
            messages.success(request, f"You joined {joined.name}.")
        elif action == "decline":
            households.decline(user=request.user, invitation_id=_invitation_id(request))
            messages.success(request, "Invitation declined.")
        elif action == "leave":
            left = households.leave(user=request.user)
            messages.success(
                request,
                f"You left {left.name}; its recipes, meal plans and grocery lists stay with its "
                "other members.",
            )
        else:
            raise Http404("Unknown action.")
    except services.NutritionError as exc:
        if exc.code == "NOT_FOUND" and action in ("accept", "decline"):
            raise Http404(exc.message) from None
        if action == "invite":  # the typed name stays in the box
            return _household_page(
                request, error=exc.message, typed=request.POST.get("username", ""), status=422
            )
        messages.error(request, exc.message)
    return redirect("nutrition:household")


def _household_page(
    request: HttpRequest, *, error: str = "", typed: str = "", status: int = 200
) -> HttpResponse:
    home = _household(request) if request.method == "GET" else household_for(request.user)
    own = request.method != "GET" or not request.GET.get("household")
    members = list(home.members.select_related("user")) if home else []
    context = _context(
        request,
        home,
        members=members,
        own=own,
        invitations=households.pending_for(request.user) if own else [],
        may_leave=own and len(members) > 1,
        error=error,
        typed=typed,
    )
    return render(request, "nutrition/household.html", context, status=status)


@login_required
def household(request: HttpRequest) -> HttpResponse:
    """Who shares the household, the invitations waiting for the viewer's answer, and the
    viewer's own acts: invite someone, accept or decline an invitation, leave."""
    if request.method == "POST":
        return _household_post(request)
    return _household_page(request)
