# bash completion for mtref: subcommands, their options, rules names and files.
# The subcommands and options are read from mtref's own --help, so they follow the
# installed version.

_mtref_subcommands() {
    mtref --help 2>/dev/null | sed -n '/^subcommands/,$p' | awk 'NR > 1 && /^  [a-z]/ { print $1 }'
}

_mtref_options() {  # $1: the subcommand, or empty for the referee
    mtref $1 --help 2>/dev/null | grep -oE -- '(^|[ ,])--?[a-zA-Z][a-zA-Z-]*' | tr -d ' ,' | sort -u
}

_mtref() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local sub="" word
    local subcommands
    subcommands=$(_mtref_subcommands)
    if [ "$COMP_CWORD" -gt 1 ]; then
        for word in $subcommands; do
            [ "$word" = "${COMP_WORDS[1]}" ] && sub=$word
        done
    fi
    COMPREPLY=()
    case $prev in
        --rules)
            COMPREPLY=($(compgen -W "$(mtref rules --names 2>/dev/null)" -- "$cur") $(compgen -f -X '!*.lua' -- "$cur"))
            return ;;
        --out)
            COMPREPLY=($(compgen -d -- "$cur"))
            return ;;
        --record)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        --players|--rounds|--games|--seed|--bots)
            [ "$prev" = --bots ] && COMPREPLY=($(compgen -W "greedy random greedy,random random,greedy" -- "$cur"))
            return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_mtref_options "$sub")" -- "$cur"))
    elif [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$subcommands" -- "$cur") $(compgen -f -- "$cur"))
    elif [ "$sub" = rules ]; then
        COMPREPLY=($(compgen -W "$(mtref rules --names 2>/dev/null)" -- "$cur") $(compgen -f -X '!*.lua' -- "$cur"))
    elif [ "$sub" = help ]; then
        COMPREPLY=($(compgen -W "$subcommands" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _mtref mtref
