"""The console's checks: one pipeline that every change goes through (see pipeline.py)."""
