"""The games as Ray tasks, on this machine or on a cluster (the `ray` extra).

A task plays a batch of games with the same `play_batch` as the worker processes, so
Ray gives the records `--jobs` gives for the same seeds.  Ray keeps its worker
processes between tasks, so each worker loads a game once (`GameSpec.load` caches it).
Ray is imported only here, when asked for: without it the rest of meeple works.
"""
from __future__ import annotations

import logging
import os
import socket
import tempfile
from typing import Iterator

from .tasks import BackendError, Task, batches, play_batch

RETRIES = 3  # a batch whose worker died is played again this many times before giving up
CONNECT_SECONDS = 5
NEEDS_RAY = "the Ray back end needs Ray: pip install 'meeple[ray]'"


def run_ray(tasks: list[Task], address: str | None = None, cpus: int | None = None, batch: int = 4,
            retries: int = RETRIES, play=play_batch) -> Iterator[dict]:
    """Records as their batches finish.  `address` None starts a local Ray with `cpus` CPUs
    (all when None) and stops it at the end; an address ("auto", "HOST:PORT",
    "ray://HOST:PORT") joins a running cluster and leaves it running, as does a Ray this
    process had already started.  Ray is started or joined here, before the first record
    is asked for, so a missing Ray or a wrong address is reported before any progress is
    shown.  `play` plays one batch in a worker; a test passes one that kills its worker."""
    ray = _import_ray()
    started = _connect(ray, address, cpus)
    remote = ray.remote(max_retries=retries)(_play)
    return _records(ray, lambda games: remote.remote(play, games), batches(tasks, batch), retries, started)


def _play(play, games: list[Task]) -> list[dict]:
    """The task: `play` is an argument, not the task itself, so it may be any picklable
    callable (a test's partial)."""
    return play(games)


def _records(ray, submit, todo: list, retries: int, started: bool) -> Iterator[dict]:
    todo.reverse()  # popped from the end: submitted in seed order
    # A bounded number of batches in flight: a study of millions of games does not sit in
    # Ray's queue at once, and stopping early leaves little to cancel.
    window = 2 * max(1, int(ray.cluster_resources().get("CPU", 1)))
    running: dict = {}
    try:
        while todo or running:
            while todo and len(running) < window:
                games = todo.pop()
                running[submit(games)] = games
            (ready,), _ = ray.wait(list(running), num_returns=1)
            games = running.pop(ready)
            yield from _result(ray, ready, games, retries)
    finally:
        for ref in running:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


def _import_ray():
    try:
        import ray
    except ImportError:
        raise BackendError(NEEDS_RAY) from None
    return ray


def _connect(ray, address: str | None, cpus: int | None) -> bool:
    """Start or join Ray, quietly (no banner, no worker logs in the command's output).
    True when this call started it, so that it is also this call's to stop."""
    if ray.is_initialized():
        return False
    quiet = dict(include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    said = _stderr_kept()
    try:
        if address is None:
            # "local": a new Ray of our own, even when this machine runs a cluster.
            ray.init(address="local", num_cpus=cpus, **quiet)
        else:
            _check_reachable(address)
            with said:
                ray.init(address=address, **quiet)
    except ConnectionError as exc:
        if address == "auto":
            raise BackendError("cannot find a Ray cluster on this machine (is `ray start --head` "
                               "running?)") from None
        if "Unauthenticated" in said.text:
            raise BackendError(f"the Ray cluster at {address} refused to let this machine join: it wants "
                               f"its token (set RAY_AUTH_MODE=token and RAY_AUTH_TOKEN; docs/simulation.md)"
                               ) from None
        raise BackendError(f"cannot join Ray at {address}: {_first_line(exc)}") from None
    except (ValueError, RuntimeError) as exc:
        what = f"join Ray at {address}" if address else "start Ray on this machine"
        raise BackendError(f"cannot {what}: {_first_line(exc)}") from None
    return True


class _stderr_kept:
    """What this process writes to its stderr (file descriptor 2) inside the block, kept
    instead of shown: joining a cluster that refuses us makes Ray's core print a warning a
    second until it gives up, and the user should read one line.  Used only where Ray
    starts no process of its own, which would inherit the descriptor."""

    text = ""

    def __enter__(self):
        self.kept = tempfile.TemporaryFile()
        self.saved = os.dup(2)
        os.dup2(self.kept.fileno(), 2)
        return self

    def __exit__(self, *exc):
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.kept.seek(0)
        self.text = self.kept.read().decode("utf-8", "replace")
        self.kept.close()


def _check_reachable(address: str) -> None:
    """Ray keeps retrying an address where nothing answers, for minutes and noisily; a
    plain connection attempt first turns a typo or a stopped cluster into one line."""
    if address == "auto":  # Ray looks the cluster up itself, and says so at once when there is none
        return
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit():
        raise BackendError(f"a Ray address is HOST:PORT, ray://HOST:PORT or auto, not '{address}'")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as exc:
        raise BackendError(f"cannot reach a Ray cluster at {address}: {exc.strerror or exc}") from None


def _result(ray, ref, games: list[Task], retries: int) -> list[dict]:
    """A batch's records.  A game's own error (a rule that failed) is raised as the error
    it is, as with the other back ends; a worker that kept dying is one line."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        raise exc.cause from None
    except ray.exceptions.RayError as exc:
        seeds = f"seeds {games[0].seed}-{games[-1].seed}" if len(games) > 1 else f"seed {games[0].seed}"
        if games[0].cell:
            seeds = f"{seeds} of cell '{games[0].cell}'"
        raise BackendError(f"a Ray worker failed playing {seeds} ({retries} retries): "
                           f"{type(exc).__name__}: {_first_line(exc)}") from None


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
