#!/bin/sh
# The runtime gives the same bits wherever it runs: its sources and
# tests/portable/portable_digest.c are built static with -ffp-contract=off (as the project
# builds) four ways:
#   glibc    the host's compiler, x86-64, its SSE2/AVX/AVX2/AVX-512 paths chosen at run time;
#   musl     musl-gcc (musl's sinf, cosf and powf differ from glibc's in last bits);
#   plain    the host's compiler with -DMF_NO_SIMD (the portable C of every path);
#   aarch64  aarch64-linux-gnu-gcc, NEON, run under qemu;
# and each must print the glibc build's hashes of every frame's world matrices and world
# vertices, for the project's fixtures (all.mskel has a physics constraint with wind, gravity
# and a 30 fps step: the springs' cos, sin and pow all run) and, beside the corpus, rigs with
# physics, IK, paths, clipping and deform. It also checks that the runtime imports no libm
# transcendental. A tool passed as "-" is absent: its build is skipped, and said so.
# Usage: portable_bits.sh CC MUSL_GCC|- AARCH64_CC|- QEMU|- MFE SOURCE_DIR WORK_DIR
set -eu
cc=$1 musl=$2 a64=$3 qemu=$4 mfe=$5 src=$6 work=$7
rm -rf "$work"
mkdir -p "$work/builds"
export PB_FLAGS="-std=c11 -O2 -ffp-contract=off -I$src/include -I$src/src/runtime"

# build NAME COMPILER [EXTRA_FLAG]: the runtime and the digest program, static
build() {
  export PB_OBJ="$work/obj-$1" PB_CC="$2" PB_EXTRA="${3:-}"
  mkdir -p "$PB_OBJ"
  # two compilers at a time (the machine's cores are shared)
  find "$src/src/runtime" -name '*.c' | sort | xargs -P 2 -n 1 sh -c \
    'exec $PB_CC $PB_FLAGS $PB_EXTRA -c "$0" -o "$PB_OBJ/$(echo "$0" | tr / _).o"'
  $PB_CC $PB_FLAGS $PB_EXTRA -static -o "$work/digest-$1" "$src/tests/portable/portable_digest.c" "$PB_OBJ"/*.o -lm
}

# the binary builds: the fixtures, and corpus rigs where the corpus is beside the project
for rig in "$src/tests/data/mskel/all.mskel" "$src/tests/data/mskel/seed.mskel" "$src/examples/mannequin/mannequin.mskel"; do
  "$mfe" skel build "$rig" -o "$work/builds/$(basename "$rig" .mskel).mskb" >/dev/null
done
shared=${MF_SHARED:-$src/../shared}
for rig in celestial-circus sack spineboy raptor vine; do
  json="$shared/spine-corpus/$rig/$rig-pro.json"
  if [ -f "$json" ]; then
    "$mfe" skel import-spine "$json" --out "$work/import-$rig" >/dev/null
    "$mfe" skel build "$work/import-$rig/$rig-pro.mskel" -o "$work/builds/$rig.mskb" >/dev/null
  else
    echo "skipped: $json (no Spine corpus beside the project)"
  fi
done

build glibc "$cc"
(cd "$work/builds" && "$work/digest-glibc" *.mskb) >"$work/glibc.txt"
failed=0
# same NAME [RUNNER]: NAME's build prints glibc's hashes
same() {
  (cd "$work/builds" && ${2:-} "$work/digest-$1" *.mskb) >"$work/$1.txt"
  if cmp -s "$work/glibc.txt" "$work/$1.txt"; then
    echo "portable_bits: $1 = glibc ($(wc -l <"$work/glibc.txt") clips)"
  else
    echo "portable_bits: the $1 build's results differ from glibc's:"
    diff "$work/glibc.txt" "$work/$1.txt" || true
    failed=1
  fi
}
if [ "$musl" != - ]; then build musl "$musl"; same musl; else echo "skipped: musl (no musl-gcc)"; fi
build plain "$cc" -DMF_NO_SIMD
same plain
if [ "$a64" != - ] && [ "$qemu" != - ]; then build aarch64 "$a64"; same aarch64 "$qemu"
else echo "skipped: aarch64 (no aarch64-linux-gnu-gcc or qemu-aarch64)"; fi

# no transcendental from the C library among the runtime's imports (sqrt, fmod, frexp, ldexp,
# floor and friends are exact in every library; atan2 is called only for infinities, zeros and
# NaNs, whose results the C standard fixes; math3d.c is the humanoid tools' 3D maths, not the
# 2D pose)
bad=$(for o in "$work/obj-glibc"/*.o; do
  case "$o" in *math3d.c.o) continue ;; esac
  nm -u "$o" | awk '{ print $2 }' | grep -E '^(sinf?|cosf?|sincosf?|tanf?|powf?|expf?|exp2f?|logf?|log2f?|acosf?|asinf?|atanf?)$' |
    sed "s|^|$(basename "$o"): |" || true
done)
if [ -n "$bad" ]; then
  echo "portable_bits: the runtime calls libm transcendentals:"
  echo "$bad"
  failed=1
fi
exit $failed
