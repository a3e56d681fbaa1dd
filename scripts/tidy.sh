#!/usr/bin/env bash
# Keeps every Go module of the repository tidy and on one version of each
# dependency the modules share.
#
#   scripts/tidy.sh          go work sync, then go mod tidy in every module
#   scripts/tidy.sh --check  change nothing; fail when a module is not tidy
#                            or two modules require different versions of
#                            the same dependency
#
# Every module builds with GOWORK=off through its relative replaces (as a
# release and the container images build it), so what its own go.mod says
# is what it gets: two modules on different versions of connect-go or
# protobuf would build differently alone than in the workspace. tools/go.mod
# is checked for tidiness only: its pins (buf, protoc plugins, staticcheck)
# never reach the product's dependency graph.
set -euo pipefail
cd "$(dirname "$0")/.."

check=false
case "${1:-}" in
--check) check=true ;;
"") ;;
*) echo "usage: scripts/tidy.sh [--check]" >&2; exit 2 ;;
esac

# The workspace's modules, as go.work lists them.
mapfile -t work < <(go work edit -json | python3 -c 'import json,sys; [print(u["DiskPath"]) for u in json.load(sys.stdin)["Use"]]')

if ! $check; then
	go work sync
	for m in "${work[@]}" tools; do
		(cd "$m" && GOWORK=off go mod tidy)
	done
	echo "tidy: ${#work[@]} workspace modules and tools/ are tidy"
	exit 0
fi

fail=0
for m in "${work[@]}" tools; do
	if ! diff=$(cd "$m" && GOWORK=off go mod tidy -diff 2>&1); then
		echo "tidy: $m/go.mod or go.sum is not tidy:"
		echo "$diff" | head -40
		fail=1
	fi
done

# Every (module, dependency, version) a module's own build list holds.
# The repository's own modules are replaced by relative paths and skipped.
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for m in "${work[@]}"; do
	(cd "$m" && GOWORK=off go list -m -f '{{if not .Main}}{{if not .Replace}}{{.Path}} {{.Version}}{{end}}{{end}}' all) |
		sed "s|\$| $m|" >>"$tmp"
done
mismatch=$(python3 - "$tmp" <<'PY'
import collections, sys
seen = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    path, version, module = line.split()
    seen[path][version].append(module)
for path in sorted(seen):
    if len(seen[path]) > 1:
        print(path + ": " + "; ".join(v + " in " + " ".join(ms) for v, ms in sorted(seen[path].items())))
PY
)
if [ -n "$mismatch" ]; then
	echo "tidy: modules require different versions of the same dependency (run make tidy):"
	echo "$mismatch"
	fail=1
fi
if [ $fail = 1 ]; then
	echo "tidy: run 'make tidy' and commit the go.mod and go.sum changes"
	exit 1
fi
echo "tidy: ${#work[@]} workspace modules and tools/ are tidy; shared dependencies agree"
