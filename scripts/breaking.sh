#!/usr/bin/env bash
# buf breaking against the previous commit of main. While README.md marks the
# API as pre-1.0 the report is printed and never fails; once README.md
# declares "API status: stable", a breaking change fails the build.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOL=(env GOWORK=off go tool -modfile=tools/go.mod)

if ! git rev-parse --verify -q HEAD~1 >/dev/null; then
	echo "breaking: no previous commit to compare against; skipped"
	exit 0
fi
if ! git cat-file -e HEAD~1:proto 2>/dev/null; then
	echo "breaking: the previous commit has no proto/ directory; skipped"
	exit 0
fi
stable=false
if grep -q '^API status: stable' README.md; then stable=true; fi

set +e
report=$("${TOOL[@]}" buf breaking proto --against ".git#ref=HEAD~1,subdir=proto" 2>&1)
rc=$?
set -e
if [ $rc -eq 0 ]; then
	echo "breaking: no breaking change against HEAD~1"
	exit 0
fi
echo "$report"
if $stable; then
	echo "breaking: the API is declared stable in README.md; fix the change or bump the package version"
	exit 1
fi
echo "breaking: reported only — README.md marks the API as pre-1.0"
