"""REST API routes of notifications."""

from django.urls import path

from . import views

urlpatterns = [
    path("notifications/", views.NotificationListApi.as_view(), name="api-notifications"),
    path(
        "notifications/read-all/",
        views.NotificationReadAllApi.as_view(),
        name="api-notifications-read-all",
    ),
    path(
        "notifications/preferences/",
        views.NotificationPreferencesApi.as_view(),
        name="api-notification-preferences",
    ),
    path("notifications/webhook/", views.WebhookDetailApi.as_view(), name="api-webhook"),
    path("notifications/webhook/set/", views.WebhookSetApi.as_view(), name="api-webhook-set"),
    path(
        "notifications/webhook/remove/", views.WebhookRemoveApi.as_view(), name="api-webhook-remove"
    ),
    path("notifications/<int:pk>/", views.NotificationDetailApi.as_view(), name="api-notification"),
]
