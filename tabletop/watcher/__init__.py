"""The table watcher: camera frames in, game events out."""
