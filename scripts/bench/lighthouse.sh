#!/usr/bin/env bash
# Benchmark (not a timed test): Lighthouse 12.2.3 (npm, run by Node with Debian's Chromium) on the
# reader's pages, mobile profile, signed in as a subscriber over the demo content: For You, a
# channel page, an article page, search results and the checkout. Prints per page the accessibility
# score (target 100), the performance score, LCP (target under 2.5 s), CLS (under 0.1) and total
# blocking time, as a table. Asserts nothing.
# Needs a release build (make build; BENCH_BIN for another binary), the production web build
# (web/dist, built here unless BENCH_SKIP_WEB=1) and Chromium (scripts/test.sh installs it).
# Lighthouse is installed on first use into ~/.cache/insights/lighthouse (not a project dependency).
source "$(dirname "$0")/common.sh"

chromium=${CHROMIUM:-/usr/bin/chromium}
[[ -x $chromium ]] || { echo "needs Chromium: scripts/debian-package.sh $chromium chromium" >&2; exit 1; }
lighthouse_dir=$HOME/.cache/insights/lighthouse
if [[ ! -d $lighthouse_dir/node_modules/lighthouse ]]; then
  echo "== Installing lighthouse@12.2.3 into $lighthouse_dir"
  npm install --prefix "$lighthouse_dir" --no-audit --no-fund --loglevel=error lighthouse@12.2.3 >/dev/null
fi
[[ -d web/node_modules ]] || (cd web && npm ci --no-audit --no-fund --loglevel=error)
if [[ -z ${BENCH_SKIP_WEB:-} ]]; then (cd web && npm run -s build >/dev/null); fi
[[ -f web/dist/index.html ]] || { echo "needs the web build: (cd web && npm run build)" >&2; exit 1; }

# The Stripe test double, so that the checkout shows its card step as in production.
cargo build -q -p stripe-double
double_port=$(free_port)
"$CARGO_TARGET_DIR/debug/stripe-double" --port "$double_port" --webhook-url "$url/webhooks/stripe" --webhook-secret whsec_bench_lighthouse \
  >/dev/null 2>&1 &
double_pid=$!
trap 'stop; kill $double_pid 2>/dev/null; drop_db; rm -f "$log"' EXIT

"$bin" migrate >/dev/null
seeded || "$bin" seed demo --if-empty >/dev/null
start INSIGHTS_WEB_DIR=web/dist INSIGHTS_STRIPE_SECRET_KEY=sk_test_bench INSIGHTS_STRIPE_PUBLISHABLE_KEY=pk_test_bench \
  INSIGHTS_STRIPE_WEBHOOK_SECRET=whsec_bench_lighthouse INSIGHTS_STRIPE_API_BASE="http://127.0.0.1:$double_port" \
  INSIGHTS_STRIPE_JS_URL="http://127.0.0.1:$double_port/js/v3"

echo "== Lighthouse 12.2.3, mobile profile ($(nproc) cores shared with the server and PostgreSQL; release build)"
NODE_PATH="$lighthouse_dir/node_modules:web/node_modules" CHROMIUM="$chromium" BENCH_URL="$url" \
  node scripts/bench/lighthouse.mjs
