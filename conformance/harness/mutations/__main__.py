"""``python -m conformance.harness.mutations``: every family as one line."""

from conformance.harness.mutations import families_table

if __name__ == "__main__":
    print(families_table())
