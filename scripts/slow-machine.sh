#!/usr/bin/env bash
# scripts/slow-machine.sh CMD…: runs CMD on a machine half as fast as this one.
#
# CMD and everything it starts run in a CPU cgroup limited to one core's worth of this machine's
# cores (on the 2-core machines CI runs on: half of it), the way a clinic laptop busy with the EHR,
# or a slower CI machine, gives the app half the CPU it has here (issue 36). Needs root; the cgroup
# is cgroup v2's `cpu.max` where the machine has a unified hierarchy with the cpu controller, else
# cgroup v1's `cpu.cfs_quota_us`. It prints the limit it set. Where no cgroup can be made it says so
# in one line and runs CMD unlimited, so a script that calls it still runs (and says it was not slow).
#
#   SLOW_MACHINE_CORES=0.5 scripts/slow-machine.sh npm test   # a quarter of a 2-core machine
#
# The cgroup is removed when CMD ends; CMD's exit code is this script's.
set -uo pipefail

if [ $# -eq 0 ]; then
  echo "usage: scripts/slow-machine.sh CMD [ARG…]" >&2
  exit 2
fi

CORES="${SLOW_MACHINE_CORES:-1}"
PERIOD_US=100000
QUOTA_US=$(awk -v c="$CORES" -v p="$PERIOD_US" 'BEGIN { q = int(c * p); if (q < 1000) q = 1000; print q }')
NAME="ambient-scribe-slow-$$"
CGROUP=""
KIND=""

if [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw cpu /sys/fs/cgroup/cgroup.controllers; then
  # cgroup v2, unified at /sys/fs/cgroup: the cpu controller must be enabled for children.
  echo +cpu >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || true
  if mkdir "/sys/fs/cgroup/$NAME" 2>/dev/null; then
    if echo "$QUOTA_US $PERIOD_US" >"/sys/fs/cgroup/$NAME/cpu.max" 2>/dev/null; then
      CGROUP="/sys/fs/cgroup/$NAME"
      KIND="cgroup v2 cpu.max"
    else
      rmdir "/sys/fs/cgroup/$NAME" 2>/dev/null
    fi
  fi
fi
if [ -z "$CGROUP" ]; then
  V1=""
  for dir in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct /sys/fs/cgroup/cpuacct,cpu; do
    [ -f "$dir/cpu.cfs_quota_us" ] && V1="$dir" && break
  done
  if [ -n "$V1" ] && mkdir "$V1/$NAME" 2>/dev/null; then
    if echo "$PERIOD_US" >"$V1/$NAME/cpu.cfs_period_us" 2>/dev/null &&
      echo "$QUOTA_US" >"$V1/$NAME/cpu.cfs_quota_us" 2>/dev/null; then
      CGROUP="$V1/$NAME"
      KIND="cgroup v1 cpu.cfs_quota_us"
    else
      rmdir "$V1/$NAME" 2>/dev/null
    fi
  fi
fi

if [ -z "$CGROUP" ]; then
  echo "slow-machine: no CPU cgroup could be made here (needs root and a cgroup v1 or v2 cpu controller); running unlimited" >&2
  exec "$@"
fi

cleanup() {
  # Processes CMD left behind move back to the root group so the cgroup can go.
  if [ -f "$CGROUP/cgroup.procs" ]; then
    ROOT="$(dirname "$CGROUP")"
    while read -r pid; do echo "$pid" >"$ROOT/cgroup.procs" 2>/dev/null || true; done <"$CGROUP/cgroup.procs"
  fi
  rmdir "$CGROUP" 2>/dev/null || true
}
trap cleanup EXIT

echo "slow-machine: $KIND = ${QUOTA_US} µs per ${PERIOD_US} µs: ${CORES} core(s) of $(nproc)" >&2
# A subshell joins the cgroup, then becomes CMD: everything it starts inherits the limit.
(
  echo "$BASHPID" >"$CGROUP/cgroup.procs"
  exec "$@"
)
