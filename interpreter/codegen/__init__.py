"""The compiled back end: a checked ruleset turned into one Python module of
specialised source, run behind the same `Game` API as the closure interpreter.

    emit_expr.py   an expression's syntax tree -> one Python expression over locals
    module.py      the generated module: its functions, constants, spans, and the
                   way back to the reference evaluator when generated code fails
    emit_action.py an action's legal moves -> nested loops over its parameters
    emit_effects.py an effect block -> one function of statements (with rollback
                   to the reference); effects_runtime.py the helpers those call
    incremental.py any/all over a fixed list kept per element and tested again only
                   where a key changed; incremental_runtime.py keeps them
    runtime.py     the few helpers generated code calls (slow paths, charges)
    backend.py     `CompiledRules`: `Rules` with every expression, every action's
                   move listing and every effect block taken from the generated module

The closure interpreter (interpreter/rules.py) stays the reference: generated code
computes the same values on its fast paths and, when anything in it fails, the
same expression is evaluated again by the reference, which reports the error with
its YAML position (see module.py).
"""
