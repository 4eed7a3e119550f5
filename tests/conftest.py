"""Property tests explore the same games on every run, so a failure in CI is a failure on every machine."""

from hypothesis import settings

from tabletop.lab.tablesim import register_source

settings.register_profile("tabletop", derandomize=True, print_blob=True)
settings.load_profile("tabletop")

# The command line registers the table simulator as the camera source "sim:SEED"; tests that run the service
# or the doctor without it do the same.
register_source()
