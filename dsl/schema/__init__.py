"""The ruleset language as data (`language`), the kinds it is written in
(`kinds`), the shape pass that checks a ruleset against it (`shape`) and the
structural limits (`limits`)."""
from .language import (COMMON_EFFECT_KEYS, COMMON_FLOW_KEYS, EFFECT, EFFECT_KINDS, FLOW_KINDS, FLOW_STEP,
                       RULESET, SECTIONS, SINGLE_SECTIONS)
from .limits import LIMITS
from .shape import check_sections, check_value

__all__ = ["COMMON_EFFECT_KEYS", "COMMON_FLOW_KEYS", "EFFECT", "EFFECT_KINDS", "FLOW_KINDS", "FLOW_STEP",
           "LIMITS", "RULESET", "SECTIONS", "SINGLE_SECTIONS", "check_sections", "check_value"]
