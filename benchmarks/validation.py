"""The validation benchmark: what a driver's model validation costs per call.

Subject: ``hal.validation.validate_model(model, level, limit=1)``, as the reference
driver and the example driver of docs/writing-a-driver.md call it before every
supported-operations and preparation call. It is timed over the model-validation
mutations of a fixed sample of generated cases (150 cases drawn with seed 1; the
suite's own families at HAL 1.2, each mutated model at every level the suite tries
it at), in the order the suite makes them.

Baseline, measured in the same run over the same models: ``copy.deepcopy`` of each
mutated model, a pass of Python over every field of it that depends on no code of
this project. Figures: microseconds of this process's CPU time per call, the best of
5 interleaved rounds; the ratio is validation over the deep copy.
"""

from __future__ import annotations

import copy
import random
import time

from benchmarks.result import Figure, Result, quick, runs
from hal.types import HalVersion

SAMPLE = 150
SEED = 1
ROUNDS = 5


def _work(sample: int) -> list[tuple[object, tuple[HalVersion, ...]]]:
    """The mutated models of ``sample`` cases and the levels each is validated at."""
    from conformance.harness.model_validation import model_family_applies
    from conformance.harness.mutations import model_families
    from conformance.harness.validating import cases_by_id, levels_for

    cases = list(cases_by_id().values())
    chosen = random.Random(SEED).sample(cases, min(sample, len(cases)))
    work = []
    for family in model_families():
        for test in chosen:
            if not model_family_applies(family, test, HalVersion.V1_2):
                continue
            for mutation in family.mutations(test.model):
                levels = tuple(levels_for(test, mutation, HalVersion.V1_2))
                if levels:
                    work.append((mutation.apply(test.model), levels))
    return work


def run() -> Result:
    from hal.validation import validate_model

    work = _work(10 if quick() else SAMPLE)
    calls = sum(len(levels) for _, levels in work)
    if not calls:
        raise RuntimeError("the sample gave no mutated model to validate")

    def validating() -> None:
        for model, levels in work:
            for level in levels:
                validate_model(model, level, limit=1)

    def copying() -> None:
        for model, levels in work:
            for _ in levels:
                copy.deepcopy(model)

    best = {"validate": float("inf"), "deepcopy": float("inf")}
    for _ in range(runs(ROUNDS, 1)):
        for name, body in (("validate", validating), ("deepcopy", copying)):
            start = time.process_time()
            body()
            best[name] = min(best[name], (time.process_time() - start) / calls * 1e6)
    ratio = best["validate"] / best["deepcopy"]
    line = (
        f"validation: validate_model(limit=1) {best['validate']:.1f} us a call over "
        f"{len(work):,} mutated models ({calls:,} calls); deepcopy of the same model "
        f"{best['deepcopy']:.1f} us; ratio {ratio:.2f}"
    )
    figures = [
        Figure(
            "validate_model per call",
            round(best["validate"], 1),
            "us",
            baseline=round(best["deepcopy"], 1),
            ratio=round(ratio, 2),
        )
    ]
    return Result("validation", line, figures)
