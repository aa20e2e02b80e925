#!/usr/bin/env python3
"""What a game in play holds: starts a server on a fresh SQLite file, makes N solo Railroad Ink
games over the API, places K tiles in each (the first legal placement) and prints the server's
resident memory before and after, and the difference a game.

    python3 tests/load/per-game.py target/release/tracklayer 3000 3
"""
import json
import subprocess
import sys
import tempfile
import time
import urllib.request

binary, games, places = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
port = 18421
folder = tempfile.mkdtemp()
server = subprocess.Popen(
    [binary, "serve", "--addr", f"127.0.0.1:{port}", "--db", f"{folder}/db.sqlite",
     "--rate-games", "0", "--rate-players", "0", "--rate-joins", "0"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
base = f"http://127.0.0.1:{port}"


def rss_kb():
    with open(f"/proc/{server.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1])
    raise SystemExit("the server is gone")


def call(method, path, body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, method=method, data=data)
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", "Bearer " + token)
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def first_legal(view):
    for die in view["you"]["dice"]:
        if not die["used"]:
            for orientation, squares in enumerate(die["legal"]):
                if len(squares) >= 2:
                    return f'{die["tile"]}{squares[:2]}{orientation}'
    return None


try:
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/api/health")
            break
        except OSError:
            time.sleep(0.1)
    # What the first games make once (tables, pools) is not a game's.
    for i in range(50):
        call("POST", "/api/ink/games", {"mode": "solo", "seed": 99 + i})
    time.sleep(1)
    before = rss_kb()
    for i in range(games):
        made = call("POST", "/api/ink/games", {"mode": "solo", "seed": 1000 + i})
        game, token = made["id"], made["token"]
        view = call("GET", f"/api/ink/games/{game}", token=token)
        for _ in range(places):
            placement = first_legal(view)
            if placement is None:
                break
            view = call("POST", f"/api/ink/games/{game}/place", {"placement": placement}, token=token)
    time.sleep(1)
    after = rss_kb()
    print(f"{games} games of {places} placements: {before} -> {after} kB, "
          f"{(after - before) / games:.1f} kB a game")
finally:
    server.kill()
