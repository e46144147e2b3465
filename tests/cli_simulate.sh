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
          {"name":"gold","attachments":[{"slot":"s2","name":"g","displayName":"gold/ring","type":"Region","width":10,"height":10}]}]}
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
# a scenario's skins are applied: the gold skin's attachment is drawn, named by its own name
# (displayName) as Spine's dumps do, its image still the key's
sed 's/"commands"/"skins":["gold"],"commands"/' "$WORK/play.json" > "$WORK/skin.json"
"$MFE" skel simulate "$WORK/rig.mskel" --scenario "$WORK/skin.json" --out "$WORK/skin-frames.json"
grep -q '"slot":"s2","attachment":"gold/ring","image":"g"' "$WORK/skin-frames.json" || { echo "skin not applied"; exit 1; }
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
# the track system: a layer, a queued entry, an empty clip mixing out; exit 0
cat > "$WORK/tracks.json" <<'JSON'
{"name":"tracks","frames":90,"every":10,"defaultMix":0.2,"mixes":[["swing","swing",0.1]],
 "commands":[{"frame":0,"op":"set","track":0,"anim":"swing","loop":true},
             {"frame":5,"op":"set","track":1,"anim":"swing","loop":false,"alpha":0.5,"additive":true},
             {"frame":10,"op":"add","track":0,"anim":"swing","loop":false,"delay":0,"mix":0.3,"reverse":true,"timeScale":2},
             {"frame":60,"op":"setEmpty","track":1,"mix":0.25},
             {"frame":61,"op":"addEmpty","track":0,"mix":0.5,"delay":0}]}
JSON
"$MFE" skel simulate "$WORK/rig.mskel" --scenario "$WORK/tracks.json" --out "$WORK/tracks-frames.json"
[ "$(grep -o '"t":' "$WORK/tracks-frames.json" | wc -l)" = 10 ] || { echo "frame count"; exit 1; }
# errors name the place: an unknown clip in a mix pair, an unknown op
sed 's/"commands"/"mixes":[["swing","swnig",0.2]],"commands"/' "$WORK/play.json" > "$WORK/mix.json"
if "$MFE" skel simulate "$WORK/rig.mskel" --scenario "$WORK/mix.json" 2> "$WORK/err2.txt"; then exit 1; fi
grep -q 'mixes\[0\]\[1\]: unknown clip "swnig" (did you mean "swing"?)' "$WORK/err2.txt" || { cat "$WORK/err2.txt"; exit 1; }
sed 's/"op":"set"/"op":"sett"/' "$WORK/play.json" > "$WORK/op.json"
if "$MFE" skel simulate "$WORK/rig.mskel" --scenario "$WORK/op.json" 2> "$WORK/err4.txt"; then exit 1; fi
grep -q 'commands\[0\].op: unknown op "sett" (did you mean "set"?)' "$WORK/err4.txt" || { cat "$WORK/err4.txt"; exit 1; }
sed 's/"loop":true}/"loop":true,"alpha":3}/' "$WORK/play.json" > "$WORK/alpha.json"
if "$MFE" skel simulate "$WORK/rig.mskel" --scenario "$WORK/alpha.json" 2> "$WORK/err5.txt"; then exit 1; fi
grep -q 'commands\[0\].alpha: must be 0..1' "$WORK/err5.txt" || { cat "$WORK/err5.txt"; exit 1; }
echo ok
