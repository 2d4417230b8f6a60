"""The scorepad for the physical game: a scoresheet kept round by round.

`sheet` is the model (plain dicts in and out, JSON-ready, scored by
`skyjo.scoring`), `store` keeps sheets in the games' database, `tui` is the
terminal app (`skyjo scorepad`). See docs/scorepad.md.
"""
