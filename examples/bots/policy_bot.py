#!/usr/bin/env python3
"""A Skyjo bot for docs/bot-protocol.md: a policy network trained on skyjo's
environments, playing over the protocol.

    skyjo watch --bots "external:command=python examples/bots/policy_bot.py my-policy.npz,greedy"

Each `act` message's observation is read back (`Observation.from_dict`) and
encoded as the environments encoded that seat for the network in training
(`encode_float32`, at the network's slots); the answer is the legal action of
highest logit. The network here is a multilayer perceptron run with NumPy,
from a file written by `np.savez`: `slots` (the environment's `slots`), then
`W0, b0, W1, b1, ...` (each `W` of shape (inputs, outputs), tanh between the
layers, the last one giving the 39 action ids' logits). That is the policy of
Stable-Baselines3's `MlpPolicy`, as MaskablePPO trains it on
`skyjo.env.sb3.MaskableVecEnv` (docs/env.md); written out with

    layers = [*model.policy.mlp_extractor.policy_net[::2], model.policy.action_net]
    np.savez("my-policy.npz", slots=8,
             **{f"W{i}": l.weight.detach().numpy().T for i, l in enumerate(layers)},
             **{f"b{i}": l.bias.detach().numpy() for i, l in enumerate(layers)})

it answers what `model.predict(obs, action_masks=mask, deterministic=True)`
plays. Put your own model's forward pass in its place.
"""

import json
import sys

import numpy as np

from skyjo.bots.encoding import encode_float32
from skyjo.observation import Observation

with np.load(sys.argv[1]) as data:
    slots = int(data["slots"])
    layers = [(data[f"W{i}"], data[f"b{i}"]) for i in range(len(data.files) // 2)]


def logits(x: np.ndarray) -> np.ndarray:
    """Your network: a score for each of the 39 action ids."""
    for i, (weights, bias) in enumerate(layers):
        x = x @ weights + bias
        if i < len(layers) - 1:
            x = np.tanh(x)
    return x


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        answer = {"type": "ready", "name": "policy"}
    elif message["type"] == "act":
        observation = Observation.from_dict(message["observation"])
        scores = logits(encode_float32(observation, slots))  # the environments' observation
        best = max(observation.legal_actions, key=lambda action: (scores[action], -action))
        answer = {"action": best}
    elif message["type"] == "bye":
        break
    else:  # "result", and any message type a later protocol version adds
        continue
    print(json.dumps({"id": message["id"], **answer}), flush=True)
