"""A local SMTP sink for `make bench-notify`: accepts everything, writes each Message-ID to a file.

Usage: python scripts/smtp_sink.py --port 8610 --out /tmp/received.txt
Prints "ready" once it listens. Runs until terminated.
"""

import argparse
import re
import signal
import sys
import threading

from aiosmtpd.controller import Controller

MESSAGE_ID = re.compile(rb"^Message-ID:\s*(\S+)", re.IGNORECASE | re.MULTILINE)


class Recorder:
    def __init__(self, out):
        self.out = out

    async def handle_DATA(self, server, session, envelope):
        head = envelope.original_content.split(b"\r\n\r\n", 1)[0]
        found = MESSAGE_ID.search(head)
        self.out.write((found.group(1) if found else b"<none>") + b"\n")
        self.out.flush()
        return "250 OK"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    with open(args.out, "ab") as out:
        controller = Controller(Recorder(out), hostname="127.0.0.1", port=args.port)
        controller.start()
        print("ready", flush=True)
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        signal.signal(signal.SIGINT, lambda *_: stop.set())
        stop.wait()
        controller.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
