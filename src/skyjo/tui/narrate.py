"""The log's lines: what each step did, in words, with the rules explained.

`render.describe_events` writes a sentence per event; here the sentences
become `Text` (so a name is shown as written, never read as markup), styled
by kind, and the moments a newcomer may not expect are explained: a cleared
column, a reshuffle, the last turns, the round-end reveal and the ender's
penalty (in the words of `scoring.score_round`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from skyjo.engine import RoundResult, State
from skyjo.events import Event
from skyjo.observation import Observation
from skyjo.render import describe_events
from skyjo.scoring import score_round

_STYLES = {
    "column_cleared": Style(color="green", bold=True),
    "reshuffled": Style(color="cyan", bold=True),
    "final_turns": Style(color="magenta", bold=True),
    "round_ended": Style(bold=True),
    "ender_doubled": Style(color="yellow", bold=True),
    "game_over": Style(bold=True, underline=True),
    "dealt": Style(bold=True),
}


#: The kinds whose sentence starts with our words, not with a player's name.
_OUR_WORDS_FIRST = frozenset({"dealt", "round_ended", "game_over"})


def after_colon(sentence: str, name: str) -> str:
    """`sentence`, which starts with `name` (or its possessive), written to
    follow a colon: in lower case when the name is the default human's "You"
    ("Round over: your face-down cards..."), as written for any other name."""
    return sentence[:1].lower() + sentence[1:] if name == "You" else sentence


def explain(event: Event, sentence: str, names: Sequence[str] = ()) -> str:
    """`sentence` with what the rules do here, for the events that need it;
    `names` are the seats' names (for "You", written in lower case after a colon)."""
    if event.kind == "column_cleared":
        return f"{sentence}: the three cards go on the discard pile, the column scores nothing"
    if event.kind == "reshuffled":
        return (
            "The draw pile was empty: the discard pile but its top card was shuffled "
            f"into a new draw pile of {event.count} cards"
        )
    if event.kind == "revealed" and event.position is None:
        seat = event.player
        name = names[seat] if seat is not None and 0 <= seat < len(names) else ""
        return f"Round over: {after_colon(sentence, name)}"
    if event.kind in _OUR_WORDS_FIRST:  # never a name: it is shown as written
        return sentence[:1].upper() + sentence[1:]
    return sentence


def penalty_reason(result: RoundResult, names: Sequence[str], penalty: str) -> str:
    """Why the ender was or was not doubled (RULES.md 2.10), in a sentence."""
    raw = dict(zip(names, result.raw, strict=True))
    return score_round(raw, names[result.ender], penalty).reason


def event_lines(
    events: Sequence[Event],
    names: Sequence[str],
    before: State | Observation | None,
    results: Sequence[RoundResult] = (),
    penalty: str = "positive",
) -> list[Text]:
    """A styled line per event of one step; `before` is the table just before
    it (for the round number and whether an exchanged card was face down) and
    `results` the rounds scored after it (for the ender's penalty)."""
    sentences = describe_events(events, names, before)
    lines: list[Text] = []
    for event, sentence in zip(events, sentences, strict=True):
        if event.kind == "ender_doubled":
            continue  # said by the penalty's reason, after round_ended
        lines.append(Text(explain(event, sentence, names), style=_STYLES.get(event.kind, "")))
        if event.kind == "round_ended" and results:
            reason = penalty_reason(results[-1], names, penalty)
            lines.append(Text(reason, style=_STYLES["ender_doubled"]))
    return lines
