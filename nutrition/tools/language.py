"""The nutrition family in everyday words (``coach.llm.offline.language``): grocery lists and
items ("add oats to my grocery list", "put 2 liters of milk on the shopping list", "we need three
bananas"), a new list named or for an occasion ("start a new list for the bbq": "BBQ"), recipes
typed in a sentence, read or planned by title ("show me the overnight oats recipe", "put overnight
oats down for breakfast on saturday"), a recipe's ingredients pushed to a list, an item ticked off
by its name ("tick the milk off my list"), and questions about recipes, the meal plan and the
lists.

Items are read by ``said`` (a quantity, a unit, a known ingredient or a free name); what a
sentence points at (lists, recipes, items on the lists) by ``references``; the recipe and meal
plan builds are ``meals``'. A list is the one named ("add eggs to Costco"), else the household's
grocery list (the tool's default: its only one, or a new one when it has none); with several
lists and none named, which one is asked, with chips that retell the request per list. Recipes
are named by their titles; a recipe that isn't there is not planned. A list's name said in lower
case is capitalised ("meal prep" → "Meal Prep", "bbq" → "BBQ"); one typed with capitals is kept."""

from __future__ import annotations

import re

from coach.llm.offline.grammar import CommandError, Parsed
from coach.llm.offline.language import (
    Ask,
    Intent,
    Language,
    NotMeant,
    Slots,
    message_of,
)
from nutrition.aggregation import quantity_text
from nutrition.ingredients import known_ingredients

from . import meals, said
from .references import item_names, list_names, list_title, recipe_titles, which_list

MEALS = [
    *((w, "breakfast") for w in ("breakfast", "brekkie", "brunch")),
    *((w, "lunch") for w in ("lunch", "lunchtime")),
    *((w, "dinner") for w in ("dinner", "supper", "tea", "tonight's dinner")),
]
LIST_WORDS = (
    "(grocery list|groceries|shopping list|shopping|list|groceries list|food list|shopping cart)"
)


def _as_typed(slots: Slots, words: str) -> str:
    """``words`` as the athlete typed them, commas included (the matcher drops punctuation, and
    "6 bananas, 2 avocados" is two items, not one called "bananas 2 avocados")."""
    parts = words.split()
    if not parts:
        return words
    pattern = r"[\s,;]+".join(re.escape(p) for p in parts)
    m = re.search(pattern, message_of(slots), re.I)
    return m.group(0) if m else words


def _add_items(slots: Slots) -> list[Parsed] | Ask:
    typed = _as_typed(slots, str(slots.get("items", "")))
    if re.search(r"\b(?:ingredients|recipes?)\b", typed, re.I):
        raise NotMeant  # "the ingredients for overnight oats" is a recipe's, not one item
    if re.fullmatch(
        r"(?:some|a few|the)?\s*(?:something|anything|stuff|things|everything|it|"
        r"them|that|those|these|this|some)",
        typed.strip(" ,.!?"),
        re.I,
    ):
        raise CommandError('Say what to add, e.g. "add 2 liters of milk to my grocery list".')
    one_item = re.search(r"\s+as\s+(?:an?|one|a single)\s+item\W*$", typed, re.I)
    found = said.items(typed[: one_item.start()] if one_item else typed, slots.world)
    if not found:
        raise CommandError('Say what to add, e.g. "add 2 liters of milk to my grocery list".')
    titles = dict(recipe_titles(slots.world))
    for item in found:
        if item.ingredient is None and not one_item and item.words.lower() in titles:
            title = titles[item.words.lower()][1]  # a recipe's title: its ingredients, or one item?
            return Ask(
                f"Add the ingredients of your {title} recipe, or {item.words} as one item?",
                (
                    f"add the ingredients for {title} to my list",
                    f"add {item.words} as one item to my list",
                ),
            )
    things = str(slots.get("items", "")).strip()
    where = which_list(slots, f"add {things} to {{list}}")
    if isinstance(where, Ask):
        return where
    calls = []
    for item in found:
        key = {"ingredient": item.ingredient} if item.ingredient else {"name": item.words[:100]}
        text = f"{quantity_text(item.quantity)} {item.unit} {item.ingredient or item.words}"
        target = where.get("grocery_list_name", "your grocery list")
        calls.append(
            Parsed(
                "grocery_add_item",
                {**where, **key, "quantity": item.quantity, "unit": item.unit},
                f"add {text} to {target}",
            )
        )
    return calls


def _needed_many(slots: Slots) -> list[Parsed] | Ask:
    """ "we're out of eggs and milk": several items, each a known ingredient (else "we're out of
    time" would be a grocery item)."""
    found = said.items(_as_typed(slots, str(slots.get("items", ""))), slots.world)
    if len(found) < 2 or any(item.ingredient is None for item in found):
        raise NotMeant
    return _add_items(slots)


def _needed(slots: Slots) -> list[Parsed] | Ask:
    """ "we need three bananas", "we're out of olive oil": one known ingredient (the template's
    list holds only those, so "I need a break" is not a grocery item)."""
    said_words = slots.words
    amount = (said_words.get("count") or said_words.get("qty") or "", said_words.get("unit_word"))
    things = " ".join(
        w for w in (*amount, "of" if amount[1] else "", said_words["ingredient"]) if w
    )
    where = which_list(slots, f"add {things} to {{list}}")
    if isinstance(where, Ask):
        return where
    said_as = slots.words.get("ingredient", "")
    typed = next(
        (t.athlete_text or t.content for t in reversed(slots.world.turns) if t.role == "user"), None
    )
    if typed is not None and said_as.lower() not in typed.lower():  # a typo corrected: asked
        return Ask(f"Did you mean {said_as}?", (f"add {said_as} to my grocery list",))
    number = slots.get("count") or slots.get("qty")
    unit = slots.get("unit_word") or ("whole" if number else "package")
    ingredient = slots.get("ingredient")
    quantity = number or 1
    return [
        Parsed(
            "grocery_add_item",
            {**where, "ingredient": ingredient, "quantity": quantity, "unit": unit},
            f"add {quantity_text(quantity)} {unit} {ingredient} to your grocery list",
        )
    ]


# Ingredients whose name is also a training word: "need a date" is the calendar's, so they are
# items only where a list is named ("add dates to my list").
NOT_ALONE = frozenset({"date", "dates"})


def _ingredient_words() -> list[tuple[str, str]]:
    """The known ingredients (the data file the table is loaded from) by the words people use,
    said alone ("we need three bananas")."""
    return sorted(
        {
            (form, name)
            for name, _ in known_ingredients()
            for form in said.forms(name)
            if form not in NOT_ALONE
        }
    )


def _create_list(slots: Slots) -> Parsed:
    """A new list called what was said ("called Meal Prep"), or named for what it is for ("a
    list for the bbq" → "BBQ"; "for me" names nothing)."""
    name = str(slots.get("list_name", "")).strip(" \"'.,!?")
    if re.search(r"\bfor\s+" + re.escape(name) + r"\W*$", slots.text, re.I):
        name = re.sub(r"^(?:the|my|our|a|an)\s+", "", name, flags=re.I)
        if name.lower() in ("me", "us", "myself", "ourselves", "it", "that", "this"):
            name = ""
        titles = {t for t, _ in recipe_titles(slots.world)}
        if name.lower() in titles or re.search(r"\b(?:meal plan|meals|recipes?)\b", name, re.I):
            raise NotMeant  # "a list for my meal plan" wants its ingredients, not an empty list
    name = list_title(name)
    if not name:
        raise CommandError('Name the list, e.g. "create a grocery list called Weekend BBQ".')
    return Parsed("grocery_create_list", {"name": name[:100]}, f'create the list "{name}"')


WHEN = (
    "[(on|for) {day} [night|evening|morning|afternoon]|{when} [night|evening|morning|afternoon]|"
    "(on|for) {when} [night|evening|morning|afternoon]]"
)
LANGUAGE = Language(
    lists={"grocery_list": list_names, "recipe": recipe_titles, "grocery_item": item_names},
    values={
        "meal": MEALS,
        "ingredient": _ingredient_words(),
        "unit_word": sorted(said.UNIT_WORDS.items()),
        "qty": sorted(said.NUMBER_WORDS.items()),
    },
    wildcards=("items", "list_name", "recipe_text", "recipe_query"),
    rules={
        "list": f"[<the>] [{{grocery_list}}] {LIST_WORDS} [please|pls|plz|thanks|thx] "
        "[rn|right now|atm|at the moment|now|currently|today]",
        "when_meal": WHEN,
        "amount": "[some|more] [{count}|{qty}] [{unit_word}] [of]",
        "with_food": "(with|using|that use|that have|that has|containing|made with|featuring|"
        "tagged|tagged as|labelled|labeled)",
        "have_any": "(got|are there|is there|do i have|do we have|have i got|have we got|"
        "did i save|have i saved)",
        "thanks": "(please|pls|plz|thanks|thx)",
    },
    intents=(
        Intent(
            "grocery_create_list",
            (
                "[<please>] (create|start|make|add|set up|open|begin) [me] [a|an] [new] "
                "(grocery|shopping|food) list (called|named|titled|for) {list_name}",
                "[a] new (grocery|shopping|food) list (called|named|titled) {list_name}",
                "[<please>] (create|start|make|new) [a] [new] list (called|named|titled) {list_name}",
                "[<please>] [can you|could you] (create|start|make|set up|open|begin) [me] [a|an] "
                "[new|separate|second|another] [grocery|shopping|food] list for {list_name}",
                "[a] new [grocery|shopping|food] list for {list_name}",
            ),
            build=_create_list,
            examples=("create a grocery list called Weekend BBQ",),
        ),
        Intent(
            "grocery_add_item",
            (
                "[<please>] [can you|could you] (add|put|stick|throw|pop|write|jot|grab|get|pick "
                "up|buy) [down] {items} (to|on|onto|in|into|for) <list>",
                "[<please>] (add|put) {items} (to|on|onto) [<the>] {grocery_list} [list] "
                "[please|pls|plz|thanks|thx]",
                "(i|we) need {items} (add|put) (it|them|that|those|these) (to|on|onto|in) <list>",
                "(i|we) (need|are out of|ran out of|have run out of|'ve run out of) {items} "
                "(for|on) <list>",
            ),
            build=_add_items,
            examples=("add oats to my grocery list", "put 2 liters of milk on the shopping list"),
        ),
        Intent(
            "grocery_need",
            (
                "[(i|we)] [really|also|still] (need|are out of|ran out of|have run out of|'ve run "
                "out of) [to buy|to get|to pick up] <amount> {ingredient}",
                "(we're|i'm|were|im|we are|i am) [all|completely|almost|nearly] out of <amount> "
                "{ingredient}",
                "[(i|we)] (need to|have to|gotta|got to|must|should) (buy|pick up|get) [some|more] "
                "<amount> {ingredient}",
                "[<please>] (buy|pick up) [some|more] <amount> {ingredient} [please|pls|plz]",
                "[(we're|i'm|were|im|we are|i am|we|i)] [all|completely|almost|nearly|totally] "
                "(out of|low on|running low on|running out of|short on|ran out of) <amount> "
                "{ingredient}",
            ),
            build=_needed,
        ),
        Intent(
            "grocery_need_many",
            (
                "[(we're|i'm|were|im|we are|i am|we|i)] [all|completely|almost|nearly|totally] "
                "(out of|low on|running low on|running out of|ran out of|need) {items}",
            ),
            build=_needed_many,
        ),
        Intent(
            "recipe_create",
            (
                "[<please>] (save|create|add|make|write down|new) [me] [a|the|my] [new] recipe "
                "{recipe_text}",
            ),
            build=meals.recipe_typed,
            examples=("save a recipe for overnight oats: 1 cup oats, 1 cup milk",),
        ),
        Intent(
            "recipe_list",
            (
                "(what|which) recipes (do i have|have i got|are there|did i save|do we have)",
                "(do|have) (i|we) (have|got|saved) any [saved] recipes",
                "(show|list|give|read) [me] [all] [my|the|our] [saved] recipes",
                "[my|our] recipes",
                "[<have_any>] any [saved] recipes [<thanks>]",
                # with a food: "do i have any recipes with chicken", "show my chicken recipes"
                "(what|which) recipes (do i have|have i got|are there|did i save|do we have) "
                "<with_food> {recipe_query}",
                "(do|have) (i|we) (have|got|saved) any [saved] recipes <with_food> {recipe_query}",
                "[got] any recipes <with_food> {recipe_query}",
                "(show|list|give|read|find) [me] [all|a|any|some] [my|the|our] [saved] (recipes|"
                "recipe) <with_food> {recipe_query}",
                "(what|which) [of] [my|our|the] recipes (have|has|use|contain|include|are) "
                "{recipe_query}",
                "(show|list|give|read|find) [me] [all] [my|the|our|any] {recipe_query} recipes "
                "[<thanks>]",
                # a quality or a food before "recipes": "any high protein recipes", "got any
                # vegetarian recipes", "do i have any quick recipes"
                "[<have_any>] any {recipe_query} (recipes|recipe ideas) [<thanks>]",
                "[<have_any>] any recipes (for|that are) {recipe_query}",
                "recipes <with_food> {recipe_query}",
                "(what|which) [recipes|recipe|meals|dishes] can (i|we) (make|cook) <with_food> "
                "{recipe_query}",
                "how many recipes (have i|do i have|have we|do we have|did i|are there) "
                "[got|saved]",
            ),
            build=meals.recipes,
            examples=("what recipes do I have", "do I have any recipes with chicken"),
        ),
        Intent(
            "planner_get_meal",
            (
                "(what's|whats|what is) (for|on the menu for|planned for) {meal} [<when_meal>]",
                "(what|what's) (am i|are we|will i be|will we be|i'm|we're) (having|eating|"
                "cooking|making) (for|at) {meal} [<when_meal>]",
                "(what's|whats|what is) [planned|on the menu] for {meal} [<when_meal>]",
                "(what's|whats|what is) (planned|on the menu|on the meal plan) [for] <when_meal>",
            ),
            build=meals.meal,
            examples=("what's for dinner tonight",),
        ),
        Intent(
            "planner_list_meals",
            (
                "(what|which) meals are (planned|on the plan|coming up) [for|in] [the next "
                "{count} days|{next_week}|this week|the week]",
                "(show|what's|whats|what is) [me] [on|in] [my|the|our] meal (plan|planner|schedule) "
                "[for] [the next {count} days|{next_week}|this week|the week]",
                "[(show|tell) me] (what|which) meals (are|we've got|we have|i've got|i have|have "
                "we got|have i got|we've|i've) [got] (planned|on the plan|coming up|lined up) "
                "[for|in] [the next {count} days|{next_week}|this week|the week]",
            ),
            build=meals.meals,
            examples=("what meals are planned for the next 7 days",),
        ),
        Intent(
            "planner_add_meal",
            (
                "[<please>] (plan|schedule|put|add|have|make|pencil in) [my|the] {recipe} [down|in] "
                "(for|as) [my] {meal} [<when_meal>]",
                "[<please>] (plan|schedule|put|add) [my|the] {recipe} [<when_meal>] (for|as) "
                "{meal}",
            ),
            build=meals.plan,
            examples=("plan overnight oats for breakfast tomorrow",),
        ),
        Intent(
            "recipe_get",
            (
                "[<please>] (show|open|give|read|pull up|get|find) [me] [the|my|our] {recipe} "
                "[recipe] [please|pls|plz|thanks|thx]",
                "[<please>] (show|open|give|read|pull up|get|find) [me] [the|my|our] recipe "
                "(for|called|named) {recipe} [please|pls|plz|thanks|thx]",
                "how (do|should|can) (i|we|you) (make|cook|prepare) [the|my|our] {recipe}",
                "(what's|whats|what is|what goes) in [the|my|our] {recipe} [recipe]",
                "what do (i|we) need (for|to make) [the|my|our] {recipe} [recipe]",
            ),
            build=meals.recipe_get,
            examples=("show me the overnight oats recipe",),
        ),
        Intent(
            "grocery_push_ingredients",
            (
                "[<please>] [can you|could you] (add|put|get|grab|push|send|throw|copy) [all] [of] "
                "[the|my] (ingredients|stuff|things|everything) (for|of|from|in|to make) "
                "[the|my|our] {recipe} [recipe] (to|on|onto|in|into) <list>",
                "[<please>] [can you|could you] (add|put|push|send|copy) [the|my|our] {recipe} "
                "[recipe] ingredients (to|on|onto|in|into) <list>",
                "[<please>] [can you|could you] (add|put|push|send|copy) [the|my|our] {recipe} "
                "recipe (to|on|onto|in|into) <list>",
                "(shop|shopping) for [the|my|our] {recipe} [recipe]",
            ),
            build=meals.push,
            examples=("add the ingredients for overnight oats to my grocery list",),
        ),
        Intent(
            "grocery_check_item",
            (
                "[<please>] [can you|could you] (tick|cross|strike) [off] [the|my|our] "
                "{grocery_item} [off] [(on|from|off) <list>] [please|pls|plz|thanks|thx]",
                "[<please>] [can you|could you] (check|mark) off [the|my|our] {grocery_item} "
                "[(on|from|off) <list>] [please|pls|plz|thanks|thx]",
                "[<please>] [can you|could you] (check|mark) [the|my|our] {grocery_item} (off|as "
                "(done|bought|got|gotten|picked up|purchased)) [(on|from|off) <list>] "
                "[please|pls|plz|thanks|thx]",
            ),
            build=meals.check,
            examples=("tick the milk off my list",),
        ),
        Intent(
            "grocery_list_lists",
            (
                "(show|list|give) [me] [all] [my|the|our] (grocery|shopping) lists",
                "(what|which) (grocery|shopping) lists (do i have|have i got|are there)",
                "[my|our] (grocery|shopping) lists",
            ),
            build=lambda slots: Parsed("grocery_list_lists", {}, "list your grocery lists"),
            examples=("show my grocery lists",),
        ),
        Intent(
            "grocery_get_list",
            (
                "(what's|whats|what is) [left|still] (on|in) <list>",
                "(show|read|give) [me] <list>",
                "what do (i|we) need to (buy|get)",
            ),
            build=meals.show_list,
            examples=("what's on my grocery list",),
        ),
    ),
)
