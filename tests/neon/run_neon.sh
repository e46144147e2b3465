#!/bin/sh
# NEON skinning, proved on a host without ARM: cross-compiles the runtime (C11 + libm) and
# neon_skin_check.c for aarch64, static, with the build's -ffp-contract=off, and runs it under
# qemu on random rig builds written by the host's neon_rigs. Fails when any coordinate of the
# NEON path differs from the scalar path's, or when a step fails.
# Usage: run_neon.sh CROSS_CC QEMU SOURCE_DIR NEON_RIGS WORK_DIR
set -eu
cc=$1 qemu=$2 src=$3 rigs=$4 work=$5
rm -rf "$work"
mkdir -p "$work/obj" "$work/rigs"
"$rigs" "$work/rigs" 12 2026
flags="-std=c11 -O2 -ffp-contract=off -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror -I$src/include -I$src/src/runtime -I$src/src/runtime/pose"
# two compilers at a time (the machine's cores are shared)
find "$src/src/runtime" -name '*.c' | sort | xargs -P 2 -I{} sh -c \
  'o="$1/obj/$(echo "$2" | tr / _).o"; exec '"$cc"' '"$flags"' -c "$2" -o "$o"' sh "$work" {}
$cc $flags -static -o "$work/neon_skin_check" "$src/tests/neon/neon_skin_check.c" "$work"/obj/*.o -lm
# the NEON kernels must be in the binary and must not fuse (vfmaq / vmlaq, or the compiler's own)
if command -v aarch64-linux-gnu-objdump >/dev/null 2>&1; then
  dis="$work/geom_vertices.dis"
  aarch64-linux-gnu-objdump -d "$work"/obj/*geom_vertices.c.o >"$dis"
  grep -q 'faddp' "$dis" || { echo "run_neon: no NEON pairwise add in geom_vertices: the NEON path was not built"; exit 1; }
  if grep -Eq '\s(fmla|fmls|fmadd|fmsub|fnmadd|fnmsub)\s' "$dis"; then
    echo "run_neon: fused multiply-adds in geom_vertices (the scalar and NEON bits would differ)"; exit 1
  fi
fi
"$qemu" "$work/neon_skin_check" "$work"/rigs/*.mskb
