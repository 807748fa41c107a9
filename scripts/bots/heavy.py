#!/usr/bin/env python3
"""A bot for mtref match (mtref-bot(7), JSON form): sheds its heaviest tile, keeps a
double only when it holds the tile to cover it, draws or passes when it must.
Run it with: mtref match --json-bot heavy 'heavy=python3 heavy.py' builtin:greedy"""
import json
import sys


def pips(tile):
    a, b = tile.split("-")
    return int(a), int(b)


def score(action, hand):
    words = action.split()
    if words[1] != "play":
        return -1000                      # draw or pass: only when nothing else is legal
    a, b = pips(words[2])
    value = a + b
    if a == b:                            # a double must be covered: keep a cover in hand
        covers = [t for t in hand if t != words[2] and a in pips(t)]
        value += 60 if covers else -40
    return value


for line in sys.stdin:
    msg = json.loads(line)
    kind = msg.get("type")
    if kind == "hello":
        print(json.dumps({"type": "hello", "version": 1, "name": "heavy.py"}), flush=True)
    elif kind == "go":
        hand = msg["view"]["hand"]
        best = max(msg["legal"], key=lambda action: score(action, hand))
        print(json.dumps({"id": msg["id"], "move": best}), flush=True)
    elif kind == "bye":
        break
