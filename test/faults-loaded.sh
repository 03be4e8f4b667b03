#!/usr/bin/env bash
# `npm run test:faults:loaded`: the Redis-restart, worker-kill, service-outage and same-second drills
# with every core held busy by a burner (test/helpers/global-burner.ts, started and stopped by the
# project's setup), RUNS times in a row (default 3; `npm run test:full` runs it once with 3). A data
# path that is right only on an idle machine is not right: these drills failed under load before.
set -u
cd "$(dirname "$0")/.."
runs=${FAULTS_LOADED_RUNS:-3}
failed=0
for ((i = 1; i <= runs; i++)); do
  echo "── loaded fault drills: run $i of $runs"
  FAULTS_LOADED=1 npx vitest run --project faults-loaded "$@" || failed=1
done
exit $failed
