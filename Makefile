# Insights: `make run` serves the whole product; `make test` runs every test suite.
# Both work on a fresh machine: they install the web dependencies, find or start PostgreSQL,
# and (for the browser tests) install Chromium from Debian when it is missing.

SHELL := /bin/bash
.DEFAULT_GOAL := help

# One build cache outside the clone, so later runs (and CI on the same machine) reuse it.
export CARGO_TARGET_DIR ?= $(HOME)/.cache/insights/target
# Queries are checked against the committed .sqlx data: building needs no database.
export SQLX_OFFLINE ?= true
# The version reported by /version and --version: package version + commit.
export INSIGHTS_BUILD_ID ?= $(shell git rev-parse --short HEAD 2>/dev/null)

BIN := $(CARGO_TARGET_DIR)/debug/insights-cli
BIN_RELEASE := $(CARGO_TARGET_DIR)/release/insights-cli
# The Stripe test double `make run` starts when no Stripe key is set (tests/stripe-double).
DOUBLE := $(CARGO_TARGET_DIR)/debug/stripe-double

.PHONY: help run build test e2e web web-deps rust rust-release schema sqlx-prepare clean-data readme-config

help:
	@echo "make run      build the web app and the binary, load demo content into an empty database, serve http://127.0.0.1:8080/insights"
	@echo "make test     Rust unit and integration tests, web unit tests, browser end-to-end tests"
	@echo "make build    release binary and production web build"
	@echo "make e2e      the browser end-to-end tests alone"
	@echo "make schema   regenerate web/schema.graphql and the web app's GraphQL types"
	@echo "make sqlx-prepare  refresh .sqlx (offline query data) after changing SQL"
	@echo "make readme-config rewrite the README's configuration table from the flags"

# An empty database gets the demo content first (`seed demo --if-empty` says which case it found),
# so a first run shows a living portal; a database with content is left as it is.
run: web rust
	@scripts/debian-package.sh pdftoppm poppler-utils
	@scripts/debian-package.sh /usr/share/postgresql/$$(ls /usr/lib/postgresql | sort -n | tail -1)/extension/rum.control postgresql-$$(ls /usr/lib/postgresql | sort -n | tail -1)-rum || true
	@DATABASE_URL=$$(scripts/postgres.sh url) && export DATABASE_URL && \
	  $(BIN) seed demo --if-empty || exit 1; \
	  if [ -z "$${INSIGHTS_STRIPE_SECRET_KEY:-}" ]; then \
	    cargo build -q -p stripe-double || exit 1; \
	    port=$${STRIPE_DOUBLE_PORT:-12111}; listen=$${INSIGHTS_LISTEN:-127.0.0.1:8080}; \
	    $(DOUBLE) --port $$port --webhook-url "http://$$listen/webhooks/stripe" --webhook-secret whsec_insights_make_run & \
	    double=$$!; trap 'kill $$double 2>/dev/null' EXIT; \
	    export INSIGHTS_STRIPE_SECRET_KEY=sk_test_insights_make_run INSIGHTS_STRIPE_PUBLISHABLE_KEY=pk_test_insights_make_run \
	      INSIGHTS_STRIPE_WEBHOOK_SECRET=whsec_insights_make_run INSIGHTS_STRIPE_API_BASE="http://127.0.0.1:$$port" \
	      INSIGHTS_STRIPE_JS_URL="http://127.0.0.1:$$port/js/v3"; \
	    echo "Card payments: the Stripe test double on http://127.0.0.1:$$port (pay with the test card 4242 4242 4242 4242)"; \
	  fi; \
	  echo "Serving http://127.0.0.1:8080/insights (database $${DATABASE_URL})" && \
	  $(BIN) serve --log-format pretty

build: web rust-release
	@ls -l $(BIN_RELEASE) && echo "Web app: web/dist"

test:
	@scripts/test.sh all

e2e:
	@scripts/test.sh e2e

web-deps: web/node_modules/.package-lock.json

web/node_modules/.package-lock.json: web/package-lock.json web/package.json
	cd web && npm ci --no-audit --no-fund --loglevel=error

web: web-deps
	cd web && npm run build

rust:
	cargo build -p insights-cli

rust-release:
	cargo build --release -p insights-cli

schema: rust web-deps
	$(BIN) schema
	cd web && npm run codegen

sqlx-prepare:
	@scripts/sqlx-prepare.sh

clean-data:
	scripts/postgres.sh stop
	rm -rf data

readme-config: rust
	@$(BIN) serve --help | python3 scripts/config-table.py README.md && echo "README.md configuration table updated"
