"""The op families: each op is declared once (see ``_registry.py``)."""
