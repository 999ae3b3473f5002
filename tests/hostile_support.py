"""Run the real `meeple` command on hostile input, the way a user would, and measure
what it cost: a hostile file must fail cleanly, quickly and in little memory, and only
a separate process can be stopped when it hangs and measured when it swells."""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass

CPU_LIMIT = 5.0                  # seconds of the command's own work ("a few seconds")
WALL_LIMIT = 60.0                # a command still running after this is killed as hung: wall
                                 # time also counts the other processes of a busy machine
MEMORY_LIMIT = 500 * 1024 ** 2   # bytes of resident memory per command
_ADDRESS_CAP = 2 * 1024 ** 3     # a runaway allocation fails here instead of taking the machine


@dataclass
class Outcome:
    code: int | None   # exit status; None when it had to be killed or worked too long
    stdout: str
    stderr: str
    seconds: float     # CPU seconds the command used (wall seconds when it was killed)
    max_rss: int       # bytes

    @property
    def traceback(self) -> bool:
        return "Traceback (most recent call last)" in self.stderr or "internal error" in self.stderr


def _cap_memory():
    resource.setrlimit(resource.RLIMIT_AS, (_ADDRESS_CAP, _ADDRESS_CAP))


# The child reports its own peak resident memory when it exits (a killed child cannot).
# Linux's VmHWM is the peak of this program's memory alone: ru_maxrss also keeps the peak
# of the process it was forked from (a test worker grown to 500 MiB by earlier tests).
_CHILD = """
import atexit, resource, sys

def _peak_kib():
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration, ValueError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

atexit.register(lambda: sys.stderr.write("\\n@@cpu %.3f\\n@@maxrss %d\\n" % (
    resource.getrusage(resource.RUSAGE_SELF).ru_utime + resource.getrusage(resource.RUSAGE_SELF).ru_stime,
    _peak_kib())))
sys.argv = ["meeple", *sys.argv[1:]]
from meeple.cli.main import main
main()
"""


def run_meeple(*args: str, cwd=None) -> Outcome:
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1")
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_cap_memory)
    try:
        out, err = proc.communicate(timeout=WALL_LIMIT)
        code = proc.returncode
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        code = None
    seconds = time.monotonic() - start
    err, _, peak = err.rpartition("\n@@maxrss ")
    max_rss = int(peak.strip() or 0) * 1024 if peak.strip().isdigit() else MEMORY_LIMIT + 1
    err, found, cpu = err.rpartition("\n@@cpu ")
    if found:
        seconds = float(cpu.strip())
    if code is not None and seconds > CPU_LIMIT:
        code = None  # it did finish, but only after more work than a hostile file may cost
    return Outcome(code, out, err, seconds, max_rss)
