#!/bin/sh
# The main job on the bundled example: set up, build, build the mannequin rig into its binary
# runtime build, describe it, check it and render its walk cycle as a contact sheet.
set -eu
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc 2>/dev/null || echo 2)"
build/mfe skel build examples/mannequin/mannequin.mskel -o build/mannequin.mskb
build/mfe skel describe examples/mannequin/mannequin.mskel
build/mfe skel check examples/mannequin/mannequin.mskel
build/mfe skel render examples/mannequin/mannequin.mskel --clip walk --out build/mannequin-walk.png
