"""The `rulekb` command line: the top of the dependency graph (see ARCHITECTURE.md)."""
