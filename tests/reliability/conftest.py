from tests.reliability.infra import workers  # noqa: F401  (fixture)
