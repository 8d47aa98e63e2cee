# The two commands a newcomer needs: `make run` and `make test`.
SHELL := /bin/bash
NPM ?= npm

# Standalone agents (Bun --compile, runtimes from npm; see docs/agent.md). Built once, then cached.
AGENT_BUILD = node --import tsx scripts/build-agent-binaries.ts

.PHONY: run test test-postgres build agents agent-host deps web-deps web-build web-check e2e clean release bench-json bench-agent bench-ingest bench-reads soak \
	static-checks check-format check-lint check-types web-types web-lint web-test build-for-e2e e2e-run

node_modules/.deps-ok: package.json package-lock.json
	$(NPM) ci --no-audit --no-fund
	@touch $@

deps: node_modules/.deps-ok

# The SPA has its own package (web/package.json); its lock file keys the install.
web/node_modules/.deps-ok: web/package.json web/package-lock.json
	cd web && $(NPM) ci --no-audit --no-fund
	@touch $@

web-deps: web/node_modules/.deps-ok

web-build: web-deps
	cd web && $(NPM) run -s build

build: deps web-build
	$(NPM) run -s build

# Every platform: linux amd64/arm64 (glibc, musl), macOS amd64/arm64, Windows amd64/arm64,
# each header-checked, gzip copies made, then published to $$DASH_HOME/deploy (default ./data).
agents: build
	$(AGENT_BUILD) --all --gzip=max --check
	DASH_HOME=$${DASH_HOME:-./data} node --import tsx scripts/publish-agents.ts

# Only this machine's platform (what `make run` publishes).
agent-host: build
	$(AGENT_BUILD) --host --gzip --check

run: build agent-host
	DASH_HOME=$${DASH_HOME:-./data} DASH_LOCAL_AGENT=$${DASH_LOCAL_AGENT:-true} node dist/main.js serve

web-check: web-deps
	cd web && $(NPM) run -s typecheck
	cd web && $(NPM) run -s lint
	cd web && $(NPM) run -s test

# Every check and test, the browser tests included; what CI runs (.ci/run). Made for a 2-core
# machine (docs/testing.md): the checks that only read code run two at a time, each vitest run
# spreads its files over the cores itself (maxWorkers in vitest*.config.ts), and the build the
# browser tests need runs beside the web UI's tests. The first failure stops the run.
TEST_JOBS ?= 2
test: deps web-deps
	$(MAKE) -s -j$(TEST_JOBS) --output-sync=target static-checks
	$(NPM) run -s test
	$(MAKE) -s test-postgres
	$(MAKE) -s -j$(TEST_JOBS) --output-sync=target web-test build-for-e2e
	$(MAKE) -s e2e-run

static-checks: check-format check-lint check-types web-types web-lint

check-format: deps
	$(NPM) run -s format:check
check-lint: deps
	$(NPM) run -s lint
check-types: deps
	$(NPM) run -s typecheck
web-types: web-deps
	cd web && $(NPM) run -s typecheck
web-lint: web-deps
	cd web && $(NPM) run -s lint
web-test: web-deps
	cd web && $(NPM) run -s test

# What `make build` makes, the SPA bundled without typechecking it again (web-types did that).
build-for-e2e: deps web-deps
	cd web && $(NPM) run -s bundle
	$(NPM) run -s build

# The HTTP suite again with every test app on PostgreSQL (POSTGRES_TEST_URL; docs/postgresql.md).
test-postgres: deps
	$(NPM) run -s test:postgres

# Browser tests against a real Dash with seeded data; uses Debian's chromium (no download).
e2e: build
	$(MAKE) -s e2e-run

# The browser tests on what is built already.
e2e-run:
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)
	# A CJK font, so the Simplified Chinese screenshots show glyphs rather than boxes.
	fc-list :lang=zh | grep -q . || (apt-get update && apt-get install -y fonts-wqy-microhei)
	$(NPM) run -s test:e2e

# A signed release bundle + manifest in release/feed (docs/operations.md). Key: DASH_RELEASE_KEY_FILE.
release: build
	node --import tsx scripts/make-release.ts

bench-json: deps
	$(NPM) run -s bench:json

bench-agent: deps
	$(NPM) run -s bench:agent

bench-ingest: deps
	$(NPM) run -s bench:ingest

bench-reads: deps
	$(NPM) run -s bench:reads

# The long reliability runs (docs/reliability.md): fuzzing, 20 SIGKILLs, slow clients.
soak: deps
	$(NPM) run -s soak

clean:
	rm -rf dist node_modules web/dist web/node_modules release/stage
