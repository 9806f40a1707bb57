"""A local HTTP receiver for `make bench-notify`: webhooks and Slack-style chat messages.

Usage: python scripts/http_sink.py --port 8620 --out /tmp/received-http.txt
Prints "ready" once it listens. Runs until terminated.

Writes "<path's first segment> <X-Status-Event-Id>" per accepted POST (so `/hooks/…` and
`/slack/…` are counted apart). Under /slack/ a body must be a Slack incoming-webhook message:
a non-empty top-level `text`, at most 50 blocks, section texts of at most 3,000 characters;
anything else is answered 400 `invalid_blocks`, as Slack does, and written as "<kind> invalid".
"""

import argparse
import asyncio
import json
import signal
import sys

from aiohttp import web


def slack_is_valid(body: bytes) -> bool:
    try:
        payload = json.loads(body)
    except ValueError:
        return False
    blocks = payload.get("blocks", [])
    return (
        isinstance(payload.get("text"), str)
        and bool(payload["text"].strip())
        and len(blocks) <= 50
        and all(len(block.get("text", {}).get("text", "")) <= 3000 for block in blocks)
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    out = open(args.out, "a", buffering=1)

    async def receive(request: web.Request) -> web.Response:
        kind = request.path.strip("/").split("/", 1)[0] or "root"
        body = await request.read()
        if kind == "slack" and not slack_is_valid(body):
            out.write(f"{kind} invalid\n")
            return web.Response(status=400, text="invalid_blocks")
        out.write(f"{kind} {request.headers.get('X-Status-Event-Id', '-')}\n")
        return web.Response(text="ok")

    app = web.Application(client_max_size=1024 * 1024)
    app.router.add_post("/{tail:.*}", receive)

    async def serve() -> None:
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", args.port).start()
        print("ready", flush=True)
        await asyncio.Event().wait()

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    asyncio.run(serve())
    return 0


if __name__ == "__main__":
    sys.exit(main())
