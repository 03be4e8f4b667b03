#!/usr/bin/env bash
# `npm test`: every step runs whatever the one before it did, so a red unit run cannot hide the
# fault drills (or a type error the tests); each step's result is printed at the end, and the exit
# code is non-zero when any step failed.
set -u
cd "$(dirname "$0")/.."
report=$(mktemp -d)
trap 'rm -rf "$report"' EXIT

names=() codes=()
step() {
  local name=$1; shift
  echo "── $name: $*"
  "$@"
  local code=$?
  names+=("$name") codes+=("$code")
}

step typecheck npm run -s typecheck
step lint npm run -s lint
step unit npx vitest run --reporter=default --reporter=json --outputFile.json="$report/unit.json"
step faults npx vitest run --config vitest.faults.config.ts --reporter=default --reporter=json --outputFile.json="$report/faults.json"
# The client against a service that sends only the documented fields (docs/reviews-service.md).
step strict env EMULATOR_STRICT=1 npx vitest run test/contract --reporter=default --reporter=json --outputFile.json="$report/strict.json"

echo
failed=0
for i in "${!names[@]}"; do
  if [ "${codes[$i]}" = 0 ]; then echo "  ${names[$i]}: ok"; else echo "  ${names[$i]}: FAILED (exit ${codes[$i]})"; failed=1; fi
done
# One plain closing line over the vitest runs, so any reader of the log gets the totals.
node -e '
  let passed = 0, failed = 0, skipped = 0;
  for (const f of process.argv.slice(1)) {
    try {
      const r = JSON.parse(require("fs").readFileSync(f, "utf8"));
      passed += r.numPassedTests; failed += r.numFailedTests; skipped += r.numPendingTests + (r.numTodoTests || 0);
    } catch { failed += 1; console.log(`  no results from ${f.split("/").pop()}`); }
  }
  console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$report/unit.json" "$report/faults.json" "$report/strict.json"
exit $failed
