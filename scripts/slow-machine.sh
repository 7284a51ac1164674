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
# Chromium's audio service, where the fake microphone and the fake output that clocks a capture
# live, is moved out of the cgroup as it starts: it stands in for the sound hardware and the
# system's sound server, which a slow machine does not slow (they are clocked by the hardware, and
# Chromium asks real-time priority for its audio threads). A quota stops every thread in its group
# for the rest of each 100 ms once the group has used it, and the fake devices with it: under it
# capture.spec lost its first turn in every run (0 of 4, and 0 of 3 in session 29) and with the
# service moved out kept it in 6 of 8 (docs/reliability.md, "Which half speed starves the fake
# microphone"). The page, its audio thread included, and everything else stay inside.
#
#   SLOW_MACHINE_AUDIO_SERVICE=inside scripts/slow-machine.sh …   # the fake devices slowed too
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

# The group above ours, where processes go back to: CMD's leftovers at the end, the audio service
# as it starts.
ROOT="$(dirname "$CGROUP")"

cleanup() {
  # Processes CMD left behind move back to the root group so the cgroup can go.
  if [ -f "$CGROUP/cgroup.procs" ]; then
    while read -r pid; do echo "$pid" >"$ROOT/cgroup.procs" 2>/dev/null || true; done <"$CGROUP/cgroup.procs"
  fi
  rmdir "$CGROUP" 2>/dev/null || true
}
trap cleanup EXIT

# Moves each Chromium audio service in the cgroup back to the root group, every 200 ms, with bash's
# builtins only (no process per check). A process is read once: its pid and start time are kept.
keep_audio_service_outside() {
  local pid stat fields key args
  declare -A seen=()
  while sleep 0.2; do
    while read -r pid; do
      read -r stat 2>/dev/null <"/proc/$pid/stat" || continue
      # After "pid (name) ": the state, then the fields up to the start time (the 22nd of all).
      read -ra fields <<<"${stat##*) }"
      key="$pid:${fields[19]}"
      [ -n "${seen[$key]:-}" ] && continue
      mapfile -d "" args 2>/dev/null <"/proc/$pid/cmdline" || continue
      if [[ " ${args[*]} " == *" --utility-sub-type=audio.mojom.AudioService "* ]]; then
        echo "$pid" >"$ROOT/cgroup.procs" 2>/dev/null || true
      fi
      # Chromium's browser process is read again: a child it forked shows its command line until
      # it starts its own (the audio service among them).
      [[ " ${args[*]} " == *chromium* && " ${args[*]} " != *" --type="* ]] || seen[$key]=1
    done <"$CGROUP/cgroup.procs"
  done
}

AUDIO_SERVICE="${SLOW_MACHINE_AUDIO_SERVICE:-outside}"
echo "slow-machine: $KIND = ${QUOTA_US} µs per ${PERIOD_US} µs: ${CORES} core(s) of $(nproc); Chromium's audio service (the fake sound devices) ${AUDIO_SERVICE}" >&2
if [ "$AUDIO_SERVICE" = outside ]; then
  keep_audio_service_outside &
  WATCHER=$!
  trap 'kill "$WATCHER" 2>/dev/null; cleanup' EXIT
fi
# A subshell joins the cgroup, then becomes CMD: everything it starts inherits the limit.
(
  echo "$BASHPID" >"$CGROUP/cgroup.procs"
  exec "$@"
)
