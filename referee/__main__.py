"""`python -m referee` runs the command line."""

from referee.console import run

run()
