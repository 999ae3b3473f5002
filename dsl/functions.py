"""The fixed function library, and the value rules every evaluator shares.

One table serves the type checker (arity, argument and result types) and both
evaluators (the implementation), so the three can never disagree about what a
function is.  Implementations take `(ctx, *args)`, charge the cost counter for
the elements they walk, and fail only with EvalError (span None: the calling
node fills it in).  Higher-order functions receive a lambda as a plain Python
callable of one argument.

The table and the value rules are library_core.py's; the functions live in one module
per family (values, sets, higher-order, players, boards, grids), each registering its
own in the table when imported.  This module imports them all, in the table's order,
and is where the rest of meeple takes the library from.
"""
from __future__ import annotations

# The value rules are re-exported: the evaluators and tests take them from here.
from .compare import (SCAN_FREE, charge_scan, contains, equal, fail, kind_of, less, map_key,  # noqa: F401
                      order_key, same_as, strict_key)
from .library_core import (CALL_COST, FUNCTIONS, MAX_CALL_DEPTH, MAX_DEPTH, MAX_INT, MAX_LIST,  # noqa: F401
                           MAX_RANGE, MAX_STR, NO_CONST, Function, arith, as_seq, check_int, check_list,
                           check_str, enter_call, is_int, is_pure_library, power, render, slice_of, truth,
                           want_int, want_list, want_map)
from . import library_values, library_sets, library_higher_order, library_players  # noqa: F401 (they register)
from .library_boards import BOARD_FUNCTIONS, board_adjacency, hop_walk  # noqa: F401
from .library_grids import DIRECTION, WORD_ARGUMENTS  # noqa: F401
