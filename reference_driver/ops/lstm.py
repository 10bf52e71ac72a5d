"""LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM and BIDIRECTIONAL_SEQUENCE_LSTM.

All three run one cell step (``_step``), vectorised over the batch and the
units; the sequence forms loop over time steps only. A cell is the 17
tensors of LSTM inputs 1-17 (gate weights, peephole weights, biases,
projection) plus, where the form has them, four layer-norm weights and four
auxiliary-input weights. Optional tensors are absent when omitted (a NO_VALUE
operand or a request argument with has_no_value); which combinations are
allowed (CIFG, peephole, projection bias, layer norm, aux input) is checked
when the inputs are known, as the Android 10 CPU reference does. HAL 1.3 adds
the sequence forms' final-state outputs (the output and cell states after each
direction's last step) and BIDIRECTIONAL_SEQUENCE_LSTM's parallel linking: the
aux input without aux weights, read by the backward direction as its input.

Float16 is widened to float32 and computed in float32 over every step (the
state carried from step to step is never rounded to half); only the outputs
are rounded back, as the CPU reference does.

The activation scalar uses the TensorFlow Lite codes 0 none, 1 relu, 2 relu1, 3
relu6, 4 tanh, 5 sign bit, 6 sigmoid (docs/operations.md, Recurrent activation
codes); anything else is INVALID_ARGUMENT. With NONE, the HAL definition gives
``m = o * c``; the Android 10 CPU reference leaves its scratch vector unwritten
there and in effect computes ``o * (cell input)``. We follow the definition: no
VTS data uses NONE for these operations.

Clip values: 0 disables a clip. LSTM and BIDIRECTIONAL_SEQUENCE_LSTM refuse a
negative clip (the CPU reference's dimension check); UNIDIRECTIONAL_SEQUENCE_LSTM
treats it as disabled (docs/operations.md, UNIDIRECTIONAL_SEQUENCE_LSTM (92)).

The operations' checks (``validate``, ``prepare``: parameter values and shapes) are
``hal.checks.lstm``'s; this module computes, and builds each implementation
around them (``checked``).
"""

from __future__ import annotations

import numpy as np

from hal.checks.lstm import (
    _LSTM_SCALARS,
    Array,
    Shape,
    _bidi_run,
    _cell_and_states,
    _lstm_input,
    _lstm_slots,
    _params,
    _sequence,
    _uni_run,
)
from hal.forms import Signature
from hal.types import OperationType
from reference_driver.ops.base import (
    OpArgs,
    checked,
    recurrent_cost,
)
from reference_driver.ops.common import FLOAT_TYPES


def _lstm_execute(args: OpArgs, shapes: list[Shape]) -> list[Array]:
    x = _lstm_input(args)
    cell, h0, c0 = _cell_and_states(args, _lstm_slots(args), *x.shape)
    _, h, c = _sequence(cell, _params(args, _LSTM_SCALARS), x[np.newaxis], None, (h0, c0))
    dtype = args.values[0].dtype
    # The scratch buffer's content is implementation-defined: zeros here.
    return [np.zeros(shapes[0], dtype), h.astype(dtype), c.astype(dtype), h.astype(dtype)]


def _uni_execute(args: OpArgs, shapes: list[Shape]) -> list[Array]:
    return _uni_run(args, compute=True)[1]


def _bidi_execute(args: OpArgs, shapes: list[Shape]) -> list[Array]:
    return _bidi_run(args, compute=True)[1]


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------


def _states_form(form: Signature) -> bool:
    """HAL 1.3's final-state outputs of the sequence operations (float32 and float16)."""
    return "states" in form.form


def _supports(args: OpArgs) -> bool:
    return args.inputs[0].type in FLOAT_TYPES


IMPLEMENTATIONS = (
    checked(OperationType.LSTM, _supports, _lstm_execute),
    checked(
        OperationType.UNIDIRECTIONAL_SEQUENCE_LSTM, _supports, _uni_execute, newer=_states_form
    ),
    checked(
        OperationType.BIDIRECTIONAL_SEQUENCE_LSTM, _supports, _bidi_execute, newer=_states_form
    ),
)

COSTS = {impl.type: recurrent_cost for impl in IMPLEMENTATIONS}

"""Every operation here runs its input rows through its weight matrices."""
