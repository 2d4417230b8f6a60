#!/usr/bin/env python3
"""A Skyjo bot for docs/bot-protocol.md: plays a random legal action."""

import json
import random
import sys

rng = random.Random()
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        rng.seed(message["seed"])
        answer = {"type": "ready", "name": "example-random"}
    elif message["type"] == "act":
        answer = {"action": rng.choice(message["legal_actions"])["id"]}
    elif message["type"] == "bye":
        break
    else:  # "result", and any message type a later protocol version adds
        continue
    print(json.dumps({"id": message["id"], **answer}), flush=True)
