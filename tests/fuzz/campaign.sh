#!/usr/bin/env bash
# A longer fuzz campaign than CI's: every target (or the ones named) for SECONDS each, one at
# a time, from the build's seeds and the corpus earlier runs grew. Needs the sanitize build:
#   bash .ci/build sanitize && bash tests/fuzz/campaign.sh 600 [TARGET...]
# Prints one line per target: executions, executions per second, peak memory, new crash
# files. A crash leaves its input in build-sanitize/fuzz/artifacts/ (TARGET-crash-...);
# reproduce with build-sanitize/tests/fuzz/fuzz_TARGET FILE, and once fixed copy the file
# into tests/fuzz/regressions/TARGET/ so that tst_fuzz_regressions replays it.
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-600}"
shift || true
build="${CB_FUZZ_BUILD:-build-sanitize}"
if [ ! -d "$build/tests/fuzz" ]; then
    echo "campaign.sh: no fuzz programs in $build (run: bash .ci/build sanitize)" >&2
    exit 2
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for p in "$build"/tests/fuzz/fuzz_*; do
        [ -x "$p" ] && [ -f "$p" ] && targets+=("$(basename "$p" | sed 's/^fuzz_//; s/_/-/g')")
    done
fi
mkdir -p "$build/fuzz/artifacts" "$build/fuzz/logs"
printf '%-26s %8s %12s %10s %9s %s\n' target seconds executions "exec/s" "rss MB" crashes
status=0
for t in "${targets[@]}"; do
    program="$build/tests/fuzz/fuzz_${t//-/_}"
    if [ ! -x "$program" ]; then
        echo "campaign.sh: no fuzz target $t" >&2
        status=2
        continue
    fi
    corpus="$build/fuzz/corpus/$t"
    mkdir -p "$corpus"
    dirs=("$corpus" "$build/fuzz/seeds/$t")
    [ -d "tests/fuzz/regressions/$t" ] && dirs+=("tests/fuzz/regressions/$t")
    before=$(ls "$build/fuzz/artifacts" | grep -c "^$t-" || true)
    log="$build/fuzz/logs/$t.log"
    "$program" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$build/fuzz/artifacts/$t-" "${dirs[@]}" >"$log" 2>&1
    rc=$?
    after=$(ls "$build/fuzz/artifacts" | grep -c "^$t-" || true)
    runs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
    rate=$(grep -m1 'stat::average_exec_per_sec' "$log" | awk '{print $2}')
    rss=$(grep -m1 'stat::peak_rss_mb' "$log" | awk '{print $2}')
    time=$(grep -m1 -oE 'Done [0-9]+ runs in [0-9]+ second' "$log" | awk '{print $5}')
    printf '%-26s %8s %12s %10s %9s %s\n' "$t" "${time:-?}" "${runs:-?}" "${rate:-?}" \
        "${rss:-?}" "$((after - before))"
    if [ $rc -ne 0 ]; then
        status=1
        grep -m3 -E 'ERROR|runtime error|fuzz [a-z-]+:' "$log" | sed 's/^/    /'
    fi
done
exit $status
