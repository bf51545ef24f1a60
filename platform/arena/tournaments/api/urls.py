"""REST API routes of the tournaments app."""

urlpatterns: list = []
