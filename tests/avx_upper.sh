#!/bin/sh
# Every function of BINARY that writes a ymm/zmm register clears the upper halves (vzeroupper)
# before it returns, or calls or jumps into a function that is not AVX code itself: legacy SSE
# code run with them dirty pays for a merge on every instruction (found once: the AVX bone
# packing tail-calling the SSE packer made alien's world vertices 1.5x slower with fewer
# instructions). A linear scan of the disassembly: it can miss a path, it does not report a
# clean one.
# Usage: avx_upper.sh OBJDUMP BINARY WORKDIR
set -eu
OBJDUMP=$1 BIN=$2 WORK=$3
mkdir -p "$WORK"
"$OBJDUMP" -d --no-show-raw-insn "$BIN" > "$WORK/disasm.txt"
awk '
function name(s) { sub(/^</, "", s); sub(/>:?$/, "", s); sub(/\+0x[0-9a-f]+$/, "", s); return s }
/^[0-9a-f]+ <[^>]+>:$/ { fn = name($2); dirty = 0; next }
NR == FNR { if ($0 ~ /%[yz]mm[0-9]+/) avx[fn] = 1; next }
/\tvzeroupper|\tvzeroall/ { dirty = 0; next }
{
    n = split($0, f, "\t")
    ins = f[n]
    op = ins; sub(/ .*/, "", op)
    if (dirty && (op == "ret" || op == "call" || op == "jmp")) {
        target = ""
        if (match(ins, /<[^>]+>$/)) target = name(substr(ins, RSTART, RLENGTH))
        if (op == "ret" || (target != fn && !(target in avx))) {
            print "upper halves dirty at " op " in " fn ": " $0
            bad++
        }
    }
    if (ins ~ /%[yz]mm[0-9]+$/) dirty = 1 # AT&T: the destination is the last operand
}
END { if (bad) { print bad " exit(s) with dirty upper halves"; exit 1 } print "ok: no AVX exit with dirty upper halves" }
' "$WORK/disasm.txt" "$WORK/disasm.txt"
