"""The files ``nnhal-example`` writes, shipped as package data: never imported by the harness."""
