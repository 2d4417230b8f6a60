#!/usr/bin/env python3
"""A Skyjo bot for docs/bot-protocol.md: one of skyjo's own bots, playing over the
protocol as an outside program would.

    skyjo watch --bots "external:command=python examples/bots/skyjo_bot.py search,greedy"

The bot spec is the first argument (`search`, `expected`, `search:turns=400`...;
a spec with a comma goes in quotes inside the command, which then cannot be
written in a `--bots` list: use a wrapper script). Each `act` message's
observation is read back with `Observation.from_dict` (exactly the observation
the engine made, cleared columns' cards included) and handed to the bot, seeded
with `hello`'s seed: it plays the moves the same bot plays inside the engine.
"""

import json
import sys

from skyjo.bots import make_bot
from skyjo.observation import Observation

spec = sys.argv[1]
bot = None
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        bot = make_bot(spec, message["seed"])
        answer = {"type": "ready", "name": spec}
    elif message["type"] == "act":
        assert bot is not None, "act before hello"
        answer = {"action": bot.choose(Observation.from_dict(message["observation"]))}
    elif message["type"] == "bye":
        break
    else:  # "result", and any message type a later protocol version adds
        continue
    print(json.dumps({"id": message["id"], **answer}), flush=True)
