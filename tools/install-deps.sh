#!/usr/bin/env bash
# Installs every Debian package cellfs needs to build and test (run as root
# on Debian 12). The one list of build dependencies; .ci/run and the README use it.
set -euo pipefail
packages=(
  cmake make g++ pkg-config libfuse3-dev fuse3 attr python3 rsync libcli11-dev libsimdjson-dev libcsv-dev   # toolchain
  catch2                      # tests (Catch2 2.13)
  libgmp-dev                  # varint/decimal arithmetic
  libicu-dev                  # SASI analysers: case mapping, NFC
  libxxhash-dev               # partition tokens
  libleveldb-dev libsnappy-dev  # storage (LevelDB links snappy)
  nlohmann-json3-dev          # the stored catalog's records
  libedit-dev                 # the interactive `cellfs cql` shell
  clang-14 libclang-rt-14-dev # libFuzzer runs (tools/fuzz.sh)
  clang-format-14             # the format check (tools/test.sh)
  groff-base                  # the manual page's check (tests/integration/install.sh)
  librados-dev libradospp-dev # the RADOS backend (issue 19): librados C++
  ceph-mon ceph-osd ceph-common  # its tests' throw-away cluster (tools/ceph-test-cluster.sh)
  iproute2 util-linux          # ip netns, ss, nsenter: the multi-host cluster (tools/ceph-netns-cluster.sh)
)
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
echo "install-deps: ${#packages[@]} packages present"
