#!/usr/bin/env bash
# Scenario: several hosts, made of network namespaces on one bridge
# (tools/ceph-netns-cluster.sh, started here in $WORK): a monitor, three
# hosts running one OSD each (3 replicas, one per host, 2 needed to write)
# and two client hosts, each running one cellfs mount daemon
# (`nsenter --net=...`: the mount stays visible here, so this shell reads
# and writes through both). A table made and cells written through one mount
# read back through the other, a bulk @insert too; concurrent writers of one
# cell on both resolve by last-write-wins; an OSD killed with -9 during
# writes loses no acknowledged write; a mount daemon killed with -9 during
# writes leaves the other writing, and it reads every write the killed one
# acknowledged. A write counts as acknowledged when write and close both
# succeeded (dd checks the close, where cellfs stores the value; a shell
# redirection does not). Skipped (77) where `ip netns` is unusable.
source "$(dirname "$0")/lib.sh" "$1"
source "$(dirname "$0")/rados_lib.sh"
export LC_ALL=C

CLUSTER_SH=$(realpath "$(dirname "$0")/../../tools/ceph-netns-cluster.sh")
CLUSTER=$WORK/cluster
for tool in ip nsenter; do
  command -v "$tool" >/dev/null || { echo "SKIP [$SCENARIO]: $tool is not installed" >&2; exit 77; }
done
probe_ns=cfnprobe-$$
if ! ip netns add "$probe_ns" 2>/dev/null; then
  echo "SKIP [$SCENARIO]: ip netns is not usable here (not root, or no CAP_SYS_ADMIN)" >&2
  exit 77
fi
ip netns del "$probe_ns"
for tool in ceph ceph-mon ceph-osd rados; do   # tools/install-deps.sh
  command -v "$tool" >/dev/null || die "$tool is not installed"
done

declare -a WRITERS=()   # background writer subshells

# Runs before lib.sh's _cleanup, which then finds nothing left to do but
# its report and removing $WORK: the mounts go first (lazily: a daemon of a
# stopped cluster could stall a clean unmount), then their daemons, then
# the cluster, its namespaces, veths and bridge.
_netns_cleanup() {
  local rc=$?
  set +e
  local p
  for p in "${WRITERS[@]}"; do kill -KILL "$p" 2>/dev/null; done
  detach_mounts_and_daemons
  if [[ -d $CLUSTER ]] && ! timeout 120 bash "$CLUSTER_SH" stop "$CLUSTER" >&2; then
    echo "FAIL [$SCENARIO]: stopping the cluster in $CLUSTER failed" >&2
    rc=1
  fi
  (exit "$rc")
  _cleanup
}
trap _netns_cleanup EXIT

# mount_on NAMESPACE MOUNTPOINT: `cellfs mount -f` of the pool, run on the
# client host NAMESPACE; sets DAEMON_PID.
mount_on() {
  local ns=$1 mnt=$2 i
  _remember_mount "$mnt"
  nsenter --net="/run/netns/$ns" env --default-signal=INT \
    "$CELLFS" mount -f "$STORE" "$mnt" 2>>"$LOG" &
  DAEMON_PID=$!
  _PIDS+=("$DAEMON_PID")
  for i in $(seq 300); do
    mountpoint -q "$mnt" && break
    alive "$DAEMON_PID" || die "the daemon on $ns (pid $DAEMON_PID) exited before $mnt was mounted"
    sleep 0.1
  done
  mountpoint -q "$mnt" || die "$mnt was not mounted within 30 s"
  expect_eq "the daemon of $mnt runs on host $ns" "$ns" "$(ip netns identify "$DAEMON_PID")"
}

# writer MNT PREFIX COUNT ACKS [STOP_ON_FAILURE]: writes COUNT distinct cells,
# row PREFIXi column v = v-PREFIXi, one after the other; appends "ROW VALUE"
# to ACKS for each acknowledged write, ROW to ACKS.failed for each failed
# one (and stops there when STOP_ON_FAILURE is 1).
writer() {
  local mnt=$1 prefix=$2 count=$3 acks=$4 stop=${5:-0} i row
  : >"$acks.failed"
  for i in $(seq "$count"); do
    row=$prefix$i
    if timeout 60 mkdir -p "$mnt/ks/kv/$row" 2>/dev/null && wr "$mnt/ks/kv/$row/v" "v-$row" 2>/dev/null
    then
      echo "$row v-$row" >>"$acks"
    else
      echo "$row" >>"$acks.failed"
      if ((stop)); then return 0; fi
    fi
  done
}

# expect_acked WHAT MNT ACKS: every "ROW VALUE" of ACKS reads back as VALUE
# through MNT.
expect_acked() {
  local what=$1 mnt=$2 acks=$3 expected actual
  expected=$(awk -v m="$mnt" '{ print m "/ks/kv/" $1 "/v:" $2 }' "$acks")
  actual=$(awk -v m="$mnt" '{ print m "/ks/kv/" $1 "/v" }' "$acks" |
    timeout 60 xargs -r -d '\n' grep -H '' 2>&1 || true)
  expect_eq "$what ($(wc -l <"$acks") writes)" "$expected" "$actual"
}

step "a cluster on network-namespace hosts: a monitor, three OSD hosts, two client hosts"
CONF=$(bash "$CLUSTER_SH" start "$CLUSTER" | tail -n 1)
[[ $CONF == "$CLUSTER/ceph.conf" && -r $CONF ]] || die "the cluster did not start: $CONF"
# shellcheck disable=SC1091
source "$CLUSTER/netns.env"
read -r -a HOSTS <<<"$NETNS_HOSTS"
read -r -a CLIENTS <<<"$NETNS_CLIENTS"
expect_eq "hosts and clients" "3 2" "${#HOSTS[@]} ${#CLIENTS[@]}"
for i in 0 1 2; do
  expect_eq "osd.$i runs on host ${HOSTS[i]}" "${HOSTS[i]}" \
    "$(ip netns identify "$(cat "$CLUSTER/run/osd.$i.pid")")"
done
expect_eq "OSDs up" "3" "$(osds_up)"
expect_match "the pool: 3 replicas, 2 to write" "size 3 min_size 2" \
  "$(ceph_cli osd pool ls detail | grep "'cellfs'")"
expect_eq "the CRUSH map's hosts" "h1 h2 h3" \
  "$(ceph_cli osd tree -f json | python3 -c 'import json, sys
print(" ".join(sorted(n["name"] for n in json.load(sys.stdin)["nodes"] if n["type"] == "host")))')"

STORE="rados:cellfs?conf=$CONF&ns=netns"
A=$WORK/a
B=$WORK/b
mkdir "$A" "$B"

step "two mounts of the pool, each on its own client host (${CLIENTS[0]}, ${CLIENTS[1]})"
mount_on "${CLIENTS[0]}" "$A"
PID_A=$DAEMON_PID
mount_on "${CLIENTS[1]}" "$B"
PID_B=$DAEMON_PID

step "a table made on one mount appears on the other; cells written through one read back through the other"
"$CELLFS" cql "$A" -e "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}" >/dev/null
"$CELLFS" cql "$A" -e "CREATE TABLE ks.kv (k text PRIMARY KEY, v text, n int)" >/dev/null
eventually 10 "table ks.kv seen through B" "[[ -d '$B/ks/kv' ]]"
timeout 60 mkdir "$A/ks/kv/one"
expect_ok "write through A" wr "$A/ks/kv/one/v" "from-a"
expect_eq "read through B" "from-a" "$(rd "$B/ks/kv/one/v")"
expect_ok "write through B" wr "$B/ks/kv/one/n" 42
expect_eq "read through A" "42" "$(rd "$A/ks/kv/one/n")"
expect_ok "overwrite through B" wr "$B/ks/kv/one/v" "from-b"
expect_eq "the overwrite read through A" "from-b" "$(rd "$A/ks/kv/one/v")"

step "a bulk @insert of 300 rows through A reads back through B"
{
  echo "k,v,n"
  for i in $(seq -w 300); do echo "bulk$i,value $i,$((10#$i))"; done
} >"$WORK/bulk.csv"
expect_ok "the @insert through A" timeout 60 dd if="$WORK/bulk.csv" of="$A/ks/kv/@insert" bs=1M status=none
expect_eq "rows listed through B" "301" \
  "$(timeout 60 ls "$B/ks/kv" | grep -c -E '^(bulk[0-9]{3}|one)$')"
expect_eq "every bulk row's v through B" \
  "$(for i in $(seq -w 300); do echo "$B/ks/kv/bulk$i/v:value $i"; done)" \
  "$(timeout 60 grep -H '' "$B"/ks/kv/bulk*/v 2>&1)"
expect_eq "every bulk row's n through B" \
  "$(for i in $(seq -w 300); do echo "$B/ks/kv/bulk$i/n:$((10#$i))"; done)" \
  "$(timeout 60 grep -H '' "$B"/ks/kv/bulk*/n 2>&1)"

step "writers of one cell on both mounts resolve by last-write-wins"
for i in $(seq 20); do
  wr "$A/ks/kv/one/v" "a$i" || fail "write a$i through A failed"
  wr "$B/ks/kv/one/v" "b$i" || fail "write b$i through B failed"
done
expect_eq "the last write, read through A" "b20" "$(rd "$A/ks/kv/one/v")"
expect_eq "the last write, read through B" "b20" "$(rd "$B/ks/kv/one/v")"
(for i in $(seq 50); do wr "$A/ks/kv/one/v" "x$i" || echo "x$i" >>"$WORK/lww.failed"; done) &
WRITERS+=($!)
(for i in $(seq 50); do wr "$B/ks/kv/one/v" "y$i" || echo "y$i" >>"$WORK/lww.failed"; done) &
WRITERS+=($!)
wait "${WRITERS[@]}"
WRITERS=()
[[ ! -s $WORK/lww.failed ]] || fail "concurrent writes failed: $(tr '\n' ' ' <"$WORK/lww.failed")"
va=$(rd "$A/ks/kv/one/v")
vb=$(rd "$B/ks/kv/one/v")
expect_eq "both mounts agree" "$va" "$vb"
expect_match "the winner is one of the two last writes" "^(x50|y50)$" "$va"

VICTIM=1
step "osd.$VICTIM (host ${HOSTS[VICTIM]}) killed with -9 while 250 cells are written through A"
OSD_ACKS=$WORK/osd.acks
: >"$OSD_ACKS"
writer "$A" osd 250 "$OSD_ACKS" &
WRITERS+=($!)
wait_lines "$OSD_ACKS" 50 60
victim_pid=$(cat "$CLUSTER/run/osd.$VICTIM.pid")
kill -9 "$victim_pid"
acked_before_kill=$(wc -l <"$OSD_ACKS")
alive "${WRITERS[0]}" || fail "the writer finished before the OSD was killed"
wait "${WRITERS[@]}"
WRITERS=()
alive "$victim_pid" && fail "osd.$VICTIM (pid $victim_pid) survived kill -9"
step "$(wc -l <"$OSD_ACKS") writes acknowledged ($acked_before_kill before the kill), $(wc -l <"$OSD_ACKS.failed") failed"
[[ ! -s $OSD_ACKS.failed ]] ||
  fail "with 2 of 3 OSDs up writes must go on; failed: $(tr '\n' ' ' <"$OSD_ACKS.failed")"
(($(wc -l <"$OSD_ACKS") > acked_before_kill)) || fail "no write acknowledged after the OSD was killed"
for i in $(seq 60); do [[ $(osds_up) == 2 ]] && break; sleep 1; done
expect_eq "OSDs up after the kill (the monitor marked osd.$VICTIM down)" "2" "$(osds_up)"
expect_acked "every acknowledged write, read through A" "$A" "$OSD_ACKS"
expect_acked "every acknowledged write, read through B" "$B" "$OSD_ACKS"

step "B's daemon killed with -9 while both mounts write; A goes on writing"
A_ACKS=$WORK/a.acks
B_ACKS=$WORK/b.acks
: >"$A_ACKS"
: >"$B_ACKS"
writer "$A" ka 200 "$A_ACKS" &
WRITERS+=($!)
writer "$B" kb 200 "$B_ACKS" 1 &
WRITERS+=($!)
wait_lines "$B_ACKS" 50 60
kill -9 "$PID_B"
wait "$PID_B" 2>/dev/null || true
alive "${WRITERS[0]}" || fail "A's writer finished before B's daemon was killed"
wait "${WRITERS[@]}"
WRITERS=()
timeout 60 fusermount3 -u -z "$B" || fail "fusermount3 -u -z $B failed"
! mountpoint -q "$B" || fail "$B still mounted after fusermount3 -u -z"
step "B acknowledged $(wc -l <"$B_ACKS") writes before it died; A $(wc -l <"$A_ACKS") of 200"
[[ ! -s $A_ACKS.failed ]] || fail "writes through A failed: $(tr '\n' ' ' <"$A_ACKS.failed")"
expect_acked "every write B acknowledged, read through A" "$A" "$B_ACKS"
expect_acked "every write A acknowledged, read through A" "$A" "$A_ACKS"
expect_acked "the writes of the OSD step, read through A" "$A" "$OSD_ACKS"
timeout 60 mkdir "$A/ks/kv/after"
expect_ok "A writes after B died" wr "$A/ks/kv/after/v" "still-writing"
expect_eq "and reads it back" "still-writing" "$(rd "$A/ks/kv/after/v")"

step "a new mount on B's host reads everything acknowledged"
mount_on "${CLIENTS[1]}" "$B"
PID_B=$DAEMON_PID
expect_acked "B's acknowledged writes, through the new mount" "$B" "$B_ACKS"
expect_acked "A's acknowledged writes, through the new mount" "$B" "$A_ACKS"
expect_eq "A's last write, through the new mount" "still-writing" "$(rd "$B/ks/kv/after/v")"
expect_eq "the LWW winner, through the new mount" "$va" "$(rd "$B/ks/kv/one/v")"

step "both mounts unmount cleanly; the cluster stops and leaves nothing behind"
unmount_fs "$A" "$PID_A"
unmount_fs "$B" "$PID_B"
daemon_pids=$(cat "$CLUSTER"/run/*.pid)
timeout 120 bash "$CLUSTER_SH" stop "$CLUSTER" || fail "ceph-netns-cluster.sh stop failed"
for ns in $NETNS_ALL; do [[ ! -e /run/netns/$ns ]] || fail "namespace $ns left behind"; done
for link in $NETNS_VETHS $NETNS_BRIDGE; do
  ! ip link show dev "$link" >/dev/null 2>&1 || fail "link $link left behind"
done
for p in $daemon_pids; do ! alive "$p" || fail "ceph daemon pid $p left running"; done
expect_eq "a second stop is harmless" "0" "$(bash "$CLUSTER_SH" stop "$CLUSTER" >/dev/null 2>&1; echo $?)"
