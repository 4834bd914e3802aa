#!/usr/bin/env bash
# Benchmark: card payments (issue 13), on a scratch database, by examples/billing_bench.rs: the app
# served in process (the same router as `insights-cli serve`) against the Stripe test double
# (tests/stripe-double, in process), Stripe reached through a timing proxy that adds up the time
# spent at the provider:
# (a) checkout API calls: createStripeCustomer then createStripeSubscription through GraphQL for
#     BENCH_READERS readers (200), one request at a time: p50/p99 excluding the provider's time
#     (each call's time less what the proxy saw it spend at the double), and with it;
# (b) webhooks under a burst: BENCH_PAYING of them (100) pay with pm_card_visa while the double
#     holds its events; then BENCH_EVENTS (1,000) signed deliveries — the held events in order,
#     topped up with duplicates (Stripe's redeliveries) when there are fewer — POSTed at
#     /webhooks/stripe with BENCH_IN_FLIGHT (12) in flight: p50/p99/max of each request, and
#     how long the workers took to apply them (the endpoint records and answers; a job applies),
#     whether every event was applied exactly once (stripe_event rows, active card subscriptions,
#     their audit rows). BENCH_ORDER=shuffled sends them in a fixed pseudo-random order instead
#     (subscriptions interleaved, each one's events out of order).
# Prints the figures and a summary; asserts nothing. Builds the example itself (release).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/insights/target}
# Built before common.sh points DATABASE_URL at the scratch database (queries are checked offline).
SQLX_OFFLINE=${SQLX_OFFLINE:-true} cargo build --release --quiet -p insights --example billing_bench
bench=$CARGO_TARGET_DIR/release/examples/billing_bench
source scripts/bench/common.sh

work=$(mktemp -d)
trap 'stop; psql "$admin" -q -c "drop database if exists $db with (force)"; rm -f "$log"; rm -rf "$work"' EXIT
figure() { sed -n "s/.*figures:.* $1=\([^ ]*\).*/\1/p" "$work/out.txt"; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "== Checkout calls, then a burst of webhooks ($(nproc) cores shared by the app, the Stripe double and PostgreSQL; release build)"
started=$(date +%s)
"$bench" 2>"$work/err.txt" | tee "$work/out.txt" | sed 's/^/    /'
if [[ -s $work/err.txt ]]; then sed 's/^/    stderr: /' "$work/err.txt" | head -n 5; fi
echo "    ($(($(date +%s) - started)) s)"
echo

echo "== Summary ($(nproc) cores, release build; load average before the run: $load_before)"
printf '  %-58s %s\n' "createStripeCustomer, excluding the provider" "p50 $(figure customer_p50) ms, p99 $(figure customer_p99) ms"
printf '  %-58s %s\n' "createStripeSubscription, excluding the provider" "p50 $(figure subscription_p50) ms, p99 $(figure subscription_p99) ms"
printf '  %-58s %s\n' "webhooks: $(figure deliveries) deliveries, ${BENCH_IN_FLIGHT:-12} in flight, ${BENCH_ORDER:-in order}" \
  "p50 $(figure webhook_p50) ms, p99 $(figure webhook_p99) ms, max $(figure webhook_max) ms, $(figure rate)/s   (target p99 < 20 ms)"
printf '  %-58s %s\n' "workers: all applied within, from the burst's start" "$(figure drained) s; received → applied p99 $(figure applied_p99) ms"
printf '  %-58s %s\n' "every event applied exactly once" "$(figure once)"
