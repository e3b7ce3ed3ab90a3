"""The tool call audit log in the admin: what each role sees, the columns, filters, facets,
search over the arguments' text, the detail page, and the admin index link."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from chat.models import ToolCallRecord
from tests.chat.admin_helpers import RENAME, logged_in, propose, record
from tests.factories import ConversationFactory, build_program

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:chat_toolcallrecord_changelist"


def change_url(obj) -> str:
    return reverse("admin:chat_toolcallrecord_change", args=[obj.pk])


def listed(client, **params) -> set[int]:
    response = client.get(reverse(CHANGELIST), params)
    assert response.status_code == 200
    return {obj.pk for obj in response.context["cl"].result_list}


# --- who sees what -------------------------------------------------------------------------------


def test_staff_sees_every_tool_call(client, staff_user, coached_conversation, other_conversation):
    mine, theirs = record(coached_conversation), record(other_conversation)
    assert listed(logged_in(client, staff_user)) == {mine.pk, theirs.pk}
    assert client.get(change_url(theirs)).status_code == 200


def test_a_superuser_sees_every_tool_call(
    client, superuser_user, coached_conversation, other_conversation
):
    mine, theirs = record(coached_conversation), record(other_conversation)
    assert listed(logged_in(client, superuser_user)) == {mine.pk, theirs.pk}


def test_a_coach_sees_only_their_athletes_tool_calls(
    client, coach_user, coached_conversation, other_conversation
):
    mine = record(coached_conversation)
    record(other_conversation)
    assert listed(logged_in(client, coach_user)) == {mine.pk}
    assert client.get(change_url(mine)).status_code == 200


def test_another_coach_cannot_open_a_record_of_an_athlete_they_do_not_coach(
    client, other_coach_user, coached_conversation
):
    hidden = record(coached_conversation, arguments={"secret": "hidden-value"})
    logged_in(client, other_coach_user)
    assert listed(client) == set()
    response = client.get(change_url(hidden), follow=True)
    assert response.redirect_chain[-1][0] == reverse("admin:index")
    assert "hidden-value" not in response.content.decode()


def test_an_athlete_is_sent_to_the_admin_login(client, athlete_user, coached_conversation):
    row = record(coached_conversation)
    logged_in(client, athlete_user)
    for url in (reverse(CHANGELIST), change_url(row)):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))


def test_nobody_can_add_change_or_delete_an_audit_record(
    client, superuser_user, coached_conversation
):
    row = record(coached_conversation)
    logged_in(client, superuser_user)
    assert client.get(reverse("admin:chat_toolcallrecord_add")).status_code == 403
    assert client.get(reverse("admin:chat_toolcallrecord_delete", args=[row.pk])).status_code == 403
    response = client.post(change_url(row), {"tool": "remove_week", "status": "applied"})
    assert response.status_code == 403
    row.refresh_from_db()
    assert (row.tool, row.status) == ("modify_exercise", "proposed")
    page = client.get(change_url(row)).content.decode()
    assert 'name="_save"' not in page


# --- the list ------------------------------------------------------------------------------------


def test_the_list_shows_tokens_latencies_and_the_many_calls_flag(
    client, staff_user, coached_conversation
):
    record(coached_conversation, apply_latency_ms=42, many_calls=True, turn_call_count=7)
    html = logged_in(client, staff_user).get(reverse(CHANGELIST)).content.decode()
    for text in ("120 + 30", "850 ms", "42 ms", "alex", "modify_exercise", "gpt-test", "openai"):
        assert text in html
    for header in ("Tokens", "Model latency", "Apply latency", "Many calls", "Provider"):
        assert header in html


def test_the_list_filters_by_status_tool_kind_provider_model_athlete_and_many_calls(
    client, staff_user, coached_conversation, other_conversation
):
    write = record(coached_conversation, status="applied", many_calls=True)
    read = record(
        coached_conversation,
        tool="get_program_overview",
        kind="read",
        status="executed",
        provider="anthropic",
        model="claude-test",
    )
    other = record(other_conversation, status="cancelled")
    logged_in(client, staff_user)
    assert listed(client, status__exact="applied") == {write.pk}
    assert listed(client, tool="get_program_overview") == {read.pk}
    assert listed(client, kind__exact="read") == {read.pk}
    assert listed(client, provider="anthropic") == {read.pk}
    assert listed(client, model="claude-test") == {read.pk}
    assert listed(client, athlete__id__exact=other.athlete_id) == {other.pk}
    assert listed(client, many_calls="yes") == {write.pk}
    assert listed(client, many_calls="no") == {read.pk, other.pk}


def test_the_many_calls_filter_is_named_after_the_rule(client, staff_user, coached_conversation):
    record(coached_conversation)
    html = logged_in(client, staff_user).get(reverse(CHANGELIST)).content.decode()
    assert "More than 5 calls in one turn" in html


def test_the_athlete_filter_offers_only_athletes_the_coach_may_see(
    client, coach_user, coached_conversation, other_conversation
):
    second = ConversationFactory(
        program=build_program(weeks=1, sessions=1, exercises=1, coach=coach_user)
    )
    record(coached_conversation)
    record(second)
    record(other_conversation)
    response = logged_in(client, coach_user).get(reverse(CHANGELIST))
    html = response.content.decode()
    assert f"athlete__id__exact={coached_conversation.athlete_id}" in html
    assert f"athlete__id__exact={second.athlete_id}" in html
    assert f"athlete__id__exact={other_conversation.athlete_id}" not in html
    assert "blake" not in html


def test_the_list_shows_facet_counts(client, staff_user, coached_conversation):
    record(coached_conversation, status="applied")
    record(coached_conversation, status="applied")
    record(coached_conversation, status="cancelled")
    response = logged_in(client, staff_user).get(reverse(CHANGELIST))
    assert response.context["cl"].add_facets is True
    html = response.content.decode()
    assert "Applied (2)" in html
    assert "Cancelled (1)" in html


def test_the_date_hierarchy_narrows_to_a_day(client, staff_user, coached_conversation):
    old, new = record(coached_conversation), record(coached_conversation)
    then = timezone.now() - datetime.timedelta(days=40)
    ToolCallRecord.objects.filter(pk=old.pk).update(created_at=then)
    local = timezone.localtime(then)
    logged_in(client, staff_user)
    day = {
        "created_at__year": local.year,
        "created_at__month": local.month,
        "created_at__day": local.day,
    }
    assert listed(client, **day) == {old.pk}
    assert new.pk in listed(client)


# --- search --------------------------------------------------------------------------------------


def test_search_finds_text_inside_the_arguments(client, staff_user, coached_conversation):
    hit = record(coached_conversation, arguments={"updates": {"name": "Bulgarian Split Squat"}})
    record(coached_conversation, arguments={"updates": {"name": "Bench Press"}})
    logged_in(client, staff_user)
    assert listed(client, q="split squat") == {hit.pk}
    assert listed(client, q='"Bulgarian Split"') == {hit.pk}


def test_search_finds_non_ascii_argument_text(client, staff_user, coached_conversation):
    hit = record(coached_conversation, arguments={"notes": "Kniebeuge für Anfänger"})
    record(coached_conversation)
    assert listed(logged_in(client, staff_user), q="für") == {hit.pk}


def test_search_finds_applied_arguments_athlete_and_tool(
    client, staff_user, coached_conversation, other_conversation
):
    edited = record(coached_conversation, applied_arguments={"updates": {"reps": "12-15"}})
    renamed = record(other_conversation, tool="rename_week")
    logged_in(client, staff_user)
    assert listed(client, q="12-15") == {edited.pk}
    assert listed(client, q="blake") == {renamed.pk}
    assert listed(client, q="rename_week") == {renamed.pk}


def test_every_search_word_must_match(client, staff_user, coached_conversation):
    both = record(coached_conversation, arguments={"name": "Front Squat"})
    record(coached_conversation, arguments={"name": "Front Raise"})
    assert listed(logged_in(client, staff_user), q="front squat") == {both.pk}


def test_search_stays_within_the_coach_scope(
    client, coach_user, coached_conversation, other_conversation
):
    record(other_conversation, arguments={"name": "Zercher Squat"})
    assert listed(logged_in(client, coach_user), q="zercher") == set()


# --- the detail page -----------------------------------------------------------------------------


def test_the_detail_page_shows_both_arguments_every_transition_and_the_timeline_link(
    client, staff_user, coached_conversation
):
    row = record(
        coached_conversation,
        arguments={"updates": {"name": "<script>alert(1)</script>"}},
        applied_arguments={"updates": {"name": "Goblet Squat (edited)"}},
        status="applied",
        transitions=[
            {"status": "proposed", "at": "2026-11-20T10:00:00+00:00", "by": None},
            {"status": "applied", "at": "2026-11-20T10:05:00+00:00", "by": "alex"},
        ],
        result={"success": True, "summary": "Renamed exercise 1"},
    )
    html = logged_in(client, staff_user).get(change_url(row)).content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Goblet Squat (edited)" in html
    assert "2026-11-20T10:05:00+00:00" in html
    assert "the system" in html  # the proposal had no person behind it
    assert "Renamed exercise 1" in html
    assert reverse("admin:chat_conversation_timeline", args=[coached_conversation.pk]) in html


def test_records_written_by_the_agent_loop_reach_staff(client, staff_user, coached_conversation):
    propose(coached_conversation, RENAME)
    rows = ToolCallRecord.objects.filter(conversation=coached_conversation)
    assert [r.tool for r in rows] == ["modify_exercise"]
    assert listed(logged_in(client, staff_user), tool="modify_exercise") == {rows[0].pk}


# --- the admin index -----------------------------------------------------------------------------


def test_the_admin_index_links_the_tool_call_audit_log(client, staff_user):
    html = logged_in(client, staff_user).get(reverse("admin:index")).content.decode()
    link = f'<a href="{reverse(CHANGELIST)}" id="tool-call-audit-log-link">Tool call audit log</a>'
    assert link in html


def test_the_admin_index_lists_the_audit_log_under_chat_for_a_coach(client, coach_user):
    html = logged_in(client, coach_user).get(reverse("admin:index")).content.decode()
    assert "Tool call audit log" in html
    assert "Pending reviews" in html


def test_an_athlete_gets_no_admin_index(client, athlete_user):
    response = logged_in(client, athlete_user).get(reverse("admin:index"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))
