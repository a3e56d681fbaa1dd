from django.apps import AppConfig


class KitchenConfig(AppConfig):
    """The pantry, recipes and cook log behind the sous pantry service."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "kitchen"
