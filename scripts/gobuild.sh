#!/usr/bin/env bash
# Builds one sous program the way `make build`, `make release` and
# deploy/Dockerfile all do, so a release binary and the image's binary come
# from the same flags: static (CGO_ENABLED=0, no ELF interpreter, runs on
# distroless/static and on any Linux of its architecture), -trimpath (no
# build machine paths), stripped, and stamped with the version and commit
# that `sous --version` prints.
#
#   scripts/gobuild.sh OUT PACKAGE     (GOOS and GOARCH from the environment)
#
# VERSION (default: internal/version's) and COMMIT (default: git HEAD, with
# "-dirty" for a changed tree; the image build passes it, having no .git).
set -euo pipefail
if [ $# -ne 2 ]; then
	echo "usage: scripts/gobuild.sh OUT PACKAGE (got $# arguments)" >&2
	exit 2
fi
out=$1 pkg=$2
pkgpath=github.com/souskitchen/sous/internal/version
ldflags="-s -w"
if [ -n "${VERSION:-}" ]; then
	ldflags+=" -X $pkgpath.Version=$VERSION"
fi
commit=${COMMIT:-}
if [ -z "$commit" ] && git rev-parse --git-dir >/dev/null 2>&1; then
	commit=$(git rev-parse --short=12 HEAD)
	if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
		commit+=-dirty
	fi
fi
if [ -n "$commit" ]; then
	ldflags+=" -X $pkgpath.Commit=$commit"
fi
CGO_ENABLED=0 go build -trimpath -ldflags="$ldflags" -o "$out" "$pkg"
