"""The suite's spec files (``V1_0/`` .. ``V1_2/``, read by ``nnhal-generate``) and the oracle
scripts that computed their expected outputs (``oracles``)."""
