"""The driver's quantizer: the HAL's fixed-point requantization (``hal.checks.quant``,
where the checks that compute, such as BOX_WITH_NMS_LIMIT's, find it too)."""

from hal.checks.quant import (
    multiply_by_quantized_multiplier,
    quant8_activation_range,
    quantize_multiplier,
    round_half_away,
    round_half_away_array,
    rounding_divide_by_pot,
    saturating_rounding_doubling_high_mul,
)

__all__ = [
    "multiply_by_quantized_multiplier",
    "quant8_activation_range",
    "quantize_multiplier",
    "round_half_away",
    "round_half_away_array",
    "rounding_divide_by_pot",
    "saturating_rounding_doubling_high_mul",
]
