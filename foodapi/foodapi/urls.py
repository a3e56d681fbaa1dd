"""Root URL configuration: the JSON API under /api/ and Django admin."""
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("kitchen.urls")),
]

# Outside DRF views Django would answer errors with HTML pages; the API's
# clients expect JSON everywhere (README.md, "Errors").
handler400 = "kitchen.errors.bad_request"
handler403 = "kitchen.errors.permission_denied"
handler404 = "kitchen.errors.not_found"
handler500 = "kitchen.errors.server_error"
