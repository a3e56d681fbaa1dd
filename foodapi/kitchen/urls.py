"""Routes under /api/. Each accepts its path with or without the trailing
slash, so a client that drops it is not redirected (a redirect would turn a
POST into a body-less GET)."""
from django.urls import re_path

from . import views

urlpatterns = [
    re_path(r"^health/?$", views.HealthView.as_view(), name="health"),
    re_path(r"^auth/check/?$", views.AuthCheckView.as_view(), name="auth-check"),
    re_path(r"^ingredients/?$", views.IngredientListView.as_view(), name="ingredients"),
    re_path(r"^pantry/?$", views.PantryListView.as_view(), name="pantry"),
    re_path(r"^pantry/set-state/?$", views.SetStateView.as_view(), name="pantry-set-state"),
    re_path(r"^pantry/(?P<pk>[0-9]{1,18})/?$", views.PantryItemView.as_view(), name="pantry-item"),
    re_path(r"^bulk-pantry-add/?$", views.BulkPantryAddView.as_view(), name="bulk-pantry-add"),
    re_path(r"^what-can-i-cook/?$", views.WhatCanICookView.as_view(), name="what-can-i-cook"),
    re_path(r"^meta-recipes/?$", views.MetaRecipeListView.as_view(), name="meta-recipes"),
    re_path(r"^meta-recipes/(?P<pk>[0-9]{1,18})/?$", views.MetaRecipeDetailView.as_view(), name="meta-recipe"),
    re_path(r"^recipes/?$", views.RecipeListView.as_view(), name="recipes"),
    re_path(r"^create-meta-recipe/?$", views.CreateMetaRecipeView.as_view(), name="create-meta-recipe"),
    re_path(r"^log-cook/?$", views.LogCookView.as_view(), name="log-cook"),
]
