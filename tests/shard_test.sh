#!/usr/bin/env bash
# Sharding with GNU parallel, as README.md shows it, run locally: the merged verdicts
# of the shards of a stream are the verdict of one run (legal, broken with the true
# line number, cut short, a match left unfinished in the middle, matches opened by
# `rules` lines; text and --json, with and without --summary), and checking files
# through parallel -k is one run.
#   tests/shard_test.sh PATH/TO/mtref
set -euo pipefail
mtref=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mtref-shard-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export MTREF=$mtref MTREF_RULES_PATH=$top/rules
fail=0 passed=0
"$mtref" selfplay --games 120 --seed 3 --jobs 1 >"$tmp/stream.mtr"
awk 'NR >= 40000 && !done && / play / { sub(/ play /, " play 1"); done = 1 } { print }' "$tmp/stream.mtr" >"$tmp/broken.mtr"
head -n 150000 "$tmp/stream.mtr" >"$tmp/cut.mtr"
# match 30 stops after its first round: the next `players` line is refused in one run,
# while its shard (one match a shard with 1k blocks) is legal on its own
awk '/^players/ { m++ } m == 30 && /^round 2$/ { skip = 1 } skip && /^# / { skip = 0 } !skip' \
  "$tmp/stream.mtr" >"$tmp/unfinished.mtr"
# every match opened by a `rules` line: cut at `players` the shards lose it
"$mtref" selfplay --games 20 --seed 4 --jobs 1 --rules double-blank-50 >"$tmp/rules.mtr"
# comments that say "players " inside a line: no cut there
head -n 30000 "$tmp/stream.mtr" | sed 's/^# mtref selfplay --seed 3, match/# two players met, match/' \
  >"$tmp/commented.mtr"
# bytes check escapes, in the rejected line's message and in the file's name
awk 'NR == 20000 { printf "\033[31mx\302\205\n" } { print }' "$tmp/cut.mtr" >"$tmp/esc	aped.mtr"
# tags at the head and a Result tag at the end, read from the file as a whole
"$mtref" selfplay --games 30 --seed 6 --jobs 1 --tags >"$tmp/tagged.mtr"
awk 'NR == 9000 { print "p9 pass" } { print }' "$tmp/tagged.mtr" >"$tmp/tagged-broken.mtr"
# eight players a match, a name of their own each, but the first and the last match's:
# a shard's summary leaves names out
"$mtref" selfplay --games 80 --players 8 --rounds 1 --seed 3 --jobs 1 |
  awk '/^players / { m++ } { for (i = 1; i <= NF; i++) if ($i ~ /^p[1-8]$/ && m > 1 && m < 80) $i = "n" m "x" substr($i, 2); print }' \
  >"$tmp/names.mtr"
# FILE BLOCK RECSTART: every format and the summary, one run against the shards merged
compare() {
  local f=$1 block=$2 recstart=$3 fmt summary want got
  for fmt in "" --json; do
    for summary in "" --summary; do
      want=$(cd "$tmp" && "$mtref" check $fmt $summary "$f.mtr"; echo "exit $?")
      got=$(cd "$tmp" && parallel --pipepart -a "$f.mtr" --recend '\n' --recstart "$recstart" --block "$block" -k \
              "$top/scripts/shard-check" $summary | "$top/scripts/shard-merge" "$f.mtr" $fmt $summary; echo "exit $?")
      if [ "$want" != "$got" ]; then
        echo "shard test: $f.mtr, blocks of $block cut at '$recstart', '$fmt $summary': one run says"
        echo "$want"; echo "the shards say"; echo "$got"; fail=$((fail + 1))
      else
        passed=$((passed + 1))
      fi
    done
  done
}
for f in stream broken cut; do compare "$f" 200k 'players '; done
compare unfinished 1k 'players '
compare unfinished 30k 'players '
compare rules 20k 'players '
compare rules 20k 'rules '
compare commented 1k 'players '
compare "esc	aped" 100k 'players '
compare tagged 30k 'players '
compare tagged-broken 30k 'players '
compare names 10k 'players '
compare names 100k 'players '
mkdir "$tmp/files"
"$mtref" selfplay --games 12 --seed 5 --out "$tmp/files" --jobs 1
sed -i '30s/play \([0-9]*\)-/play 1\1-/' "$tmp/files/match-000007.mtr"
want=$(cd "$tmp/files" && "$mtref" check --json ./*.mtr; echo "exit $?")
got=$(cd "$tmp/files" && parallel -k "$mtref" check --jobs 1 --json ::: ./*.mtr; echo "exit $?")
# parallel's status counts the failed jobs; the verdict lines are the same
if [ "$(echo "$want" | sed '$d')" != "$(echo "$got" | sed '$d')" ]; then
  echo "shard test: files through parallel differ from one run"; fail=$((fail + 1))
else
  passed=$((passed + 1))
fi
echo "shard test: $passed passed, $fail failed"
[ "$fail" -eq 0 ]
