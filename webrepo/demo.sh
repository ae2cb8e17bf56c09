#!/bin/sh
# webrepo/demo.sh — the signed-repository demo with a real nginx:
# a publisher key, hpublish of the example "math" plugin, nginx on loopback,
# three hcored with empty lib/ that fetch, verify and run it.
#
#   webrepo/demo.sh [BUILD_DIR]        (default: ./build)
#
# Everything lives in a temporary directory removed at the end (keep it with
# KEEP=1); every process started here is stopped by pid.
set -eu
BUILD=$(cd "${1:-build}" && pwd)
SRC=$(cd "$(dirname "$0")/.." && pwd)
HPUBLISH=$BUILD/tools/hpublish/hpublish
HCORED=$BUILD/hcore/hcored
HCONSOLE=$BUILD/tools/hconsole/hconsole
PLUGIN=$BUILD/plugins-root/lib/examples/math.json
for f in "$HPUBLISH" "$HCORED" "$HCONSOLE" "$PLUGIN" /usr/sbin/nginx; do
    [ -e "$f" ] || { echo "demo: missing $f (build first)" >&2; exit 1; }
done

DEMO=$(mktemp -d /tmp/harness-webrepo-demo.XXXXXX)
chmod 711 "$DEMO"
PIDS=""
cleanup() {
    for p in $PIDS; do kill "$p" 2>/dev/null || true; done
    for p in $PIDS; do wait "$p" 2>/dev/null || true; done
    GNUPGHOME=$DEMO/publisher gpgconf --kill all 2>/dev/null || true
    if [ "${KEEP:-0}" = 1 ]; then echo "demo: kept $DEMO"; else rm -rf "$DEMO"; fi
}
trap cleanup EXIT INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

echo "== publisher key"
mkdir -m 700 "$DEMO/publisher"
FPR=$("$HPUBLISH" keygen --gnupghome "$DEMO/publisher" --name "HARNESS demo publisher <demo@example.org>")
"$HPUBLISH" export-key --gnupghome "$DEMO/publisher" --signer "$FPR" --out "$DEMO/publisher.asc"
echo "fingerprint $FPR"

echo "== publish examples/math"
"$HPUBLISH" --repo "$DEMO/www" --gnupghome "$DEMO/publisher" --signer "$FPR" --ttl 600 --expires 7 "$PLUGIN"
chmod -R a+rX "$DEMO/www"

echo "== nginx"
WEB_PORT=$(free_port)
mkdir -m 700 "$DEMO/nginx"
sed -e "s|@PORT@|$WEB_PORT|" -e "s|@ROOT@|$DEMO/www|" -e "s|@STATE@|$DEMO/nginx|" \
    "$SRC/webrepo/nginx.conf.in" > "$DEMO/nginx/nginx.conf"
/usr/sbin/nginx -p "$DEMO/nginx" -c "$DEMO/nginx/nginx.conf" -e "$DEMO/nginx/error.log" &
PIDS="$PIDS $!"
i=0
until curl -sf -o /dev/null "http://127.0.0.1:$WEB_PORT/index.json"; do
    i=$((i + 1)); [ $i -lt 100 ] || { echo "demo: nginx did not start" >&2; exit 1; }; sleep 0.05
done
echo "serving $DEMO/www on http://127.0.0.1:$WEB_PORT/"

echo "== three daemons with empty lib/"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$DEMO/vm.key"
chmod 600 "$DEMO/vm.key"
FIRST=""
for n in 1 2 3; do
    port=$(free_port)
    mkdir -m 700 "$DEMO/d$n"
    join=""
    [ -n "$FIRST" ] && join="--join $FIRST"
    # shellcheck disable=SC2086
    "$HCORED" --root "$DEMO/d$n" --key "$DEMO/vm.key" --listen "127.0.0.1:$port" --vm demo --foreground $join \
        --repo "http://127.0.0.1:$WEB_PORT/" --trust "$FPR" --import-key "$DEMO/publisher.asc" \
        > "$DEMO/d$n.out" 2> "$DEMO/d$n.err" &
    PIDS="$PIDS $!"
    i=0
    until grep -q "hcored ready" "$DEMO/d$n.out" 2>/dev/null; do
        i=$((i + 1)); [ $i -lt 200 ] || { echo "demo: hcored $n not ready" >&2; cat "$DEMO/d$n.err" >&2; exit 1; }; sleep 0.05
    done
    [ -n "$FIRST" ] || FIRST="127.0.0.1:$port"
    cat "$DEMO/d$n.out"
done
sleep 1 # let the joins settle

echo "== load and call across the VM"
"$HCONSOLE" --root "$DEMO/d1" --key "$DEMO/vm.key" load examples/math --all
"$HCONSOLE" --root "$DEMO/d1" --key "$DEMO/vm.key" call examples/math add --all 2 40
grep -h "fetched examples/math" "$DEMO"/d*.err
echo "nginx served math-1.0.0.so $(grep -c 'math-1.0.0.so' "$DEMO/nginx/access.log") times"
