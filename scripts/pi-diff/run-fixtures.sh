#!/usr/bin/env bash
# Runs judge.mjs on every fixture with the fixtures spec and prints a compact table.
#   PI_CODING_AGENT_DIR=/work/pi-runtime scripts/pi-diff/run-fixtures.sh [bun|node]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rt="${1:-bun}"
for f in "$here"/fixtures/*.ts; do
  echo "=== $(basename "$f")"
  "$rt" "$here/judge.mjs" "$here/fixtures/spec.json" "$f" | python3 -c '
import json, sys
d = json.load(sys.stdin)
for s in d["scenarios"]:
    for a in s["assertions"]:
        p = {True: "PASS", False: "FAIL", None: "n/a "}[a["passed"]]
        print("%s  %-17s %-27s %s" % (p, s["name"], a["type"], a["message"]))
'
done
