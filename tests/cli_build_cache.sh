#!/bin/sh
# `mfe skel build` through the bake cache (in the work dir, never the user's cache): a miss then
# a hit with the same bytes; a flipped byte or a truncation in either entry is a miss and the
# rebuild gives the same bytes; a clip edit re-packs nothing (atlas hit); an image the rig does
# not use changes nothing; "off" disables the cache; an unwritable cache folder only warns.
# Arguments (from tests/CMakeLists.txt): mfe path, source dir, work dir.
. "$2/tests/support/cli.sh"

cp -R "$SRC/examples/mannequin" "$WORK/rig"
RIG="$WORK/rig/mannequin.mskel"
CACHE="$WORK/cache"
export MF_SKELETON_BAKE_CACHE_DIR="$CACHE"

entries() { ls "$CACHE" 2>/dev/null | grep -c '\.bake$'; }

# same_output NAME: NAME.mskb and its page equal the first build's
same_output() {
    cmp -s "$WORK/ref.mskb" "$WORK/$1.mskb" || fail "$1.mskb differs from the first build"
    cmp -s "$WORK/ref_0.png" "$WORK/$1_0.png" || fail "$1_0.png differs from the first build's page"
}

# flip FILE OFFSET: xor one byte with 0xff
flip() {
    b=$(od -An -tu1 -j"$2" -N1 "$1" | tr -d ' ')
    printf "\\$(printf %o $((b ^ 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

run 0 first skel build "$RIG" -o "$WORK/ref.mskb" --json
expect first '"cache":	"miss"'
expect first '"atlasCache":	"miss"'
expect first '"pages":	1'
[ -f "$WORK/ref_0.png" ] || fail "no page written beside the build"
[ "$(entries)" -eq 2 ] || fail "expected 2 cache entries (atlas, build), found $(entries)"

run 0 hit skel build "$RIG" -o "$WORK/hit.mskb" --json
expect hit '"cache":	"hit"'
expect hit '"atlasCache":	"hit"'
same_output hit
run 0 text skel build "$RIG" -o "$WORK/text.mskb"
expect text "cache: hit (atlas hit)"

# every entry, flipped in its compressed payload, in its header, or truncated: a miss, same bytes
i=0
for f in "$CACHE"/*.bake; do
    for how in flip-payload flip-header truncate-short truncate-frame; do
        i=$((i + 1))
        cp "$f" "$WORK/saved.bake"
        size=$(wc -c <"$f" | tr -d ' ')
        case $how in
        flip-payload) flip "$f" $((88 + (size - 88) / 2)) ;;
        flip-header) flip "$f" 50 ;;
        truncate-short) head -c 60 "$WORK/saved.bake" >"$f" ;;
        truncate-frame) head -c $((size - 5)) "$WORK/saved.bake" >"$f" ;;
        esac
        cmp -s "$f" "$WORK/saved.bake" && fail "$how did not change $f"
        run 0 bad$i skel build "$RIG" -o "$WORK/bad$i.mskb" --json
        expect bad$i '"cache":	"miss"'
        same_output bad$i
        cmp -s "$f" "$WORK/saved.bake" || fail "the rebuild after $how did not rewrite the entry"
    done
done
run 0 healed skel build "$RIG" -o "$WORK/healed.mskb" --json
expect healed '"cache":	"hit"'

# an image the rig does not use is not part of the key
cp "$WORK/rig/images/head.png" "$WORK/rig/images/unused.png"
run 0 unused skel build "$RIG" -o "$WORK/unused.mskb" --json
expect unused '"cache":	"hit"'
# a used image is: both entries miss
cp "$WORK/rig/images/foot.png" "$WORK/foot.saved"
cp "$WORK/rig/images/hand.png" "$WORK/rig/images/foot.png"
run 0 image skel build "$RIG" -o "$WORK/image.mskb" --json
expect image '"atlasCache":	"miss"'
cmp -s "$WORK/ref_0.png" "$WORK/image_0.png" && fail "a changed image gave the same page"
cp "$WORK/foot.saved" "$WORK/rig/images/foot.png"

# a clip edit: the build misses, the atlas hits (nothing re-packed), same page bytes
before=$(entries)
printf '\n' >>"$WORK/rig/mannequin.clips/idle.manim"
run 0 clip skel build "$RIG" -o "$WORK/clip.mskb" --json
expect clip '"cache":	"miss"'
expect clip '"atlasCache":	"hit"'
cmp -s "$WORK/ref_0.png" "$WORK/clip_0.png" || fail "a clip edit changed the page"
[ "$(entries)" -eq $((before + 1)) ] || fail "a clip edit should add one entry (the build), not $(($(entries) - before))"
run 0 clip2 skel build "$RIG" -o "$WORK/clip2.mskb" --json
expect clip2 '"cache":	"hit"'
cmp -s "$WORK/clip.mskb" "$WORK/clip2.mskb" || fail "the cached build after a clip edit differs"

# off: no cache at all
before=$(entries)
MF_SKELETON_BAKE_CACHE_DIR=off run 0 off skel build "$RIG" -o "$WORK/off.mskb" --json
expect off '"cache":	"off"'
cmp -s "$WORK/clip.mskb" "$WORK/off.mskb" || fail "a build without the cache differs"
[ "$(entries)" -eq "$before" ] || fail "the cache was written while off"

# unwritable (a file where the folder should be): builds, warns, exit 0
printf 'x' >"$WORK/blocker"
MF_SKELETON_BAKE_CACHE_DIR="$WORK/blocker/sub" run 0 unwritable skel build "$RIG" -o "$WORK/unwritable.mskb" --json
expect unwritable '"cache":	"miss"'
expect unwritable "warning: bake cache: cannot write"
cmp -s "$WORK/clip.mskb" "$WORK/unwritable.mskb" || fail "a build with an unwritable cache differs"

finish cli_build_cache
