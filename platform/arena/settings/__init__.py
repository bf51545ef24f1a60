"""Settings: `base` holds everything, `production` and `test` only adjust it."""
