#!/usr/bin/env bash
# `npm test`: every step runs whatever the others do, so a red test run cannot hide a type error (or
# the other way round); each step's result and time are printed at the end, and the exit code is
# non-zero when any step failed. `npm run test:full` is the same with the full fuzz counts, and then
# the loaded fault drills (test/faults-loaded.sh) three times.
#
# Two vitest runs: every project but the fault drills first, longest files first, on both cores;
# then the fault drills, four at a time, and the Redis Cluster project (mostly waiting on Redis too),
# with the typecheck and lint beside them at idle priority
# (SCHED_IDLE: they get a core only when no drill wants it). The first run keeps both cores busy
# throughout, and even at idle priority the typecheck and lint took time from it (a clean clone's
# first run 253-255 s with them, 232 s with their caches warm); the drills mostly wait on killed
# workers, restarts and timers, and leave most of a core to them.
set -u
cd "$(dirname "$0")/.."
report=$(mktemp -d)
trap 'rm -rf "$report"' EXIT

timed() {
  local name=$1 t0=$SECONDS
  shift
  "$@" >"$report/$name.log" 2>&1
  echo "$? $((SECONDS - t0))" >"$report/$name.result"
}
# nice 19 where SCHED_IDLE is not to be had (it needs no privilege on Linux; other systems lack chrt).
idle() {
  if chrt --idle 0 true 2>/dev/null; then chrt --idle 0 "$@"; else nice -n 19 "$@"; fi
}
t0=$SECONDS
echo "── tests: npx vitest run (all projects but faults and cluster)"
npx vitest run --project unit --project integration --project browser --project contract-strict \
  --reporter=default --reporter=json --outputFile.json="$report/tests.json"
first=$?

timed typecheck idle npm run -s typecheck &
# ESLint and Prettier are one process each: side by side, a clean clone's lint ends with the drills.
timed lint idle npm run -s lint:code &
timed format idle npm run -s lint:format &
echo "── tests: npx vitest run --project faults --project cluster (typecheck and lint beside, at idle priority)"
npx vitest run --project faults --project cluster \
  --reporter=default --reporter=json --outputFile.json="$report/faults.json"
second=$?
echo "$((first || second)) $((SECONDS - t0))" >"$report/tests.result"
# TEST_REPORT=<file> keeps the JSON reports of the first run (<file>) and of the fault drills and the
# cluster project (<file>.faults.json), e.g. for `npx tsx test/durations.ts <file> <file>.faults.json`.
if [ -n "${TEST_REPORT:-}" ]; then
  cp "$report/tests.json" "$TEST_REPORT"
  cp "$report/faults.json" "$TEST_REPORT.faults.json"
fi
wait
# `npm run test:full` (FAULTS_LOADED_RUNS=3): then the data path's drills with every core held busy
# (test/faults-loaded.sh), after everything else so that the burners slow nothing but them.
steps="typecheck lint format tests"
if [ -n "${FAULTS_LOADED_RUNS:-}" ]; then
  echo "── tests: bash test/faults-loaded.sh (the drills on busy cores, $FAULTS_LOADED_RUNS runs)"
  t1=$SECONDS
  bash test/faults-loaded.sh
  echo "$? $((SECONDS - t1))" >"$report/loaded.result"
  steps="$steps loaded"
fi

echo
echo "── typecheck: npm run -s typecheck"; cat "$report/typecheck.log"
echo "── lint: npm run -s lint:code"; cat "$report/lint.log"
echo "── format: npm run -s lint:format"; cat "$report/format.log"
echo
failed=0
for name in $steps; do
  read -r code seconds <"$report/$name.result" || { code=1 seconds=?; }
  if [ "$code" = 0 ]; then result=ok; else result="FAILED (exit $code)"; failed=1; fi
  echo "  $name: $result, $seconds s"
done
echo "  npm test: $((SECONDS - t0)) s in all"
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
' "$report/tests.json" "$report/faults.json"
exit $failed
