# bash completion for bootbench(1): commands, each command's options, and
# experiment files (*.toml) where a command takes one.
#
# Standalone on purpose (no _init_completion): it works in a plain bash as
# well as under bash-completion. tests/packaging/completion_test.py holds the
# lists below to what `bootbench help` and `bootbench help COMMAND` print.

_bootbench_commands="plan simulate start bisect resume doctor status abort run-suite report reproduce help"

_bootbench_options() {
    case $1 in
        plan) echo "--sysroot --quick --from" ;;
        simulate) echo "--quick --sandbox --results --verbose" ;;
        start | bisect) echo "--sysroot --dry-run --drop-staged --no-reboot" ;;
        resume) echo "--sysroot" ;;
        doctor) echo "--root --json" ;;
        status) echo "--sysroot --sandbox --json" ;;
        abort) echo "--sysroot --sandbox" ;;
        run-suite) echo "--target --out --quick" ;;
        report) echo "--baseline --subject --exclude --title --out-prefix" ;;
        reproduce) echo "--published --results --exclude --baseline --subject" ;;
    esac
}

# Options followed by a value, and what completes it.
_bootbench_value_kind() {
    case $1 in
        --sysroot | --sandbox | --results | --out | --published | --root | --from) echo dir ;;
        --out-prefix) echo file ;;
        --target | --baseline | --subject) echo target ;;
        --exclude | --title) echo none ;;
        *) echo "" ;;
    esac
}

# Target names from the experiment file given on the line, if any.
_bootbench_targets() {
    local w file=""
    for w in "${COMP_WORDS[@]:2}"; do
        [[ $w == *.toml && -f $w ]] && file=$w
    done
    [[ -n $file ]] || return
    awk '/^[[:space:]]*\[/ { in_target = ($0 ~ /^[[:space:]]*\[\[target\]\]/) }
         in_target && /^[[:space:]]*name[[:space:]]*=/ { sub(/^[^"]*"/, ""); sub(/".*/, ""); print }' "$file"
}

# Files ending in .EXT, and folders to reach them.
_bootbench_files() {
    local cur=$1 ext=$2 IFS=$'\n'
    compopt -o filenames 2>/dev/null
    COMPREPLY+=($(compgen -d -- "$cur") $(compgen -f -X "!*.$ext" -- "$cur"))
}

_bootbench() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=""
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()
    if ((COMP_CWORD == 1)); then
        COMPREPLY=($(compgen -W "$_bootbench_commands --help --version" -- "$cur"))
        return
    fi
    local cmd=${COMP_WORDS[1]}
    if [[ $cmd == help ]]; then
        ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "${_bootbench_commands% help}" -- "$cur"))
        return
    fi
    local kind
    kind=$(_bootbench_value_kind "$prev")
    case $kind in
        dir | file)
            # One name a line: names with spaces stay whole.
            local IFS=$'\n'
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -"${kind:0:1}" -- "$cur"))
            return ;;
        target)
            COMPREPLY=($(compgen -W "$(_bootbench_targets)" -- "$cur"))
            return ;;
        none) return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_bootbench_options "$cmd") --help" -- "$cur"))
        return
    fi
    case $cmd in
        plan | simulate | start | bisect | run-suite | doctor) _bootbench_files "$cur" toml ;;
        report) _bootbench_files "$cur" json ;;
    esac
}

complete -F _bootbench bootbench
