"""A local SMTP sink for `make bench-notify` and `make drill`: writes each Message-ID to a file.
It offers what a real mail server offers: PIPELINING (RFC 2920), 8BITMIME and SMTPUTF8.

Usage: python scripts/smtp_sink.py --port 8610 --out /tmp/received.txt [--host 127.0.0.1]
           [--refuse-until <unix time>] [--rcpt-delay 0.01] [--attempts /tmp/attempts.txt]
           [--senders]
Prints "ready" once it listens. Runs until terminated.

--refuse-until T    answers every RCPT with "451 4.3.2" (try again later) until the Unix time T,
                    then accepts: a mail server that is refusing for a while.
--rcpt-delay S      takes S seconds to answer each RCPT (a server checking the address), so a
                    batch of mails takes measurable time. The answer to the final "." of DATA
                    stays prompt, as RFC 1047 asks to keep the window for duplicates small.
--attempts FILE     appends "<unix time> <code> <recipient>" for every RCPT, accepted or not.
--senders           writes "<Message-ID> <client address> <unix time>" per mail, so a drill with
                    several sending machines can tell whose copy came first, and when.
"""

import argparse
import asyncio
import re
import signal
import sys
import threading
import time

from aiosmtpd.controller import Controller

MESSAGE_ID = re.compile(rb"^Message-ID:\s*(\S+)", re.IGNORECASE | re.MULTILINE)
REFUSAL = "451 4.3.2 System not accepting network messages, try again later"


class Recorder:
    def __init__(
        self, out, *, refuse_until: float = 0.0, rcpt_delay: float = 0.0, attempts=None, senders: bool = False
    ):
        self.out = out
        self.senders = senders
        self.refuse_until = refuse_until
        self.rcpt_delay = rcpt_delay
        self.attempts = attempts

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        session.host_name = hostname
        # aiosmtpd reads commands one line at a time, so it takes pipelined groups as they come.
        return [*responses[:-1], "250-PIPELINING", responses[-1]]

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.rcpt_delay:
            await asyncio.sleep(self.rcpt_delay)
        now = time.time()
        refused = now < self.refuse_until
        if self.attempts is not None:
            self.attempts.write(f"{now:.3f} {451 if refused else 250} {address}\n".encode())
            self.attempts.flush()
        if refused:
            return REFUSAL
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        head = envelope.original_content.split(b"\r\n\r\n", 1)[0]
        found = MESSAGE_ID.search(head)
        line = found.group(1) if found else b"<none>"
        if self.senders:
            line += f" {session.peer[0]} {time.time():.3f}".encode()
        self.out.write(line + b"\n")
        self.out.flush()
        return "250 OK"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--refuse-until", type=float, default=0.0)
    parser.add_argument("--rcpt-delay", type=float, default=0.0)
    parser.add_argument("--attempts")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--senders", action="store_true")
    args = parser.parse_args()
    attempts = open(args.attempts, "ab") if args.attempts else None  # closed below
    with open(args.out, "ab") as out:
        recorder = Recorder(
            out,
            refuse_until=args.refuse_until,
            rcpt_delay=args.rcpt_delay,
            attempts=attempts,
            senders=args.senders,
        )
        controller = Controller(recorder, hostname=args.host, port=args.port, enable_SMTPUTF8=True)
        controller.start()
        print("ready", flush=True)
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        signal.signal(signal.SIGINT, lambda *_: stop.set())
        stop.wait()
        controller.stop()
    if attempts:
        attempts.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
