"""Independent golden-value scripts: plain Python that shares no code with the reference
driver. Each runs as a script (``python -m conformance.specs.oracles.NAME --check``) and
is imported by name by the parameter-space family (``conformance.harness.corners``)."""
