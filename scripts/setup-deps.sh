#!/bin/sh
# Install the Debian packages xpusim needs, if any are missing: apt-get when root, sudo
# otherwise, and a clear message when neither can be used.
PKGS="build-essential libsdl2-dev libcmocka-dev libelf-dev libdw-dev libreadline-dev libjansson-dev pkg-config xvfb xauth python3 clang libclang-rt-14-dev"
# `setup-deps.sh test` (make test): also what only the tests need. Chromium renders the HTML
# report in tests/cli/report_browser.t.sh; a user who only runs programs does not get it.
[ "${1:-}" = test ] && PKGS="$PKGS chromium"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "xpusim: installing missing Debian packages:$missing"
if [ "$(id -u)" = 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
else
    echo "xpusim: cannot install$missing: not root and no password-less sudo." >&2
    echo "        run: sudo apt-get install$missing" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || { echo "xpusim: apt-get update failed" >&2; exit 1; }
$SUDO apt-get install -y -qq $missing || { echo "xpusim: apt-get install$missing failed" >&2; exit 1; }
