#!/usr/bin/env bash
# What tests/test_browser.py needs on a CI machine (Debian 12): Debian's Chromium (never a
# browser downloaded by `playwright install`: the test passes executable_path), the
# Playwright Python package and Notebook 7. Usage: ci/install_browser.sh [PYTHON]
set -euo pipefail
PYTHON="${1:-${PYTHON:-python3}}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
if [ ! -x /usr/bin/chromium ]; then
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium chromium-driver
fi
"$PYTHON" -m pip install --quiet "playwright>=1.45" "notebook>=7,<8"
/usr/bin/chromium --version 2>/dev/null | tail -n 1
"$PYTHON" -c "import playwright, notebook; print('playwright', playwright.__version__ if hasattr(playwright, '__version__') else 'ok', '| notebook', notebook.__version__)"
