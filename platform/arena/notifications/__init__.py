"""Notifications: in-site (the bell), email and a signed webhook, per user and kind."""
