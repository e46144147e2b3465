#!/bin/sh
# mfe skel render end to end: a sheet and a single frame are written as PNGs; errors exit 2.
. "$2/tests/support/cli.sh"
cp -r "$SRC/examples/mannequin" "$WORK/m"
RIG="$WORK/m/mannequin.mskel"
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ print ($1*16777216+$2*65536+$3*256+$4) "x" ($5*16777216+$6*65536+$7*256+$8) }'; }

run 0 sheet skel render "$RIG" --clip walk --frames 4 --size 128 --out "$WORK/sheet.png"
expect sheet "wrote $WORK/sheet.png"
[ -s "$WORK/sheet.png" ] || fail "no sheet written"
# 4 frames of 128 px in one row; at least 560 wide for the header; header + row + strip high
case "$(png_size "$WORK/sheet.png")" in 560x*) ;; *) fail "sheet size $(png_size "$WORK/sheet.png")" ;; esac
run 0 one skel render "$RIG" --clip walk --frame 0.25 --size 200x300 --out "$WORK/one.png"
case "$(png_size "$WORK/one.png")" in 560x*) ;; *) fail "frame size $(png_size "$WORK/one.png")" ;; esac
run 0 idle skel render "$RIG" --clip idle --skin default --out "$WORK/idle.png"

run 2 noclip skel render "$RIG" --clip wakl --out "$WORK/x.png"
expect noclip '(did you mean "walk"?)'
run 2 noskin skel render "$RIG" --clip walk --skin nope --out "$WORK/x.png"
expect noskin 'no skin "nope"'
run 2 noargs skel render "$RIG"
expect noargs "--clip NAME is needed"
run 2 badsize skel render "$RIG" --clip walk --size 5
run 2 badframes skel render "$RIG" --clip walk --frames 0
[ -e "$WORK/x.png" ] && fail "a failed render wrote a file"
finish cli_render
