"""The digest hook of the stand-in app: one line per call, naming the coach."""

DIGEST_TITLE = "New flags"


def digest_lines(*, coach, since):
    return [f"Sore knee noted for an athlete of {coach.get_username()}"]
