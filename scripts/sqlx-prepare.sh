#!/usr/bin/env bash
# Refreshes .sqlx, the offline query data that lets `query!` macros build without a database:
# re-checks every query against a freshly migrated scratch database.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/insights/target}
base=$(scripts/postgres.sh url insights_sqlx_prepare)
export DATABASE_URL=$base
unset SQLX_OFFLINE
cargo run -q -p insights-cli -- migrate >/dev/null
rm -rf .sqlx && mkdir .sqlx
touch src/lib.rs
SQLX_OFFLINE_DIR=$PWD/.sqlx cargo check -q --workspace --all-targets
echo "Wrote $(ls .sqlx | wc -l) query files to .sqlx"
