"""The scoreboard's templates, scripts, styles and sounds, installed inside the package as ``tabletop.webroot``."""
