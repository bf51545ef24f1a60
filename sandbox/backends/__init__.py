"""The ways to run a bot: `docker`, `bwrap` and `subprocess`, behind one function."""
