from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from arena.core.views import healthz

api_v1 = [
    path("", include("arena.accounts.api.urls")),
    path("", include("arena.analysis.api.urls")),
    path("", include("arena.bots.api.urls")),
    path("", include("arena.matches.api.urls")),
    path("", include("arena.notifications.api.urls")),
    path("", include("arena.ratings.api.urls")),
    path("", include("arena.replays.api.urls")),
    path("", include("arena.tournaments.api.urls")),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz/", healthz, name="healthz"),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    # The web UI: every page people use in a browser.
    path("", include("arena.web.urls")),
]
