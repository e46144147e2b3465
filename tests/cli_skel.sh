#!/bin/sh
# mfe skel fmt / describe end to end: exit codes, located errors, files left intact on failure.
. "$2/tests/support/cli.sh"
# check CODE OUTPUT_SUBSTRING -- command…
check() {
  code=$1 want=$2; shift 3
  out=$("$@" 2>&1); got=$?
  [ "$got" -eq "$code" ] || { fail "exit $got (want $code): $*"; echo "$out"; return; }
  case "$out" in *"$want"*) ;; *) fail "output of $* lacks '$want':"; echo "$out" ;; esac
}
EX="$SRC/examples/mannequin"
cp -r "$EX" "$WORK/m"
RIG="$WORK/m/mannequin.mskel"

check 0 "" -- "$MFE" skel fmt --check "$RIG" "$WORK/m/mannequin.clips/walk.manim" "$WORK/m/mannequin.clips/idle.manim"

# a non-canonical copy: --check exits 1 and changes nothing; fmt restores the canonical bytes
sed 's/"x": 62, /"x": 62.0,   /' "$RIG" > "$WORK/m/tmp" && mv "$WORK/m/tmp" "$RIG"
cp "$RIG" "$WORK/before"
check 1 "not canonical (first difference at line 11)" -- "$MFE" skel fmt --check "$RIG"
cmp -s "$RIG" "$WORK/before" || fail "fmt --check modified the file"
check 0 "formatted" -- "$MFE" skel fmt "$RIG"
cmp -s "$RIG" "$EX/mannequin.mskel" || fail "fmt did not restore the canonical text"

# describe: summary, one clip's keys, JSON, errors
check 0 "clips (2):" -- "$MFE" skel describe "$RIG"
check 0 "walk" -- "$MFE" skel describe "$RIG"
check 0 "foot_l_target translate:" -- "$MFE" skel describe "$RIG" --clip walk
check 0 '"clips":[{"name":"walk"' -- "$MFE" skel describe "$RIG" --clip walk --json
check 2 'no clip "wakl" (did you mean "walk"?)' -- "$MFE" skel describe "$RIG" --clip wakl

# a broken rig: located error, exit 2, and fmt leaves it alone
sed 's/"parent": "thigh_l"/"parent": "thigh_x"/' "$EX/mannequin.mskel" > "$WORK/m/broken.mskel"
cp "$WORK/m/broken.mskel" "$WORK/broken.before"
check 2 'broken.mskel: bones[12].parent: unknown bone "thigh_x" (did you mean "thigh_l"?)' -- "$MFE" skel describe "$WORK/m/broken.mskel"
check 2 'unknown bone "thigh_x"' -- "$MFE" skel fmt "$WORK/m/broken.mskel"
cmp -s "$WORK/m/broken.mskel" "$WORK/broken.before" || fail "fmt changed a file it could not read"
printf '{ "format": 1,\n  "uid": ' > "$WORK/m/trunc.mskel"
check 2 "trunc.mskel: line 2" -- "$MFE" skel fmt "$WORK/m/trunc.mskel"

# a clip that names a bone the rig lacks: describe reports the clip file and path
sed 's/"foot_l_target": {/"foot_l_targt": {/' "$EX/mannequin.clips/walk.manim" > "$WORK/m/mannequin.clips/walk.manim"
check 2 'walk.manim: bones.foot_l_targt: unknown bone "foot_l_targt" (did you mean "foot_l_target"?)' -- "$MFE" skel describe "$RIG"

# usage errors
check 2 "unknown command" -- "$MFE" skel nonsense
check 2 "no files given" -- "$MFE" skel fmt
check 2 "not a .mskel or .manim file" -- "$MFE" skel fmt "$WORK/before.txt"
check 2 "cannot open" -- "$MFE" skel describe "$WORK/missing.mskel"

# an attachment's own name shows where it differs from its key (text and JSON)
ALL="$SRC/tests/data/mskel/all.mskel"
check 0 "arm/arm Region named limbs/arm" -- "$MFE" skel describe "$ALL"
check 0 '"name":"arm","displayName":"limbs/arm"' -- "$MFE" skel describe "$ALL" --json
finish cli_skel
