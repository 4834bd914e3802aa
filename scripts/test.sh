#!/usr/bin/env bash
# The one test command behind `make test`: builds once, then runs the Rust tests (against a real
# PostgreSQL, one fresh database per test), the web unit tests, and the browser end-to-end tests
# (headless Chromium against a real `insights-cli serve`). Starts what it needs, stops what it started.
#
#   scripts/test.sh all | rust | web | e2e [playwright arguments, e.g. a spec file or --grep TEXT]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
what=${1:-all}
e2e_args=("${@:2}")

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/insights/target}
export SQLX_OFFLINE=true
bin=$CARGO_TARGET_DIR/debug/insights-cli
double_bin=$CARGO_TARGET_DIR/debug/stripe-double
server_pid=""
maildev_pid=""
double_pid=""
e2e_db=""

stage() { printf '\n==> %s\n' "$*"; }
elapsed() { local s=$SECONDS; printf '    (%dm%02ds so far)\n' $((s / 60)) $((s % 60)); }

cleanup() {
  local status=$?
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  if [[ -n "$maildev_pid" ]]; then kill "$maildev_pid" 2>/dev/null || true; wait "$maildev_pid" 2>/dev/null || true; fi
  if [[ -n "$double_pid" ]]; then kill "$double_pid" 2>/dev/null || true; wait "$double_pid" 2>/dev/null || true; fi
  if [[ -n "$e2e_db" ]]; then psql "$admin_url" -q -c "drop database if exists $e2e_db with (force)" >/dev/null 2>&1 || true; fi
  scripts/postgres.sh stop || true
  exit $status
}
trap cleanup EXIT

# sqlx::test creates a database per test on this server, reaching it through its `postgres` db.
admin_url=$(scripts/postgres.sh url postgres)
export DATABASE_URL=$admin_url

need_web() {
  stage "web: dependencies and production build"
  make -s web-deps
  (cd web && npm run -s build)
  elapsed
}

need_rust() {
  stage "rust: build the binary and the test binaries"
  cargo build -p insights-cli -p stripe-double
  cargo test --workspace --no-run -q 2>&1 | grep -v '^\s*Executable' || true
  elapsed
}

# The object-storage tests run against moto's S3 server (PyPI moto[server]) from its own virtualenv
# (tests/api/support/s3.rs starts it); kept between runs, installed when missing.
ensure_moto() {
  local venv=$HOME/.cache/insights/moto-venv
  "$venv/bin/python" -c 'import moto.server' >/dev/null 2>&1 && return
  stage "installing moto's S3 server (PyPI moto[server]) into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q 'moto[server]'
}

# The feed and MCP tests read what the server answers with clients no one here wrote: Python's
# feedparser and the official MCP SDK (PyPI), from their own virtualenv (tests/api/support/clients.rs).
ensure_clients() {
  local venv=$HOME/.cache/insights/clients-venv
  "$venv/bin/python" -c 'import feedparser, mcp' >/dev/null 2>&1 && return
  stage "installing the Python clients (PyPI feedparser, mcp) into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q 'feedparser>=6,<7' 'mcp>=2.3,<3'
}

run_rust() {
  # Email tests start their own maildev (a real SMTP server with an inspection API) from web/node_modules.
  make -s web-deps
  ensure_moto
  ensure_clients
  # PDF uploads are rendered by poppler's pdftoppm, as in production; search ranks with RUM.
  scripts/debian-package.sh pdftoppm poppler-utils
  scripts/debian-package.sh /usr/share/postgresql/15/extension/rum.control postgresql-15-rum
  stage "rust: unit and integration tests"
  cargo test --workspace -q
  elapsed
}

generated_hash() { find web/src -path '*__generated__*' -type f | sort | xargs cat | sha256sum; }

run_web() {
  stage "web: generated GraphQL types match web/schema.graphql and the operations"
  local before
  before=$(generated_hash)
  (cd web && npm run -s codegen >/dev/null)
  if [[ "$(generated_hash)" != "$before" ]]; then
    echo "The generated GraphQL types were stale (now regenerated): review and commit web/src/**/__generated__" >&2
    exit 1
  fi
  stage "web: unit tests"
  (cd web && npm test --silent)
  elapsed
}

ensure_chromium() {
  local chromium=${CHROMIUM:-/usr/bin/chromium}
  [[ -x "$chromium" ]] && return
  stage "installing Chromium from Debian"
  export TMPDIR=${TMPDIR:-$root/data/tmp}; mkdir -p "$TMPDIR"
  scripts/debian-package.sh "$chromium" chromium
}

run_e2e() {
  ensure_chromium
  stage "e2e: headless Chromium against insights-cli serve"
  e2e_db="insights_e2e_$$"
  local port url smtp_port maildev_port maildev_url stripe_port stripe_url
  free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
  port=$(free_port); smtp_port=$(free_port); maildev_port=$(free_port); stripe_port=$(free_port)
  url="http://127.0.0.1:$port"
  maildev_url="http://127.0.0.1:$maildev_port"
  stripe_url="http://127.0.0.1:$stripe_port"
  # Test keys only: the double accepts any sk_test_/pk_test_ key, and signs events with this secret.
  local stripe_webhook_secret="whsec_insights_e2e_$$"
  rm -rf "$root/data/e2e-mail"; mkdir -p web/e2e/artifacts "$root/data/e2e-mail"
  # A real SMTP server the server sends to; the specs read what arrived through its API.
  web/node_modules/.bin/maildev --smtp "$smtp_port" --ip 127.0.0.1 --web "$maildev_port" --web-ip 127.0.0.1 \
    --mail-directory "$root/data/e2e-mail" >web/e2e/artifacts/maildev.log 2>&1 &
  maildev_pid=$!
  for _ in $(seq 1 50); do curl -fsS "$maildev_url/api/email" >/dev/null 2>&1 && break; sleep 0.2; done
  # The Stripe test double (tests/stripe-double): Stripe's API, its fake Stripe.js at /js/v3, and
  # webhooks signed as Stripe signs them, posted to the server under test; the specs drive its
  # clock and renewals through /_double (E2E_STRIPE_URL).
  "$double_bin" --port "$stripe_port" --webhook-url "$url/webhooks/stripe" --webhook-secret "$stripe_webhook_secret" \
    >web/e2e/artifacts/stripe-double.log 2>&1 &
  double_pid=$!
  for _ in $(seq 1 50); do
    curl -fsS "$stripe_url/_double/clock" >/dev/null 2>&1 && break
    kill -0 "$double_pid" 2>/dev/null || { cat web/e2e/artifacts/stripe-double.log >&2; exit 1; }
    sleep 0.2
  done
  DATABASE_URL="${admin_url%/*}/$e2e_db" INSIGHTS_LISTEN="127.0.0.1:$port" INSIGHTS_PUBLIC_URL="$url" \
    INSIGHTS_WEB_DIR="$root/web/dist" INSIGHTS_LOG_FORMAT=json INSIGHTS_SMTP_URL="smtp://127.0.0.1:$smtp_port" \
    INSIGHTS_STRIPE_SECRET_KEY=sk_test_insights_e2e INSIGHTS_STRIPE_PUBLISHABLE_KEY=pk_test_insights_e2e \
    INSIGHTS_STRIPE_WEBHOOK_SECRET="$stripe_webhook_secret" INSIGHTS_STRIPE_API_BASE="$stripe_url" \
    INSIGHTS_STRIPE_JS_URL="$stripe_url/js/v3" INSIGHTS_FEATURE_INTELLIGENCE=true \
    "$bin" serve >web/e2e/artifacts/server.log 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do
    curl -fsS "$url/healthz" >/dev/null 2>&1 && break
    kill -0 "$server_pid" 2>/dev/null || { cat web/e2e/artifacts/server.log >&2; exit 1; }
    sleep 0.2
  done
  # The database too: specs insert what has no API yet (support.ts psql); the binary loads the demo
  # content for the accessibility check (demo.setup.ts).
  (cd web && E2E_BASE_URL="$url" E2E_DATABASE_URL="${admin_url%/*}/$e2e_db" E2E_MAILDEV_URL="$maildev_url" \
    E2E_STRIPE_URL="$stripe_url" E2E_BIN="$bin" npm run -s e2e -- "${e2e_args[@]}")
  elapsed
}

case "$what" in
  all) need_web; need_rust; run_rust; run_web; run_e2e ;;
  rust) need_rust; run_rust ;;
  web) make -s web-deps; run_web ;;
  e2e) need_web; stage "rust: build the binary and the Stripe double"; cargo build -p insights-cli -p stripe-double; scripts/debian-package.sh pdftoppm poppler-utils
       scripts/debian-package.sh /usr/share/postgresql/15/extension/rum.control postgresql-15-rum; run_e2e ;;
  *) echo "usage: $0 all|rust|web|e2e" >&2; exit 2 ;;
esac
stage "all passed in $((SECONDS / 60))m$((SECONDS % 60))s"
