#!/usr/bin/env bash
# make release: static sous binaries for the homelab's usual machines
# (linux/amd64, and linux/arm64 for a Raspberry Pi), with SHA256SUMS, in
# DIST (default dist/, gitignored).
#
#   scripts/release.sh [VERSION]
#
# VERSION must be the one internal/version/version.go holds (its one source;
# docs/install.md, "Releasing"); empty means that one.
set -euo pipefail
cd "$(dirname "$0")/.."
source_version=$(sed -n 's/^var Version = "\(.*\)"$/\1/p' internal/version/version.go)
version=${1:-$source_version}
if ! [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
	echo "VERSION is \"$version\"; expected x.y.z, such as $source_version" >&2
	exit 2
fi
if [ "$version" != "$source_version" ]; then
	echo "VERSION is $version but internal/version/version.go says $source_version: set Version there first (docs/install.md, Releasing)" >&2
	exit 2
fi
dist=${DIST:-dist}
platforms=${PLATFORMS:-linux/amd64 linux/arm64}
if [ -z "${COMMIT:-}" ] && git rev-parse --git-dir >/dev/null 2>&1 && [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "note: the work tree has changes; the binaries' commit will end in -dirty" >&2
fi
rm -rf "$dist"
mkdir -p "$dist"
for p in $platforms; do
	os=${p%/*} arch=${p#*/}
	out="$dist/sous_${version}_${os}_${arch}"
	echo "building $out"
	GOOS=$os GOARCH=$arch VERSION=$version scripts/gobuild.sh "$out" ./cmd/sous
done
(cd "$dist" && sha256sum sous_* >SHA256SUMS)
cat "$dist/SHA256SUMS"
