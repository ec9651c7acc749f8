# shellcheck shell=bash disable=SC2154  # dir, conf and osds come from the caller
# What the two throw-away test clusters share (tools/ceph-test-cluster.sh on
# loopback, tools/ceph-netns-cluster.sh over network namespaces): the
# ceph.conf template, the keyring and monitor map, the `cellfs` pool, and
# waiting for the cluster. Sourced, not run. The caller sets:
#   dir   the cluster's directory (absolute), holding everything it makes
#   conf  the path of its ceph.conf
#   osds  how many OSDs it starts

# `ceph` with a deadline, so that a cluster that did not come up fails the
# start instead of hanging it.
ceph_cli() { timeout 30 ceph --conf "$conf" "$@"; }

# Waits up to $1 seconds for command $2... to succeed.
wait_for() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS >= deadline)); then
      echo "${0##*/}: timed out waiting for: $*" >&2
      return 1
    fi
    sleep 0.2
  done
}

# Whether all $osds OSDs are up.
osds_up() {
  ceph_cli osd stat -f json |
    python3 -c 'import json, sys; sys.exit(json.load(sys.stdin)["num_up_osds"] != int(sys.argv[1]))' \
      "$osds"
}

# write_ceph_conf DESCRIPTION FSID MON_HOST NETWORK FAILURE_DOMAIN
# Writes $conf: memstore OSDs, no authentication, 3 replicas (2 to write),
# clients that give up after 30 s. DESCRIPTION heads the file (a comment);
# NETWORK is the public and cluster network; FAILURE_DOMAIN is CRUSH's
# chooseleaf type: 0 puts the replicas on different OSDs (one machine), 1
# on different hosts.
write_ceph_conf() {
  local description=$1 fsid=$2 mon_host=$3 network=$4 failure_domain=$5
  cat >"$conf" <<EOF
# $description
# Memstore OSDs, no authentication. Not for data anyone wants to keep.
[global]
fsid = $fsid
mon host = $mon_host
mon initial members = a
public network = $network
cluster network = $network
ms bind ipv6 = false
auth cluster required = none
auth service required = none
auth client required = none
keyring = $dir/keyring
run dir = $dir/run
# Replicas on different OSDs (0) or different hosts (1).
osd crush chooseleaf type = $failure_domain
osd pool default size = 3
osd pool default min size = 2
osd pool default pg autoscale mode = off
mon allow pool delete = true
mon warn on pool no redundancy = false
# A client gives up rather than hanging when the cluster is gone.
rados mon op timeout = 30
rados osd op timeout = 30
client mount timeout = 30
# Daemons only: clients (every mount is client.admin) keep their defaults,
# an admin socket named by pid in the run dir and no log file.
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
}

# make_keys_and_monmap FSID MON_ADDRS: $dir/keyring (mon. and client.admin)
# and $dir/monmap naming monitor `a` at MON_ADDRS.
make_keys_and_monmap() {
  local fsid=$1 mon_addrs=$2
  ceph-authtool --create-keyring "$dir/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  ceph-authtool "$dir/keyring" --gen-key -n client.admin --cap mon 'allow *' \
    --cap osd 'allow *' --cap mgr 'allow *' >/dev/null
  monmaptool --create --clobber --fsid "$fsid" --addv a "$mon_addrs" "$dir/monmap" >/dev/null
}

# Waits for every OSD, then makes the pool `cellfs` (16 placement groups).
create_cellfs_pool() {
  wait_for 60 osds_up
  ceph_cli osd pool create cellfs 16 16 replicated >/dev/null 2>&1
  ceph_cli osd pool application enable cellfs cellfs >/dev/null 2>&1
}
