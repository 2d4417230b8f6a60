"""`python -m skyjo`: the same as the `skyjo` command (RULES.md 6).

The command is imported only when this runs as the program: a process that
multiprocessing spawns (`skyjo serve`'s bot workers) imports this module again
under another name, and needs none of the command line."""

if __name__ == "__main__":
    from skyjo.cli import app

    app()
