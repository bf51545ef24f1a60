"""REST API routes of the ratings app."""

urlpatterns: list = []
