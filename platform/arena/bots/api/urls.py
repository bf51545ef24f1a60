"""REST API routes of the bots app."""

urlpatterns: list = []
