#!/usr/bin/env bash
# Mounts a small cellfs demo: a data directory with a time-bucketed log table
# and a lookup table, a few rows written through the mount, and commands to
# try. Usage: tools/demo.sh [DIR] (default /tmp/cellfs-demo).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cellfs="$repo/build/tools/cellfs/cellfs"
dir=${1:-/tmp/cellfs-demo}
data="$dir/data"
mnt="$dir/mnt"

if [[ ! -x "$cellfs" ]]; then
  cmake -S "$repo" -B "$repo/build" >/dev/null && cmake --build "$repo/build" -j"$(nproc)"
fi
mkdir -p "$mnt"
if mountpoint -q "$mnt"; then
  echo "demo: $mnt is already mounted; 'cellfs umount $mnt' first" >&2
  exit 1
fi
"$cellfs" mount "$data" "$mnt"

if [[ ! -d "$mnt/demo" ]]; then
  "$cellfs" cql "$mnt" -e "
    CREATE KEYSPACE demo WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
    CREATE TABLE demo.logs (host text, day date, ts timestamp, level text, msg text,
      PRIMARY KEY ((host, day), ts)) WITH CLUSTERING ORDER BY (ts DESC);
    CREATE TABLE demo.users (email text PRIMARY KEY, name text, tags set<text>);
    CREATE TABLE demo.page_hits (page text PRIMARY KEY, hits counter);" >/dev/null
  for hour in 06 07 08 09 10 11; do
    row="$mnt/demo/logs/web1,2026-11-21/2026-11-21T$hour:15:00.000Z"
    mkdir -p "$row"
    echo "INFO" > "$row/level"
    echo "request burst at $hour:15" > "$row/msg"
  done
  echo "disk almost full" > "$mnt/demo/logs/web1,2026-11-21/2026-11-21T11:15:00.000Z/msg@ttl=3600"
  mkdir -p "$mnt/demo/users/ann@example.com"
  echo "Ann" > "$mnt/demo/users/ann@example.com/name"
  echo "{'admin'}" > "$mnt/demo/users/ann@example.com/tags"
  mkdir -p "$mnt/demo/page_hits/home"
  echo 1 > "$mnt/demo/page_hits/home/hits"
fi

cat <<TRY
cellfs demo mounted at $mnt (data in $data). Try:
  cat $mnt/@cql
  ls -U '$mnt/demo/logs/web1,2026-11-21'
  ls -U '$mnt/demo/logs/web1,2026-11-21/@ge=2026-11-21T08:00:00.000Z/@limit=2'
  cat '$mnt/demo/logs/web1,2026-11-21/@json'
  getfattr -d '$mnt/demo/logs/web1,2026-11-21/2026-11-21T11:15:00.000Z/msg'
  echo "{'wet cat'}" >> '$mnt/demo/users/ann@example.com/tags'
  cat '$mnt/demo/users/ann@example.com/tags'
  echo 1 > $mnt/demo/page_hits/home/hits; cat $mnt/demo/page_hits/home/hits
Unmount with: $cellfs umount $mnt
TRY
