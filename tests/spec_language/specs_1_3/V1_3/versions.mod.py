# IntroducedIn below the folder's version, and SetVersion naming generated lifetime
# variations by their full names.
i = Input("i", "TENSOR_FLOAT32", "{1}")
o = Output("o", "TENSOR_FLOAT32", "{1}")
Model("old").Operation("FLOOR", i).To(o).IntroducedIn("V1_2")
Example({i: [0.5], o: [0.0]})
Example.SetVersion("V1_0", "versions_old_all_inputs_as_internal")
