#!/bin/sh
# Regenerates the loader fuzzer's seed builds (fuzz/corpus/skel_data/*.mskb) from the project's
# own rigs, after a build format change: ./scripts/skel-data-seeds.sh [path/to/mfe]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
mfe=${1:-$root/build/mfe}
out=$root/fuzz/corpus/skel_data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export MF_SKELETON_BAKE_CACHE_DIR=off
build() { "$mfe" skel build "$1" -o "$tmp/$2.mskb" >/dev/null && cp "$tmp/$2.mskb" "$out/$2.mskb"; }
# the smallest build: one bone
printf '{"format":1,"uid":"skl_000000000001","type":"Skeleton","bones":[{"name":"root"}]}\n' >"$tmp/min.mskel"
build "$tmp/min.mskel" min
# every record kind (constraints, skins, weighted meshes, paths, events)
build "$root/fuzz/corpus/mskel/all.mskel" all
# weighted meshes: the skinning streams
build "$root/fuzz/corpus/mskel/weighted.mskel" weighted
# sets of vertices with the same bones: a run chain before the groups (format 7)
build "$root/fuzz/corpus/mskel/runs.mskel" runs
# the mannequin with its clips and one atlas page, then with pages small enough for two
build "$root/examples/mannequin/mannequin.mskel" mannequin
mkdir -p "$tmp/pages"
cp -r "$root/examples/mannequin/." "$tmp/pages/"
sed 's/"pageSize": *[0-9]*/"pageSize": 96/' "$root/examples/mannequin/mannequin.mskel" >"$tmp/pages/mannequin.mskel"
build "$tmp/pages/mannequin.mskel" mannequin-pages
ls -l "$out"
