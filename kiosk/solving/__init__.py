"""The solver's helpers: hints from a worker process, deal lists and cycles, the attract demo."""
