"""An in-memory store with the method names of ``play/lobby/store.py``'s SqliteStore
(what the lobby server calls: :class:`~twos_tui.play.lobby.store_api.LobbyStore`), for
the server's tests where the real store is not the point."""

from __future__ import annotations

import itertools
import time

from twos_tui.play.lobby.model import (
    Account,
    LeaderRow,
    MatchOutcome,
    Rating,
    RatingInfo,
    ResultInfo,
    TableRecord,
)


class NameRefused(ValueError):
    pass


class MemoryStore:
    """Ratings: +10 a win, -10 otherwise (the server does not care how they move)."""

    def __init__(self) -> None:
        self.accounts: dict[str, Account] = {}
        self.ratings_: dict[tuple[str, str], Rating] = {}
        self.results: list[MatchOutcome] = []
        self.records: dict[str, TableRecord] = {}
        self._guests = itertools.count(1001)
        self.closed = False

    def account(self, name: str) -> Account | None:
        return self.accounts.get(name)

    def account_for_key(self, key: str) -> Account | None:
        return next((a for a in self.accounts.values() if a.key == key), None)

    def claim_name(self, name: str, key: str) -> Account:
        if not 2 <= len(name) <= 16 or not name.replace(" ", "").isalnum():
            raise NameRefused("A name is 2 to 16 letters or digits.")
        if name.lower() in (a.lower() for a in self.accounts):
            raise NameRefused(f"The name {name!r} is taken: choose another.")
        acct = Account(name, key, False, False, time.time())
        self.accounts[name] = acct
        return acct

    def guest(self, prefix: str = "guest") -> Account:
        name = f"{prefix}-{next(self._guests)}"
        acct = Account(name, None, True, False, time.time())
        self.accounts[name] = acct
        return acct

    def drop_guest(self, name: str) -> bool:
        a = self.accounts.get(name)
        if a is None or not a.guest:
            return False
        del self.accounts[name]
        return True

    def ban(self, name: str) -> bool:
        a = self.accounts.get(name)
        if a is None:
            return False
        self.accounts[name] = Account(a.name, a.key, a.guest, True, a.created)
        return True

    def rating(self, name: str, game: str) -> Rating:
        return self.ratings_.get((name, game), Rating(name, game, 25.0, 25 / 3, 0))

    def ratings(self, name: str) -> tuple[RatingInfo, ...]:
        return tuple(
            RatingInfo(g, 1000 + r.mu, r.matches, None)
            for (n, g), r in self.ratings_.items()
            if n == name
        )

    def finish_match(self, outcome: MatchOutcome) -> dict[str, tuple[float, float]]:
        if any((o.table_id, o.ended) == (outcome.table_id, outcome.ended) for o in self.results):
            return {}
        self.results.append(outcome)
        out = {}
        if outcome.rated:
            for name, place in outcome.places:
                acct = self.accounts.get(name) if name else None
                if acct is None or acct.guest:
                    continue
                r = self.rating(name, outcome.game)  # type: ignore[arg-type]
                mu = r.mu + (10 if place == 1 else -10)
                self.ratings_[(acct.name, outcome.game)] = Rating(
                    acct.name, outcome.game, mu, r.sigma, r.matches + 1
                )
                out[acct.name] = (1000 + r.mu, 1000 + mu)
        return out

    def recent_results(self, name: str, limit: int = 10) -> tuple[ResultInfo, ...]:
        out = []
        for o in reversed(self.results):
            for n, place in o.places:
                if n == name:
                    out.append(ResultInfo(o.game, o.ended, place, len(o.places), None))
        return tuple(out[:limit])

    def leaderboard(self, game: str, limit: int = 20) -> tuple[LeaderRow, ...]:
        rows = sorted(
            (r for (n, g), r in self.ratings_.items() if g == game and r.matches),
            key=lambda r: -r.mu,
        )
        return tuple(
            LeaderRow(i, r.name, 1000 + r.mu, r.matches) for i, r in enumerate(rows[:limit], 1)
        )

    def save_table(self, rec: TableRecord) -> None:
        self.records[rec.table_id] = rec

    def drop_table(self, table_id: str) -> None:
        self.records.pop(table_id, None)

    def tables(self, process: str | None = None) -> tuple[TableRecord, ...]:
        return tuple(r for r in self.records.values() if process is None or r.process == process)

    def close(self) -> None:
        self.closed = True
