#!/usr/bin/env bash
# buf breaking against main, as README.md says: on a branch, against the
# commit where it left main (what the branch changes); on main itself (or a
# clone whose main is the checked-out branch), against main's previous
# commit (what the last commit or merge changed). Without a main branch
# (main or origin/main) it falls back to the previous commit.
# While README.md marks the API as pre-1.0 the report is printed and never
# fails; once README.md declares "API status: stable", a breaking change
# fails the build.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOL=(env GOWORK=off go tool -modfile=tools/go.mod)

main_ref=""
for r in main origin/main; do
	if git rev-parse --verify -q "$r^{commit}" >/dev/null; then
		main_ref=$r
		break
	fi
done
head=$(git rev-parse HEAD)
against="" what=""
if [ -n "$main_ref" ]; then
	base=$(git merge-base HEAD "$main_ref" || true)
	if [ -n "$base" ] && [ "$base" != "$head" ]; then
		against=$base
		what="$main_ref (where this branch left it, ${base:0:12})"
	fi
fi
if [ -z "$against" ]; then
	if ! git rev-parse --verify -q HEAD~1 >/dev/null; then
		echo "breaking: no previous commit to compare against; skipped"
		exit 0
	fi
	against=$(git rev-parse HEAD~1)
	if [ -n "$main_ref" ]; then
		what="the previous commit of $main_ref (${against:0:12})"
	else
		what="the previous commit (${against:0:12}; no main branch here)"
	fi
fi
if ! git cat-file -e "$against:proto" 2>/dev/null; then
	echo "breaking: $what has no proto/ directory; skipped"
	exit 0
fi
stable=false
if grep -q '^API status: stable' README.md; then stable=true; fi

set +e
report=$("${TOOL[@]}" buf breaking proto --against ".git#ref=$against,subdir=proto" 2>&1)
rc=$?
set -e
if [ $rc -eq 0 ]; then
	echo "breaking: no breaking change against $what"
	exit 0
fi
echo "$report"
if $stable; then
	echo "breaking: the API is declared stable in README.md; fix the change or bump the package version"
	exit 1
fi
echo "breaking: reported only — README.md marks the API as pre-1.0"
