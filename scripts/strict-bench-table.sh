#!/usr/bin/env bash
# The strict/fast table of two vkmm_bench outputs (scripts/run-strict-bench.sh,
# scripts/bench-device.sh):  strict-bench-table.sh FAST.txt STRICT.txt SCALE
set -euo pipefail
fast=${1:?FAST.txt}; strict=${2:?STRICT.txt}; scale=${3:?SCALE}
echo "strict mode against fast mode, data scaled by 1/2^$scale (rates: higher is better; 'us'/'ms': lower)"
printf "%-36s %12s %12s %10s\n" workload fast strict "slowdown"
# Lines: name (may hold spaces), vkmm value, lavapipe value, speed-up, unit.
paste -d'|' <(sed -n '/^workload/,$p' "$fast" | tail -n +2) \
            <(sed -n '/^workload/,$p' "$strict" | tail -n +2) |
awk -F'|' '{
  n = split($1, f, /  +/); split($2, s, /  +/);
  if (n < 3) next;
  fv = f[2] + 0; sv = s[2] + 0; unit = f[n];
  lower = (unit ~ /us each|ms/);
  ratio = lower ? (fv > 0 ? sv / fv : 0) : (sv > 0 ? fv / sv : 0);
  printf "%-36s %12.3f %12.3f %9.1fx  %s\n", f[1], fv, sv, ratio, unit
}'
