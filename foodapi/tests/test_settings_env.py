"""Environment handling of the settings and the image's health probe.

A deployment's .env often carries a variable with an empty value; blank must
mean "use the default", never "use the empty string".
"""
import http.server
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import healthcheck

APP_DIR = Path(__file__).resolve().parent.parent


def settings_value(name, **env):
    """Import foodapi.settings in a fresh interpreter with env and print one setting."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("FOOD_API_") and k != "DJANGO_SETTINGS_MODULE"}
    clean.update({"FOOD_API_SECRET_KEY": "test-only-secret-key", **env})
    out = subprocess.run(
        [sys.executable, "-c", f"import foodapi.settings as s; print(s.{name})"],
        cwd=APP_DIR,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return out.stdout.strip()


@pytest.mark.parametrize(
    "env, want",
    [
        ({}, "UTC"),
        ({"FOOD_API_TIME_ZONE": ""}, "UTC"),
        ({"FOOD_API_TIME_ZONE": "   "}, "UTC"),
        ({"FOOD_API_TIME_ZONE": "Europe/London"}, "Europe/London"),
        ({"FOOD_API_TIME_ZONE": " Europe/London "}, "Europe/London"),
    ],
)
def test_time_zone_blank_means_utc(env, want):
    assert settings_value("TIME_ZONE", **env) == want


@pytest.mark.parametrize(
    "env, want",
    [
        ({}, "http://127.0.0.1:8042/api/health/"),
        ({"FOOD_API_PORT": ""}, "http://127.0.0.1:8042/api/health/"),
        ({"FOOD_API_PORT": "  "}, "http://127.0.0.1:8042/api/health/"),
        ({"FOOD_API_PORT": "9000"}, "http://127.0.0.1:9000/api/health/"),
    ],
)
def test_health_url_blank_port_means_8042(env, want):
    assert healthcheck.health_url(env) == want


class _Health(http.server.BaseHTTPRequestHandler):
    status = 200

    def do_GET(self):  # noqa: N802 (http.server's naming)
        self.send_response(self.status if self.path == "/api/health/" else 404)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def health_server():
    """A loopback server answering /api/health/ with _Health.status."""
    srv = http.server.HTTPServer(("127.0.0.1", 0), _Health)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()
    thread.join(timeout=5)


@pytest.mark.parametrize("status, want", [(200, 0), (503, 1)])
def test_health_probe_reports_the_status(health_server, monkeypatch, status, want):
    monkeypatch.setattr(_Health, "status", status)
    assert healthcheck.main({"FOOD_API_PORT": str(health_server.server_port)}) == want


def test_health_probe_fails_when_nothing_listens(health_server):
    port = health_server.server_port
    health_server.shutdown()
    health_server.server_close()
    assert healthcheck.main({"FOOD_API_PORT": str(port)}) == 1


def test_image_healthcheck_runs_the_probe():
    dockerfile = (APP_DIR / "Dockerfile").read_text()
    assert 'CMD ["python", "healthcheck.py"]' in dockerfile
