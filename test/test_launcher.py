"""``bench.launcher.stop_processes``: how the launcher and the graph tests end their
node processes."""

from __future__ import annotations

import signal
import subprocess
import sys

from bench.launcher import stop_processes

# Each prints "ready" once its signal handlers are in place, then sleeps. SIGINT gets
# Python's own handler back: a shell's background job starts with SIGINT ignored, and its
# children inherit that (the first CI run of this test, started with "&", saw SIGKILL).
STUBBORN = ("import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
            "print('ready', flush=True); time.sleep(60)")
OBEDIENT = ("import signal, time; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "print('ready', flush=True); time.sleep(60)")


def _start(code: str) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    return process


def test_a_process_that_ignores_the_signal_is_killed_after_the_timeout():
    stubborn, obedient = _start(STUBBORN), _start(OBEDIENT)
    stop_processes([stubborn, obedient], timeout=1.0)
    assert obedient.returncode == -signal.SIGTERM
    assert stubborn.returncode == -signal.SIGKILL


def test_the_given_signal_is_sent_and_finished_processes_are_left_alone():
    done = subprocess.Popen([sys.executable, "-c", "pass"])
    done.wait()
    running = _start(OBEDIENT)
    stop_processes([done, running], signal.SIGINT, timeout=5.0)
    assert done.returncode == 0
    assert running.returncode == -signal.SIGINT  # ended by SIGINT, not killed
