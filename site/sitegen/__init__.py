"""The site's own rendering helpers (values, diagrams, OCR marks), imported by site/hooks.py."""
