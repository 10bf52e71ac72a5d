"""The checks a driver makes before it hands a model to anything that computes.

``hal.validation`` judges a model's structure (operand types and counts, lifetimes,
locations, versions); what an operation's definition forbids of the *values* of its
parameters and the *shapes* of its operands (an axis outside the rank, a bias of the
wrong size, a 0 in a RESHAPE target, shapes that do not broadcast) is judged here.
A driver that translates models to another runtime needs both: such a runtime
often accepts an invalid model and computes something, where the HAL demands
INVALID_ARGUMENT.

Entry points (docs/writing-a-driver.md, "Translating to another runtime"):

* ``check_model(model, version)``: before ``get_supported_operations*`` answers or a
  model is prepared. Runs ``hal.validation.validate_model`` first, then every
  operation's parameter values known at preparation (its constants). Returns a
  ``ModelCheck``: ``ok``, ``status``, ``violation`` (a ``CheckViolation``:
  ``status``, ``operation`` index, ``operation_type``, ``message``, and ``rule``
  for a ``hal.validation`` rule) and ``output_shapes`` per operation (None where
  not yet known).
* ``check_execution(model, inputs, version)``: before an execution runs, given the
  request's input values (or their dimensions alone). Everything ``check_model``
  checks, then what the inputs decide: shapes that depend on the request's
  dimensions, parameters given as model inputs. Same answer, with every shape the
  inputs decide.

A violation's status is INVALID_ARGUMENT: what the HAL forbids. The checks never
answer GENERAL_FAILURE: a valid model the device cannot run (too large, a form the
backend lacks, a failure the Android 10 CPU reference has where the HAL allows the
operation) is the driver's to find, and its shapes are then simply unknown (None).

The same checks are the reference driver's: each of its operation implementations
takes ``validate`` and ``prepare`` from ``CHECKS`` (``hal.checks.registry``), one
``OperationCheck`` per operation type, defined by the family modules of this
package (``elementwise``, ``shape``, ``convolution``...). HAL 1.3's
TENSOR_QUANT8_ASYMM_SIGNED forms are judged as their unsigned twins, with the fixed
zero points moved by 128 (``hal.checks.signed``; docs/writing-a-driver.md, "Signed
forms").
"""

from __future__ import annotations

from hal.checks.base import OpArgs, OperationCheck, OpFailure, OpInvalid
from hal.checks.model import CheckViolation, ModelCheck, check_execution, check_model
from hal.checks.registry import CHECKS

__all__ = [
    "CHECKS",
    "CheckViolation",
    "ModelCheck",
    "OpArgs",
    "OpFailure",
    "OpInvalid",
    "OperationCheck",
    "check_execution",
    "check_model",
]
