"""REST API routes of the matches app."""

urlpatterns: list = []
