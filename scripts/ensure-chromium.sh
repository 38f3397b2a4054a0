#!/usr/bin/env bash
# Browser tests drive Debian's chromium (test tools cannot download browsers here).
set -uo pipefail
if [ -x /usr/bin/chromium ]; then
  /usr/bin/chromium --version
  exit 0
fi
echo "Debian's chromium is missing: installing it (apt-get install -y chromium)…"
if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
  echo "ERROR: cannot install chromium without root. Run: sudo apt-get update && sudo apt-get install -y chromium" >&2
  exit 1
fi
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null; }; then
  echo "ERROR: installing chromium failed. Install it by hand (apt-get install -y chromium) and run the tests again." >&2
  exit 1
fi
/usr/bin/chromium --version
