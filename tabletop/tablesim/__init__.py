"""The table simulator: simulated games filmed from above, with the truth the watcher is judged by."""
