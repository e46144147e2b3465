#!/bin/sh
# cmake --install puts headers, libraries, mfe, a pkg-config file and a CMake package in a prefix,
# and a program builds against them both ways.
set -eu
MFE=$1 SRC=$2 WORK=$3
BUILD=$(dirname "$MFE")
rm -rf "$WORK" && mkdir -p "$WORK"
cmake --install "$BUILD" --prefix "$WORK/prefix" >/dev/null
for f in bin/mfe include/mf/mf_base.h include/mf/mf_skeleton.h include/mf/mf_clip.h; do
  [ -e "$WORK/prefix/$f" ] || { echo "missing $f after install"; exit 1; }
done
LIBDIR=$(ls -d "$WORK"/prefix/lib*/pkgconfig | head -1)
[ -e "$LIBDIR/mfanim.pc" ] || { echo "missing mfanim.pc"; exit 1; }
"$WORK/prefix/bin/mfe" --version | grep -q '^mfe ' || { echo "installed mfe does not run"; exit 1; }

cat > "$WORK/consumer.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "mf/mf_skeleton.h"
int main(void)
{
    const char *text = "{ \"format\": 1, \"uid\": \"skl_0123456789ab\", \"type\": \"Skeleton\", "
                       "\"bones\": [ { \"name\": \"root\" }, { \"name\": \"hip\", \"parent\": \"root\" } ] }";
    mf_skeleton *sk = NULL;
    mf_diag d;
    if (mf_skeleton_parse(text, strlen(text), "inline.mskel", &sk, &d) != MF_OK) {
        char m[1024];
        mf_diag_format(&d, m, sizeof m);
        printf("error: %s\n", m);
        return 1;
    }
    printf("bones %d\n", sk->bone_count);
    mf_skeleton_free(sk);
    return 0;
}
C
# pkg-config
PKG_CONFIG_PATH="$LIBDIR" cc -o "$WORK/consumer_pc" "$WORK/consumer.c" \
  $(PKG_CONFIG_PATH="$LIBDIR" pkg-config --cflags --libs --static mfanim)
"$WORK/consumer_pc" | grep -qx 'bones 2' || { echo "pkg-config consumer failed"; exit 1; }
# CMake package
mkdir -p "$WORK/cm"
cat > "$WORK/cm/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.25)
project(consumer C)
find_package(mfanim REQUIRED)
add_executable(consumer ../consumer.c)
target_link_libraries(consumer PRIVATE mfanim::mf_offline)
CM
cmake -S "$WORK/cm" -B "$WORK/cm/build" -DCMAKE_PREFIX_PATH="$WORK/prefix" >/dev/null
cmake --build "$WORK/cm/build" >/dev/null
"$WORK/cm/build/consumer" | grep -qx 'bones 2' || { echo "CMake consumer failed"; exit 1; }
# the GPU module, where it was built: its header and library, both ways
if [ -e "$WORK/prefix/include/mf/mf_gpu.h" ]; then
  cat > "$WORK/gpu.c" <<'C'
#include <stdio.h>
#include "mf/mf_gpu.h"
int main(void)
{
    mf_gpu_device *g = NULL;
    mf_diag d;
    mf_gpu_device_desc desc = {.prefer_cpu = true};
    mf_result r = mf_gpu_device_create(&desc, &g, &d);
    printf("gpu %s\n", r == MF_OK ? "device" : r == MF_ERR_UNSUPPORTED ? "none" : "error");
    mf_gpu_device_destroy(g);
    return r == MF_OK || r == MF_ERR_UNSUPPORTED ? 0 : 1;
}
C
  PKG_CONFIG_PATH="$LIBDIR" cc -o "$WORK/gpu_pc" "$WORK/gpu.c" \
    $(PKG_CONFIG_PATH="$LIBDIR" pkg-config --cflags --libs --static mfanim)
  "$WORK/gpu_pc" | grep -q '^gpu ' || { echo "pkg-config GPU consumer failed"; exit 1; }
  mkdir -p "$WORK/cmg"
  cat > "$WORK/cmg/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.25)
project(gpuconsumer C)
find_package(mfanim REQUIRED)
add_executable(gpuconsumer ../gpu.c)
target_link_libraries(gpuconsumer PRIVATE mfanim::mf_gpu)
CM
  cmake -S "$WORK/cmg" -B "$WORK/cmg/build" -DCMAKE_PREFIX_PATH="$WORK/prefix" >/dev/null
  cmake --build "$WORK/cmg/build" >/dev/null
  "$WORK/cmg/build/gpuconsumer" | grep -q '^gpu ' || { echo "CMake GPU consumer failed"; exit 1; }
fi
echo "install ok"
