"""``nnhal-example``: the example driver docs/writing-a-driver.md walks through, written
out of the installed package into a folder of the vendor's (``plugins/example/files/``
is its only copy; ``plugins.example.cli`` writes it)."""
