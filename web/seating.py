"""Which seat a link shows now.

A seat's link always shows its seat.  The hot-seat link shows the human seat to move;
in a game where players know different things it first asks for the device to be passed
to that player, on a screen that shows nothing of anyone's table, and shows the seat only
once that player has taken it (`take_seat`).  In a game without secrets no one needs to
look away, so the seat to move is shown at once.
"""
from __future__ import annotations

from dataclasses import dataclass

from .tables import Moment, Refused
from .tokens import HOT_SEAT, Pass


@dataclass(frozen=True)
class Showing:
    seat: int | None  # whose table is shown; None on the pass-the-device screen
    asks: int | None = None  # the seat the device must be passed to


def showing(link: Pass, moment: Moment) -> Showing:
    table = link.table
    if link.kind != HOT_SEAT:
        return Showing(link.seated)
    movers = [p for p in table.humans_to_move(moment) if p in link.seats]
    secrets = table.game.hides_information
    if movers:
        wanted = movers[0]
        if link.seated == wanted or not secrets:
            return Showing(wanted)
        return Showing(None, wanted)
    if link.seated is not None:
        return Showing(link.seated)
    return Showing(None if secrets else link.seats[0])


def take_seat(link: Pass, seat: int) -> None:
    """The device has been passed to `seat`: only the seat the screen asked for may take it."""
    if link.kind != HOT_SEAT or seat not in link.seats:
        raise Refused(403, "W403", "this link does not play seat {seat}", seat=seat)
    if showing(link, link.table.now).asks != seat:
        raise Refused(409, "W409", "player {seat} is not the one to take the seat now", seat=seat)
    link.seated = seat


def acting_seat(link: Pass, seat: int | None) -> int:
    """The seat a request from this link acts for: the one its page shows.  A request that
    names another seat is refused, even one the hot-seat link may show at another time."""
    shown = showing(link, link.table.now).seat
    if shown is None:
        raise Refused(409, "W409", "no seat is shown on this device now")
    if seat is not None and seat != shown:
        raise Refused(403, "W403", "this link does not play seat {seat}", seat=seat)
    return shown
