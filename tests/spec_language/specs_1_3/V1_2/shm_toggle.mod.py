# use_shm_for_weights switched on and off between examples of one file: the constants
# are emitted as CONSTANT_COPY either way (the harness moves them into pools itself).
i = Input("i", "TENSOR_FLOAT32", "{1}")
Configuration.use_shm_for_weights = True
w = Parameter("w", "TENSOR_FLOAT32", "{1}", [1.0])
o = Output("o", "TENSOR_FLOAT32", "{1}")
Model("shm").Operation("ADD", i, w, 0).To(o)
Example({i: [1.0], o: [2.0]}).DisableLifeTimeVariation()
Configuration.use_shm_for_weights = False
w2 = Parameter("w2", "TENSOR_FLOAT32", "{1}", [2.0])
o2 = Output("o2", "TENSOR_FLOAT32", "{1}")
Model("copy").Operation("ADD", i, w2, 0).To(o2)
Example({i: [1.0], o2: [3.0]}).DisableLifeTimeVariation()
