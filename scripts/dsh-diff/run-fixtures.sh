#!/usr/bin/env bash
# Run the dsh-diff judge over every fixture plugin. Usage:
#   DSH_RUNTIME_DIR=/work/dsh-runtime scripts/dsh-diff/run-fixtures.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
: "${DSH_RUNTIME_DIR:=/work/dsh-runtime}"
export DSH_RUNTIME_DIR
for f in "$here"/fixtures/*.js; do
  echo "=== $(basename "$f")"
  node "$here/judge.mjs" "$here/fixtures/spec.json" "$f" 2>/dev/null | node -e '
    const o = JSON.parse(require("fs").readFileSync(0, "utf8"));
    for (const s of o.scenarios) for (const a of s.assertions)
      console.log(`${s.name} | ${a.type} | ${a.passed} | ${a.message}`)'
done
