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
GO_TEST_FLAGS ?= -count=1 -timeout 20m

.PHONY: all build generate check-generated lint vet staticcheck buf-lint fmt-check \
        test test-go test-foodapi breaking demo bench clean tidy

all: build

## build: bin/sous and bin/mealietest
build:
	go build -o $(BIN)/sous ./cmd/sous
	go build -o $(BIN)/mealietest github.com/souskitchen/sous/integration/cmd/mealietest

## generate: regenerate proto/gen from proto/ with local plugins
generate:
	$(TOOL) buf generate
	cd proto && go mod tidy

## check-generated: fail when proto/gen is stale
check-generated:
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	cp -r proto/gen "$$tmp/before"; \
	$(TOOL) buf generate; \
	if ! diff -r "$$tmp/before" proto/gen >/dev/null; then \
		diff -r "$$tmp/before" proto/gen | head -40; \
		echo "proto/gen is stale: run 'make generate' and commit the result"; exit 1; \
	fi; echo "proto/gen is up to date"

## lint: gofmt, go vet, staticcheck, buf lint
lint: fmt-check vet staticcheck buf-lint

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

## breaking: buf breaking against the previous commit of main
breaking:
	scripts/breaking.sh

## test: everything CI runs: generated code, lint, API breaking report, Go tests, Django tests
test: check-generated lint breaking test-go test-foodapi

test-go:
	go test $(GO_TEST_FLAGS) $(PKGS)

test-foodapi:
	$(MAKE) -C integration/foodapi test

## demo: the whole stack against the seeded Mealie emulator
demo: build
	$(MAKE) -C integration/foodapi venv
	$(BIN)/sous demo

## bench: benchmarks (docs/benchmarks.md)
bench:
	go test -run '^$$' -bench . -benchmem $(PKGS)

clean:
	rm -rf $(BIN)
