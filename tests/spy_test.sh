#!/bin/sh
# The private view end to end: a spy bot (tests/bots/spybot.c) at every seat of over a
# thousand matches, canonical and under house rules that deal and hunt the engine from the
# hands, lay doubles anywhere, draw until playable and eliminate, each asked every
# decision. A spy shown a tile before it is public exits 42 with "spy: leak"; the run
# then stops, and so does this test, with the spy's reason.
# usage: spy_test.sh MTREF SPYBOT
mtref=$1 spy=$2
[ -x "$mtref" ] && [ -x "$spy" ] || { echo "usage: spy_test.sh MTREF SPYBOT" >&2; exit 2; }
decisions=0 matches=0
play() {   # play SEATS DEALS ROUNDS [--rules NAME]...
    seats=$1 deals=$2 rounds=$3
    shift 3
    set -- "$@" --time inf --ask-forced --deals "$deals" --rounds "$rounds" --seed 20261201 --json -q -j 2
    i=1
    while [ "$i" -le "$seats" ]; do
        set -- "$@" "s$i=$spy $i"
        i=$((i + 1))
    done
    out=$("$mtref" match "$@" 2>&1)
    status=$?
    if [ "$status" -ne 0 ] || printf '%s\n' "$out" | grep -q '"kind":'; then
        printf '%s\n' "$out" | grep -o 'spy: leak[^"]*' | head -3
        printf '%s\n' "$out" | grep -v '^{"key"' | tail -3
        echo "FAIL: mtref match exited $status ($seats seats, $deals deals, $rounds rounds, $*)"
        exit 1
    fi
    summary=$(printf '%s\n' "$out" | grep '^{"event":"summary"')
    n=$(printf '%s\n' "$summary" | grep -o '"bot":"[^"]*","matches":[0-9]*' | head -1 | sed 's/.*://')
    matches=$((matches + ${n:-0}))
    n=$(printf '%s\n' "$summary" | grep -o '"decisions":[0-9]*' | sed 's/.*://' | awk '{s += $1} END {print s + 0}')
    decisions=$((decisions + n))
}
play 4 60 1
play 2 300 1
play 2 8 7
play 4 3 13
play 3 40 1 --rules engine-from-hand
play 4 3 7 --rules engine-from-hand
play 4 3 7 --rules doubles-anywhere-lifo --rules draw-until-playable
play 5 3 7 --rules engine-from-hand --rules doubles-anywhere-fifo
play 8 1 7 --rules elimination-100
echo "ok: no spy saw a hidden tile: $decisions decisions asked in $matches matches"
