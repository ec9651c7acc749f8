#!/usr/bin/env bash
# A throw-away Ceph (RADOS) cluster spread over network namespaces, for the
# multi-host tests: "hosts" are network namespaces on one bridge in the root
# namespace, with addresses in a private /24 that collides with nothing on
# this machine. One monitor in its own namespace, three host namespaces
# running one memstore OSD each on its own address (the CRUSH map knows them
# as three hosts, so the 3 replicas of the pool `cellfs` land on 3 hosts, 2
# needed to write), and two client namespaces running nothing, for mounts:
#
#   tools/ceph-netns-cluster.sh start DIR   # prints the ceph.conf path last
#   tools/ceph-netns-cluster.sh stop DIR    # stops the daemons, removes the
#                                           # namespaces, veths and bridge
#
# Everything lives in DIR: the conf, the daemons' data and logs, their pids
# in DIR/run, and DIR/netns.env, a shell fragment naming what the start
# made (NETNS_CLIENTS, the client namespaces; NETNS_HOSTS, the OSDs' hosts,
# osd.N on the (N+1)th; NETNS_MON; NETNS_BRIDGE; NETNS_SUBNET; the
# addresses). A process runs "on" a client host with
#   nsenter --net=/run/netns/NAME COMMAND
# which changes only its network: a FUSE mount it makes stays visible
# host-wide (`ip netns exec` would hide it in a mount namespace of its own).
# The bridge holds the subnet's .1 in the root namespace, so `ceph` and
# `rados` with CEPH_CONF=DIR/ceph.conf work from the root namespace too.
#
# Names are unique per start (a random tag: cfnXXXXXX-mon, -h1..-h3, -c1,
# -c2; bridge cfnXXXXXXbr), so several clusters, or leftovers of a killed
# run, never clash. `stop` also ends any process still inside this
# cluster's namespaces; it is safe to run twice and after a failed start
# (which tears down what it made anyway). No manager, no authentication.
# Needs root, iproute2 (ip netns), nsenter and the Debian packages ceph-mon,
# ceph-osd and ceph-common (tools/install-deps.sh).
set -euo pipefail
# shellcheck source=tools/ceph-cluster-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/ceph-cluster-common.sh"

usage() {
  echo "usage: ceph-netns-cluster.sh start|stop DIR" >&2
  exit 2
}
[[ $# -eq 2 ]] || usage
action=$1
dir=$2
osds=3
clients=2
env_file=$dir/netns.env
# Serialises the choice of names and subnet between concurrent starts.
lock_file=/run/lock/cellfs-ceph-netns-cluster.lock

log() { echo "ceph-netns-cluster: $*" >&2; }

# --- stopping -----------------------------------------------------------------

# Whether PID runs (a zombie does not count).
alive() {
  local state
  state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 1
  [[ -n $state && $state != Z ]]
}

# Sends TERM to PIDS..., waits up to 10 s for them, then KILLs the rest.
end_pids() {
  local pid
  (($# > 0)) || return 0
  for pid in "$@"; do kill -TERM "$pid" 2>/dev/null || true; done
  for _ in $(seq 100); do
    local any=0
    for pid in "$@"; do alive "$pid" && any=1; done
    ((any)) || return 0
    sleep 0.1
  done
  for pid in "$@"; do
    if alive "$pid"; then
      log "pid $pid did not stop on TERM; killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  for _ in $(seq 50); do
    local any=0
    for pid in "$@"; do alive "$pid" && any=1; done
    ((any)) || return 0
    sleep 0.1
  done
}

# Stops every daemon with a pid file in DIR/run.
stop_daemons() {
  local file pid
  local -a pids=()
  for file in "$dir"/run/*.pid; do
    [[ -f $file ]] || continue
    pid=$(cat "$file" 2>/dev/null || true)
    [[ $pid =~ ^[0-9]+$ ]] && pids+=("$pid")
  done
  end_pids "${pids[@]}"
  rm -f "$dir"/run/*.pid
}

# Ends what still runs in this cluster's namespaces (a client's mount daemon,
# a daemon whose pid file was never written), then removes the veths, the
# namespaces and the bridge. Every step tolerates what is already gone.
# Fails when something could not be removed.
remove_network() {
  [[ -f $env_file ]] || return 0
  # shellcheck disable=SC1090
  source "$env_file"
  # A start killed while writing the file may have left some unset.
  : "${NETNS_ALL:=}" "${NETNS_VETHS:=}" "${NETNS_BRIDGE:=}"
  local ns link left=0
  local -a pids=()
  for ns in $NETNS_ALL; do
    [[ -e /run/netns/$ns ]] || continue
    mapfile -t -O "${#pids[@]}" pids < <(ip netns pids "$ns" 2>/dev/null || true)
  done
  end_pids "${pids[@]}"
  for link in $NETNS_VETHS; do
    ip link show dev "$link" >/dev/null 2>&1 && { ip link del dev "$link" 2>/dev/null || true; }
  done
  for ns in $NETNS_ALL; do
    [[ -e /run/netns/$ns ]] && { ip netns del "$ns" 2>/dev/null || true; }
  done
  if [[ -n $NETNS_BRIDGE ]] && ip link show dev "$NETNS_BRIDGE" >/dev/null 2>&1; then
    ip link del dev "$NETNS_BRIDGE" 2>/dev/null || true
  fi
  for ns in $NETNS_ALL; do
    [[ -e /run/netns/$ns ]] && { log "namespace $ns is still there"; left=1; }
  done
  for link in $NETNS_VETHS $NETNS_BRIDGE; do
    ip link show dev "$link" >/dev/null 2>&1 && { log "link $link is still there"; left=1; }
  done
  return "$left"
}

stop_all() {
  stop_daemons
  remove_network
}

# --- starting -----------------------------------------------------------------

# A random tag no namespace or link on this machine uses yet.
pick_tag() {
  local tag
  while true; do
    tag=cfn$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')
    if ! ip -o link show | grep -q "$tag" && ! compgen -G "/run/netns/$tag*" >/dev/null; then
      echo "$tag"
      return
    fi
  done
}

# A 10.x.y.0/24 that overlaps no address or route of the root namespace (in
# any routing table), so neither this machine's networks nor another such
# cluster's bridge (which holds its subnet's .1) collide with it.
pick_subnet() {
  {
    ip -o -4 addr show | awk '{ print $4 }'
    ip -4 route show table all | awk '{ print $1; print $2 }'
  } | python3 -c '
import ipaddress, random, sys
used = []
for line in sys.stdin:
    try:  # a route type, "default" or "dev" is not a network: skipped
        used.append(ipaddress.ip_network(line.strip(), strict=False))
    except ValueError:
        pass
for _ in range(1000):
    net = ipaddress.ip_network(f"10.{random.randint(200, 254)}.{random.randint(0, 255)}.0/24")
    if not any(net.overlaps(u) for u in used):
        print(net)
        sys.exit(0)
sys.exit("no free 10.x.y.0/24 found")
'
}

# The pool takes a write from every client namespace.
pool_writable() {
  local ns
  for ns in $NETNS_CLIENTS; do
    timeout 10 nsenter --net="/run/netns/$ns" \
      rados --conf "$conf" -p cellfs put "readiness-probe-$ns" /etc/hostname || return 1
    timeout 10 nsenter --net="/run/netns/$ns" \
      rados --conf "$conf" -p cellfs rm "readiness-probe-$ns" || return 1
  done
}

# add_host NAMESPACE VETH ADDRESS: a namespace whose eth0 is on the bridge.
add_host() {
  local ns=$1 veth=$2 addr=$3
  ip netns add "$ns"
  ip link add "$veth" type veth peer name eth0 netns "$ns"
  ip link set "$veth" master "$NETNS_BRIDGE" up
  ip -n "$ns" addr add "$addr/$prefix_len" dev eth0
  ip -n "$ns" link set eth0 up
  ip -n "$ns" link set lo up
}

start_ok=0
on_start_exit() {
  local rc=$?
  if ((start_ok == 0)); then
    set +e
    log "start failed (exit $rc); tearing down what it made"
    stop_all
  fi
  exit "$rc"
}

start_cluster() {
  command -v nsenter >/dev/null || { log "nsenter is not installed"; exit 1; }
  if [[ -d $dir/run ]] && compgen -G "$dir/run/*.pid" >/dev/null; then
    log "$dir already holds a running cluster; stop it first"
    exit 1
  fi
  if [[ -f $env_file ]]; then
    # The network of an earlier start that was never stopped.
    remove_network || true
  fi
  rm -rf "$dir"
  mkdir -p "$dir/run" "$dir/log"
  dir=$(cd "$dir" && pwd)
  env_file=$dir/netns.env
  conf=$dir/ceph.conf
  # On a failed start (or a signal), nothing keeps running, nothing stays.
  trap on_start_exit EXIT
  trap 'exit 143' TERM HUP
  trap 'exit 130' INT

  exec {lock_fd}>"$lock_file"
  flock -w 60 "$lock_fd" || { log "could not take $lock_file"; exit 1; }
  local tag subnet base i
  tag=$(pick_tag)
  subnet=$(pick_subnet)
  base=${subnet%.0/24}
  prefix_len=24
  local -a hosts=() host_addrs=() clients_ns=() client_addrs=() veths=()
  for i in $(seq "$osds"); do
    hosts+=("$tag-h$i")
    host_addrs+=("$base.$((10 + i))")
    veths+=("${tag}h$i")
  done
  for i in $(seq "$clients"); do
    clients_ns+=("$tag-c$i")
    client_addrs+=("$base.$((20 + i))")
    veths+=("${tag}c$i")
  done
  veths+=("${tag}m")
  # Written before anything exists, so that `stop` finds all of it.
  cat >"$env_file" <<EOF
# Made by tools/ceph-netns-cluster.sh start; read by its stop.
NETNS_TAG=$tag
NETNS_SUBNET=$subnet
NETNS_BRIDGE=${tag}br
NETNS_BRIDGE_ADDR=$base.1
NETNS_MON=$tag-mon
NETNS_MON_ADDR=$base.10
NETNS_HOSTS="${hosts[*]}"
NETNS_HOST_ADDRS="${host_addrs[*]}"
NETNS_CLIENTS="${clients_ns[*]}"
NETNS_CLIENT_ADDRS="${client_addrs[*]}"
NETNS_VETHS="${veths[*]}"
NETNS_ALL="$tag-mon ${hosts[*]} ${clients_ns[*]}"
EOF
  # shellcheck disable=SC1090
  source "$env_file"

  # The bridge, not run through iptables even where br_netfilter is loaded
  # (a FORWARD policy of DROP would cut the hosts apart).
  ip link add "$NETNS_BRIDGE" type bridge nf_call_iptables 0 nf_call_ip6tables 0 \
    nf_call_arptables 0
  ip addr add "$NETNS_BRIDGE_ADDR/$prefix_len" dev "$NETNS_BRIDGE"
  ip link set "$NETNS_BRIDGE" up
  flock -u "$lock_fd"
  exec {lock_fd}>&-
  add_host "$NETNS_MON" "${tag}m" "$NETNS_MON_ADDR"
  for i in $(seq "$osds"); do add_host "${hosts[i - 1]}" "${tag}h$i" "${host_addrs[i - 1]}"; done
  for i in $(seq "$clients"); do
    add_host "${clients_ns[i - 1]}" "${tag}c$i" "${client_addrs[i - 1]}"
  done

  local fsid mon_addrs
  fsid=$(cat /proc/sys/kernel/random/uuid)
  # The monitor has an address of its own: the standard ports are free.
  mon_addrs="[v2:$NETNS_MON_ADDR:3300,v1:$NETNS_MON_ADDR:6789]"
  write_ceph_conf "A throw-away test cluster (tools/ceph-netns-cluster.sh) on three network-namespace hosts of $NETNS_SUBNET." \
    "$fsid" "$mon_addrs" "$NETNS_SUBNET" 1

  make_keys_and_monmap "$fsid" "$mon_addrs"
  local mon_net=/run/netns/$NETNS_MON
  nsenter --net="$mon_net" ceph-mon --conf "$conf" --mkfs -i a --monmap "$dir/monmap" \
    --keyring "$dir/keyring"
  nsenter --net="$mon_net" ceph-mon --conf "$conf" -i a --public-addr "$NETNS_MON_ADDR"

  local uuid id host addr
  for i in $(seq "$osds"); do
    host=${hosts[i - 1]}
    addr=${host_addrs[i - 1]}
    uuid=$(cat /proc/sys/kernel/random/uuid)
    id=$(ceph_cli osd new "$uuid")
    mkdir -p "$dir/osd.$id"
    nsenter --net="/run/netns/$host" ceph-osd --conf "$conf" -i "$id" --mkfs \
      --osd-uuid "$uuid" >"$dir/log/osd.$id.mkfs" 2>&1
    nsenter --net="/run/netns/$host" ceph-osd --conf "$conf" -i "$id" \
      --public-addr "$addr" --cluster-addr "$addr" --crush-location "root=default host=h$i" \
      2>>"$dir/log/osd.$id.stderr"
  done
  create_cellfs_pool
  wait_for 60 pool_writable
  start_ok=1
  trap - EXIT TERM HUP INT
  echo "$conf"
}

case $action in
  start) start_cluster ;;
  stop)
    [[ -d $dir ]] || exit 0
    set +e
    stop_all
    ;;
  *) usage ;;
esac
