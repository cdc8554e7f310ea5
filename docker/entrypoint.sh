#!/bin/sh
# memoryd's container entrypoint: checks the data directory, then becomes `memoryd serve`.
#
# Settings come from MEMORYD_* variables (server/memoryd/config.py); arguments are
# passed to `memoryd serve` (--port, --config, ...). `exec` makes the server this
# process, PID 1 in a container, so SIGTERM from `docker stop` or Kubernetes
# reaches it directly: it handles SIGTERM itself and starts no child processes,
# so it needs no init process (`docker run --init` adds one if you want it).
set -eu

# Inside a container, listen on every interface: the port is published from outside.
MEMORYD_HOST="${MEMORYD_HOST:-0.0.0.0}"
MEMORYD_DATA_DIR="${MEMORYD_DATA_DIR:-/var/lib/memoryd}"
export MEMORYD_HOST MEMORYD_DATA_DIR

refuse() {
    echo "memoryd-entrypoint: data directory $MEMORYD_DATA_DIR $1" >&2
    echo "memoryd-entrypoint: it holds the write journal (and the embedded index); mount a" \
        "persistent volume there, writable by uid $(id -u) gid $(id -g), or set" \
        "MEMORYD_DATA_DIR" >&2
    exit 1
}

if [ ! -e "$MEMORYD_DATA_DIR" ]; then
    refuse "does not exist"
fi
if [ ! -d "$MEMORYD_DATA_DIR" ]; then
    refuse "is not a directory"
fi
# Writing a file is the real test: [ -w ] passes for root on a read-only mount.
probe="$MEMORYD_DATA_DIR/.memoryd-entrypoint-$$"
if ! (: >"$probe") 2>/dev/null; then
    refuse "is not writable by uid $(id -u) gid $(id -g)"
fi
rm -f "$probe"

exec memoryd serve "$@"
