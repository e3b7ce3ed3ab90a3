"""How many reply streams one account keeps open, counted across every web process.

One account may hold ``CHAT_STREAMS_PER_ACCOUNT`` open streams (``GET /messages/<id>/stream/``);
opening one more closes its oldest. Each open stream holds a *slot*: a random token in the
account's sorted set ``spotter:streams:<user id>``, scored by when it opened (Redis's clock, one
for every process). Opening a slot (one script, so two processes opening at once count in turn)
drops the slots older than a stream can live (a process that died never released them), adds the
new one and, past the cap, removes the oldest and appends a ``close`` entry to each removed
slot's own stream, ``spotter:stream-close:<token>``, and publishes ``close`` on the channel of the
same name (``chat.stream_hub``). An open stream reads that key with its reply's, so it wakes at
once, sends a final event that turns its bubble into a polling one (that tab still gets the reply)
and ends (``chat.views.stream``).

Redis out of reach: no slot, so no stream; the bubble polls the database instead. Every call gives
up after ``REDIS_TIMEOUT`` seconds (the clients of ``chat.stream``).
"""

from __future__ import annotations

import contextlib
import secrets

import redis
from django.conf import settings

KEY = "spotter:streams:{user_id}"
CLOSE_PREFIX = "spotter:stream-close:"

# KEYS[1]: the account's slots. ARGV: the new token, the cap, the seconds a slot may live, the
# prefix of the close keys. Returns the tokens it closed.
_OPEN = """
local key, token, cap, ttl, prefix = KEYS[1], ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - ttl)
redis.call('ZADD', key, now, token)
local excess = redis.call('ZCARD', key) - cap
local closed = {}
if excess > 0 then
  for _, old in ipairs(redis.call('ZRANGE', key, 0, -1)) do
    if excess <= 0 then break end
    if old ~= token then
      redis.call('ZREM', key, old)
      redis.call('XADD', prefix .. old, '*', 'type', 'close')
      redis.call('EXPIRE', prefix .. old, ttl)
      redis.call('PUBLISH', prefix .. old, 'close')
      table.insert(closed, old)
      excess = excess - 1
    end
  end
end
redis.call('EXPIRE', key, ttl)
return closed
"""


def cap() -> int:
    return max(1, int(settings.CHAT_STREAMS_PER_ACCOUNT))


def lifetime() -> int:
    """Seconds a slot is kept at most: longer than any stream lasts (its time, a blocked last
    write, its last wait on Redis and a margin)."""
    return int(
        float(settings.CHAT_STREAM_MAX_SECONDS)
        + float(settings.CHAT_STREAM_WRITE_TIMEOUT)
        + 2 * float(settings.REDIS_TIMEOUT)
        + 10
    )


class Slot:
    """One stream's place among its account's open streams."""

    def __init__(self, user_id: int) -> None:
        self.key = KEY.format(user_id=user_id)
        self.token = secrets.token_hex(12)
        self.close_key = CLOSE_PREFIX + self.token
        self.reachable = True  # the stream's last Redis call was answered
        self.released = False  # given back: the response's close and its events' end both try

    def _args(self) -> list:
        return [_OPEN, 1, self.key, self.token, cap(), lifetime(), CLOSE_PREFIX]

    def open(self, client: redis.Redis) -> bool:
        """Take the slot (closing the account's oldest streams past the cap); False when Redis
        can't be reached."""
        try:
            client.eval(*self._args())
        except redis.RedisError:
            return False
        return True

    def release(self, client: redis.Redis) -> None:
        """Give the slot back; not when Redis just failed to answer (the stream would wait for it
        again): that slot expires with the set (``lifetime``)."""
        if not self.reachable or self.released:
            return
        self.released = True
        with contextlib.suppress(redis.RedisError):
            client.pipeline(transaction=False).zrem(self.key, self.token).delete(
                self.close_key
            ).execute()


def open_streams(client: redis.Redis, user_id: int) -> int:
    """How many slots the account holds (for tests and the operator)."""
    return int(client.zcard(KEY.format(user_id=user_id)))
