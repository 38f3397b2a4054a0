#!/usr/bin/env bash
# Browser tests drive Debian's Chromium (test tools cannot download browsers here): its headless
# shell for most specs (lighter: the same build Playwright runs headless by default) and the full
# browser for the camera's specs (see frontend/e2e/app-env.ts). Installs whichever is missing.
set -uo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "Debian's ${missing[*]} missing: installing (apt-get install -y ${missing[*]})…"
  if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
    echo "ERROR: cannot install without root. Run: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null; }; then
    echo "ERROR: installing ${missing[*]} failed. Install by hand (apt-get install -y ${missing[*]}) and run the tests again." >&2
    exit 1
  fi
fi
/usr/bin/chromium --version 2>/dev/null | head -1
/usr/bin/chromium-headless-shell --version 2>/dev/null | head -1
