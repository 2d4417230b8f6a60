"""The terminal: the full-screen game (`skyjo play`, `game`), a record replayed
on its board (`skyjo replay --watch`, `replay`), and bots told a line a move
(`skyjo watch`, `watch`)."""
