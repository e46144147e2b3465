#!/bin/sh
# Culling from the CLI: `mfe skel describe --json` shows the build's boxes (setup pose and each
# clip, the walk's wider than the idle's), `mfe skel bench --offscreen P%` culls that share of
# the instances (all of them at 100 %, none at 0 %) without allocating per frame, and bad
# percentages are usage errors.
. "$2/tests/support/cli.sh"
RIG="$SRC/examples/mannequin/mannequin.mskel"

run 0 desc skel describe "$RIG" --json
expect desc '"setupBounds":['
# one box per clip: [min x, min y, max x, max y]
box() { sed -n "s/.*\"name\":\"$1\"[^]]*\"bounds\":\[\([^]]*\)\].*/\1/p" "$WORK/desc.out" | head -1; }
idle=$(box idle)
walk=$(box walk)
[ -n "$idle" ] || fail "no bounds for idle"
[ -n "$walk" ] || fail "no bounds for walk"
echo "$idle,$walk" | awk -F, '{ if (!($1 < $3 && $2 < $4 && $5 < $7 && $6 < $8)) exit 1;
    if (!($7 - $5 > $3 - $1)) exit 1 }' || fail "boxes idle [$idle] walk [$walk]: not ordered, or the walk not wider"
run 0 descclip skel describe "$RIG" --clip walk --json
expect descclip '"bounds":['

num() { sed -n "s/.*\"$2\":[[:space:]]*\([-0-9.e+]*\).*/\1/p" "$WORK/$1.out" | head -1; }
run 0 half skel bench "$RIG" --clip walk --instances 20 --frames 30 --offscreen 50% --json
[ "$(num half culled)" = 10 ] || fail "50%: culled is $(num half culled), expected 10"
[ "$(num half offscreen_percent)" = 50 ] || fail "offscreen_percent is $(num half offscreen_percent)"
[ "$(num half allocations_per_frame)" = 0 ] || fail "allocations_per_frame is $(num half allocations_per_frame)"
run 0 all skel bench "$RIG" --clip walk --instances 20 --frames 30 --offscreen 100 --json
[ "$(num all culled)" = 20 ] || fail "100%: culled is $(num all culled), expected 20"
run 0 none skel bench "$RIG" --clip walk --instances 20 --frames 30 --offscreen 0% --threads 2 --json
[ "$(num none culled)" = 0 ] || fail "0%: culled is $(num none culled), expected 0"
expect none '"allocations_per_frame":	0,'
run 0 text skel bench "$RIG" --clip walk --instances 4 --frames 5 --offscreen 25%
expect text "culling: 25% of the instances off screen (TimeOnly), 1 culled on the last frame"

run 2 bad skel bench "$RIG" --clip walk --offscreen 120%
expect bad "--offscreen wants 0%..100%"
run 2 bad2 skel bench "$RIG" --clip walk --offscreen half
expect bad2 "--offscreen wants"
run 2 bad3 skel bench "$RIG" --clip walk --offscreen
expect bad3 "--offscreen needs a value"
finish cli_offscreen
