"""The streaming CSV export of the tool call audit log: the changelist's own filters, search and
scope, read in chunks, with spreadsheet formulas neutralised."""

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from chat.admin.csv_export import COLUMNS, safe_cell
from chat.models import ToolCallRecord
from tests.chat.admin_helpers import logged_in, record

pytestmark = pytest.mark.django_db

EXPORT = "admin:chat_toolcallrecord_export"


def bulk_records(conversation, count: int, **fields) -> None:
    template = {
        "conversation": conversation,
        "athlete_id": conversation.athlete_id,
        "program_id": conversation.program_id,
        "call_id": "call_x",
        "kind": "write",
        "status": "proposed",
        "transitions": [],
        "arguments": {"weekNumber": 1},
        "provider": "openai",
        "model": "gpt-test",
    }
    template.update(fields)
    ToolCallRecord.objects.bulk_create(
        [ToolCallRecord(tool=f"tool_{i % 3}", **template) for i in range(count)], batch_size=500
    )


def read_csv(response) -> list[list[str]]:
    assert response.streaming
    body = b"".join(response.streaming_content).decode("utf-8")
    return list(csv.reader(io.StringIO(body)))


def test_the_export_streams_every_row_of_the_filtered_list(
    client, staff_user, coached_conversation
):
    bulk_records(coached_conversation, 3000)
    logged_in(client, staff_user)
    response = client.get(reverse(EXPORT))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment;" in response["Content-Disposition"]
    rows = read_csv(response)
    assert rows[0] == [header for header, _ in COLUMNS]
    assert len(rows) == 3001

    filtered = read_csv(client.get(reverse(EXPORT), {"tool": "tool_1"}))
    assert len(filtered) == 1001
    tool_column = filtered[0].index("tool")
    assert {row[tool_column] for row in filtered[1:]} == {"tool_1"}


def test_the_export_reads_the_rows_only_while_streaming(client, staff_user, coached_conversation):
    bulk_records(coached_conversation, 50)
    logged_in(client, staff_user)
    with CaptureQueriesContext(connection) as before:
        response = client.get(reverse(EXPORT))
    assert not any('"arguments"' in q["sql"] for q in before.captured_queries)
    with CaptureQueriesContext(connection) as during:
        rows = read_csv(response)
    assert len(rows) == 51
    assert any('"arguments"' in q["sql"] for q in during.captured_queries)


def test_the_export_keeps_the_search_and_the_order(client, staff_user, coached_conversation):
    record(coached_conversation, arguments={"name": "Zercher Squat"}, prompt_tokens=5)
    record(coached_conversation, arguments={"name": "Zercher Lunge"}, prompt_tokens=9)
    record(coached_conversation, arguments={"name": "Bench Press"})
    logged_in(client, staff_user)
    rows = read_csv(client.get(reverse(EXPORT), {"q": "zercher", "o": "0"}))
    arguments = rows[0].index("arguments")
    assert [r[arguments] for r in rows[1:]] == [
        '{"name": "Zercher Squat"}',
        '{"name": "Zercher Lunge"}',
    ]


def test_a_coach_exports_only_their_athletes_records(
    client, coach_user, coached_conversation, other_conversation
):
    record(coached_conversation)
    record(other_conversation)
    rows = read_csv(logged_in(client, coach_user).get(reverse(EXPORT)))
    athlete = rows[0].index("athlete")
    assert [r[athlete] for r in rows[1:]] == ["alex"]


def test_another_coach_exports_nothing_of_an_athlete_they_do_not_coach(
    client, other_coach_user, coached_conversation
):
    record(coached_conversation)
    rows = read_csv(logged_in(client, other_coach_user).get(reverse(EXPORT)))
    assert rows == [[header for header, _ in COLUMNS]]


def test_an_athlete_cannot_export(client, athlete_user, coached_conversation):
    record(coached_conversation)
    response = logged_in(client, athlete_user).get(reverse(EXPORT))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_an_invalid_filter_explains_itself_and_exports_nothing(client, staff_user):
    response = logged_in(client, staff_user).get(
        reverse(EXPORT), {"created_at__year": "not-a-year"}, follow=True
    )
    assert not getattr(response, "streaming", False)
    assert response.redirect_chain[-1][0] == reverse("admin:chat_toolcallrecord_changelist")
    assert "filters are not valid; pick them again from the list" in response.content.decode()


def test_cells_that_start_like_a_formula_get_a_leading_quote(
    client, staff_user, coached_conversation
):
    record(
        coached_conversation, tool="=HYPERLINK(1)", call_id="@SUM(A1)", model="+cmd", provider="-x"
    )
    rows = read_csv(logged_in(client, staff_user).get(reverse(EXPORT)))
    row = dict(zip(rows[0], rows[1], strict=True))
    assert (row["tool"], row["call_id"], row["model"], row["provider"]) == (
        "'=HYPERLINK(1)",
        "'@SUM(A1)",
        "'+cmd",
        "'-x",
    )
    assert row["prompt_tokens"] == "120"


def test_safe_cell_leaves_numbers_and_plain_text_alone():
    assert safe_cell(-5) == -5
    assert safe_cell("Back Squat") == "Back Squat"
    assert safe_cell("\tx") == "'\tx"
    assert safe_cell(None) == ""
    assert safe_cell(True) == "yes"


def test_the_changelist_links_the_export_with_its_filters(client, staff_user, coached_conversation):
    record(coached_conversation)
    response = logged_in(client, staff_user).get(
        reverse("admin:chat_toolcallrecord_changelist"), {"status__exact": "proposed"}
    )
    assert f"{reverse(EXPORT)}?status__exact=proposed" in response.content.decode()
