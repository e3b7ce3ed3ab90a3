from coach.replies import MAX_REPLY_CHARS, split_replies


def test_replies_after_the_separator_are_split_off_the_text():
    text, replies = split_replies("Squats work the quads.\n---\nThanks!\nShow me a video")
    assert text == "Squats work the quads."
    assert replies == ["Thanks!", "Show me a video"]


def test_text_without_a_separator_has_no_replies():
    assert split_replies("Just text.\nMore text.") == ("Just text.\nMore text.", [])


def test_bullets_numbers_and_quotes_are_stripped():
    _, replies = split_replies(
        'Hi\n---\n- "Yes, do it"\n* Not now\n1. What\'s the difference?\n• “Later”'
    )
    assert replies == ["Yes, do it", "Not now", "What's the difference?", "Later"]


def test_at_most_four_replies_are_kept():
    _, replies = split_replies("Hi\n---\na\nb\nc\nd\ne\nf")
    assert replies == ["a", "b", "c", "d"]


def test_empty_duplicate_and_over_long_replies_are_dropped():
    long = "x" * (MAX_REPLY_CHARS + 1)
    _, replies = split_replies(f"Hi\n---\n\nYes\n  \nYes\n{long}\n{'y' * MAX_REPLY_CHARS}")
    assert replies == ["Yes", "y" * MAX_REPLY_CHARS]


def test_the_last_separator_counts_so_a_rule_in_the_text_stays():
    text, replies = split_replies("Part one\n---\nPart two\n---\nOK")
    assert text == "Part one\n---\nPart two"
    assert replies == ["OK"]


def test_separator_with_spaces_around_it_is_recognised():
    assert split_replies("Hi\n  ---  \nOK") == ("Hi", ["OK"])


def test_empty_text_has_nothing():
    assert split_replies("") == ("", [])
