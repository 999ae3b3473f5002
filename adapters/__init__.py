"""Every ruleset as a game of other frameworks: OpenSpiel (openspiel.py) and PettingZoo
(pettingzoo.py), both built on what they share (encoding.py): a stable action-id
table and fixed-shape observation tensors, made from the public Game API and the
ruleset's declarations.  The two framework modules import their framework; this
package and encoding.py do not, so `meeple` itself needs neither installed."""
from .encoding import ActionSpaceError, ActionTable, GameEncoding, ObservationLayout, encoding_for

__all__ = ["ActionSpaceError", "ActionTable", "GameEncoding", "ObservationLayout", "encoding_for"]
