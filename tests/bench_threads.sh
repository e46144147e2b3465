#!/bin/sh
# mf_bench --threads LIST: a sweep per thread count, each through mf_batch_update, then the
# scaling table of the largest instance count, and after each sweep its largest frame split; one
# count keeps the plain sweep; bad lists exit 2.
# Checks the tables' shape and that nothing allocates per frame, never a timing.
set -u
BENCH=$1
WORK=$2
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$BENCH" --max 10 --frames 2 --threads 1,2 --out "$WORK/two.md" >"$WORK/two.out" 2>&1 || fail "--threads 1,2 exited $?"
for f in two.out two.md; do
    [ "$(grep -c 'every frame through mf_batch_update (median frame)' "$WORK/$f")" = 2 ] || fail "$f: not two batch sweeps"
    grep -q '^## Thread scaling, 10 instances' "$WORK/$f" || fail "$f: no scaling table at 10 instances"
    # the table's rows: threads 1 (speed-up 1.00× against itself) and 2
    sed -n '/^## Thread scaling/,$p' "$WORK/$f" >"$WORK/scale.txt"
    grep -q '^| 1 | [0-9.]* | 1.00× | 1.00 |$' "$WORK/scale.txt" || fail "$f: no row for 1 thread"
    grep -q '^| 2 | [0-9.]* | [0-9.]*× | [0-9.]* |$' "$WORK/scale.txt" || fail "$f: no row for 2 threads"
    # after each sweep, its largest count split into posing, draw items and world vertices
    [ "$(grep -c '^Where the 10-instance frame goes' "$WORK/$f")" = 2 ] || fail "$f: not two frame splits"
    # (and the whole frame with slot tracking, fifth column)
    [ "$(grep -A2 '^| tracks + world |' "$WORK/$f" |
        grep -c '^| -\{0,1\}[0-9.]* | -\{0,1\}[0-9.]* | -\{0,1\}[0-9.]* | [0-9.]* | [0-9.]* |$')" = 2 ] ||
        fail "$f: not two split rows"
    # the sweeps' rows (1 and 10 instances, two sweeps: four), each allocating 0 per frame (4th column)
    rows=$(awk -F'|' '/^\| (1|10) \|/ && NF == 7' "$WORK/$f" | wc -l)
    [ "$rows" = 4 ] || fail "$f: $rows sweep rows, expected 4"
    awk -F'|' '/^\| (1|10) \|/ && NF == 7 && $5 + 0 != 0 { bad = 1 } END { exit bad }' "$WORK/$f" ||
        fail "$f: a sweep row allocates per frame"
done

"$BENCH" --max 10 --frames 2 --threads 2 >"$WORK/one.out" 2>&1 || fail "--threads 2 exited $?"
grep -q '^## Instance sweep, 2 threads (median frame)' "$WORK/one.out" || fail "one count: not the plain sweep"
[ "$(awk -F'|' '/^\| (1|10) \|/ && NF == 7' "$WORK/one.out" | wc -l)" = 2 ] || fail "one count: not two sweep rows"
grep -q 'Thread scaling' "$WORK/one.out" && fail "one count: a scaling table"
grep -q '^Where the 10-instance frame goes' "$WORK/one.out" || fail "one count: no frame split"

for bad in 1,x 0 1, ,2 300 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17 -1; do
    "$BENCH" --max 10 --frames 2 --threads "$bad" >"$WORK/bad.out" 2>&1
    rc=$?
    [ "$rc" = 2 ] || fail "--threads $bad exited $rc, expected 2"
    grep -q -- "--threads wants counts" "$WORK/bad.out" || fail "--threads $bad: no message"
done

[ "$failures" = 0 ] && echo "bench_threads: ok" || { echo "bench_threads: $failures failure(s)"; exit 1; }
