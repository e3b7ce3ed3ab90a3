"""Tool calls the chat and agent tests propose, as ``(id, name, arguments)``."""

RENAME = (
    "call_1",
    "modify_exercise",
    {
        "weekNumber": 1,
        "sessionNumber": 1,
        "exerciseNumber": 1,
        "updates": {"name": "Goblet Squat"},
    },
)
MORE_SETS = (
    "call_2",
    "modify_exercise",
    {
        "weekNumber": 1,
        "sessionNumber": 1,
        "exerciseNumber": 2,
        "updates": {"workingSets": 5},
    },
)
