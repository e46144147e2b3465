#!/bin/sh
# `mfe skel automesh`: a Region becomes a Mesh placed where the region was, the rig stays
# canonical, re-meshing the mesh gives the same file, --json, and the errors.
# Arguments (from tests/CMakeLists.txt): mfe path, source dir, work dir.
. "$2/tests/support/cli.sh"

cp -R "$SRC/examples/mannequin" "$WORK/rig"
RIG="$WORK/rig/mannequin.mskel"

run 0 head skel automesh "$RIG" --slot head
expect head "slot head attachment head: mesh of"
expect head "triangles; min angle"
grep -q '"name": "head", "type": "Mesh"' "$RIG" || fail "head is not a Mesh now"
run 0 canonical skel fmt --check "$RIG"
run 0 describe skel describe "$RIG"

# The region was centred on (15, 1), turned 90 degrees, 32 x 36: the mesh must fill that
# rectangle (x 15 +- 18, y 1 +- 16) and not leave it.
line=$(grep '"name": "head", "type": "Mesh"' "$RIG")
echo "$line" | sed 's/.*"vertices": \[\([^]]*\)\].*/\1/' | tr ',' '\n' | awk '
    NR % 2 == 1 { x = $1 + 0; if (NR == 1 || x < minx) minx = x; if (NR == 1 || x > maxx) maxx = x }
    NR % 2 == 0 { y = $1 + 0; if (NR == 2 || y < miny) miny = y; if (NR == 2 || y > maxy) maxy = y }
    END {
        bad = minx < -3.01 || maxx > 33.01 || miny < -15.01 || maxy > 17.01 || maxx - minx < 20 || maxy - miny < 20
        printf "bounds %g..%g x %g..%g\n", minx, maxx, miny, maxy
        exit bad
    }' >"$WORK/bounds.out" || fail "head mesh outside the region: $(cat "$WORK/bounds.out")"

# Meshing the mesh again (its UVs give the placement back) changes nothing.
cp "$RIG" "$WORK/once.mskel"
run 0 again skel automesh "$RIG" --slot head --attachment head
cmp -s "$RIG" "$WORK/once.mskel" || fail "re-meshing the mesh changed the rig"

# Density: more vertices.
run 0 dense skel automesh "$RIG" --slot head --density 3 --json
expect dense '"slot": "head"'
expect dense '"vertices": '
expect dense '"minAngle": '
v1=$(sed -n 's/.*mesh of \([0-9]*\) vertices.*/\1/p' "$WORK/head.out")
v3=$(sed -n 's/.*"vertices": \([0-9]*\).*/\1/p' "$WORK/dense.out")
[ "$v3" -gt "$v1" ] || fail "density 3 gave $v3 vertices, not more than $v1"

# errors
run 2 noslot skel automesh "$RIG"
expect noslot "--slot is required"
run 2 typo skel automesh "$RIG" --slot haed
expect typo 'unknown slot "haed" (did you mean "head"?)'
run 2 density skel automesh "$RIG" --slot head --density -1
expect density "--density -1"
run 2 weighted skel automesh "$RIG" --slot torso
expect weighted 'attachment "torso" is a Mesh with weights'
run 2 noatt skel automesh "$RIG" --slot head --attachment nope
expect noatt 'slot "head" has no attachment "nope"'
rm "$WORK/rig/images/neck.png"
cp "$RIG" "$WORK/before.mskel"
run 2 noimage skel automesh "$RIG" --slot neck
expect noimage "neck.png"
cmp -s "$RIG" "$WORK/before.mskel" || fail "a failed automesh changed the rig"

finish cli_automesh
