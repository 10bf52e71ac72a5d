"""Parameter-space cases: an operation's corners drawn at random, checked against an oracle.

What a family, a case and a class are: see ``base``, which holds the case record
(``Corner``, ``unknown_inputs``), the model builder and the drawing helpers the family modules
share, the registry (``_family`` registers a family: its strategy, operations, classes,
classifier and result readers) and what reads classes back (``classify``, ``drawn_classes``).
The families, by module:

* ``convolution``: ``conv2d``, ``pool2d``, ``convx`` (the grouped and transposed
  convolutions), ``dense`` (FULLY_CONNECTED);
* ``elementwise``: ``binary``, ``unary``, ``compare`` (comparisons and logical operations),
  ``convert`` (CAST, QUANTIZE, DEQUANTIZE);
* ``reduction``: ``reduce``, ``axis`` (arg-extremes, CONCATENATION, L2_NORMALIZATION,
  SOFTMAX), ``norm`` (LOG_SOFTMAX, LRN, INSTANCE_NORMALIZATION);
* ``shapes``: ``shape`` (PAD, SLICE, TRANSPOSE), ``moves`` (space, depth and batch
  rearrangements), ``select`` (SPLIT, GATHER, STRIDED_SLICE), ``layout`` (CHANNEL_SHUFFLE,
  EXPAND_DIMS, PAD_V2, RESHAPE, SQUEEZE, TILE);
* ``image``: ``resize``, ``roi`` (ROI_ALIGN, ROI_POOLING, HEATMAP_MAX_KEYPOINT,
  AXIS_ALIGNED_BBOX_TRANSFORM);
* ``detection``: ``detect`` (BOX_WITH_NMS_LIMIT, GENERATE_PROPOSALS,
  DETECTION_POSTPROCESSING);
* ``rnn``: ``recurrent`` (the RNNs and SVDF), ``lstm``;
* ``lookup``: ``pick`` (TOPK_V2, SELECT, EMBEDDING_LOOKUP, HASHTABLE_LOOKUP), ``hashing``
  (LSH_PROJECTION, RANDOM_MULTINOMIAL);
* ``newops``: ``newops`` (HAL 1.3's ELU, HARD_SWISH, FILL, RANK);
* ``control``: ``control`` (HAL 1.3's IF and WHILE, over drawn subgraphs).

Every public name of the layer is importable from here.
"""

from conformance.harness.corners.base import (
    ACTIVATIONS,
    CLASSES,
    FAMILIES,
    OPERATIONS,
    ORACLE_PACKAGE,
    REGISTRY,
    SIGNED_CLASS,
    Corner,
    Family,
    _arrange,
    classify,
    drawn_classes,
    family_of,
    oracle,
    signed,
    unknown_inputs,
)

# isort: off
# Importing a family module registers its families.
from conformance.harness.corners import (  # noqa: F401
    convolution,
    elementwise,
    reduction,
    shapes,
    image,
    detection,
    rnn,
    lookup,
    newops,
    control,
)

# isort: on

CATALOGUE = (
    "conv2d", "pool2d", "binary", "reduce", "axis", "shape", "moves", "select", "resize",
    "convx", "norm", "unary", "compare", "layout", "convert", "dense", "pick", "recurrent",
    "lstm", "detect", "roi", "hashing", "newops", "control",
)  # fmt: skip
"""The families in the order the suite lists them (``FAMILIES``, ``OPERATIONS``, ``CLASSES``):
the order of the corners items and of ``nnhal-generate --parameters``. A new family is
registered in its module and named here too; importing the package fails if the two
disagree."""

_arrange(CATALOGUE)

__all__ = [
    "ACTIVATIONS",
    "CATALOGUE",
    "CLASSES",
    "FAMILIES",
    "OPERATIONS",
    "ORACLE_PACKAGE",
    "REGISTRY",
    "SIGNED_CLASS",
    "Corner",
    "Family",
    "classify",
    "drawn_classes",
    "family_of",
    "oracle",
    "signed",
    "unknown_inputs",
]
