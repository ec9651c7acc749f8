#!/usr/bin/env bash
# A throw-away Ceph (RADOS) cluster for the scale-out tests: one monitor and
# three OSDs keeping their data in memory (memstore), on 127.0.0.1, no
# manager, no authentication, with a pool named `cellfs` (3 replicas, 2 to
# write). Everything it makes lives in DIR; its daemons' pids in DIR/run.
#
#   tools/ceph-test-cluster.sh start DIR   # prints the ceph.conf path last
#   tools/ceph-test-cluster.sh stop DIR    # stops the daemons, waits for them
#
# Clients use it with CEPH_CONF=DIR/ceph.conf (or `rados -c ...`). Several
# clusters may run at once, each in its own DIR: the monitor takes free ports.
# Needs the Debian packages ceph-mon, ceph-osd and ceph-common
# (tools/install-deps.sh); run as root.
set -euo pipefail
# shellcheck source=tools/ceph-cluster-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/ceph-cluster-common.sh"

usage() {
  echo "usage: ceph-test-cluster.sh start|stop DIR" >&2
  exit 2
}
[[ $# -eq 2 ]] || usage
action=$1
dir=$2
osds=3

# Stops every daemon with a pid file in DIR/run: TERM, then KILL after 10 s.
stop_cluster() {
  local file pid
  for file in "$dir"/run/*.pid; do
    [[ -f $file ]] || continue
    pid=$(cat "$file")
    kill "$pid" 2>/dev/null || true
  done
  for file in "$dir"/run/*.pid; do
    [[ -f $file ]] || continue
    pid=$(cat "$file")
    for _ in $(seq 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$file"
  done
}

# A TCP port on 127.0.0.1 nothing listens on (from the ephemeral range's
# lower neighbours, so the kernel does not hand it out meanwhile).
free_port() {
  local port
  while true; do
    port=$((20000 + RANDOM % 12000))
    if ! ss -Hltn "sport = :$port" | grep -q .; then
      echo "$port"
      return
    fi
  done
}

pool_writable() { timeout 10 rados --conf "$conf" -p cellfs put readiness-probe /etc/hostname; }

start_cluster() {
  if [[ -d $dir/run ]] && compgen -G "$dir/run/*.pid" >/dev/null; then
    echo "ceph-test-cluster: $dir already holds a running cluster; stop it first" >&2
    exit 1
  fi
  rm -rf "$dir"
  mkdir -p "$dir/run" "$dir/log"
  dir=$(cd "$dir" && pwd)
  conf=$dir/ceph.conf
  # On a failed start, nothing keeps running.
  trap 'stop_cluster' ERR

  local fsid v2 v1 mon_addrs
  fsid=$(cat /proc/sys/kernel/random/uuid)
  v2=$(free_port)
  v1=$(free_port)
  while [[ $v1 == "$v2" ]]; do v1=$(free_port); done
  mon_addrs="[v2:127.0.0.1:$v2,v1:127.0.0.1:$v1]"
  write_ceph_conf "A throw-away test cluster (tools/ceph-test-cluster.sh) on 127.0.0.1." \
    "$fsid" "$mon_addrs" 127.0.0.0/8 0

  make_keys_and_monmap "$fsid" "$mon_addrs"
  ceph-mon --conf "$conf" --mkfs -i a --monmap "$dir/monmap" --keyring "$dir/keyring"
  ceph-mon --conf "$conf" -i a

  local uuid id
  for _ in $(seq "$osds"); do
    uuid=$(cat /proc/sys/kernel/random/uuid)
    id=$(ceph_cli osd new "$uuid")
    mkdir -p "$dir/osd.$id"
    ceph-osd --conf "$conf" -i "$id" --mkfs --osd-uuid "$uuid" >"$dir/log/osd.$id.mkfs" 2>&1
    ceph-osd --conf "$conf" -i "$id" 2>>"$dir/log/osd.$id.stderr"
  done
  create_cellfs_pool
  wait_for 60 pool_writable
  timeout 10 rados --conf "$conf" -p cellfs rm readiness-probe
  trap - ERR
  echo "$conf"
}

case $action in
  start) start_cluster ;;
  stop)
    [[ -d $dir ]] || exit 0
    stop_cluster
    ;;
  *) usage ;;
esac
