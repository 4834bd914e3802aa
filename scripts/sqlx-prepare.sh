#!/usr/bin/env bash
# Refreshes .sqlx, the offline query data that lets `query!` macros build without a database:
# re-checks every query against a scratch database with all migrations applied (by psql, since
# the crate cannot be built before its queries are).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/insights/target}
admin=$(scripts/postgres.sh url postgres)
# A name of its own per checkout, so that two checkouts can refresh their data at once.
db=${SQLX_PREPARE_DB:-insights_sqlx_prepare}
psql "$admin" -q -c "set client_min_messages = warning" -c "drop database if exists $db with (force)" -c "create database $db"
for migration in migrations/*.sql; do
  psql "${admin%/*}/$db" -q -v ON_ERROR_STOP=1 -f "$migration" >/dev/null
done
# Dependencies with their own query macros (apalis-postgres) build from their shipped offline data
# first, so the checks below against our scratch database see only our crates.
SQLX_OFFLINE=true cargo check -q -p apalis-postgres
export DATABASE_URL="${admin%/*}/$db"
unset SQLX_OFFLINE
rm -rf .sqlx && mkdir .sqlx
touch src/lib.rs
SQLX_OFFLINE_DIR=$PWD/.sqlx cargo check -q --workspace --all-targets
psql "$admin" -q -c "drop database $db with (force)"
echo "Wrote $(ls .sqlx | wc -l) query files to .sqlx"
