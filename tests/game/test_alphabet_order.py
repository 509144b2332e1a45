"""A page in the game's alphabet order, picked without ordering every match."""

from __future__ import annotations

import random

from lexicon.game import profile


def test_first_matches_a_full_sort_in_every_game() -> None:
    rng = random.Random(5)
    for game in ("osps", "kvizovka", "krizemkrazem"):
        prof = profile.load(game)
        order = prof.alphabet.order
        tiles = [t.canonical for t in prof.tiles]
        rank = {c: i for i, c in enumerate(tiles)}
        keys = list({"".join(rng.choices(tiles, k=rng.randint(1, 9))) for _ in range(3000)})
        expected = sorted(keys, key=lambda k: [rank[c] for c in k])
        for n in (1, 50, 400, 3000, 5000):
            assert order.first(keys, n) == expected[:n], (game, n)
        assert order.first([], 5) == [] and order.first(keys, 0) == []
