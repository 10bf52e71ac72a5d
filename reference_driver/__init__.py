"""The bundled reference driver: the HAL 1.2 protocol implemented with numpy.

``ReferenceDriver`` is registered under the entry-point group ``nnhal.drivers``
as ``reference``, and is the suite's default target.
"""

from reference_driver.device import ReferenceDriver, ReferenceDriver_1_2

__all__ = ["ReferenceDriver", "ReferenceDriver_1_2"]
