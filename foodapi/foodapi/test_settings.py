"""Settings for the test run: the real settings with a throwaway secret key.

pytest-django creates its own (in-memory) SQLite database, so FOOD_API_DB is
never touched by tests.
"""
import os

os.environ.setdefault("FOOD_API_SECRET_KEY", "test-only-secret-key-not-for-deployment")

from .settings import *  # noqa: E402,F401,F403
