#!/usr/bin/env bash
# `npm test`: every step runs whatever the one before it did, so a red test run cannot hide a type
# error (or the other way round); each step's result and time are printed at the end, and the exit
# code is non-zero when any step failed. `npm run test:full` is the same with the full fuzz counts.
#
# The typecheck and lint are single-threaded, so they run side by side (two cores) before the tests;
# the tests are one vitest run of all projects (vitest.config.ts): unit, integration, browser and
# the strict contract suite together, then the fault drills one file at a time.
set -u
cd "$(dirname "$0")/.."
report=$(mktemp -d)
trap 'rm -rf "$report"' EXIT

names=() codes=() times=()
record() { names+=("$1") codes+=("$2") times+=("$3"); }

# Side by side, each into a log of its own, printed whole once both are done.
started=$SECONDS
npm run -s typecheck >"$report/typecheck.log" 2>&1 &
typecheck_pid=$!
npm run -s lint >"$report/lint.log" 2>&1 &
lint_pid=$!
wait "$typecheck_pid"; typecheck_code=$?; typecheck_s=$((SECONDS - started))
wait "$lint_pid"; lint_code=$?; lint_s=$((SECONDS - started))
echo "── typecheck: npm run -s typecheck"; cat "$report/typecheck.log"
echo "── lint: npm run -s lint"; cat "$report/lint.log"
record typecheck "$typecheck_code" "$typecheck_s"
record lint "$lint_code" "$lint_s"

echo "── tests: npx vitest run"
started=$SECONDS
npx vitest run --reporter=default --reporter=json --outputFile.json="$report/tests.json"
record tests $? $((SECONDS - started))

echo
failed=0
for i in "${!names[@]}"; do
  if [ "${codes[$i]}" = 0 ]; then result=ok; else result="FAILED (exit ${codes[$i]})"; failed=1; fi
  echo "  ${names[$i]}: $result, ${times[$i]} s"
done
# One plain closing line, so any reader of the log gets the totals.
node -e '
  let passed = 0, failed = 0, skipped = 0;
  for (const f of process.argv.slice(1)) {
    try {
      const r = JSON.parse(require("fs").readFileSync(f, "utf8"));
      passed += r.numPassedTests; failed += r.numFailedTests; skipped += r.numPendingTests + (r.numTodoTests || 0);
    } catch { failed += 1; console.log(`  no results from ${f.split("/").pop()}`); }
  }
  console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$report/tests.json"
exit $failed
