#!/bin/sh
# mfe skel key end to end: on a canonical clip only the keyed line changes; errors leave the
# file byte for byte as it was.
. "$2/tests/support/cli.sh"
cp -r "$SRC/examples/mannequin" "$WORK/m"
W="$WORK/m/mannequin.clips/walk.manim"

# changed_lines BEFORE AFTER: the number of lines that differ (same line count expected)
changed_lines() { diff "$1" "$2" | grep -c '^>'; }

cp "$W" "$WORK/w0"
run 0 change skel key "$W" --bone head --timeline rotate --t 0.5 --v 10
expect change "bones.head.rotate: changed the key at t=0.5"
[ "$(changed_lines "$WORK/w0" "$W")" -eq 1 ] || { fail "changing a key changed more than one line"; diff "$WORK/w0" "$W"; }
grep -q '"rotate": { "t": \[0, 0.5, 1\], "v": \[-4, 10, -4\], "curve": \[\[0.42, 0, 0.58, 1\], \[0.42, 0, 0.58, 1\]\] }' "$W" ||
  fail "the head key did not become 10"

# a new key between two: the segment it splits keeps its curve, --curve sets the one leaving it
cp "$W" "$WORK/w1"
run 0 add skel key "$W" --bone head --timeline rotate --t 0.25 --v 3 --curve stepped
[ "$(changed_lines "$WORK/w1" "$W")" -eq 1 ] || fail "adding a key changed more than one line"
grep -q '"t": \[0, 0.25, 0.5, 1\], "v": \[-4, 3, 10, -4\], "curve": \[\[0.42, 0, 0.58, 1\], "stepped", \[0.42, 0, 0.58, 1\]\]' "$W" ||
  { fail "inserted key"; grep -A0 '"head"' -A1 "$W"; }

# a timeline the clip lacks: only its lines are added
cp "$W" "$WORK/w2"
run 0 new skel key "$W" --bone neck --timeline translate --t 0.5 --v 1,2 --curve ease
[ "$(diff "$WORK/w2" "$W" | grep -c '^<')" -eq 0 ] || fail "a new timeline changed existing lines"
grep -q '"translate": { "t": \[0.5\], "v": \[\[1, 2\]\] }' "$W" || fail "new neck translate key"
run 0 slot skel key "$W" --slot head --timeline rgba --t 0.25 --v '#ff000080'
run 0 ik skel key "$W" --ik leg_l_ik --timeline bend --t 0.5 --v -1
run 0 ik2 skel key "$W" --ik leg_l_ik --t 0.75 --v 0.5
grep -q '"leg_l_ik": { "t": \[0.5, 0.75\], "mix": \[1, 0.5\], "bend": \[-1, -1\] }' "$W" || fail "ik keys"
run 0 fmt skel fmt --check "$W"
run 0 check skel check "$WORK/m/mannequin.mskel"

# errors: exit 2, named, and the file untouched
cp "$W" "$WORK/w3"
run 2 e1 skel key "$W" --bone haed --timeline rotate --t 0.5 --v 1
expect e1 'unknown bone "haed" (did you mean "head"?)'
run 2 e2 skel key "$W" --bone head --timeline translate --t 0.5 --v 1
expect e2 "translate takes two numbers x,y"
run 2 e3 skel key "$W" --bone head --timeline rotat --t 0.5 --v 1
expect e3 '(did you mean "rotate"?)'
run 2 e4 skel key "$W" --slot head --timeline attachment --t 0.5 --v nope
expect e4 'no skin has attachment "nope" for slot "head"'
run 2 e5 skel key "$W" --bone head --timeline rotate --t 3 --v 1
expect e5 "past the clip's length"
run 2 e6 skel key "$W" --bone head --timeline rotate --t 0.5 --v abc
run 2 e7 skel key "$W" --bone head --timeline rotate --t 0.5 --v 1 --curve 2,0,1,1
run 2 e8 skel key "$W" --slot head --timeline rgba --t 0.5 --v red
run 2 e9 skel key "$W" --ik leg_x --t 0.5 --v 1
expect e9 'unknown ik constraint "leg_x"'
cmp -s "$W" "$WORK/w3" || fail "a failed key changed the file"

# the rig is found beside the clips folder even when the clip is elsewhere: --rig names it
cp "$W" "$WORK/lonely.manim"
run 2 norig skel key "$WORK/lonely.manim" --bone head --timeline rotate --t 0.5 --v 1
expect norig "cannot find the rig"
run 0 rig skel key "$WORK/lonely.manim" --rig "$WORK/m/mannequin.mskel" --bone head --timeline rotate --t 0.5 --v 1
run 2 usage skel key
finish cli_key
