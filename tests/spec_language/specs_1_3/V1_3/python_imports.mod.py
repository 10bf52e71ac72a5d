# The Python an Android 11 spec may use: a namedtuple with defaults, a seeded shuffle,
# numpy, itertools, math, copy and sys.
import collections
import copy
import itertools
import math
import random
import sys

import numpy as np

Case = collections.namedtuple("Case", ["values", "scale"], defaults=[1.0])
random.seed(0)
order = list(range(4))
random.shuffle(order)
case = Case([float(v) for v in order])
assert case.scale == 1.0 and sys.version_info >= (3, 7)
pairs = list(itertools.product([0, 1], repeat=2))
doubled = copy.deepcopy(case.values)

i = Input("i", "TENSOR_FLOAT32", "{4}")
o = Output("o", "TENSOR_FLOAT32", "{4}")
Model().Operation("FLOOR", i).To(o)
Example({i: case.values, o: [math.floor(v) for v in np.array(doubled)]},
        name="n%d" % len(pairs)).DisableLifeTimeVariation()
