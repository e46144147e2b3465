#!/bin/sh
# mfe skel bench: runs, prints one JSON document with the fields, allocates nothing per frame in
# the steady state (a failing check, not a timing), and reports bad arguments with exit 2.
. "$2/tests/support/cli.sh"
RIG="$SRC/examples/mannequin/mannequin.mskel"

run 0 json skel bench "$RIG" --clip walk --instances 12 --frames 40 --json
for field in '"us_per_skeleton_frame":' '"allocations_per_frame":	0,' '"tracks_sampling":' \
             '"update_world":' '"world_vertices":' '"draw_runs":' '"json_parse_us":' '"build_load_us":'; do
    expect json "$field"
done
# the numbers are sane (no python on a fresh machine: read them with sed)
num() { sed -n "s/.*\"$1\":[[:space:]]*\([-0-9.e+]*\).*/\1/p" "$WORK/json.out" | head -1; }
positive() { v=$(num "$1"); awk -v v="$v" 'BEGIN { exit !(v + 0 > 0) }' || fail "$1 is \"$v\", expected > 0"; }
[ "$(num instances)" = 12 ] || fail "instances is $(num instances), expected 12"
[ "$(num frames)" = 40 ] || fail "frames is $(num frames), expected 40"
[ "$(num allocations_per_frame)" = 0 ] || fail "allocations_per_frame is $(num allocations_per_frame)"
for f in us_per_skeleton_frame world_vertices_per_frame build_load_us json_parse_us; do positive "$f"; done

# threads: the batch API through the default pool, still no allocations per frame
run 0 threads skel bench "$RIG" --clip walk --instances 30 --frames 20 --threads 2 --json
expect threads '"allocations_per_frame":	0,'
expect threads '"threads":	2,'

# instance memory: hot parts in one arena by default, --heap for one heap block each; the
# instance's bytes per part are the same either way (the arena's chunk slack not counted)
expect json '"instance_memory":	"arena",'
run 0 heap skel bench "$RIG" --clip walk --instances 12 --frames 10 --heap --json
expect heap '"instance_memory":	"heap",'
expect heap '"allocations_per_frame":	0,'
# setup bytes count what the arena handed out, not its 4 MiB chunks: about the heap's figure
ha=$(num setup_bytes_per_instance)
hh=$(sed -n 's/.*"setup_bytes_per_instance":[[:space:]]*\([0-9]*\).*/\1/p' "$WORK/heap.out")
awk -v a="$ha" -v h="$hh" 'BEGIN { exit !(a > 0 && h > 0 && a < 1.1 * h && h < 1.1 * a) }' ||
    fail "setup_bytes_per_instance: arena $ha, heap $hh"

# resident memory: what the instances committed. A clip over every slot sizes each draw list
# for clipping's worst case (every triangle cut into as many points as a 32-gon allows); walk
# never clips, so that capacity stays address space and the pages the instances commit are a
# fraction of the bytes they reserve (under half: ASan's own bookkeeping commits some more)
positive resident_bytes_per_instance
mkdir -p "$WORK/clipped"
cp -r "$SRC/examples/mannequin/." "$WORK/clipped/"
sed -i -e '/"slots": \[/a\    { "name": "clip", "bone": "root", "attachment": "clip" },' \
    -e '0,/"attachments": \[/{/"attachments": \[/a\        { "slot": "clip", "name": "clip", "type": "Clipping", "vertices": [99, 0, 97, 19, 91, 38, 82, 55, 70, 70, 55, 82, 38, 91, 19, 97, 0, 99, -19, 97, -38, 91, -55, 82, -70, 70, -82, 55, -91, 38, -97, 19, -99, 0, -97, -19, -91, -38, -82, -55, -70, -70, -55, -82, -38, -91, -19, -97, 0, -99, 19, -97, 38, -91, 55, -82, 70, -70, 82, -55, 91, -38, 97, -19] },
}' "$WORK/clipped/mannequin.mskel"
run 0 clipped skel bench "$WORK/clipped/mannequin.mskel" --clip walk --instances 200 --frames 10 --json
expect clipped '"allocations_per_frame":	0,'
cs=$(sed -n 's/.*"setup_bytes_per_instance":[[:space:]]*\([0-9]*\).*/\1/p' "$WORK/clipped.out")
cr=$(sed -n 's/.*"resident_bytes_per_instance":[[:space:]]*\([-0-9]*\).*/\1/p' "$WORK/clipped.out")
awk -v s="$cs" -v r="$cr" -v p="$ha" 'BEGIN { exit !(s > 4 * p && r > 0 && r < s / 2) }' ||
    fail "clipped rig: setup_bytes_per_instance $cs (unclipped $ha), resident_bytes_per_instance $cr"
# the first instance's parts: the clipping capacity is the draw list's, pose and tracks as before
part() { sed -n "/\"instance_bytes\"/,/}/s/.*\"$2\":[[:space:]]*\([0-9]*\).*/\1/p" "$WORK/$1.out" | head -1; }
for f in pose tracks draw_list; do
    [ -n "$(part json $f)" ] && [ "$(part json $f)" -gt 0 ] || fail "instance_bytes.$f is \"$(part json $f)\""
done
awk -v p="$(part json pose)" -v t="$(part json tracks)" -v d="$(part json draw_list)" -v s="$ha" \
    'BEGIN { exit !(p + t + d <= s * 1.1 && p + t + d >= s * 0.5) }' ||
    fail "instance_bytes parts $(part json pose) + $(part json tracks) + $(part json draw_list) against $ha an instance"
awk -v c="$(part clipped draw_list)" -v u="$(part json draw_list)" -v cp="$(part clipped pose)" -v up="$(part json pose)" \
    'BEGIN { exit !(c > 4 * u && cp < 2 * up) }' ||
    fail "clipped draw list $(part clipped draw_list) (unclipped $(part json draw_list)), pose $(part clipped pose) ($(part json pose))"
run 0 residenttext skel bench "$WORK/clipped/mannequin.mskel" --clip walk --instances 3 --frames 5
expect residenttext "resident memory grown by setup and the frames"
expect residenttext "one instance as created: pose"

# merge: every instance's draw list into one batch a frame; the mannequin is one page, one blend
run 0 merge skel bench "$RIG" --clip walk --instances 7 --frames 10 --merge --json
expect merge '"batches_per_frame":	1,'
expect merge '"pages":	1,'
expect merge '"allocations_per_frame":	0,'
run 0 mergetext skel bench "$RIG" --clip walk --instances 3 --frames 5 --merge
expect mergetext "merge: 1 batches per frame over 1 page"

# text output
run 0 text skel bench "$RIG" --clip idle --instances 3 --frames 5
expect text "us per skeleton-frame"
expect text "allocations per frame (steady state): 0"

# GPU skinning on lavapipe (scripts/setup.sh installs it; the test script requires a device):
# the same instances' streams skinned by Vulkan compute, nothing allocated per frame. Mesa's
# driver is unloaded before LeakSanitizer looks, which then blames an unknown module for what
# its globals held: leaks are checked by test_gpu_batch, which keeps the driver mapped.
if [ -n "${MF_REQUIRE_GPU:-}" ] || [ -e /usr/share/vulkan/icd.d/lvp_icd.x86_64.json ]; then
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
  run 0 gpu skel bench "$RIG" --clip walk --instances 5 --frames 6 --threads 2 --gpu-cpu --json
  expect gpu '"gpu":'
  expect gpu '"device":	"llvmpipe'
  expect gpu '"items_clipped_per_frame":	0,'
  expect gpu '"allocations_per_frame":	0,'
  run 0 gputext skel bench "$RIG" --clip walk --instances 3 --frames 4 --gpu-cpu
  expect gputext "GPU skinning on llvmpipe"
  # the last frame read back and compared with the CPU's streams; the clipped rig's clipped
  # items come from the CPU's clipper
  run 0 gpucheck skel bench "$WORK/clipped/mannequin.mskel" --clip walk --instances 4 --frames 5 --threads 2 --gpu-cpu --gpu-check --json
  expect gpucheck '"mismatches":	0'
  expect gpucheck '"checked_vertices":'
  grep -q '"items_clipped_per_frame":	0,' "$WORK/gpucheck.out" && fail "gpucheck: the clipped rig clipped nothing"
  # positions agree within float rounding (mismatches leaves them out)
  awk -v e="$(sed -n 's/.*"max_position_error":[[:space:]]*\([-0-9.e+]*\).*/\1/p' "$WORK/gpucheck.out")" \
      'BEGIN { exit !(e != "" && e + 0 >= 0 && e + 0 < 0.01) }' || fail "gpucheck: max_position_error not below 0.01 px"
  # the GPU path builds no CPU lists: a merge would merge stale ones
  run 2 gpumerge skel bench "$RIG" --clip walk --gpu-cpu --merge
  expect gpumerge "--merge and --gpu / --gpu-cpu exclude each other"
  # 2,000 clipped instances: clipping's worst case passes lavapipe's storage range, so the
  # batch holds less (the unclipped part always) and the frames still fit and agree
  run 0 gpucapped skel bench "$WORK/clipped/mannequin.mskel" --clip walk --instances 2000 --frames 2 --gpu-cpu --gpu-check --json
  expect gpucapped '"mismatches":	0'
  run 2 gpuchecknogpu skel bench "$RIG" --clip walk --gpu-check
  expect gpuchecknogpu "--gpu-check needs --gpu or --gpu-cpu"
  # the bones read back from the GPU (mf_gpu_batch_read_world) against the CPU's: some checked,
  # positions and the 2×2 within the bounds given
  bones_ok() {
    local n e m
    n=$(sed -n 's/.*"checked_bones":[[:space:]]*\([0-9]*\).*/\1/p' "$WORK/$1.out")
    e=$(sed -n 's/.*"max_bone_position_error":[[:space:]]*\([-0-9.e+]*\).*/\1/p' "$WORK/$1.out")
    m=$(sed -n 's/.*"max_bone_matrix_error":[[:space:]]*\([-0-9.e+]*\).*/\1/p' "$WORK/$1.out")
    awk -v n="$n" -v e="$e" -v m="$m" -v pe="$2" -v pm="$3" \
        'BEGIN { exit !(n + 0 > 0 && e != "" && e + 0 >= 0 && e + 0 < pe + 0 && m != "" && m + 0 >= 0 && m + 0 < pm + 0) }' ||
        fail "$1: bones read back: $n checked, position $e (bound $2), 2x2 $m (bound $3)"
  }
  # the world on the GPU: rigs without constraints (the mannequin's legs without their IK; and
  # with the clipping attachment shown, whose frames take the CPU's world and a list)
  for v in noik noikclip; do
    mkdir -p "$WORK/$v"
    if [ $v = noik ]; then cp -r "$SRC/examples/mannequin/." "$WORK/$v/"; else cp -r "$WORK/clipped/." "$WORK/$v/"; fi
    sed -i -e '/"ik": \[/,/^  \],/c\  "ik": [],' "$WORK/$v/mannequin.mskel"
    run 0 gpuworld$v skel bench "$WORK/$v/mannequin.mskel" --clip walk --instances 6 --frames 5 --threads 2 --gpu-cpu \
        --gpu-world --gpu-check --json
    expect gpuworld$v '"world_on_gpu":	true'
    expect gpuworld$v '"mismatches":	0'
    expect gpuworld$v '"allocations_per_frame":	0,'
    awk -v e="$(sed -n 's/.*"max_position_error":[[:space:]]*\([-0-9.e+]*\).*/\1/p' "$WORK/gpuworld$v.out")" \
        'BEGIN { exit !(e != "" && e + 0 >= 0 && e + 0 < 0.01) }' || fail "gpuworld$v: max_position_error not below 0.01 px"
    # the clip shown takes the CPU's world and add(): no bones to read back there
    if [ $v = noik ]; then bones_ok gpuworld$v 0.01 1e-4; else expect gpuworld$v '"checked_bones":	0,'; fi
  done
  # the local pose (7 floats a bone and the inherit bytes) goes up instead of the palette (6 a
  # bone): more bytes for the same frame, so the world really went the GPU's way
  run 0 gpuplainnoik skel bench "$WORK/noik/mannequin.mskel" --clip walk --instances 6 --frames 5 --threads 2 --gpu-cpu --json
  up() { sed -n 's/.*"upload_bytes_per_frame":[[:space:]]*\([0-9]*\).*/\1/p' "$WORK/$1.out"; }
  [ -n "$(up gpuplainnoik)" ] && [ "$(up gpuworldnoik)" -gt "$(up gpuplainnoik)" ] ||
      fail "gpuworldnoik: $(up gpuworldnoik) bytes uploaded, not more than the palettes' $(up gpuplainnoik)"
  run 0 gpuworldtext skel bench "$WORK/noik/mannequin.mskel" --clip walk --instances 3 --frames 4 --gpu-cpu --gpu-world
  expect gpuworldtext "GPU skinning and world transforms on llvmpipe"
  # with its IK (solved on the GPU: a tenth of a pixel at most, gpu-skinning.md)
  run 0 gpuworldik skel bench "$RIG" --clip walk --instances 6 --frames 5 --threads 2 --gpu-cpu --gpu-world --gpu-check --json
  expect gpuworldik '"mismatches":	0'
  awk -v e="$(sed -n 's/.*"max_position_error":[[:space:]]*\([-0-9.e+]*\).*/\1/p' "$WORK/gpuworldik.out")" \
      'BEGIN { exit !(e != "" && e + 0 >= 0 && e + 0 < 0.1) }' || fail "gpuworldik: max_position_error not below 0.1 px"
  bones_ok gpuworldik 0.1 2e-3
  # a transform constraint (with the IK) goes to the GPU too: world relative with offsets and
  # partial mixes, and a local one
  mkdir -p "$WORK/tc" && cp -r "$SRC/examples/mannequin/." "$WORK/tc/"
  sed -i -e 's/"transform": \[\],/"transform": [ { "name": "tc", "bones": ["hand_l"], "target": "hand_r", "relative": true, "rot": 20, "x": 3, "y": -2, "mixRotate": 0.5, "mixX": 0.4, "mixY": 0.3, "mixScaleX": 0.2, "mixScaleY": 0.6, "mixShearY": 0.5 }, { "name": "tl", "bones": ["head"], "target": "hand_r", "local": true, "mixRotate": 0.3, "mixX": 0, "mixY": 0, "mixScaleX": 0.5, "mixScaleY": 0, "mixShearY": 0 } ],/' "$WORK/tc/mannequin.mskel"
  grep -q '"name": "tc"' "$WORK/tc/mannequin.mskel" || fail "gpuworldtc: the transform constraint was not written into the rig"
  run 0 gpuworldtc skel bench "$WORK/tc/mannequin.mskel" --clip walk --instances 6 --frames 5 --threads 2 --gpu-cpu \
      --gpu-world --gpu-check --json
  expect gpuworldtc '"world_on_gpu":	true'
  expect gpuworldtc '"mismatches":	0'
  awk -v e="$(sed -n 's/.*"max_position_error":[[:space:]]*\([-0-9.e+]*\).*/\1/p' "$WORK/gpuworldtc.out")" \
      'BEGIN { exit !(e != "" && e + 0 >= 0 && e + 0 < 0.1) }' || fail "gpuworldtc: max_position_error not below 0.1 px"
  bones_ok gpuworldtc 0.1 2e-3
  # a path constraint (with the IK) goes to the GPU too: a path on the torso, chain scale,
  # percent spacing, partial mixes, the arm along it
  mkdir -p "$WORK/pc" && cp -r "$SRC/examples/mannequin/." "$WORK/pc/"
  sed -i -e 's/"path": \[\],/"path": [ { "name": "pc", "order": 2, "bones": ["upper_arm_l", "forearm_l"], "target": "rail", "spacingMode": "percent", "rotateMode": "chainScale", "position": 0.1, "spacing": 0.3, "mixRotate": 0.7, "mixX": 0.5, "mixY": 0.6 } ],/' \
      -e 's/{ "name": "hitbox", "bone": "root", "attachment": "hitbox" }/{ "name": "rail", "bone": "torso", "attachment": "rail" }, &/' \
      -e 's/"attachments": \[$/&\n        { "slot": "rail", "name": "rail", "type": "Path", "vertices": [-10, 0, 0, 0, 20, 30, 40, 60, 60, 50, 80, 40, 90, 20, 100, 0, 110, -20], "lengths": [90, 180, 200] },/' "$WORK/pc/mannequin.mskel"
  grep -q '"name": "pc"' "$WORK/pc/mannequin.mskel" && grep -q '"type": "Path"' "$WORK/pc/mannequin.mskel" ||
      fail "gpuworldpc: the path constraint was not written into the rig"
  run 0 gpuworldpc skel bench "$WORK/pc/mannequin.mskel" --clip walk --instances 6 --frames 5 --threads 2 --gpu-cpu \
      --gpu-world --gpu-check --json
  expect gpuworldpc '"world_on_gpu":	true'
  expect gpuworldpc '"mismatches":	0'
  awk -v e="$(sed -n 's/.*"max_position_error":[[:space:]]*\([-0-9.e+]*\).*/\1/p' "$WORK/gpuworldpc.out")" \
      'BEGIN { exit !(e != "" && e + 0 >= 0 && e + 0 < 0.1) }' || fail "gpuworldpc: max_position_error not below 0.1 px"
  bones_ok gpuworldpc 0.1 2e-3
  # two path constraints on one slot whose long path (300 vertices) a key deforms: each takes
  # its own copy of the deform (600 floats), and the bench's batch has room for both
  mkdir -p "$WORK/ps" && cp -r "$SRC/examples/mannequin/." "$WORK/ps/"
  psv=$(awk 'BEGIN { for (i = 0; i < 300; i++) printf "%s%d, %d", (i ? ", " : ""), 2 * i, (i % 7) * 3 }')
  psl=$(awk 'BEGIN { for (i = 1; i <= 100; i++) printf "%s%d", (i > 1 ? ", " : ""), 6 * i }')
  sed -i -e 's/"path": \[\],/"path": [ { "name": "pa", "order": 2, "bones": ["upper_arm_l"], "target": "rail", "position": 0.2, "mixRotate": 0.5 }, { "name": "pb", "order": 3, "bones": ["upper_arm_r"], "target": "rail", "position": 0.6, "mixRotate": 0.5 } ],/' \
      -e 's/{ "name": "hitbox", "bone": "root", "attachment": "hitbox" }/{ "name": "rail", "bone": "torso", "attachment": "rail" }, &/' \
      -e "s/\"attachments\": \[\$/&\n        { \"slot\": \"rail\", \"name\": \"rail\", \"type\": \"Path\", \"vertices\": [$psv], \"lengths\": [$psl] },/" "$WORK/ps/mannequin.mskel"
  sed -i -e 's/^  "events"/  "deform": { "default": { "rail": { "rail": { "t": [0, 1], "v": [[1, 2], [3, -1]] } } } },\n&/' "$WORK/ps/mannequin.clips/walk.manim"
  grep -q '"name": "pb"' "$WORK/ps/mannequin.mskel" && grep -q '"deform"' "$WORK/ps/mannequin.clips/walk.manim" ||
      fail "gpuworldps: the shared path or its deform was not written"
  run 0 gpuworldps skel bench "$WORK/ps/mannequin.mskel" --clip walk --instances 4 --frames 3 --gpu-cpu --gpu-world \
      --gpu-check --json
  expect gpuworldps '"world_on_gpu":	true'
  expect gpuworldps '"mismatches":	0'
  # physics constraints: their springs on the GPU too, checked against the CPU's beside them
  mkdir -p "$WORK/ph" && cp -r "$SRC/examples/mannequin/." "$WORK/ph/"
  sed -i -e 's/"physics": \[\],/"physics": [ { "name": "ph", "bone": "hand_l", "x": 1, "rotate": 1, "gravity": 30 } ],/' "$WORK/ph/mannequin.mskel"
  grep -q '"name": "ph"' "$WORK/ph/mannequin.mskel" || fail "gpuworldph: the physics constraint was not written into the rig"
  run 0 gpuworldph skel bench "$WORK/ph/mannequin.mskel" --clip walk --instances 5 --frames 20 --threads 2 --gpu-cpu \
      --gpu-world --gpu-check --json
  expect gpuworldph '"world_on_gpu":	true'
  expect gpuworldph '"mismatches":	0'
  bones_ok gpuworldph 0.05 0.001
  # the same constraint skin-required, added by a second skin the instances wear (--skin): the
  # CPU twins --gpu-check compares with wear it too (without it their hand hung still: 49 px)
  mkdir -p "$WORK/phs" && cp -r "$SRC/examples/mannequin/." "$WORK/phs/"
  sed -i -e 's/"physics": \[\],/"physics": [ { "name": "ph", "bone": "hand_l", "x": 1, "rotate": 1, "gravity": 30, "skinRequired": true } ],/' \
      -e 's/"skins": \[/"skins": [ { "name": "phys", "constraints": ["ph"], "attachments": [] },/' "$WORK/phs/mannequin.mskel"
  grep -q '"name": "phys"' "$WORK/phs/mannequin.mskel" || fail "gpuworldphs: the skin was not written into the rig"
  run 0 gpuworldphs skel bench "$WORK/phs/mannequin.mskel" --clip walk --instances 5 --frames 20 --threads 2 --gpu-cpu \
      --gpu-world --gpu-check --skin phys --json
  expect gpuworldphs '"mismatches":	0'
  bones_ok gpuworldphs 0.05 0.001
  awk -v e="$(sed -n 's/.*"max_position_error":[[:space:]]*\([-0-9.e+]*\).*/\1/p' "$WORK/gpuworldphs.out")" \
      'BEGIN { exit !(e != "" && e + 0 >= 0 && e + 0 < 0.05) }' || fail "gpuworldphs: max_position_error not below 0.05 px"
  run 2 gpuworldnogpu skel bench "$RIG" --clip walk --gpu-world
  expect gpuworldnogpu "--gpu-world needs --gpu or --gpu-cpu"
else
  echo "cli_bench: GPU part SKIPPED: no lavapipe ICD and MF_REQUIRE_GPU unset"
fi

# errors: located, with a suggestion
run 2 badclip skel bench "$RIG" --clip wlak
expect badclip 'no clip "wlak" (did you mean "walk"?)'
run 2 badskin skel bench "$RIG" --clip walk --skin nope
expect badskin 'no skin "nope"'
run 2 noclip skel bench "$RIG"
expect noclip "missing --clip NAME"
run 2 badn skel bench "$RIG" --clip walk --instances 0
expect badn "--instances wants"
run 2 badprefetch skel bench "$RIG" --clip walk --prefetch-min 0
expect badprefetch "--prefetch-min wants 1..1000000 or off"
# the batch's prefetch threshold: the default, a host's count, never
run 0 pfdefault skel bench "$RIG" --clip walk --instances 6 --frames 5 --threads 2 --json
expect pfdefault '"prefetch_min":	4096,'
run 0 pfone skel bench "$RIG" --clip walk --instances 6 --frames 5 --threads 2 --prefetch-min 1 --json
expect pfone '"prefetch_min":	1,'
expect pfone '"allocations_per_frame":	0,'
run 0 pfoff skel bench "$RIG" --clip walk --instances 6 --frames 5 --threads 2 --prefetch-min off --json
expect pfoff '"prefetch_min":	-1,'
# the SIMD paths: the widest by default, a cap named in the output; a bad level refused
expect json '"simd":'
run 0 simdbase skel bench "$RIG" --clip walk --instances 6 --frames 5 --simd base --json
expect simdbase '"simd":	"base",'
expect simdbase '"allocations_per_frame":	0,'
run 0 simdbatch skel bench "$RIG" --clip walk --instances 6 --frames 5 --threads 2 --simd base --json
expect simdbatch '"simd":	"base",'
run 2 badsimd skel bench "$RIG" --clip walk --simd sse
expect badsimd "--simd wants auto, base, avx, avx2 or avx512"
# what the frames build of the draw lists: whole (the default), the items only, none; the last
# two through the batch, without stage timings; not with --merge or --gpu
expect json '"draw":	"full",'
run 0 drawitems skel bench "$RIG" --clip walk --instances 6 --frames 5 --draw items --json
expect drawitems '"draw":	"items",'
expect drawitems '"allocations_per_frame":	0,'
expect drawitems '"prefetch_min":'
grep -q '"us_spine_equivalent"' "$WORK/drawitems.out" && fail "--draw items: stage timings"
run 0 drawnone skel bench "$RIG" --clip walk --instances 6 --frames 5 --draw none --json
expect drawnone '"draw":	"none",'
expect drawnone '"draw_items_last_frame":	0,'
expect drawnone '"allocations_per_frame":	0,'
run 0 drawfull skel bench "$RIG" --clip walk --instances 6 --frames 5 --json
items_of() { sed -n 's/.*"draw_items_last_frame":[[:space:]]*\([0-9]*\).*/\1/p' "$WORK/$1.out"; }
# the same instances at the same times list the same items, with or without their vertices
[ -n "$(items_of drawitems)" ] && [ "$(items_of drawitems)" -gt 0 ] || fail "--draw items: no items listed"
[ "$(items_of drawitems)" = "$(items_of drawfull)" ] ||
    fail "--draw items lists $(items_of drawitems) items, full lists $(items_of drawfull)"
# an explicit --draw full goes through the batch too, so that the three modes compare
run 0 drawfullb skel bench "$RIG" --clip walk --instances 6 --frames 5 --draw full --json
expect drawfullb '"draw":	"full",'
grep -q '"us_spine_equivalent"' "$WORK/drawfullb.out" && fail "--draw full: stage timings"
[ "$(items_of drawfullb)" = "$(items_of drawfull)" ] || fail "--draw full lists $(items_of drawfullb) items"
# culled instances are not counted as drawn
run 0 drawculled skel bench "$RIG" --clip walk --instances 6 --frames 5 --offscreen 100% --json
expect drawculled '"draw_items_last_frame":	0,'
run 0 drawtext skel bench "$RIG" --clip walk --instances 6 --frames 5 --draw none
expect drawtext "draw lists: none (posing only"
run 2 baddraw skel bench "$RIG" --clip walk --draw some
expect baddraw "--draw wants full, items or none"
run 2 drawmerge skel bench "$RIG" --clip walk --draw items --merge
expect drawmerge "not with --merge"
run 2 drawgpu skel bench "$RIG" --clip walk --draw none --gpu-cpu
expect drawgpu "not with --merge, --gpu or --gpu-cpu"
run 2 drawbare skel bench "$RIG" --clip walk --draw
expect drawbare "--draw needs a value"
# slot tracking: builds keep their items while no slot changes; the same items listed, nothing
# allocated, said in the JSON and the text
expect json '"slot_tracking":	false,'
run 0 tracked skel bench "$RIG" --clip walk --instances 6 --frames 5 --draw full --track-slots --json
expect tracked '"slot_tracking":	true,'
expect tracked '"allocations_per_frame":	0,'
[ "$(items_of tracked)" = "$(items_of drawfull)" ] || fail "--track-slots lists $(items_of tracked) items"
run 0 trackedstaged skel bench "$RIG" --clip walk --instances 6 --frames 5 --track-slots --threads 2 --json
expect trackedstaged '"allocations_per_frame":	0,'
run 0 trackedtext skel bench "$RIG" --clip walk --instances 6 --frames 5 --track-slots
expect trackedtext "; slot tracking"
run 2 missing skel bench "$WORK/none.mskel" --clip walk
expect missing "none.mskel"
finish cli_bench
