#!/usr/bin/env bash
# Sharding with GNU parallel, as README.md shows it, run locally: the merged verdicts
# of the shards of a stream are the verdict of one run (legal, broken with the true
# line number, text and --json), and checking files through parallel -k is one run.
#   tests/shard_test.sh PATH/TO/mtref
set -euo pipefail
mtref=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mtref-shard-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export MTREF=$mtref
fail=0
"$mtref" selfplay --games 120 --seed 3 --jobs 1 >"$tmp/stream.mtr"
awk 'NR >= 40000 && !done && / play / { sub(/ play /, " play 1"); done = 1 } { print }' "$tmp/stream.mtr" >"$tmp/broken.mtr"
head -n 150000 "$tmp/stream.mtr" >"$tmp/cut.mtr"
for f in stream broken cut; do
  for fmt in "" --json; do
    want=$(cd "$tmp" && "$mtref" check $fmt "$f.mtr"; echo "exit $?")
    got=$(cd "$tmp" && parallel --pipepart -a "$f.mtr" --recstart 'players ' --block 200k -k \
            "$top/scripts/shard-check" | "$top/scripts/shard-merge" "$f.mtr" $fmt; echo "exit $?")
    if [ "$want" != "$got" ]; then
      echo "shard test: $f.mtr $fmt: one run says"; echo "$want"; echo "the shards say"; echo "$got"; fail=1
    fi
  done
done
mkdir "$tmp/files"
"$mtref" selfplay --games 12 --seed 5 --out "$tmp/files" --jobs 1
sed -i '30s/play \([0-9]*\)-/play 1\1-/' "$tmp/files/match-000007.mtr"
want=$(cd "$tmp/files" && "$mtref" check --json ./*.mtr; echo "exit $?")
got=$(cd "$tmp/files" && parallel -k "$mtref" check --jobs 1 --json ::: ./*.mtr; echo "exit $?")
# parallel's status counts the failed jobs; the verdict lines are the same
if [ "$(echo "$want" | sed '$d')" != "$(echo "$got" | sed '$d')" ]; then
  echo "shard test: files through parallel differ from one run"; fail=1
fi
if [ "$fail" -eq 0 ]; then echo "shard test: 7 passed, 0 failed"; else exit 1; fi
