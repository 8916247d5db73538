"""The entry point of the `referee` command and of `python -m referee`: a short-lived process.

Python's cyclic garbage collector runs after every 700 new container objects. Importing a
game's rules and decoding its cached state make far more than that, nearly none of them garbage, so
a `play` set off dozens of collections that found nothing: 6% of a Kingmaker `play`, beyond
Python's own start-up. The first threshold is raised here, before anything else is imported,
so that a command as short as `play` is not collected, while a long `check` or `simulate` still
is (every 100,000 objects). Importing `referee.cli` as a library leaves the collector alone.
"""

import gc

gc.set_threshold(100_000, 20, 20)

from referee.cli import run  # noqa: E402 - after the threshold, which its imports must meet

__all__ = ["run"]
