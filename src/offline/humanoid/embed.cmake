# cmake -DIN=file -DOUT=file.c -DSYMBOL=name -P embed.cmake
# Writes a C file defining `const char SYMBOL[]`: the bytes of IN and a terminating NUL, so the
# library carries a data file (data/humanoid/poses.json) and needs no install path to find it.
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.tmp" "/* Generated from ${IN} by embed.cmake; do not edit. */\nextern const char ${SYMBOL}[];\nconst char ${SYMBOL}[] = {\n${bytes}0x00};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
