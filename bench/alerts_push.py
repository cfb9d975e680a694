"""How fast the outbox sends: the scale-out stack (deploy/local_stack.py: PostgreSQL, Redis,
Daphne processes behind nginx, each running the deadline loop that sends the outbox) and a push
service on this machine (deploy/push_receiver.py, which checks each push's VAPID signature and
decrypts it with its device's keys, as a browser would). Notices are written into the outbox all
at once, due now; the clock runs from then until the last is marked sent. Every push is checked:
each notice reached its own device exactly once.

    .venv/bin/python bench/alerts_push.py [--servers 2] [--people 100] [--each 50]

The last line is one JSON object: {"pushes_per_second", "notices", "servers", "seconds",
"duplicates", "missing", "cpu_ms_per_push": {part: ms}}. Target: pushes_per_second >= 200.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deploy.local_stack import Stack  # noqa: E402
from deploy.push_receiver import Receiver  # noqa: E402


def _quoted(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def seed(stack: Stack, receiver: Receiver, people: int, each: int) -> dict[str, str]:
    """`people` accounts with a device each and `each` "game over" notices each, all due now,
    written in one statement; returns each notice's table code and the endpoint it must reach."""
    expected: dict[str, str] = {}
    users = ", ".join(
        f"('!', false, {_quoted(f'person{n}')}, '', '', {_quoted(f'person{n}@example.com')}, false, true, now())"
        for n in range(people)
    )
    stack.postgres.sql(
        "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, is_staff,"
        f" is_active, date_joined) VALUES {users}"
    )
    ids = dict(stack.postgres.sql("SELECT username, id FROM auth_user WHERE username LIKE 'person%'"))
    devices, notices = [], []
    data = _quoted(json.dumps({"game": 0, "kind": "sevn", "winner": None, "seat": 0}))
    for person in range(people):
        user, device = ids[f"person{person}"], receiver.device()
        keys = device["keys"]
        devices.append(
            f"({user}, {_quoted(device['endpoint'])}, {_quoted(keys['p256dh'])}, {_quoted(keys['auth'])}, now())"
        )
        for number in range(each):
            code = f"S{person:03d}{number:04d}"[:8]
            expected[code] = device["endpoint"]
            notices.append(
                f"({_quoted('over:' + code)}, {user}, 'over', {_quoted(code)}, '', {data}, now(), now(),"
                " now() + interval '1 day', '', 0, '')"
            )
    stack.postgres.sql(
        "INSERT INTO game_pushsubscription (user_id, endpoint, p256dh, auth, created) VALUES " + ", ".join(devices)
    )
    stack.postgres.sql(
        "INSERT INTO game_notice (key, user_id, kind, table_code, topic, data, created, due, expires, claim,"
        " attempts, outcome) VALUES " + ", ".join(notices)
    )
    return expected


def pending(stack: Stack) -> int:
    return stack.postgres.sql("SELECT count(*) FROM game_notice WHERE done IS NULL")[0][0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--people", type=int, default=100)
    parser.add_argument("--each", type=int, default=50, help="notices per person (at most 9999)")
    args = parser.parse_args()
    total = args.people * args.each
    env = {"SEVN_PUSH_HOSTS": "127.0.0.1", "SEVN_PUSH_ALLOW_HTTP": "true", "LOG_LEVEL": "WARNING"}
    with Receiver() as receiver, Stack(servers=args.servers, env=env) as stack:
        cpu_before = stack.cpu_seconds()
        start = time.monotonic()
        expected = seed(stack, receiver, args.people, args.each)
        while pending(stack):
            time.sleep(0.1)
        seconds = time.monotonic() - start
        cpu = {part: (used - cpu_before[part]) * 1000 / total for part, used in stack.cpu_seconds().items()}
        received = receiver.wait_for(total, timeout=30)
        seen = Counter((message.payload["tag"], message.endpoint) for message in received)
        duplicates = sum(times - 1 for times in seen.values() if times > 1)
        missing = sum(1 for code, endpoint in expected.items() if (code, endpoint) not in seen)
        rate = total / seconds
        print(f"{total} notices, {args.servers} processes: {seconds:.2f} s, {rate:.0f} pushes/s", flush=True)
        print("CPU ms a push: " + ", ".join(f"{part} {ms:.2f}" for part, ms in cpu.items()), flush=True)
        print(f"duplicates {duplicates}, missing {missing}, refused by the receiver {len(receiver.refused)}")
        print(
            json.dumps(
                {
                    "pushes_per_second": round(rate, 1),
                    "notices": total,
                    "servers": args.servers,
                    "seconds": round(seconds, 2),
                    "duplicates": duplicates,
                    "missing": missing,
                    "refused": len(receiver.refused),
                    "cpu_ms_per_push": {part: round(ms, 3) for part, ms in cpu.items()},
                }
            )
        )


if __name__ == "__main__":
    main()
