"""Helpers shared by the suite's test modules: models, requests, execution paths."""
