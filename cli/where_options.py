"""The options that choose where the games of `meeple simulate` and `meeple study` are
played: this process, worker processes, or Ray (local or a cluster).  typer cannot give
an option an optional value, so a local Ray is `--ray` and a cluster `--ray-address`."""
from __future__ import annotations

import typer

from .arguments import at_least
from .render import fail


def jobs_option():
    return typer.Option(None, "--jobs", "-j", help="worker processes (games are independent; default 1); "
                                                   "with --ray, the CPUs of the local Ray (default: all)")


def ray_option():
    return typer.Option(False, "--ray", help="play the games as Ray tasks on a local Ray "
                                             "(pip install 'meeple\\[ray]'; docs/simulation.md)")


def ray_address_option():
    return typer.Option(None, "--ray-address", metavar="ADDRESS",
                        help="play them on the Ray cluster at ADDRESS (HOST:PORT, ray://HOST:PORT, or "
                             "auto for the cluster this machine belongs to); implies --ray")


def batch_option():
    return typer.Option(4, "--batch", help="games per task sent to a worker (more: less overhead, "
                                           "coarser progress)")


def ray_target(ray: bool, address: str | None, jobs: int | None, batch: int) -> str | None:
    """None (no Ray), "" (a local Ray) or the cluster's address, after checking the
    numbers.  `--jobs` sizes only a Ray this command starts; a cluster has the CPUs it has."""
    at_least(batch, 1, "--batch")
    if jobs is not None:
        at_least(jobs, 1, "--jobs")
    if address is not None:
        if not address.strip():
            fail("--ray-address needs an address (HOST:PORT, ray://HOST:PORT or auto)")
        if jobs is not None:
            fail("--jobs sets the CPUs of a local Ray; a cluster (--ray-address) uses the CPUs it has")
        return address.strip()
    return "" if ray else None
