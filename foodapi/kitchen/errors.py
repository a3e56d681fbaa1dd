"""One error shape for the whole API: {"detail": "<one sentence>", ...}.

DRF's own validation errors are nested {field: [messages]} objects; clients
(the Go pantry service, and through it Claude) want one readable sentence, so
the handler puts the first message in "detail" and the full set, flattened to
dotted paths, in "errors". Errors raised outside DRF views (unknown URLs,
crashes, bad Host headers) get JSON from the handler40x/500 views below rather
than Django's HTML pages.
"""
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import JsonResponse
from rest_framework import status
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.views import exception_handler as drf_exception_handler


class ApiError(APIException):
    """An error with a chosen status, one-sentence detail and extra JSON keys."""

    def __init__(self, status_code, detail, **extra):
        super().__init__(detail=detail)
        self.status_code = status_code
        self.extra = extra


def flatten_errors(data, prefix=""):
    """Turn DRF's nested error structure into {"a.b[0].c": ["message", ...]}."""
    flat = {}
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "non_field_errors":
                path = prefix or "non_field_errors"
            elif isinstance(key, int):  # ListField reports failing children by index
                path = f"{prefix}[{key}]"
            else:
                path = f"{prefix}.{key}" if prefix else str(key)
            flat.update(flatten_errors(value, path))
    elif isinstance(data, list):
        if all(not isinstance(item, (dict, list)) for item in data):
            messages = flat.setdefault(prefix, [])
            for message in map(str, data):
                # full_clean() can report one rule twice (clean() and the
                # matching database constraint); say it once.
                if message and message not in messages:
                    messages.append(message)
            if not messages:
                del flat[prefix]
        else:
            for index, item in enumerate(data):
                flat.update(flatten_errors(item, f"{prefix}[{index}]"))
    elif data is not None and str(data):
        flat.setdefault(prefix, []).append(str(data))
    return flat


def sentence_for(flat):
    """The first message of a flattened error map, prefixed by its field path."""
    for path, messages in flat.items():
        if messages:
            return messages[0] if path == "non_field_errors" else f"{path}: {messages[0]}"
    return "The request is not valid."


def django_validation_to_drf(exc):
    """Map a model ValidationError (from full_clean) to a DRF ValidationError."""
    if hasattr(exc, "error_dict"):
        detail = {
            ("non_field_errors" if field == "__all__" else field): messages
            for field, messages in exc.message_dict.items()
        }
    else:
        detail = exc.messages
    return ValidationError(detail)


def exception_handler(exc, context):
    """DRF exception handler producing the API's error shape."""
    if isinstance(exc, DjangoValidationError):
        exc = django_validation_to_drf(exc)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # an unexpected crash: Django logs it and handler500 answers
    if isinstance(exc, ApiError):
        response.data = {"detail": str(exc.detail), **exc.extra}
    elif isinstance(exc, ValidationError):
        flat = flatten_errors(response.data)
        response.data = {"detail": sentence_for(flat), "errors": flat}
    elif isinstance(response.data, dict) and "detail" in response.data:
        response.data = {"detail": str(response.data["detail"])}
    else:
        response.data = {"detail": sentence_for(flatten_errors(response.data))}
    return response


def bad_request(request, exception=None):
    return JsonResponse({"detail": "Bad request."}, status=status.HTTP_400_BAD_REQUEST)


def permission_denied(request, exception=None):
    return JsonResponse({"detail": "Permission denied."}, status=status.HTTP_403_FORBIDDEN)


def not_found(request, exception=None):
    return JsonResponse({"detail": "Not found."}, status=status.HTTP_404_NOT_FOUND)


def server_error(request):
    return JsonResponse({"detail": "Internal server error."}, status=status.HTTP_500_INTERNAL_SERVER_ERROR)
