#!/usr/bin/env bash
# Run a command on a busy machine: N processes burning a CPU each (`yes > /dev/null`)
# beside it, to find tests that count on the machine being quiet (a fixed number of
# pauses, a sleep, a timeout that is only long enough when nothing else runs).
#
#     tools/burn.sh [-n N] [--repeat K] -- CMD [ARGS...]
#
#   -n N, --burners N   how many burners (default 2)
#   --repeat K          run CMD up to K times, stopping at the first failure; each run's
#                       time and result is printed (default 1)
#
# The burners are stopped however this ends: CMD done, a failure, Ctrl-C, a kill (TERM,
# HUP). The exit status is CMD's (its first failing run's with --repeat; 130 on Ctrl-C).
#
# Example, the README's test command under two burners, until it passes three times:
#     tools/burn.sh --repeat 3 -- .venv/bin/pytest
set -uo pipefail

usage() {
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

burners=2
repeat=1
while [ $# -gt 0 ]; do
    case "$1" in
        -n | --burners)
            [ $# -ge 2 ] || usage
            burners="$2"
            shift 2
            ;;
        --repeat)
            [ $# -ge 2 ] || usage
            repeat="$2"
            shift 2
            ;;
        --)
            shift
            break
            ;;
        -h | --help) usage ;;
        *) usage ;;
    esac
done
[ $# -gt 0 ] || usage
case "$burners" in '' | *[!0-9]*) echo "burn: -n wants a whole number, not '$burners'" >&2; exit 2 ;; esac
case "$repeat" in '' | *[!0-9]* | 0) echo "burn: --repeat wants a number from 1, not '$repeat'" >&2; exit 2 ;; esac

pids=()
cmd_pid=""
stop_burners() {
    local pid
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null
    done
    pids=()
}
# a signal to this script goes on to CMD (in a process group of its own, so that only
# this script's burners and CMD are touched), then the burners stop
on_signal() {
    if [ -n "$cmd_pid" ]; then
        kill "-$1" -- "-$cmd_pid" 2>/dev/null
        wait "$cmd_pid" 2>/dev/null
    fi
    stop_burners
    exit "$2"
}
trap stop_burners EXIT
trap 'on_signal INT 130' INT
trap 'on_signal TERM 143' TERM
trap 'on_signal HUP 129' HUP

for _ in $(seq 1 "$burners"); do
    yes >/dev/null &
    pids+=("$!")
done
echo "burn: $burners burner(s) started (pids ${pids[*]:-none}); load: $(uptime | sed 's/.*load average: //')" >&2

status=0
for run in $(seq 1 "$repeat"); do
    start=$(date +%s)
    # CMD as a job of its own (job control on just for it): the wait below returns at
    # once on a signal, and CMD keeps the usual handling of Ctrl-C (pytest's summary)
    set -m
    "$@" &
    cmd_pid=$!
    set +m
    wait "$cmd_pid"
    status=$?
    cmd_pid=""
    took=$(($(date +%s) - start))
    if [ "$status" = 0 ]; then
        result="passed"
    else
        result="FAILED (exit $status)"
    fi
    echo "burn: run $run/$repeat $result in ${took} s; load: $(uptime | sed 's/.*load average: //')" >&2
    [ "$status" = 0 ] || break
done
exit "$status"
