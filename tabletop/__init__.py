"""tabletop: an UNO referee that watches a real card table from above."""
