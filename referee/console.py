"""The entry point of the `referee` command and of `python -m referee`: a short-lived process.

Python's cyclic garbage collector runs after every 700 new container objects. Importing a
game's rules and decoding its cached state make far more than that, nearly none of them garbage, so
a `play` set off dozens of collections that found nothing: 6% of a Kingmaker `play`, beyond
Python's own start-up. The first threshold is raised by `run`, before anything else is imported,
so that a command as short as `play` is not collected, while a long `check` or `simulate` still
is (every 100,000 objects). Importing this module, or `referee.cli`, as a library leaves the
collector alone.

A plain `play` is run without loading Typer at all (referee.plainplay); every other command
line goes on to referee.cli.
"""

import gc
import os
import sys


def run() -> None:
    """The `referee` command: `main`, then leave at once (see cliexit.leave)."""
    gc.set_threshold(100_000, 20, 20)
    from referee import cliexit

    cliexit.leave(main)


def main(argv: list[str] | None = None) -> None:
    """A plain `play` by referee.plainplay, without Typer; any other command line by
    referee.cli."""
    from referee import cliexit, plainplay

    given = sys.argv[1:] if argv is None else argv
    cliexit.prepare_streams()
    args = cliexit.hoist_log(given)
    request = plainplay.recognise(args, os.environ)
    if request is None:
        from referee.cli import main as full

        full(given)
    else:
        plainplay.main(args, request)


__all__ = ["main", "run"]
