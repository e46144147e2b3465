#!/bin/sh
# The mannequin example through the CLI: canonical files, a valid rig with its clips, a build.
# Arguments (from tests/CMakeLists.txt): mfe path, source dir, work dir.
. "$2/tests/support/cli.sh"
EX="$SRC/examples/mannequin"
RIG="$EX/mannequin.mskel"
IDLE="$EX/mannequin.clips/idle.manim"
WALK="$EX/mannequin.clips/walk.manim"

# The committed files are in canonical form, so a one-key edit changes one line.
run 0 fmt skel fmt "$RIG" "$IDLE" "$WALK" --check

# fmt on copies rewrites nothing.
cp "$RIG" "$IDLE" "$WALK" "$WORK/"
run 0 fmt_copies skel fmt "$WORK/mannequin.mskel" "$WORK/idle.manim" "$WORK/walk.manim"
for f in mannequin.mskel idle.manim walk.manim; do
    case $f in *.manim) orig="$EX/mannequin.clips/$f" ;; *) orig="$EX/$f" ;; esac
    cmp -s "$orig" "$WORK/$f" || fail "mfe skel fmt changed $f"
done

# describe validates the rig and both clips (each checked against the rig) and lists them.
run 0 describe skel describe "$RIG"
for word in "bones (19)" "slots (18" hips torso thigh_l shin_r foot_l_target upper_arm_r \
    leg_l_ik leg_r_ik footstep hitbox idle walk; do
    expect describe "$word"
done
run 0 describe_walk skel describe "$RIG" --clip walk
expect describe_walk "walk"
expect describe_walk "footstep"
run 0 describe_json skel describe "$RIG" --json
expect describe_json '"walk"'
expect describe_json '"idle"'

# build writes a non-empty runtime build, the same bytes every time.
run 0 build skel build "$RIG" -o "$WORK/mannequin.mskelb"
[ -s "$WORK/mannequin.mskelb" ] || fail "mfe skel build wrote no file (or an empty one)"
run 0 build_again skel build "$RIG" -o "$WORK/again.mskelb"
cmp -s "$WORK/mannequin.mskelb" "$WORK/again.mskelb" || fail "two builds of the mannequin differ"

# A clip that names a bone the rig lacks is reported with the file and place.
mkdir -p "$WORK/bad/mannequin.clips"
cp "$RIG" "$WORK/bad/"
sed 's/"upper_arm_l": {/"upper_arm_x": {/' "$WALK" >"$WORK/bad/mannequin.clips/walk.manim"
run 2 describe_bad skel describe "$WORK/bad/mannequin.mskel"
expect describe_bad "walk.manim"
expect describe_bad "upper_arm_x"

finish cli_example
