# Sourced by the CLI tests (tests/cli_*.sh), which get: mfe path, source dir, work dir.
# Sets MFE, SRC, WORK (emptied) and gives run / expect / fail / finish.
set -u
MFE=$1
SRC=$2
WORK=$3
rm -rf "$WORK"
mkdir -p "$WORK"
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# run EXPECTED_STATUS NAME mfe-arguments…: runs mfe, keeps its output in $WORK/NAME.out
run() {
    want=$1
    name=$2
    shift 2
    "$MFE" "$@" >"$WORK/$name.out" 2>&1
    got=$?
    if [ "$got" -ne "$want" ]; then
        fail "mfe $* exited $got, expected $want"
        sed 's/^/    /' "$WORK/$name.out"
    fi
}

# expect NAME TEXT: the output of run NAME contains TEXT
expect() {
    if ! grep -F -q -- "$2" "$WORK/$1.out"; then
        fail "output of $1 lacks \"$2\""
        sed 's/^/    /' "$WORK/$1.out"
    fi
}

# finish NAME: the script's verdict
finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$1: $failures failure(s)"
        exit 1
    fi
    echo "$1 ok"
}
