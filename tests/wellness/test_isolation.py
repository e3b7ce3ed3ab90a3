"""Everyone sees only their own: another athlete's logs are not on the page, not in the coach's
reads, and deleting one answers 404; tools always act for the conversation's athlete."""

import datetime
import pathlib

import pytest
from django.urls import reverse

from coach import engine
from coach.toolcalls import ToolCall
from tests.factories import ConversationFactory, UserFactory, build_program
from wellness import services
from wellness.models import MedicationLog, MoodLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def mine():
    return UserFactory(username="alex")


@pytest.fixture
def theirs():
    return UserFactory(username="blake")


def log(athlete, name):
    return services.log_medication(athlete=athlete, name=name, kind="supplement")


def test_the_page_lists_only_my_logs(client, mine, theirs):
    log(mine, "creatine")
    log(theirs, "secret-pill")
    client.force_login(mine)
    page = client.get(reverse("wellness:page")).content.decode()
    assert "creatine" in page and "secret-pill" not in page


def test_deleting_someone_elses_log_is_404_and_changes_nothing(client, mine, theirs):
    other = log(theirs, "secret-pill")
    client.force_login(mine)
    response = client.post(reverse("wellness:delete", args=["medication", other.pk]))
    assert response.status_code == 404
    assert MedicationLog.objects.filter(pk=other.pk).exists()
    assert client.post(reverse("wellness:delete", args=["nonsense", 1])).status_code == 404


def test_deleting_my_log_is_soft(client, mine):
    own = log(mine, "creatine")
    client.force_login(mine)
    assert client.post(reverse("wellness:delete", args=["medication", own.pk])).status_code == 302
    assert not MedicationLog.objects.filter(pk=own.pk).exists()
    assert MedicationLog.all_objects.get(pk=own.pk).deleted_at is not None


def test_the_page_needs_a_login(client):
    assert client.get(reverse("wellness:page")).status_code == 302


def test_the_coachs_reads_see_only_the_conversations_athlete(mine, theirs):
    conversation = ConversationFactory(
        program=build_program(weeks=1, sessions=1, exercises=1, athlete=mine)
    )
    log(mine, "creatine")
    log(theirs, "secret-pill")
    services.log_mood(athlete=theirs, mood="poor")
    ctx = engine.ToolContext(athlete=mine, program=conversation.program, user=mine)
    result = engine.execute_read(
        ctx=ctx, call=ToolCall(id="r", name="get_wellness_logs", arguments={})
    )
    assert result.success and "creatine" in result.summary
    assert "secret-pill" not in result.summary and "poor" not in result.summary


def test_a_write_tool_writes_for_the_contexts_athlete_only(mine, theirs):
    conversation = ConversationFactory(
        program=build_program(weeks=1, sessions=1, exercises=1, athlete=mine)
    )
    ctx = engine.ToolContext(athlete=mine, program=conversation.program, user=mine)
    result = engine.apply_calls(
        ctx=ctx, calls=[ToolCall(id="m", name="log_mood", arguments={"mood": "good"})]
    )
    assert result.success
    assert MoodLog.objects.get().athlete == mine and not MoodLog.objects.filter(athlete=theirs)


def test_an_old_date_is_refused_naming_the_bound(mine):
    old = datetime.date.today() - datetime.timedelta(days=400)
    with pytest.raises(services.WellnessError, match="within the last 90 days"):
        services.log_mood(athlete=mine, mood="good", logged_on=old)


def test_the_wellness_app_imports_no_coach_or_chat():
    """Its data code knows no engine; only its tools declaration (``wellness/tools/``) plugs into
    the engine (``coach``), and nothing of it imports the chat."""
    root = pathlib.Path(__file__).resolve().parents[2] / "wellness"
    for path in root.rglob("*.py"):
        text = path.read_text()
        if "tools" not in path.relative_to(root).parts:
            assert "from coach" not in text and "import coach" not in text, path
        assert "from chat" not in text and "import chat" not in text, path
