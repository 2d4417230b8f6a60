"""The compiled game: the rules of `skyjo.engine` on arrays, and everything that
plays them in compiled code (Numba). No module outside this package compiles.

- `table`: the tables and their rules (`step`...), handed on here, so that
  `kernel.new_tables`, `kernel.step` name them; `cache`: Numba's on-disk
  cache, kept fresh after an edit;
- `twister`: `random.Random`'s generator in compiled code; `chance`: the
  engine's seeded decks and reshuffles (`skyjo.shuffle`), `random.Random`'s
  seeding and the bots' seeds, compiled;
- `playouts`: the rest of a round played by a playout policy (the search's),
  `playout_greedy` and `playout_expected` those policies, `valuation` the
  `expected` bot's valuation and options, `forecast` and `game_odds` what a
  playout's end is worth, `win_chance` the search's value of a played-out
  table;
- `vector`: the environments' game (many tables, a learner against
  compiled bots, and the AEC environment's one table, every seat played from
  Python) and its step of play (`move`), which every compiled game plays
  through; `policies` and `loop`: the bots as compiled policies and the
  batch simulator's game loop (whole games, on `move`);
- `layout` and `encoding`: the agents' observation array and its encoder.

The Python drivers stand outside: `skyjo.bots`, `skyjo.batch`, `skyjo.env`.
"""

from skyjo.kernel.table import *  # noqa: F403
from skyjo.kernel.table import __all__ as __all__
