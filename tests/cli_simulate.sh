#!/bin/sh
# mfe skel simulate: plays a scenario on a small rig, writes the dump format; bad input exits 2
# with a located error.
set -eu
MFE="$1"; SRC="$2"; WORK="$3"
rm -rf "$WORK"; mkdir -p "$WORK/rig.clips"
cat > "$WORK/rig.mskel" <<'JSON'
{"format":1,"uid":"skl_000000000001","type":"Skeleton",
 "bones":[{"name":"root"},{"name":"arm","parent":"root","length":50}],
 "slots":[{"name":"s","bone":"arm","attachment":"a"},{"name":"s2","bone":"arm","attachment":"g"}],
 "events":[{"name":"step"}],
 "skins":[{"name":"default","attachments":[{"slot":"s","name":"a","type":"Region","width":10,"height":10}]},
          {"name":"gold","attachments":[{"slot":"s2","name":"g","type":"Region","width":10,"height":10}]}]}
JSON
cat > "$WORK/rig.clips/swing.manim" <<'JSON'
{"format":1,"uid":"anm_000000000001","type":"SkeletonClip","skeleton":{"uid":"skl_000000000001"},"length":1,
 "bones":{"arm":{"rotate":{"t":[0,1],"v":[0,90]}}},
 "events":{"t":[0.5],"v":[{"name":"step"}]}}
JSON
cat > "$WORK/play.json" <<'JSON'
{"name":"anim-swing","frames":61,"every":10,"commands":[{"frame":0,"op":"set","track":0,"anim":"swing","loop":true}]}
JSON
"$MFE" skel simulate "$WORK/rig.mskel" --scenario "$WORK/play.json" --out "$WORK/frames.json"
grep -q '"boneNames":\["root","arm"\]' "$WORK/frames.json" || { echo "no bone names"; exit 1; }
grep -q '"slot":"s","attachment":"a"' "$WORK/frames.json" || { echo "no draw item"; exit 1; }
grep -q '"name":"step"' "$WORK/frames.json" || { echo "no event"; exit 1; }
grep -q '"slot":"s2"' "$WORK/frames.json" && { echo "s2 drawn without its skin"; exit 1; }
# a scenario's skins are applied: the gold skin's attachment is drawn
sed 's/"commands"/"skins":["gold"],"commands"/' "$WORK/play.json" > "$WORK/skin.json"
"$MFE" skel simulate "$WORK/rig.mskel" --scenario "$WORK/skin.json" --out "$WORK/skin-frames.json"
grep -q '"slot":"s2","attachment":"g"' "$WORK/skin-frames.json" || { echo "skin not applied"; exit 1; }
sed 's/"commands"/"skins":["glod"],"commands"/' "$WORK/play.json" > "$WORK/badskin.json"
if "$MFE" skel simulate "$WORK/rig.mskel" --scenario "$WORK/badskin.json" 2> "$WORK/err3.txt"; then exit 1; fi
grep -q 'skins\[0\]: unknown skin "glod" (did you mean "gold"?)' "$WORK/err3.txt" || { cat "$WORK/err3.txt"; exit 1; }
# errors: unknown clip with a suggestion, exit 2
sed 's/"swing"/"swnig"/' "$WORK/play.json" > "$WORK/bad.json"
if "$MFE" skel simulate "$WORK/rig.mskel" --scenario "$WORK/bad.json" 2> "$WORK/err.txt"; then
  echo "expected failure"; exit 1
else
  rc=$?; [ "$rc" = 2 ] || { echo "exit $rc"; exit 1; }
fi
grep -q 'commands\[0\].anim: unknown clip "swnig" (did you mean "swing"?)' "$WORK/err.txt" || { cat "$WORK/err.txt"; exit 1; }
# mixing needs the track system: refused with the place
sed 's/"commands"/"mixes":[["a","b",0.2]],"commands"/' "$WORK/play.json" > "$WORK/mix.json"
if "$MFE" skel simulate "$WORK/rig.mskel" --scenario "$WORK/mix.json" 2> "$WORK/err2.txt"; then exit 1; fi
grep -q 'mixes' "$WORK/err2.txt" || { cat "$WORK/err2.txt"; exit 1; }
echo ok
