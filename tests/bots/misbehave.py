"""A bot for tests/test_external_bot.py that misbehaves as asked.

Usage: misbehave.py MODE [FILE]. Every mode answers the handshake unless said
otherwise; then, per `act`:

- names: a legal action, by name (a well-behaved bot);
- illegal: an action id that is not legal now; unknown-name: the name "fly";
- garbage, array, noid, noaction, badbytes, long, future-id: malformed lines;
- silent: nothing (it keeps reading, and exits when its stdin closes);
- crash: answers 5 decisions, then dies with an exception ("boom");
- close-stdout: answers 3 decisions, then closes its stdout and keeps reading;
- lag: answers each request only once the next one arrives, the late answer
  with the largest legal action, the new one with the smallest;
- record: the smallest legal action, and writes each message type to FILE;
- no-hello: never reads nor answers anything; stubborn: ignores SIGTERM and
  never answers anything but the handshake; exit-early: exits at once;
- wrong-protocol: answers the handshake with another protocol version;
- deep: 100,000 nested arrays (200 KB, one line) per `act`; deep-hello: the
  same as its answer to `hello`; deep-unclosed: 100,000 `[` and no `]`;
  deep-answer: a legal action, with a field nested 40 arrays deep (parsable,
  but deeper than the engine accepts);
- spawn: at `hello`, starts a helper process that sleeps a minute with the
  bot's stdout and stderr, and writes its pid to FILE; then plays the smallest
  legal action and exits at `bye`; spawn-quiet: the same, the helper's
  output going to /dev/null.
"""

import json
import os
import signal
import subprocess
import sys
import threading

MODE = sys.argv[1]


DEEP = "[" * 100_000 + "]" * 100_000


def send(message: object) -> None:
    print(json.dumps(message), flush=True)


def spawn_helper(pid_file: str, quiet: bool) -> None:
    """Start a helper that outlives this bot unless it is stopped, and write
    its pid to `pid_file` (before the bot answers `hello`)."""
    output = subprocess.DEVNULL if quiet else None  # None: this bot's own stdout and stderr
    helper = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"], stdout=output, stderr=output
    )
    with open(pid_file, "w") as file:
        file.write(str(helper.pid))


def main() -> None:
    if MODE == "exit-early":
        sys.exit(4)
    if MODE == "no-hello":
        threading.Event().wait()  # blocks forever: only a signal ends this process
    if MODE == "stubborn":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    record = open(sys.argv[2], "w") if MODE == "record" else None  # noqa: SIM115
    decisions = 0
    held = None  # the lag mode's unanswered request
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if record:
            record.write(json.dumps(message if kind == "hello" else kind) + "\n")
            record.flush()
        if kind == "hello" and MODE == "deep-hello":
            print(DEEP, flush=True)
            continue
        if kind == "hello" and MODE in ("spawn", "spawn-quiet"):
            spawn_helper(sys.argv[2], quiet=MODE == "spawn-quiet")
        if kind == "hello":
            protocol = "skyjo-bot/99" if MODE == "wrong-protocol" else message["protocol"]
            send({"id": message["id"], "type": "ready", "name": MODE, "protocol": protocol})
            continue
        if kind == "bye":
            break
        if kind != "act":
            continue
        decisions += 1
        rid = message["id"]
        legal = [a["id"] for a in message["legal_actions"]]
        if MODE == "names":
            send({"id": rid, "action": message["legal_actions"][-1]["name"]})
        elif MODE == "illegal":
            send({"id": rid, "action": min(set(range(39)) - set(legal))})
        elif MODE == "unknown-name":
            send({"id": rid, "action": "fly"})
        elif MODE == "garbage":
            print("this is not JSON", flush=True)
        elif MODE == "array":
            print("[1, 2]", flush=True)
        elif MODE == "noid":
            send({"action": legal[0]})
        elif MODE == "noaction":
            send({"id": rid, "move": legal[0]})
        elif MODE == "badbytes":
            sys.stdout.buffer.write(b'{"id": 1, "action": "\xff\xfe"}\n')
            sys.stdout.buffer.flush()
        elif MODE == "long":
            print("x" * 5000, flush=True)
        elif MODE == "deep":
            print(DEEP, flush=True)
        elif MODE == "deep-unclosed":
            print("[" * 100_000, flush=True)
        elif MODE == "deep-answer":
            send({"id": rid, "action": legal[0], "note": json.loads("[" * 40 + "]" * 40)})
        elif MODE == "future-id":
            send({"id": rid + 1000, "action": legal[0]})
        elif MODE == "crash" and decisions > 5:
            raise RuntimeError("boom")
        elif MODE == "close-stdout" and decisions > 3:
            if decisions == 4:
                sys.stdout.flush()
                os.close(sys.stdout.fileno())
        elif MODE == "lag":
            if held is not None:
                send({"id": held["id"], "action": max(a["id"] for a in held["legal_actions"])})
                send({"id": rid, "action": min(legal)})
            held = message
        elif MODE in ("silent", "stubborn"):
            pass
        else:  # record, and crash or close-stdout before they misbehave
            send({"id": rid, "action": min(legal)})
    if MODE == "stubborn":
        threading.Event().wait()


main()
