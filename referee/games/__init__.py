"""One module per game: its rules, notation and scoresheet layout, and nothing else.

Each module exposes `GAME`, an instance of `referee.engine.Game`; `referee.engine.REGISTRY` maps
game ids to these modules, which are imported only when a command needs them.
"""
