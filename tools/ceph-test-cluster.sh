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

# `ceph` with a deadline, so that a cluster that did not come up fails the
# start instead of hanging it.
ceph_cli() { timeout 30 ceph --conf "$conf" "$@"; }

# Waits up to $1 seconds for command $2... to succeed.
wait_for() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS >= deadline)); then
      echo "ceph-test-cluster: timed out waiting for: $*" >&2
      return 1
    fi
    sleep 0.2
  done
}

osds_up() {
  ceph_cli osd stat -f json |
    python3 -c 'import json, sys; sys.exit(json.load(sys.stdin)["num_up_osds"] != int(sys.argv[1]))' \
      "$osds"
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

  local fsid v2 v1
  fsid=$(cat /proc/sys/kernel/random/uuid)
  v2=$(free_port)
  v1=$(free_port)
  while [[ $v1 == "$v2" ]]; do v1=$(free_port); done
  cat >"$conf" <<EOF
# A throw-away test cluster (tools/ceph-test-cluster.sh): memstore OSDs on
# 127.0.0.1, no authentication. Not for data anyone wants to keep.
[global]
fsid = $fsid
mon host = [v2:127.0.0.1:$v2,v1:127.0.0.1:$v1]
mon initial members = a
public network = 127.0.0.0/8
ms bind ipv6 = false
auth cluster required = none
auth service required = none
auth client required = none
keyring = $dir/keyring
run dir = $dir/run
# One host: replicas go to different OSDs, not different hosts.
osd crush chooseleaf type = 0
osd pool default size = 3
osd pool default min size = 2
osd pool default pg autoscale mode = off
mon allow pool delete = true
mon warn on pool no redundancy = false
# A client gives up rather than hanging when the cluster is gone.
rados mon op timeout = 30
rados osd op timeout = 30
client mount timeout = 30
# Daemons only: a client (every mount is client.admin) would otherwise try
# to bind the same admin socket as the last one.
[mon]
pid file = $dir/run/\$name.pid
admin socket = $dir/run/\$name.asok
log file = $dir/log/\$name.log
mon data = $dir/mon.\$id
mon cluster log file = $dir/log/cluster.log
[osd]
pid file = $dir/run/\$name.pid
admin socket = $dir/run/\$name.asok
log file = $dir/log/\$name.log
osd data = $dir/osd.\$id
osd objectstore = memstore
memstore device bytes = 1073741824
osd class load list = *
osd class default list = *
osd op num shards = 1
osd op num threads per shard = 2
EOF

  ceph-authtool --create-keyring "$dir/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  ceph-authtool "$dir/keyring" --gen-key -n client.admin --cap mon 'allow *' \
    --cap osd 'allow *' --cap mgr 'allow *' >/dev/null
  monmaptool --create --clobber --fsid "$fsid" \
    --addv a "[v2:127.0.0.1:$v2,v1:127.0.0.1:$v1]" "$dir/monmap" >/dev/null
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
  wait_for 60 osds_up
  ceph_cli osd pool create cellfs 16 16 replicated >/dev/null 2>&1
  ceph_cli osd pool application enable cellfs cellfs >/dev/null 2>&1
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
