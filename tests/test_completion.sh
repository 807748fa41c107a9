#!/usr/bin/env bash
# The shell completion scripts, loaded by bash (and parsed by zsh when it is there):
# subcommands, their options, rules names, help topics.
# Usage: test_completion.sh SOURCE_DIR PATH/TO/mtref
set -u
top=$1
PATH=$(cd "$(dirname "$2")" && pwd):$PATH
passed=0 failed=0
# shellcheck source=/dev/null
source "$top/completion/mtref.bash"

expect() {  # expect WANTED WORD...: completing the words offers WANTED
    local wanted=$1; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=()
    _mtref
    if [[ " ${COMPREPLY[*]} " == *" $wanted "* ]]; then
        passed=$((passed + 1)); echo "ok   $* -> $wanted"
    else
        failed=$((failed + 1)); echo "FAIL $* -> '${COMPREPLY[*]}', not $wanted"
    fi
}

expect check mtref che
expect selfplay mtref sel
expect --require-complete mtref check --req
expect --summary mtref check --su
expect --games mtref selfplay --ga
expect --keep-going mtref --keep
expect --record mtref --rec
expect double-blank-50 mtref --rules double-b
expect elimination-100 mtref rules elim
expect selfplay mtref help self
expect greedy,random mtref selfplay --bots greedy,
complete -p mtref >/dev/null 2>&1 && { passed=$((passed + 1)); echo "ok   complete -p mtref"; } \
    || { failed=$((failed + 1)); echo "FAIL bash has no completion for mtref"; }

if command -v zsh >/dev/null; then
    # compinit writes its dump by renaming a temporary file over -d: never /dev/null
    dump_dir=$(mktemp -d)
    trap 'rm -rf "$dump_dir"' EXIT
    if zsh -n "$top/completion/_mtref" &&
       zsh -fc "fpath=($top/completion \$fpath); autoload -U compinit; compinit -u -d $dump_dir/zcompdump; autoload -U _mtref; [[ \$_comps[mtref] == _mtref ]]"; then
        passed=$((passed + 1)); echo "ok   zsh loads _mtref for mtref"
    else
        failed=$((failed + 1)); echo "FAIL zsh does not load _mtref"
    fi
fi
echo "completion: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
