# The two commands a newcomer needs: `make run` and `make test`.
SHELL := /bin/bash
NPM ?= npm

.PHONY: run test build deps clean bench-json bench-ingest

node_modules/.deps-ok: package.json package-lock.json
	$(NPM) ci --no-audit --no-fund
	@touch $@

deps: node_modules/.deps-ok

build: deps
	$(NPM) run -s build

run: build
	DASH_HOME=$${DASH_HOME:-./data} node dist/main.js serve

test: deps
	$(NPM) run -s format:check
	$(NPM) run -s lint
	$(NPM) run -s typecheck
	$(NPM) run -s test

bench-json: deps
	$(NPM) run -s bench:json

bench-ingest: deps
	$(NPM) run -s bench:ingest

clean:
	rm -rf dist node_modules
