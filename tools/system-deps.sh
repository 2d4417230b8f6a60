#!/usr/bin/env bash
# The system packages the tests need: Debian's chromium (the browser tests; Playwright's
# own browser download is not used), nodejs (the web client's sentence code, run by
# tests/i18n_js.py), postgresql (tests/web starts a PostgreSQL server of its own) and
# nginx (tests/web/test_behind_nginx.py runs docs/deploy.md's example in front of two servers).
# Installs the missing ones with apt-get when it can (as root, or with sudo that asks
# no password); otherwise stops with one line naming what is missing and the command
# that installs it. `make test` and `.ci/run` both call this script.
set -euo pipefail

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v node >/dev/null || missing+=(nodejs)
compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null || missing+=(postgresql)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
[ "${#missing[@]}" -eq 0 ] && exit 0

install="apt-get install -y ${missing[*]}"
if command -v apt-get >/dev/null; then
    if [ "$(id -u)" -eq 0 ]; then
        as_root=()
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        as_root=(sudo -n)
    else
        echo "missing: ${missing[*]}; install them with: sudo $install" >&2
        exit 1
    fi
    echo "installing ${missing[*]} (apt-get)" >&2
    export DEBIAN_FRONTEND=noninteractive
    "${as_root[@]}" apt-get update -qq
    "${as_root[@]}" apt-get install -y -qq "${missing[@]}"
else
    echo "missing: ${missing[*]}; install them with your system's packages (on Debian: sudo $install)" >&2
    exit 1
fi
