#!/usr/bin/env bash
# Runs judge.mjs on every extension of the corpus (tests/pi-diff/) and prints one line per check.
#   PI_CODING_AGENT_DIR=/work/pi16-runtime scripts/pi-diff/run-fixtures.sh
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
for f in "$repo"/tests/pi-diff/extensions/*; do
  echo "=== $(basename "$f")"
  (cd "$repo" && bun scripts/pi-diff/judge.mjs tests/pi-diff/spec.json "$f") | python3 -c '
import json, sys
d = json.load(sys.stdin)
for s in d["scenarios"]:
    for a in s["assertions"]:
        p = {True: "PASS", False: "FAIL", None: "n/a "}[a["passed"]]
        print("%s  %-26s %-27s %s" % (p, s["name"], a["type"], a["message"][:160]))
'
done
