#!/usr/bin/env bash
# Installs what reqtop needs, idempotently and quietly when it is already there.
#   scripts/setup.sh build   C libraries for building (libcurl, ncursesw, zlib, OpenSSL, nghttp2, JavaScriptCore)
#   scripts/setup.sh test    also tmux, nginx, openssl, curl, xmllint, man and a Python venv (.venv) with httpbin, gunicorn, locust, httpx (with h2), websockets
#   scripts/setup.sh bench   hey (Debian), and mitmproxy in a venv of its own (.venv-bench): the benchmarks' peers
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-build}
packages=(libcurl4-openssl-dev libncursesw5-dev zlib1g-dev libssl-dev libnghttp2-dev libjavascriptcoregtk-4.1-0 pkg-config)
if [ "$mode" = test ]; then
  packages+=(tmux nginx openssl curl python3-venv libxml2-utils man-db groff-base)
fi
if [ "$mode" = bench ]; then
  packages+=(hey) # a load generator, reported beside curl
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# python3-venv is Debian's; a toolchain image with its own Python (pyenv) already has venv.
if [ "$mode" = test ] && python3 -c 'import venv, ensurepip' 2>/dev/null; then
  missing=("${missing[@]/python3-venv/}")
fi
missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "$mode" = test ]; then
  if ! .venv/bin/python -c 'import httpbin, gunicorn, locust, httpx, h2, websockets' 2>/dev/null; then
    echo "setup: creating .venv with httpbin, gunicorn, locust, httpx (with h2) and websockets" >&2
    python3 -m venv .venv
    .venv/bin/pip install -q --disable-pip-version-check httpbin gunicorn locust 'httpx[http2]' websockets
  fi
fi

if [ "$mode" = bench ] && [ ! -x .venv-bench/bin/mitmdump ]; then
  echo "setup: creating .venv-bench with mitmproxy (the proxy benchmark's peer)" >&2
  python3 -m venv .venv-bench
  .venv-bench/bin/pip install -q --disable-pip-version-check mitmproxy
fi
