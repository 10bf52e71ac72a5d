"""The pytest plugin of nnhal-conformance (entry point ``pytest11``: ``nnhal``)."""
