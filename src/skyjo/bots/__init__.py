"""Bots: from `random` to search, behind one registry.

    bot = make_bot("greedy", seed=7)
    action = bot.choose(observe(state, seat))

A spec is a name with optional options: `"search:budget=0.2,iterations=500"`.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from skyjo.bots.base import Bot, BotError, BotFactory

#: The ladder users see, weakest first, and `external`: name -> "module:attribute"
#: of its factory (imported on first use). `register` adds to it.
_REGISTRY: dict[str, str] = {
    "random": "skyjo.bots.random_bot:RandomBot",
    "greedy": "skyjo.bots.greedy:GreedyBot",
    "basic": "skyjo.bots.basic:BasicBot",
    "expected": "skyjo.bots.expected:make_expected",
    "best": "skyjo.bots.best:BestBot",
    "search": "skyjo.bots.search:SearchBot",
    "external": "skyjo.bots.external:ExternalBot",
}


def register(name: str, target: str) -> None:
    """Add a bot of your own: `target` is "package.module:Factory", called as
    Factory(seed, **options); the bot then plays anywhere a spec is taken
    (`skyjo play`, tournaments, their worker processes, matches)."""
    if name in _REGISTRY:
        raise BotError(f"there is already a bot named {name!r}")
    _REGISTRY[name] = target


def unregister(name: str) -> None:
    """Remove a bot added with `register`."""
    _REGISTRY.pop(name, None)


def bot_names() -> list[str]:
    """The bots a spec may name: the ladder, `external` and any registered."""
    return list(_REGISTRY)


def bots_help() -> str:
    """What a `--bots` option's help says of the bots (docs/bots.md): the
    ladder, weakest first, and `external` (a program of your own)."""
    return f"The bots: {', '.join(bot_names())} (docs/bots.md)."


def split_specs(bots: str | Sequence[str]) -> list[str]:
    """The bot specs of a `--bots` list: a comma-separated string or a list.

    Options of one spec are separated by commas too (`search:turns=200,confidence=2`):
    a part holding `=` but no `:` continues the spec before it. Every command
    that takes a list of bots reads it here. Raises `BotError` for an empty list.
    """
    parts = bots.split(",") if isinstance(bots, str) else list(bots)
    specs: list[str] = []
    for part in (p.strip() for p in parts):
        if specs and "=" in part and ":" not in part:
            specs[-1] += "," + part
        elif part:
            specs.append(part)
    if not specs:
        raise BotError("give at least one bot (--bots)")
    return specs


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split `"name:key=value,key=value"` into the name and typed options."""
    name, _, rest = spec.strip().partition(":")
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise BotError(f"bad bot option {item!r} in {spec!r}: expected key=value")
        key = key.strip()
        if key in options:
            raise BotError(f"bot option {key!r} given twice in {spec!r}")
        options[key] = _typed(value.strip())
    return name, options


def _typed(value: str) -> Any:
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def factory(spec: str) -> tuple[str, BotFactory, dict[str, Any]]:
    """The bot name, its factory and its options for `spec`."""
    name, options = parse_spec(spec)
    target = _REGISTRY.get(name)
    if target is None:
        raise BotError(f"unknown bot {name!r} (known: {', '.join(_REGISTRY)})")
    module, _, attribute = target.partition(":")
    return name, getattr(importlib.import_module(module), attribute), options


def make_bot(spec: str, seed: int) -> Bot:
    """A new bot for one seat of one game."""
    _, make, options = factory(spec)
    return build(spec, make, seed, options)


def build(spec: str, make: BotFactory, seed: int, options: dict[str, Any]) -> Bot:
    """`make(seed, **options)`, its errors for unknown or bad options turned into
    a `BotError` naming `spec`."""
    try:
        return make(seed, **options)
    except BotError:
        raise
    except (TypeError, ValueError) as error:  # unknown or bad options
        raise BotError(f"bad options for bot {spec!r}: {error}") from None


__all__ = [
    "Bot",
    "BotError",
    "BotFactory",
    "bot_names",
    "bots_help",
    "build",
    "make_bot",
    "parse_spec",
    "register",
    "split_specs",
    "unregister",
]
