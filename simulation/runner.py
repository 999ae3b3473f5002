"""The local back ends that play a simulation's tasks (`run_serial`, `run_processes`),
and `run_games`, which picks the back end the command line asked for (Ray's is in
`ray_backend.py`).  What a task is and how one game is played is in `tasks.py`.
"""
from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Iterable, Iterator

from .tasks import BackendError, GameSpec, Task, batches, play_batch, play_task  # noqa: F401 (read from here too)


def run_games(tasks: list[Task], jobs: int | None = None, ray: str | None = None,
              batch: int = 4) -> Iterator[dict]:
    """The back end the command line chose: Ray when `ray` is not None ("" = a local Ray
    with `jobs` CPUs, all of them when None; else a cluster's address), worker processes
    when `jobs` > 1, else this process."""
    if ray is not None:
        from .ray_backend import run_ray
        return run_ray(tasks, address=ray or None, cpus=jobs, batch=batch)
    if jobs and jobs > 1:
        return run_processes(tasks, jobs, batch)
    return run_serial(tasks)


def run_serial(tasks: Iterable[Task]) -> Iterator[dict]:
    for task in tasks:
        yield play_task(task)


def run_processes(tasks: list[Task], jobs: int, batch: int = 4, play=play_batch) -> Iterator[dict]:
    """The games in `jobs` worker processes, a batch of games per call (a call costs more
    than a short game); records come as their batches finish.  A worker that dies breaks
    the pool: the batches that finished are still yielded, then a BackendError.  Stopping
    early (the caller interrupted) cancels the batches not started instead of playing them.
    `play` plays one batch in a worker; a test passes one that kills its worker."""
    pool = ProcessPoolExecutor(jobs)
    try:
        pending = {pool.submit(play, b) for b in batches(tasks, batch)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            failed = [f for f in done if f.exception() is not None]
            for future in done:
                if future.exception() is None:
                    yield from future.result()
            if failed:
                error = failed[0].exception()
                if isinstance(error, BrokenProcessPool):
                    raise BackendError(f"a worker process died while playing ({error}); "
                                       f"its games and those not yet played are missing") from None
                raise error
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
