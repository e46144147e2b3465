#!/bin/sh
# `mfe skel build`: summary and --json, determinism, usage errors, located input errors and an
# output file that a failed build leaves untouched.
# Arguments (from tests/CMakeLists.txt): mfe path, source dir, work dir.
. "$2/tests/support/cli.sh"
export MF_SKELETON_BAKE_CACHE_DIR="$WORK/cache" # never the user's cache

# a copy of the mannequin to break
cp -R "$SRC/examples/mannequin" "$WORK/rig"
RIG="$WORK/rig/mannequin.mskel"

run 0 build skel build "$RIG" -o "$WORK/a.mskb"
expect build "bones 19, slots 18, skins 1, attachments 18, constraints 2, events 1"
expect build "clips 2: idle, walk"
[ "$(head -c 8 "$WORK/a.mskb")" = "MFSKDATA" ] || fail "a.mskb does not start with the magic"
size=$(wc -c <"$WORK/a.mskb" | tr -d ' ')
expect build "($size bytes)"

run 0 json skel build "$RIG" -o "$WORK/b.mskb" --json
expect json '"bones":	19'
expect json '"clips":	["idle", "walk"]'
expect json "\"bytes\":	$size"
cmp -s "$WORK/a.mskb" "$WORK/b.mskb" || fail "two builds of one rig differ"

# usage errors
run 2 noout skel build "$RIG"
expect noout "missing -o OUT"
run 2 norig skel build -o "$WORK/x.mskb"
expect norig "missing RIG.mskel"
run 2 flag skel build "$RIG" -o "$WORK/x.mskb" --fast
expect flag "unknown option \"--fast\""
run 2 two skel build "$RIG" "$RIG" -o "$WORK/x.mskb"
expect two "one rig at a time"

# input errors: exit 2, a located message, the output untouched
printf 'keep me' >"$WORK/keep.mskb"
run 2 missing skel build "$WORK/nope.mskel" -o "$WORK/keep.mskb"
expect missing "nope.mskel"
cat >"$WORK/rig/mannequin.clips/bad.manim" <<'JSON'
{ "format": 1, "uid": "anm_00000000dead", "type": "SkeletonClip", "skeleton": { "uid": "skl_3a9e51c07b24" },
  "length": 1, "bones": { "thigh_x": { "rotate": { "t": [0], "v": [1] } } } }
JSON
run 2 badclip skel build "$RIG" -o "$WORK/keep.mskb"
expect badclip "bad.manim"
expect badclip "thigh_x"
expect badclip "did you mean \"thigh_l\"?"
[ "$(cat "$WORK/keep.mskb")" = "keep me" ] || fail "a failed build changed its output file"
[ -z "$(ls "$WORK" | grep 'keep.mskb.tmp')" ] || fail "a failed build left a temporary file"

# normal maps: <name>_n.png beside an image packs into a second page set (pixels: test_atlas_pages)
cp -R "$SRC/examples/mannequin" "$WORK/normals"
for f in "$WORK"/normals/images/*.png; do cp "$f" "${f%.png}_n.png"; done
run 0 normals skel build "$WORK/normals/mannequin.mskel" -o "$WORK/normals.mskb" --json
expect normals '"normalPages":	true'
[ -s "$WORK/normals_n0.png" ] || fail "no normal page written"
# a normal map of the wrong size is a located error
cp "$SRC/examples/mannequin/images/shadow.png" "$WORK/normals/images/head_n.png"
run 2 badnormal skel build "$WORK/normals/mannequin.mskel" -o "$WORK/badnormal.mskb"
expect badnormal "normal map"
expect badnormal "head_n.png is"
[ ! -e "$WORK/badnormal.mskb" ] || fail "a failed build wrote its output"

finish cli_build
