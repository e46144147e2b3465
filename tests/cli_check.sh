#!/bin/sh
# mfe skel check end to end: exit codes 0 / 1 / 2, text and JSON findings.
. "$2/tests/support/cli.sh"
cp -r "$SRC/examples/mannequin" "$WORK/m"
RIG="$WORK/m/mannequin.mskel"

run 0 clean skel check "$RIG"
expect clean "ok, nothing to report (2 clips checked)"
run 0 clean_json skel check "$RIG" --clip walk --json
expect clean_json '"clips":1,"errors":0,"warnings":0,"findings":[]'

# a warning only (joint flip): exit 0, located with time and fix
sed 's/"v": \[-4, -6, -4\]/"v": [-4, 200, 356]/' "$SRC/examples/mannequin/mannequin.clips/walk.manim" > "$WORK/m/mannequin.clips/walk.manim"
run 0 flip skel check "$RIG"
expect flip 'walk.manim: bones.head.rotate.v[1]: t=0.5: warning: joint-flip: bone "head": rotation jumps 204°'
expect flip "fix: if the short way is meant, key -160 instead"
expect flip "0 errors, 1 warning (2 clips checked)"
run 0 flip_json skel check "$RIG" --json
expect flip_json '"severity":"warning","kind":"joint-flip","subject":{"kind":"bone","name":"head"}'
expect flip_json '"path":"bones.head.rotate.v[1]","time":0.5'

# an error: exit 1
sed 's/"foot_l_target": {/"foot_l_targt": {/' "$SRC/examples/mannequin/mannequin.clips/walk.manim" > "$WORK/m/mannequin.clips/walk.manim"
run 1 unknown skel check "$RIG"
expect unknown 'walk.manim: bones.foot_l_targt: error: unknown-name: bone "foot_l_targt": unknown bone "foot_l_targt" (did you mean "foot_l_target"?)'
expect unknown 'fix: use "foot_l_target"'

# unreadable rig, unknown clip, usage: exit 2
printf '{ "format": 1,\n  "uid": ' > "$WORK/m/trunc.mskel"
run 2 trunc skel check "$WORK/m/trunc.mskel"
expect trunc "trunc.mskel: line 2"
run 2 missing skel check "$WORK/none.mskel"
run 2 noclip skel check "$RIG" --clip wakl
expect noclip 'no clip "wakl"'
expect noclip '(did you mean "walk"?)'
run 2 usage skel check
run 2 usage2 skel check "$RIG" --bogus
finish cli_check
