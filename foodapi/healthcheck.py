"""Container health probe: exit 0 when /api/health/ answers 200 on this host.

The image's HEALTHCHECK runs `python healthcheck.py` (python:3.11-slim has no
curl, so the standard library does the request). The port is the one
gunicorn binds: FOOD_API_PORT, falling back to 8042 when it is unset *or
blank*, as docker-entrypoint.sh's ${FOOD_API_PORT:-8042} does, so the probe
and the server always agree.
"""
import os
import sys
import urllib.error
import urllib.request

DEFAULT_PORT = "8042"
# Below the HEALTHCHECK's --timeout=5s, so a hung server counts as a failed
# probe rather than a killed one.
TIMEOUT_SECONDS = 4


def health_url(environ=os.environ):
    """The URL the probe requests, from FOOD_API_PORT (blank means 8042)."""
    port = (environ.get("FOOD_API_PORT") or "").strip() or DEFAULT_PORT
    return f"http://127.0.0.1:{port}/api/health/"


def main(environ=os.environ):
    """0 when the health endpoint answers 200, 1 otherwise (refused, timeout, other status)."""
    try:
        with urllib.request.urlopen(health_url(environ), timeout=TIMEOUT_SECONDS) as resp:
            return 0 if resp.status == 200 else 1
    except (urllib.error.URLError, OSError, ValueError):
        return 1


if __name__ == "__main__":
    sys.exit(main())
