#!/usr/bin/env python3
"""A Skyjo bot for docs/bot-protocol.md: a policy network trained on skyjo's
environments, playing over the protocol.

    skyjo watch --bots "external:command=python examples/bots/policy_bot.py my-policy.npz,greedy"

Each `act` message's observation is read back (`Observation.from_dict`) and
encoded as the environments encoded that seat for the network in training
(`encode_float32`, at the network's slots); the answer is the legal action of
highest logit. The network here is a `skyjo-policy/1` file run with NumPy
(`skyjo.bots.learned.load_policy`, what `learned:path=` plays); put your own
model's forward pass in its place. A policy trained with advice (the shipped
one sees `expected`'s move) gets its advisor's move as a one-hot after the
observation, as in training.
"""

import json
import sys

import numpy as np

from skyjo.bots import make_bot
from skyjo.bots.encoding import encode_float32, with_advice
from skyjo.bots.learned import load_policy
from skyjo.observation import Observation

policy = load_policy(sys.argv[1])
advisor = None
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        if policy.advice:  # seeded as the learned bot seeds its advisor: with the bot's seed
            advisor = make_bot(policy.advice, message["seed"])
        answer = {"type": "ready", "name": "policy"}
    elif message["type"] == "act":
        observation = Observation.from_dict(message["observation"])
        x = encode_float32(observation, slots=policy.slots)  # the environments' observation
        if advisor is not None:  # the advisor's move, one-hot, after it
            x = with_advice(x[None], np.array([advisor.choose(observation)]))[0]
        logits = policy.logits(x)  # your network: a score for each of the 39 action ids
        best = max(observation.legal_actions, key=lambda action: (logits[action], -action))
        answer = {"action": best}
    elif message["type"] == "bye":
        break
    else:  # "result", and any message type a later protocol version adds
        continue
    print(json.dumps({"id": message["id"], **answer}), flush=True)
