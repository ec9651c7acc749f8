# Helpers the RADOS scenarios share, sourced after lib.sh: reads and writes
# that never hang on a stuck mount (and see the error of the close, where
# cellfs stores a value: a shell redirection ignores it), and the cluster's
# OSD count through $CONF.

# Reads FILE, never hanging on a stuck mount.
rd() { timeout -k 5 60 cat -- "$1"; }

# wr FILE VALUE: writes VALUE and a newline; fails when the write or the
# close fails.
wr() { printf '%s\n' "$2" | timeout -k 5 60 dd of="$1" status=none; }

# Waits up to SECONDS for FILE to hold at least N lines.
wait_lines() {
  local file=$1 n=$2 seconds=$3 i
  for i in $(seq $((seconds * 20))); do
    [[ -f $file ]] && (($(wc -l <"$file") >= n)) && return 0
    sleep 0.05
  done
  die "$file: fewer than $n lines after $seconds s"
}

ceph_cli() { timeout 30 ceph --conf "$CONF" "$@" 2>/dev/null; }
osds_up() {
  ceph_cli osd stat -f json | python3 -c 'import json, sys; print(json.load(sys.stdin)["num_up_osds"])'
}

