#!/usr/bin/env bash
# Scenario: model-based random testing of the mount. model_driver.py runs
# seeded random sequences of writes (server time, @timestamp=, @ttl=),
# deletions, row @json writes, TTL rewrites and sleeps, checking listings,
# cells, xattrs, slices and exports after every step against an in-memory
# model of Cassandra's semantics; it prints the "mount model:" figure line.
# One seed by hand: CELLFS_MODEL_SEED=7 CELLFS_MODEL_STEPS=300 bash model.sh CELLFS
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C.UTF-8

mount_fs

step "random operation sequences against the model"
rc=0
python3 "$(dirname "$0")/model_driver.py" "$MNT" || rc=$?
[[ $rc -eq 0 ]] || fail "the mount disagreed with the model (driver exit $rc; output above)"

step "the daemon survived and unmounts cleanly"
alive "$DAEMON_PID" || die "the daemon exited during the run"
unmount_fs
