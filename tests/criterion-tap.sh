#!/bin/sh
# Runs one Criterion test binary with TAP on stdout, for tap-driver.sh.
exec "$@" --tap=- --jobs=1
