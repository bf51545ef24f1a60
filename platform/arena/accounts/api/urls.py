"""REST API routes of the accounts app."""

urlpatterns: list = []
