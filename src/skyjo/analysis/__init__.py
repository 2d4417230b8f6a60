"""Analysis: reviews of played games built on the bots' values (`skyjo review`).

It sits between the bots and the interfaces (the layer test): the command
line, the terminal and the web show what `skyjo.analysis.review` computes.
"""

from skyjo.analysis.review import Decision, PlayerReview, Review, review

__all__ = ["Decision", "PlayerReview", "Review", "review"]
