"""`python -m skyjo`: the same as the `skyjo` command (RULES.md 6)."""

from skyjo.cli import app

if __name__ == "__main__":
    app()
