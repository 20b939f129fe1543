#!/usr/bin/env bash
# The best of several vkmm_bench outputs of one mode, in vkmm_bench's own
# format (scripts/strict-bench-table.sh reads it): per workload the highest
# rate, or the lowest time for 'us each' and 'ms' lines.  Runs on a shared
# machine slow down by 2x at moments; the best of a few alternating runs
# compares the code, not the moment.   bench-best.sh OUT.txt...
set -euo pipefail
echo "workload  vkmm  lavapipe  ratio  unit"
for f in "$@"; do sed -n '/^workload/,$p' "$f" | tail -n +2; done |
awk '{
  n = split($0, f, /  +/);
  if (n < 3) next;
  name = f[1]; v = f[2] + 0; unit = f[n];
  lower = (unit ~ /us each|ms/);
  if (!(name in best)) { order[++count] = name; best[name] = v; units[name] = unit; }
  else if (lower ? v < best[name] : v > best[name]) best[name] = v;
}
END { for (i = 1; i <= count; i++) printf "%s  %.3f  0.000  0.00x  %s\n", order[i], best[order[i]], units[order[i]] }'
