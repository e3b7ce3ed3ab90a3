"""The coaching eval (``chat.evals``, ``manage.py eval_coach``): the repository's scenarios pass
on the offline coach, a wrong answer is reported as failing, k runs give pass^k, and a real HTTP
provider (the fake server) is measured with its tokens and latency."""

from __future__ import annotations

import datetime
import io
import json
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from chat.evals import runner
from chat.evals.report import build_report, evaluate, pass_hat
from chat.evals.scenarios import ScenarioError, load_path
from chat.models import Conversation
from coach.llm import get_provider
from coach.llm.offline import OfflineProvider
from programs.models import Program
from tests.chat.evals.placeholders import resolve_every_placeholder

pytestmark = pytest.mark.django_db

SCENARIOS = Path(settings.BASE_DIR) / "evals" / "scenarios"

RENAME = """
[fixture]
weeks = 1
days = [{ name = "Lower Body", day = "Monday", exercises = ["Back Squat", "Leg Press"] }]

[[scenario]]
id = "t-rename"
title = "Rename the squat"
[[scenario.steps]]
say = "Swap my back squats for goblet squats"
command = "rename exercise 1.1.1 to Goblet Squat"
expect = { calls = [{ tool = "modify_exercise", args = { weekNumber = 1, sessionNumber = 1, exerciseNumber = 1, "updates.name" = { regex = "(?i)goblet" } } }], pending = true }
[[scenario.steps]]
click = "apply"
expect = { outcome = "applied", acknowledged = true, program = { "1.1.1.name" = "Goblet Squat" } }
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "scenarios.toml"
    path.write_text(text, encoding="utf-8")
    return path


def report_of(outcomes, provider, k: int = 1, phrasing: str = "command") -> dict:
    import datetime

    now = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    return build_report(
        outcomes, provider=provider, k=k, phrasing=phrasing, paths=[], started=now, finished=now
    )


REPOSITORY_SCENARIOS = load_path(SCENARIOS)


def test_the_repository_has_seed_000s_17_scenarios_and_those_of_seeds_001_and_003():
    ids = {s.id for s in REPOSITORY_SCENARIOS}
    assert ids >= {f"000-{n:02}" for n in range(1, 18)}
    assert any(i.startswith("001-") for i in ids) and any(i.startswith("003-") for i in ids)
    assert all(s.phrasing_ok("natural") == "" for s in REPOSITORY_SCENARIOS)


@pytest.mark.parametrize("scenario", REPOSITORY_SCENARIOS, ids=lambda s: s.id)
def test_each_command_form_scenario_of_the_repository_passes_on_the_offline_coach(scenario):
    [outcome] = evaluate([scenario], provider=OfflineProvider(), k=1, phrasing="command")

    if scenario.needs_model:
        assert outcome.status == "skipped"
        return
    [run] = outcome.runs
    failed = [
        (step.label, check.name, check.detail)
        for step in run.steps
        for check in step.checks
        if not check.passed
    ]
    assert (run.error, failed) == ("", [])
    assert outcome.status == "pass" and run.exact
    # The run was rolled back: no fixture athlete, program or conversation is left.
    assert not Program.objects.filter(athlete__username__startswith="eval-").exists()
    assert not Conversation.objects.exists()


def test_a_wrong_answer_is_reported_as_failing_with_the_reason(tmp_path):
    wrong = RENAME.replace('{ regex = "(?i)goblet" }', '{ regex = "(?i)front" }').replace(
        '"1.1.1.name" = "Goblet Squat"', '"1.1.1.name" = "Back Squat"'
    )
    [outcome] = evaluate(
        load_path(write(tmp_path, wrong)), provider=OfflineProvider(), k=1, phrasing="command"
    )

    assert outcome.status == "fail"
    [run] = outcome.runs
    failed = {(c.name, c.detail) for s in run.steps for c in s.checks if not c.passed}
    assert failed == {
        (
            "tool calls proposed",
            "missing modify_exercise ×1; unexpected modify_exercise (modify_exercise "
            "updates.name: 'Goblet Squat' does not match /(?i)front/)",
        ),
        ("program 1.1.1.name", "'Goblet Squat' ≠ 'Back Squat'"),
    }
    assert run.exact is False
    report = report_of([outcome], OfflineProvider())
    assert report["summary"]["failed"] == 1 and report["summary"]["pass_hat_k"] == 0


def test_a_message_step_that_writes_without_apply_fails_the_no_write_check(tmp_path, monkeypatch):
    """The runner's own guarantee: if the product ever wrote on a message, the check says so."""

    real = runner.run_turn

    def writing_turn(*, placeholder, provider):
        real(placeholder=placeholder, provider=provider)
        Program.objects.filter(conversations__pk=placeholder.conversation_id).update(
            name="Changed behind the athlete's back"
        )

    monkeypatch.setattr(runner, "run_turn", writing_turn)
    [outcome] = evaluate(
        load_path(write(tmp_path, RENAME)), provider=OfflineProvider(), k=1, phrasing="command"
    )
    checks = {c.name: c.passed for c in outcome.runs[0].steps[0].checks}
    assert checks["no write without Apply"] is False
    assert outcome.status == "fail"


def test_pass_hat_is_the_chance_that_k_tries_all_pass():
    assert pass_hat(3, 3, 3) == 1.0
    assert pass_hat(2, 3, 1) == pytest.approx(2 / 3)
    assert pass_hat(2, 3, 2) == pytest.approx(1 / 3)  # C(2,2)/C(3,2)
    assert pass_hat(2, 3, 3) == 0.0
    assert pass_hat(4, 8, 2) == pytest.approx(6 / 28)
    with pytest.raises(ValueError):
        pass_hat(1, 2, 3)


def test_k_runs_through_the_fake_http_provider_give_pass_k_tokens_and_latency(
    tmp_path, llm_settings_openai
):
    server = llm_settings_openai
    good = {
        "weekNumber": 1,
        "sessionNumber": 1,
        "exerciseNumber": 1,
        "updates": {"name": "Goblet Squat"},
    }
    wrong = {**good, "exerciseNumber": 2}
    usage = {"prompt_tokens": 1200, "completion_tokens": 40, "total_tokens": 1240}
    # Per run: the proposal, then the acknowledgment after Apply.
    for args in (good, wrong, good):
        server.enqueue_openai_tool_calls(
            [("call_1", "modify_exercise", args)], text="Goblet squats it is.", usage=usage
        )
        server.enqueue_openai_text("Done.", usage={"prompt_tokens": 1300, "completion_tokens": 5})

    provider = get_provider()
    [outcome] = evaluate(
        load_path(write(tmp_path, RENAME)), provider=provider, k=3, phrasing="natural"
    )

    assert [run.passed for run in outcome.runs] == [True, False, True]
    report = report_of([outcome], provider, k=3, phrasing="natural")
    scenario = report["scenarios"][0]
    assert scenario["passes"] == 2 and scenario["status"] == "fail"
    assert scenario["pass_hat"] == {"1": pytest.approx(2 / 3), "2": pytest.approx(1 / 3), "3": 0.0}
    assert report["summary"]["pass_at_1"] == pytest.approx(0.6667)
    assert report["summary"]["pass_hat_k"] == 0.0
    assert scenario["exact_runs"] == 2
    # What the model was sent is the athlete's natural words, through the real HTTP client.
    bodies = [json.dumps(r.json) for r in server.requests]
    assert len(server.requests) == 6
    assert sum("Swap my back squats for goblet squats" in b for b in bodies) == 6
    first = scenario["run_details"][0]
    assert first["prompt_tokens"] == 2500 and first["completion_tokens"] == 45
    assert first["model_calls"] == 2
    replies = [r for step in first["steps"] for r in step["replies"]]
    assert all(r["model_latency_ms"] is not None and r["turn_ms"] >= 0 for r in replies)
    assert report["summary"]["prompt_tokens"] == 3 * 2500
    assert set(report["summary"]["turn_ms"]) == {"total", "mean", "p50", "p95", "max"}
    assert report["summary"]["turn_ms"]["total"] > 0
    # The second run's wrong call is named in its checks.
    second = scenario["run_details"][1]["steps"][0]["checks"]
    assert any("exerciseNumber: 2.0 ≠ 1" in c["detail"] or "2 ≠ 1" in c["detail"] for c in second)


def test_a_scripted_malformed_call_goes_through_the_product_and_is_refused(tmp_path):
    text = """
[[scenario]]
id = "t-malformed"
title = "Cut-off JSON"
fixture = { weeks = 1 }
[[scenario.steps]]
command = "rename exercise 1.1.1 to Lunges"
model = { calls = [{ tool = "modify_exercise", raw = "{\\"weekNumber\\": 1," }] }
expect = { calls = [], pending = false, reply = { regex = "Nothing was changed" } }
"""
    [outcome] = evaluate(
        load_path(write(tmp_path, text)), provider=OfflineProvider(), k=1, phrasing="command"
    )
    assert outcome.status == "pass", outcome.runs[0].steps[0].checks
    [call] = outcome.runs[0].steps[0].calls
    assert (call["name"], call["status"]) == ("modify_exercise", "refused")


def test_the_command_writes_the_json_report_and_fails_when_a_scenario_fails(tmp_path):
    path = write(tmp_path, RENAME)
    target = tmp_path / "out" / "report.json"
    out = io.StringIO()
    call_command(
        "eval_coach", "--provider", "offline", "-k", "2", "--scenarios", str(path),
        "--report", str(target), stdout=out,
    )  # fmt: skip
    report = json.loads(target.read_text())
    assert report["schema"] == "spotter-eval-coach/1"
    assert (report["provider"], report["phrasing"], report["k"]) == ("offline", "command", 2)
    assert report["summary"]["passed"] == 1 and report["summary"]["pass_hat_k"] == 1.0
    assert report["scenarios"][0]["runs"] == 2
    assert "passed 1/1" in out.getvalue()

    failing = write(tmp_path, RENAME.replace('"1.1.1.name" = "Goblet Squat"', '"1.1.1.name" = "X"'))
    with pytest.raises(CommandError, match="1 scenario"):
        call_command(
            "eval_coach", "--provider", "offline", "--scenarios", str(failing),
            "--report", str(target), stdout=io.StringIO(),
        )  # fmt: skip
    assert json.loads(target.read_text())["scenarios"][0]["status"] == "fail"


def test_natural_only_scenarios_are_skipped_on_the_offline_coach_and_say_why(tmp_path):
    text = RENAME.replace('command = "rename exercise 1.1.1 to Goblet Squat"\n', "")
    [outcome] = evaluate(
        load_path(write(tmp_path, text)), provider=OfflineProvider(), k=1, phrasing="command"
    )
    assert outcome.status == "skipped"
    assert "no command phrasing" in outcome.skipped


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (RENAME.replace("pending = true", "pendng = true"), "unknown expectations"),
        (RENAME.replace('click = "apply"', 'click = "undo"'), "click is one of"),
        (RENAME.replace('tool = "modify_exercise", ', ""), "needs a tool"),
        ("[[scenario]]\nid = 'x'\n", "'title' is required"),
        ("not = toml = at all", "not valid TOML"),
    ],
)
def test_a_bad_scenario_file_is_refused_with_the_reason(tmp_path, text, message):
    with pytest.raises(ScenarioError, match=message):
        load_path(write(tmp_path, text))


@pytest.mark.parametrize("weekday", range(7))
def test_every_placeholder_of_the_repository_resolves_whatever_the_day(weekday):
    """Scenarios name dates relative to today: on any day of the week each one lands on a session
    of its fixture (the product itself runs on the real date, so this checks the files)."""
    today = datetime.date(2026, 11, 16) + datetime.timedelta(days=weekday)
    resolve_every_placeholder(REPOSITORY_SCENARIOS, today)


def test_the_command_measures_an_anthropic_model_in_natural_language(
    tmp_path, llm_settings_anthropic
):
    server = llm_settings_anthropic
    args = {
        "weekNumber": 1,
        "sessionNumber": 1,
        "exerciseNumber": 1,
        "updates": {"name": "Goblet Squat"},
    }
    server.enqueue_anthropic_tool_use(
        [("toolu_1", "modify_exercise", args)],
        text="Goblet squats it is.",
        usage={"input_tokens": 900, "output_tokens": 30},
    )
    server.enqueue_anthropic_text("Done.", usage={"input_tokens": 950, "output_tokens": 4})
    target = tmp_path / "report.json"
    call_command(
        "eval_coach", "--provider", "anthropic", "--scenarios", str(write(tmp_path, RENAME)),
        "--report", str(target), stdout=io.StringIO(),
    )  # fmt: skip

    report = json.loads(target.read_text())
    assert (report["provider"], report["model"], report["phrasing"]) == (
        "anthropic",
        "fake-model",
        "natural",
    )
    assert report["summary"]["passed"] == 1 and report["summary"]["exact_tool_calls"] == 1.0
    assert (report["summary"]["prompt_tokens"], report["summary"]["completion_tokens"]) == (
        1850,
        34,
    )
    assert server.requests[0].path == "/v1/messages"
    assert "Swap my back squats for goblet squats" in json.dumps(server.requests[0].json)
