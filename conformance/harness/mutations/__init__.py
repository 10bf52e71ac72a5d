"""The validation suite's catalogue: named mutations that make a valid Model or Request invalid.

What a family and a mutation are: see ``base``, which holds the records, the ``FAMILIES``
registry, the copies (``copy_model``, ``copy_request``, ``close_new_pools``), the helpers the
family modules share and the corpus (``corpus``, ``case_id``, ``representatives``). The
families, in catalogue order:

* ``operands``: Android 10 VTS 1.2 on operand fields (``operand_type_invalid`` ..
  ``operand_retype_clean``);
* ``operations``: Android 10 VTS 1.2 on operations (``operation_type_invalid`` ..
  ``execution_preference``);
* ``graph``: later VTS versions, on the graph (``execution_order`` .. ``graph_cycle``);
* ``locations``: ours, on locations, pools, lifetimes and lists (``constant_copy_location`` ..
  ``extra_params_invalid``);
* ``extensions``: ours, on vendor extensions (``extension_undeclared`` ..
  ``extension_constant_short``);
* ``limits``: ours, on versions, value ranges and operation forms (``newer_feature`` ..
  ``operation_input_rank``);
* ``control_flow``: ours, HAL 1.3's references, IF and WHILE signatures and referenced
  subgraphs (``cf_reference_range`` .. ``cf_referenced_graph``);
* ``requests``: every request family (``request_input_removed`` ..
  ``request_required_no_value``).

Every public name of the catalogue is importable from here.
"""

from conformance.harness.mutations.base import (
    ALL_LEVELS,
    B8,
    BELOW_1_2,
    BELOW_1_3,
    CONTROL_FLOW_SIGNATURE_RULES,
    F16,
    F32,
    FAMILIES,
    I32T,
    MODEL,
    OURS,
    Q8A,
    Q8C,
    Q8S,
    Q16A,
    Q16S,
    REQUEST,
    UINT32_MAX,
    UPSTREAM,
    V1_0,
    V1_1,
    V1_2,
    V1_3,
    VTS,
    Family,
    L,
    Mutation,
    RequestSubject,
    T,
    case_id,
    case_kind,
    close_new_pools,
    copy_model,
    copy_operand,
    copy_request,
    corpus,
    families_table,
    model_families,
    representatives,
    request_families,
    validated,
)

# isort: off
# Importing a family module registers its families: this order is the catalogue's (FAMILIES,
# model_families(), request_families()), which test ids and hypothesis draws follow.
from conformance.harness.mutations import (  # noqa: F401
    operands,
    operations,
    graph,
    locations,
    extensions,
    limits,
    control_flow,
    requests,
)

# isort: on
from conformance.harness.mutations.control_flow import CONTROL_FLOW_FAMILIES

__all__ = [
    "ALL_LEVELS",
    "B8",
    "BELOW_1_2",
    "BELOW_1_3",
    "CONTROL_FLOW_FAMILIES",
    "CONTROL_FLOW_SIGNATURE_RULES",
    "F16",
    "F32",
    "FAMILIES",
    "I32T",
    "MODEL",
    "OURS",
    "Q8A",
    "Q8C",
    "Q8S",
    "Q16A",
    "Q16S",
    "REQUEST",
    "UINT32_MAX",
    "UPSTREAM",
    "V1_0",
    "V1_1",
    "V1_2",
    "V1_3",
    "VTS",
    "Family",
    "L",
    "Mutation",
    "RequestSubject",
    "T",
    "case_id",
    "case_kind",
    "close_new_pools",
    "copy_model",
    "copy_operand",
    "copy_request",
    "corpus",
    "families_table",
    "model_families",
    "representatives",
    "request_families",
    "validated",
]
