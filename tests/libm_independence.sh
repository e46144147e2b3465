#!/bin/sh
# The runtime's results do not depend on the C library's maths: the runtime's sources and
# tests/libm/libm_digest.c are built twice, static, with the host's compiler against glibc and
# with musl-gcc against musl (their sinf, cosf and powf differ in last bits), with the build's
# -ffp-contract=off, and both must print the same hashes of every frame's world matrices and
# world vertices: for the project's fixtures (all.mskel has a physics constraint with wind,
# gravity and a 30 fps step, so the springs' cos, sin and pow all run) and, beside the corpus,
# for its physics rigs. Usage: libm_independence.sh CC MUSL_GCC MFE SOURCE_DIR WORK_DIR
set -eu
cc=$1 musl=$2 mfe=$3 src=$4 work=$5
rm -rf "$work"
mkdir -p "$work/builds"
flags="-std=c11 -O2 -ffp-contract=off -I$src/include -I$src/src/runtime"
for c in "$cc" "$musl"; do
  name=$(basename "$c")
  mkdir -p "$work/obj-$name"
  # two compilers at a time (the machine's cores are shared)
  find "$src/src/runtime" -name '*.c' | sort | xargs -P 2 -I{} sh -c \
    'o="$1/obj-$2/$(echo "$3" | tr / _).o"; exec '"$c"' '"$flags"' -c "$3" -o "$o"' sh "$work" "$name" {}
  "$c" $flags -static -o "$work/digest-$name" "$src/tests/libm/libm_digest.c" "$work/obj-$name"/*.o -lm
done
# the binary builds: the fixtures, and the corpus' physics rigs where it is beside the project
for rig in "$src/tests/data/mskel/all.mskel" "$src/tests/data/mskel/seed.mskel" "$src/examples/mannequin/mannequin.mskel"; do
  "$mfe" skel build "$rig" -o "$work/builds/$(basename "$rig" .mskel).mskb" >/dev/null
done
shared=${MF_SHARED:-$src/../shared}
for rig in celestial-circus sack; do
  json="$shared/spine-corpus/$rig/$rig-pro.json"
  if [ -f "$json" ]; then
    "$mfe" skel import-spine "$json" --out "$work/import-$rig" >/dev/null
    "$mfe" skel build "$work/import-$rig/$rig-pro.mskel" -o "$work/builds/$rig.mskb" >/dev/null
  else
    echo "skipped: $json (no Spine corpus beside the project)"
  fi
done
(cd "$work/builds" && "$work/digest-$(basename "$cc")" *.mskb) >"$work/glibc.txt"
(cd "$work/builds" && "$work/digest-$(basename "$musl")" *.mskb) >"$work/musl.txt"
if ! cmp -s "$work/glibc.txt" "$work/musl.txt"; then
  echo "libm_independence: the runtime's results differ between the C libraries"
  diff "$work/glibc.txt" "$work/musl.txt" || true
  exit 1
fi
# the no-libm claim itself: no transcendental from the C library among the runtime's imports
# (sqrt, fmod, frexp, ldexp, floor and friends are exact in every library; atan2 is called only
# for infinities, zeros and NaNs, whose results the C standard fixes; math3d.c is the 3D math of
# the humanoid tools, not the 2D pose)
bad=$(for o in "$work/obj-$(basename "$cc")"/*.o; do
  case "$o" in *math3d.c.o) continue ;; esac
  nm -u "$o" | awk '{ print $2 }' | grep -E '^(sinf?|cosf?|sincosf?|tanf?|powf?|expf?|exp2f?|logf?|log2f?|acosf?|asinf?|atanf?)$' | sed "s|^|$(basename "$o"): |"
done)
if [ -n "$bad" ]; then
  echo "libm_independence: the runtime calls libm transcendentals:"
  echo "$bad"
  exit 1
fi
echo "libm_independence: $(wc -l <"$work/glibc.txt") clips, the same hashes with glibc and musl"
