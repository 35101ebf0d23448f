#!/usr/bin/env bash
# Starts nginx (HTTP and HTTPS with a certificate made now) and httpbin on free loopback ports,
# exports their URLs, runs the given command, and stops both on exit — also on failure or Ctrl-C.
#   REQTOP_NGINX_URL       http://127.0.0.1:PORT   files: /files/100b.bin /files/10k.bin /files/1m.bin /files/100m.bin /files/large.bin
#   REQTOP_NGINX_TLS_URL   https://127.0.0.1:PORT  the same files, self-signed certificate for 127.0.0.1; HTTP/2 by ALPN
#   REQTOP_NGINX_CA_FILE   the CA certificate that signed it
#   REQTOP_NGINX_H2C_URL   http://127.0.0.1:PORT  the same files over cleartext HTTP/2 (prior knowledge, h2c)
#   REQTOP_HTTPBIN_URL     http://127.0.0.1:PORT   httpbin under gunicorn (gthread, 16 threads)
# REQTOP_LARGE_FILE_MB sets the size of large.bin (default 256).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

work=$(mktemp -d /tmp/reqtop-servers.XXXXXX)
chmod 755 "$work"   # nginx workers may run as another user
nginx_pid="" gunicorn_pid=""
cleanup() {
  [ -n "$gunicorn_pid" ] && kill "$gunicorn_pid" 2>/dev/null || true
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# Static files under a non-root path.
mkdir -p "$work/www/files" "$work/logs" "$work/tmp"
head -c 100 /dev/urandom > "$work/www/files/100b.bin"
head -c 10240 /dev/urandom > "$work/www/files/10k.bin"
head -c 1048576 /dev/urandom > "$work/www/files/1m.bin"
truncate -s "${REQTOP_LARGE_FILE_MB:-256}M" "$work/www/files/large.bin"
truncate -s 100M "$work/www/files/100m.bin"
chmod -R a+rX "$work/www"

# A CA and a certificate for 127.0.0.1 signed by it.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=reqtop test CA" \
  -keyout "$work/ca.key" -out "$work/ca.pem" >/dev/null 2>&1
openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
  -keyout "$work/server.key" -out "$work/server.csr" >/dev/null 2>&1
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' > "$work/san.ext"
openssl x509 -req -in "$work/server.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial \
  -days 2 -extfile "$work/san.ext" -out "$work/server.pem" >/dev/null 2>&1

http_port=$(free_port); tls_port=$(free_port); h2c_port=$(free_port); httpbin_port=$(free_port)
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $work/tmp/body; proxy_temp_path $work/tmp/proxy;
  fastcgi_temp_path $work/tmp/fastcgi; uwsgi_temp_path $work/tmp/uwsgi; scgi_temp_path $work/tmp/scgi;
  keepalive_requests 100000;
  sendfile on;
  types { application/octet-stream bin; text/plain txt; }
  server {
    listen 127.0.0.1:$http_port;
    listen 127.0.0.1:$tls_port ssl http2;
    listen 127.0.0.1:$h2c_port http2;
    ssl_certificate $work/server.pem;
    ssl_certificate_key $work/server.key;
    root $work/www;
    # What nginx saw of a request (wire-truth tests), and a 307 to it over TLS (another origin).
    location = /seen {
      default_type text/plain;
      return 200 "\$request|auth=\$http_authorization|cookie=\$http_cookie|type=\$content_type|length=\$content_length\n";
    }
    location = /to-tls { return 307 https://127.0.0.1:$tls_port/seen; }
  }
}
CONF
nginx -c "$work/nginx.conf" -e "$work/logs/error.log"

(cd "$work" && exec "$root/.venv/bin/gunicorn" -b "127.0.0.1:$httpbin_port" -k gthread --threads 16 \
  --log-level warning httpbin:app >"$work/logs/gunicorn.log" 2>&1) &
gunicorn_pid=$!

export REQTOP_NGINX_URL="http://127.0.0.1:$http_port"
export REQTOP_NGINX_TLS_URL="https://127.0.0.1:$tls_port"
export REQTOP_NGINX_CA_FILE="$work/ca.pem"
export REQTOP_NGINX_H2C_URL="http://127.0.0.1:$h2c_port"
export REQTOP_HTTPBIN_URL="http://127.0.0.1:$httpbin_port"

wait_for() { # url
  for _ in $(seq 1 100); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 0.1; done
  echo "test servers: $1 did not come up" >&2; tail -n 5 "$work"/logs/*.log >&2; return 1
}
wait_for "$REQTOP_NGINX_URL/files/100b.bin"
wait_for "$REQTOP_HTTPBIN_URL/get"
echo "test servers: nginx $REQTOP_NGINX_URL (tls $REQTOP_NGINX_TLS_URL), httpbin $REQTOP_HTTPBIN_URL" >&2

"$@"
