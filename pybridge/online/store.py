"""Matches kept in Redis, so that several server processes share them and one killed mid-match
loses nothing (docs/online.md, "Several processes").

Per match ``<p>:match:<name>`` is a hash (``start``, ``hash``: the log's head; ``snapshot``:
the authority's snapshot after the last step; ``tokens``; ``step``) and ``<p>:steps:<name>``
the move log's steps, one JSON text each. ``<p>:lease:<name>`` names the process holding the
match and expires unless that process renews it; ``<p>:process:<id>`` is where a process takes
connections forwarded to it, expiring the same way. Every write of a match runs as one script
that first checks the writer still holds the lease: a process that lost it (paused past its
lease, say) can never write over the one that took the match on.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis

from .match import Match

PREFIX = "pybridge:online"
LEASE_SECONDS = 5.0  # pybridge serve --ws --lease
#: Connections one process opens to Redis at most: many matches' writes at once wait for one
#: (otherwise each opens its own, and hundreds of matches run a process or Redis out of files).
CONNECTIONS = 16

#: KEYS: lease, match hash, steps list. ARGV: holder, a JSON object of hash fields, then the
#: steps to append. Returns 0, writing nothing, unless the caller holds the lease.
_WRITE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local fields = cjson.decode(ARGV[2])
for name, value in pairs(fields) do redis.call('HSET', KEYS[2], name, value) end
for i = 3, #ARGV do redis.call('RPUSH', KEYS[3], ARGV[i]) end
return 1
"""
#: KEYS: the leases to renew. ARGV: holder, lease in ms. Returns how many were renewed; the
#: others are lost.
_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('PEXPIRE', key, ARGV[2])
  else table.insert(lost, i) end
end
return lost
"""


@dataclass(frozen=True)
class Saved:
    """A match as Redis keeps it."""

    log: dict[str, Any]
    snapshot: dict[str, Any]
    tokens: dict[str, str]


class Store:
    """One process's view of the shared matches: its id, its leases, its writes."""

    def __init__(self, url: str, lease: float = LEASE_SECONDS, prefix: str = PREFIX) -> None:
        pool = BlockingConnectionPool.from_url(
            url, max_connections=CONNECTIONS, timeout=lease, decode_responses=True
        )
        self.redis: Redis = Redis(connection_pool=pool)
        self.me = secrets.token_hex(8)
        self.lease = lease
        self.prefix = prefix
        self._write = self.redis.register_script(_WRITE)
        self._renew = self.redis.register_script(_RENEW)

    def _key(self, kind: str, name: str) -> str:
        return f"{self.prefix}:{kind}:{name}"

    @property
    def _ms(self) -> int:
        return max(1, int(self.lease * 1000))

    # -- processes ---------------------------------------------------------------------
    async def announce(self, address: str) -> None:
        """Say where this process takes forwarded connections (for one lease)."""
        await self.redis.set(self._key("process", self.me), address, px=self._ms)

    async def address_of(self, process: str) -> str | None:
        found = await self.redis.get(self._key("process", process))
        return str(found) if found is not None else None

    # -- leases ------------------------------------------------------------------------
    async def new_name(self) -> str:
        return f"m{await self.redis.incr(f'{self.prefix}:matches')}"

    async def take(self, name: str) -> bool:
        """Take the match's lease if no process holds it."""
        return bool(await self.redis.set(self._key("lease", name), self.me, nx=True, px=self._ms))

    async def holder(self, name: str) -> str | None:
        found = await self.redis.get(self._key("lease", name))
        return str(found) if found is not None else None

    async def renew(self, names: list[str]) -> list[str]:
        """Renew this process's leases; returns the names whose lease it lost."""
        if not names:
            return []
        keys = [self._key("lease", n) for n in names]
        lost = await self._renew(keys=keys, args=[self.me, self._ms])
        return [names[int(i) - 1] for i in lost]

    async def release(self, names: list[str]) -> None:
        for name in names:
            if await self.holder(name) == self.me:
                await self.redis.delete(self._key("lease", name))

    # -- a match -----------------------------------------------------------------------
    async def exists(self, name: str) -> bool:
        return bool(await self.redis.exists(self._key("match", name)))

    async def save(self, match: Match, steps: int = 0, head: bool = False) -> bool:
        """Write the match's state, its last ``steps`` log steps and (a new match) the log's
        head: False, writing nothing, when this process no longer holds its lease."""
        fields: dict[str, Any] = {
            "snapshot": json.dumps(match.authority),
            "tokens": json.dumps(match.tokens),
            "step": match.step,
        }
        if head:
            fields |= {"start": json.dumps(match.log["start"]), "hash": match.log["hash"]}
        new = [json.dumps(s) for s in match.log["steps"][-steps:]] if steps else []
        keys = [self._key("lease", match.name), self._key("match", match.name)]
        keys.append(self._key("steps", match.name))
        done = await self._write(keys=keys, args=[self.me, json.dumps(fields), *new])
        return bool(done)

    async def load(self, name: str) -> Saved | None:
        kept = await self.redis.hgetall(self._key("match", name))
        if not kept:
            return None
        steps = await self.redis.lrange(self._key("steps", name), 0, -1)
        log = {
            "format": "pybridge/match-log@1",
            "match": name,
            "start": json.loads(kept["start"]),
            "hash": kept["hash"],
            "steps": [json.loads(s) for s in steps],
        }
        return Saved(log, json.loads(kept["snapshot"]), json.loads(kept["tokens"]))

    async def close(self) -> None:
        await self.redis.aclose()
        await self.redis.connection_pool.disconnect()
