"""Property tests explore the same games on every run, so a failure in CI is a failure on every machine."""

from hypothesis import settings

settings.register_profile("tabletop", derandomize=True, print_blob=True)
settings.load_profile("tabletop")
