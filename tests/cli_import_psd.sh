#!/bin/sh
# `mfe skel import-psd`: a GIMP PSD into a rig folder, the report on stdout and in the folder,
# re-import after an edit, usage errors and a located error that leaves the folder untouched.
# Arguments (from tests/CMakeLists.txt): mfe path, source dir, work dir.
. "$2/tests/support/cli.sh"
DATA="$SRC/tests/data/psd"

run 0 first skel import-psd "$DATA/gimp_rig.psd" --out "$WORK/rig" --name hero
expect first "(new rig)"
expect first "bones 3, slots 7, skins 3, attachments 9, images written 10"
expect first 'ignored: "backdrop" ([ignore])'
for f in hero.mskel hero.psdmap.json import-report.txt images/body.png images/red/hat.png images/blue/hat.png \
    images/head_n.png images/legs.png; do
    [ -f "$WORK/rig/$f" ] || fail "missing $f"
done
[ -f "$WORK/rig/images/backdrop.png" ] && fail "an [ignore] layer was written"
[ -f "$WORK/rig/images/sketch.png" ] && fail "a hidden layer was written"
grep -q '"name": "eyes", "bone": "root", "attachment": "eye_open"' "$WORK/rig/hero.mskel" || fail "eyes slot"
grep -q 'ignored: "backdrop"' "$WORK/rig/import-report.txt" || fail "report file"
run 0 fmt skel fmt --check "$WORK/rig/hero.mskel"
run 0 describe skel describe "$WORK/rig/hero.mskel"

# same input again: nothing changes
cp "$WORK/rig/hero.mskel" "$WORK/before.mskel"
run 0 same skel import-psd "$DATA/gimp_rig.psd" --out "$WORK/rig" --name hero
expect same "layers: 0 added, 0 updated, 0 moved, 10 unchanged, 0 removed"
cmp -s "$WORK/before.mskel" "$WORK/rig/hero.mskel" || fail "an unchanged re-import changed the rig"

# the edited PSD
run 0 again skel import-psd "$DATA/gimp_rig_v2.psd" --out "$WORK/rig" --name hero
expect again "(re-import)"
expect again "layers: 1 added, 2 updated, 2 moved, 6 unchanged, 1 removed"
expect again 'removed: layer "glow" is no longer in the PSD'
[ -f "$WORK/rig/images/tail.png" ] || fail "new layer image missing"
[ -f "$WORK/rig/images/glow.png" ] || fail "a removed layer's image was deleted"

# usage and input errors
run 2 noout skel import-psd "$DATA/gimp_rig.psd"
expect noout "no output folder given (--out DIR)"
run 2 noin skel import-psd --out "$WORK/x"
expect noin "no PSD file given"
run 2 flag skel import-psd "$DATA/gimp_rig.psd" --out "$WORK/x" --fast
expect flag "unknown option --fast"
cp "$WORK/rig/hero.mskel" "$WORK/before.mskel"
run 2 zip skel import-psd "$DATA/im_zip.psd" --out "$WORK/rig" --name hero
expect zip 'im_zip.psd: offset 298 (channel image data, layer 0 "body"): channel 0 (red): ZIP-compressed channel data'
cmp -s "$WORK/before.mskel" "$WORK/rig/hero.mskel" || fail "a failed import changed the rig"
ls -a "$WORK/rig" | grep -q 'tmp-' && fail "a failed import left temporary files"
printf 'not a psd' >"$WORK/bad.psd"
run 2 bad skel import-psd "$WORK/bad.psd" --out "$WORK/y"
expect bad "bad.psd: offset 0 (header): truncated: the header needs 26 bytes, 9 left"
[ -e "$WORK/y" ] && fail "a failed import created its folder"

finish cli_import_psd
