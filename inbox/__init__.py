"""The coach's inbox (issue 21, parts 3 to 5): the review inbox, messages between a coach and
their athletes, and the notifications that tell each of them (docs/coaching-inbox.md)."""
