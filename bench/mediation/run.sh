#!/usr/bin/env bash
# Seccomp mediation cost, measured in one run. Builds what it needs (in
# build/mediation), then runs the target's getppid loop in ROUNDS
# interleaved rounds under each configuration and prints the medians:
#   (a) bare
#   (b) under fbc's supervisor, getppid NOT trapped (a filter trapping
#       openat, connect, fsync, ... is installed)
#   (c) under fbc's supervisor, getppid trapped and allowed
#   (d) under mediation_floor: a minimal C loop (blocking NOTIF_RECV,
#       NOTIF_SEND CONTINUE, SYNC_WAKE_UP), the physical floor
#   (e) under strace -f --seccomp-bpf with an inject= that never fires
# "added" is the cost per call above bare. Targets: (b) <= 1.05x bare,
# (c) added <= 1.5x (d) added and <= 1/3 of (e) added.
# Knobs: ROUNDS (default 5), N_FAST (untrapped calls, 2000000), N_SLOW
# (trapped calls, 50000; strace's when= is capped at 65535), JOBS (2), BUILD (the build dir, build/mediation).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-5}
N_FAST=${N_FAST:-2000000}
N_SLOW=${N_SLOW:-50000}
BUILD=${BUILD:-build/mediation}

cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFBC_BUILD_BENCH=ON >/dev/null
cmake --build "$BUILD" --target mediation_target mediation_floor mediation_fbc -j"${JOBS:-2}" >/dev/null
T=$BUILD/bench/mediation/mediation_target
FLOOR=$BUILD/bench/mediation/mediation_floor
FBC=$BUILD/bench/mediation/mediation_fbc
command -v strace >/dev/null || { echo "strace not installed (apt-get install strace)"; exit 1; }

declare -A samples
run() { # name, command...
  local name=$1
  shift
  local v
  v=$("$@" 2>/dev/null | tail -n1)
  samples[$name]+="$v "
}
for ((r = 1; r <= ROUNDS; r++)); do
  run a "$T" "$N_FAST"
  run b "$FBC" untrapped "$T" "$N_FAST"
  run c "$FBC" trapped "$T" "$N_SLOW"
  run d "$FLOOR" "$T" "$N_SLOW"
  run e strace -f -qq --seccomp-bpf -o /dev/null -e trace=getppid \
    -e inject=getppid:retval=1:when=65535 "$T" "$N_SLOW"
  echo "round $r/$ROUNDS: a=${samples[a]##* } " >/dev/null
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR]=$1} END {print (NR%2)? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
declare -A med
for k in a b c d e; do med[$k]=$(echo "${samples[$k]}" | median); done

echo "mediation cost of getppid, median of $ROUNDS rounds ($(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), kernel $(uname -r))"
printf '%-58s %12s %12s %8s\n' configuration "ns/call" "added ns" ratio
row() { # key, label, ratio-base
  awk -v m="${med[$1]}" -v a="${med[a]}" -v l="$2" -v k="$1" 'BEGIN {
    added = m - a
    printf "%-58s %12.1f %12.1f", "(" k ") " l, m, added
    if (k == "b") printf " %7.3fx", m / a
    printf "\n" }'
}
row a "bare"
row b "fbc supervisor, getppid not trapped (filter installed)"
row c "fbc supervisor, getppid trapped + allowed"
row d "minimal C supervisor loop, SYNC_WAKE_UP (floor)"
row e "strace -f --seccomp-bpf -e inject=getppid:...:when=65535"
awk -v a="${med[a]}" -v b="${med[b]}" -v c="${med[c]}" -v d="${med[d]}" -v e="${med[e]}" 'BEGIN {
  ca = c - a; da = d - a; ea = e - a
  printf "targets: (b)/(a) = %.3f (<= 1.05)   (c)/(d) added = %.2f (<= 1.5)   (c)/(e) added = %.3f (<= 0.333)\n", b / a, ca / da, ca / ea
}'
echo "samples:"
for k in a b c d e; do echo "  ($k) ${samples[$k]}"; done
