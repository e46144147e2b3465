#!/bin/sh
# mfe anim rig / poses end to end on small hand-written glTF skeletons (and the CMU skeleton of
# the shared corpus when it is there): map, JSON, the sidecar, overrides, exit codes, errors.
set -u
MFE=$1 SRC=$2 WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK"
fail() { echo "FAIL: $*"; exit 1; }
expect() { # expect CODE OUTPUT_SUBSTRING -- command…
  code=$1 want=$2; shift 3
  out=$("$@" 2>&1); got=$?
  [ "$got" -eq "$code" ] || fail "exit $got (want $code): $*
$out"
  case "$out" in *"$want"*) ;; *) fail "output of $* lacks '$want':
$out" ;; esac
}
contains() { # contains FILE TEXT
  grep -qF -- "$2" "$1" || fail "$1 lacks '$2':
$(cat "$1")"
}

# A T-pose skeleton with Mixamo names (no mesh, no buffers: a skin may go without inverse binds).
node() { printf '{"name":"%s","translation":[%s]%s}' "$1" "$2" "${3:+,\"children\":[$3]}"; }
{
  printf '{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":['
  node Hips "0,1,0" "1,11,15"; printf ,
  node Spine "0,0.1,0" 2; printf ,
  node Spine1 "0,0.15,0" "3,5,8"; printf ,
  node Neck "0,0.25,0" 4; printf ,
  node Head "0,0.1,0" 19; printf ,
  node LeftArm "0.18,0.2,0" 6; printf ,
  node LeftForeArm "0.28,0,0" 7; printf ,
  node LeftHand "0.26,0,0"; printf ,
  node RightArm "-0.18,0.2,0" 9; printf ,
  node RightForeArm "-0.28,0,0" 10; printf ,
  node RightHand "-0.26,0,0"; printf ,
  node LeftUpLeg "0.09,-0.05,0" 12; printf ,
  node LeftLeg "0,-0.43,0" 13; printf ,
  node LeftFoot "0,-0.43,0" 14; printf ,
  node LeftToeBase "0,-0.06,0.13"; printf ,
  node RightUpLeg "-0.09,-0.05,0" 16; printf ,
  node RightLeg "0,-0.43,0" 17; printf ,
  node RightFoot "0,-0.43,0" 18; printf ,
  node RightToeBase "0,-0.06,0.13"; printf ,
  node HeadTop_End "0,0.2,0"
  printf '],"skins":[{"name":"body","joints":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19]}]}\n'
} > "$WORK/hero.gltf"
HERO="$WORK/hero.gltf"

# poses
expect 0 "stand   Standing with the arms down" -- "$MFE" anim poses
expect 0 "LeftUpperArm abduct -80" -- "$MFE" anim poses
expect 0 "LeftLowerLeg             required hinge  parent LeftUpperLeg           flex 0..150" -- "$MFE" anim poses
expect 0 '"name":"stand","description":' -- "$MFE" anim poses --json
expect 0 '{"name":"LeftLowerLeg","required":true,"hinge":true,"side":"left","parent":"LeftUpperLeg","limits":{"flex":[0,150]}}' -- "$MFE" anim poses --json
expect 2 "unexpected argument extra" -- "$MFE" anim poses extra
expect 2 "unknown option --jsn" -- "$MFE" anim poses --jsn

# rig: tree, map, unmapped bones, rest kind, proportions
expect 0 "LeftUpLeg  [LeftUpperLeg]" -- "$MFE" anim rig "$HERO"
expect 0 "Chest                    Spine1                           name      1.00" -- "$MFE" anim rig "$HERO"
expect 0 "unmapped rig bones (1): HeadTop_End" -- "$MFE" anim rig "$HERO"
expect 0 "rest: T-pose (upper arms 0.0° below horizontal)" -- "$MFE" anim rig "$HERO"
expect 0 "proportions (m): height 1.770, hip height 0.920, leg 0.860, arm 0.540, shoulder width 0.360" -- "$MFE" anim rig "$HERO"
expect 0 '"map":{"Hips":"Hips","Spine":"Spine","Chest":"Spine1","Neck":"Neck","Head":"Head","LeftUpperLeg":"LeftUpLeg",' -- "$MFE" anim rig "$HERO" --json
expect 0 '"rest":{"kind":"T","armAngle":0},"proportions":{"height":1.77,"hipHeight":0.92,' -- "$MFE" anim rig "$HERO" --json
[ -e "$HERO.meta.json" ] && fail "rig wrote a sidecar without --write-meta"

# --write-meta keeps what the sidecar already holds
printf '{ "importer": "model", "settings": { "scale": 2, "libraries": [ "hero_anims.mres" ] }, "custom": { "keep": true } }\n' > "$HERO.meta.json"
expect 0 "wrote the map to $HERO.meta.json" -- "$MFE" anim rig "$HERO" --write-meta
contains "$HERO.meta.json" '"scale":	2'
contains "$HERO.meta.json" '"hero_anims.mres"'
contains "$HERO.meta.json" '"keep":	true'
contains "$HERO.meta.json" '"LeftUpperLeg":	"LeftUpLeg"'
contains "$HERO.meta.json" '"RightHand":	"RightHand"'
# the written map reads back as overrides: every bone's source is now "override"
expect 0 "LeftFoot                 LeftFoot                         override  1.00" -- "$MFE" anim rig "$HERO"

# overrides win; mistakes in them are located errors
printf '{ "settings": { "humanoid": { "LeftUpperLeg": "RightUpLeg", "RightUpperLeg": "LeftUpLeg" } } }\n' > "$HERO.meta.json"
expect 0 "LeftUpperLeg             RightUpLeg                       override  1.00" -- "$MFE" anim rig "$HERO"
printf '{ "settings": { "humanoid": { "LeftUpperLag": "LeftUpLeg" } } }\n' > "$HERO.meta.json"
expect 2 "hero.gltf.meta.json: settings.humanoid.LeftUpperLag: unknown humanoid bone \"LeftUpperLag\" (did you mean \"LeftUpperLeg\"?)" -- "$MFE" anim rig "$HERO"
printf '{ "settings": { "humanoid": { "LeftUpperLeg": "LeftUpLg" } } }\n' > "$HERO.meta.json"
expect 2 "settings.humanoid.LeftUpperLeg: unknown bone \"LeftUpLg\": the model has no such bone (did you mean \"LeftUpLeg\"?)" -- "$MFE" anim rig "$HERO"
printf '{ "settings": { "humanoid": { ' > "$HERO.meta.json"
cp "$HERO.meta.json" "$WORK/meta.before"
expect 2 "hero.gltf.meta.json: line 1" -- "$MFE" anim rig "$HERO" --write-meta
cmp -s "$HERO.meta.json" "$WORK/meta.before" || fail "--write-meta replaced a sidecar it could not read"
rm "$HERO.meta.json"

# not a humanoid: exit 1, the report still printed, no sidecar written
{
  printf '{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":['
  node Hips "0,1,0" 1; printf ,
  node Spine "0,0.1,0" "2,4,6"; printf ,
  node Neck "0,0.3,0" 3; printf ,
  node Head "0,0.1,0"; printf ,
  node LeftArm "0.18,0.25,0" 5; printf ,
  node LeftForeArm "0.28,0,0"; printf ,
  node RightArm "-0.18,0.25,0" 7; printf ,
  node RightForeArm "-0.28,0,0"
  printf '],"skins":[{"joints":[0,1,2,3,4,5,6,7]}]}\n'
} > "$WORK/torso.gltf"
expect 1 "9 required humanoid bones not found: Chest, LeftUpperLeg, LeftLowerLeg, LeftFoot" -- "$MFE" anim rig "$WORK/torso.gltf" --write-meta
expect 1 "LeftFoot                 MISSING" -- "$MFE" anim rig "$WORK/torso.gltf"
expect 1 '"missing":["Chest","LeftUpperLeg",' -- "$MFE" anim rig "$WORK/torso.gltf" --json
[ -e "$WORK/torso.gltf.meta.json" ] && fail "--write-meta wrote an incomplete map"

# bad input and usage
printf '{"asset":{"version":"2.0"},"nodes":[{"name":"statue"}]}\n' > "$WORK/static.gltf"
expect 2 "static.gltf: skins: the model has no skin: it is not rigged" -- "$MFE" anim rig "$WORK/static.gltf"
printf '{"asset":{"version":"2.0"},"nodes":[{"name":"a","children":[7]}]}\n' > "$WORK/broken.gltf"
expect 2 "broken.gltf: nodes[0].children[0]" -- "$MFE" anim rig "$WORK/broken.gltf"
expect 2 "missing.glb" -- "$MFE" anim rig "$WORK/missing.glb"
expect 2 "no model given" -- "$MFE" anim rig
expect 2 "one model at a time" -- "$MFE" anim rig "$HERO" "$HERO"
expect 2 "unknown option --meta" -- "$MFE" anim rig "$HERO" --meta

# the CMU motion-capture skeleton, when the shared corpus is there
CMU="$SRC/../shared/humanoid-corpus/cmu-01_01.glb"
[ -n "${MF_SHARED:-}" ] && CMU="$MF_SHARED/humanoid-corpus/cmu-01_01.glb"
if [ -f "$CMU" ]; then
  expect 0 "LowerBack  [Spine]" -- "$MFE" anim rig "$CMU"
  expect 0 '"Chest":"Spine","UpperChest":"Spine1"' -- "$MFE" anim rig "$CMU" --json
else
  echo "skipped: $CMU not found (the shared humanoid corpus is absent)"
fi
echo "cli_anim ok"
