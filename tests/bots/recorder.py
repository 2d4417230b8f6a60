"""A well-behaved bot for tests/test_external_bot.py that records everything.

Usage: recorder.py FILE. Every message the engine sends (`hello`, each `act`,
`result`, `bye`) is appended to FILE exactly as received, one line each, and
flushed at once; the bot answers `hello` with `ready` and each `act` with its
smallest legal action, and exits at `bye`.
"""

import json
import sys


def main(path: str) -> None:
    with open(path, "w") as record:
        for line in sys.stdin:
            record.write(line)
            record.flush()
            message = json.loads(line)
            if message["type"] == "hello":
                answer = {"type": "ready", "name": "recorder"}
            elif message["type"] == "act":
                answer = {"action": min(a["id"] for a in message["legal_actions"])}
            elif message["type"] == "bye":
                break
            else:
                continue
            print(json.dumps({"id": message["id"], **answer}), flush=True)


main(sys.argv[1])
