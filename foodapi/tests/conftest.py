"""Shared fixtures: an authenticated API client (token auth) and today's date."""
import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient


@pytest.fixture
def user(db):
    return get_user_model().objects.create(username="sous")


@pytest.fixture
def token(user):
    return Token.objects.create(user=user)


@pytest.fixture
def anon(db):
    return APIClient()


@pytest.fixture
def api(token):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def today():
    return timezone.localdate()
