"""How much the sandbox costs: per decision and per match start-up, per backend.

    .venv/bin/python benchmarks/sandbox.py [--rounds 1000] [--starts 8] [--write]

Side by side in one run (the machine is shared and noisy; compare within a run):

- the raw round trip of a JSON line through a pipe to a Python echo process, the
  physical limit, and the same echo behind bare `bwrap` and bare `docker run -i`;
- one decision through each backend (`BotProcess.exchange` plus reply parsing) with
  a bot that answers at once, on the same payload, against the raw path it rides on;
- the start-up of one bot per backend (launch until its reply to `start`) against a
  bare `python3 -I -S -c pass`, `bwrap ... python3 -c pass` and `docker run ... pass`.

`--write` replaces the Sandbox section of docs/benchmarks.md with the table.

`--launch N` instead times N starts of a local bot's process (`/bin/true` in its
cgroup, rlimits and user) from a process the size of a worker (Django and the
platform loaded), alternating the launcher (`sandbox/backends/launcher.py`) with
what it replaced, a `preexec_fn` (which makes CPython fork the whole worker).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, this folder would come first on sys.path, and its platform.py
# would shadow the standard library's `platform` (which uuid imports).
sys.path[0] = str(ROOT)

from sandbox.backends.bwrap import (  # noqa: E402
    bot_interpreter,
    bwrap_path,
    bwrap_run_as,
    bwrap_sandbox_args,
    launch_bwrap,
)
from sandbox.backends.docker import DEFAULT_IMAGE, docker_available, launch_docker  # noqa: E402
from sandbox.backends.local import interpreter, launch_subprocess  # noqa: E402
from sandbox.backends.pipes import drop_privileges  # noqa: E402
from sandbox.limits import Limits  # noqa: E402
from sandbox.process import BotProcess  # noqa: E402
from sandbox.program import BotProgram  # noqa: E402
from sandbox.wire import parse_reply  # noqa: E402

ECHO = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n"
# A bot that reads every message as JSON and answers at once: the plumbing's own cost.
QUICK_BOT = (
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    json.loads(line)\n"
    '    sys.stdout.write(\'{"action": "draw"}\\n\')\n'
    "    sys.stdout.flush()\n"
)
SMALL = json.dumps({"type": "turn", "seat": 0, "turn": 3, "legal": ["5H"], "time_ms": 1000})
KILOBYTE = json.dumps(
    {"type": "turn", "seat": 0, "hand": ["5H"] * 150, "legal": [], "time_ms": 1000}
)


RoundTrip = Callable[[bytes], object]


def spawn(argv: list[str], path: BotPath, **pipes: Any) -> subprocess.Popen[bytes]:
    """Start a bare tool as the sandbox would be started, but with no sandbox code."""
    drop = None if path.run_as is None else partial(drop_privileges, path.run_as)
    return subprocess.Popen(argv, env=path.env, preexec_fn=drop, **pipes)


@contextmanager
def bare_process(argv: list[str], path: BotPath) -> Iterator[RoundTrip]:
    """Round trips through a plain pipe to the process `argv` (no sandbox code)."""
    process = spawn(argv, path, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdin is not None
    assert process.stdout is not None
    stdin, stdout = process.stdin, process.stdout

    def round_trip(line: bytes) -> bytes:
        stdin.write(line)
        stdin.flush()
        return stdout.readline()

    try:
        yield round_trip
    finally:
        stdin.close()
        process.kill()
        process.wait()


@contextmanager
def sandboxed(bot: BotProcess) -> Iterator[RoundTrip]:
    """One decision through the sandbox: exchange under a deadline, then parse."""
    with bot:
        yield lambda line: parse_reply(bot.exchange(line, time.monotonic() + 10))


@contextmanager
def pinned_to_one_cpu(enabled: bool) -> Iterator[None]:
    """Run this process, and the processes it starts meanwhile, on one CPU.

    Where the scheduler puts a bot decides a pipe round trip more than any code: the
    same bot answers in 11 µs when it shares a CPU with its caller and in 40 µs when
    every wake-up crosses to the other CPU, and that placement differs from one
    process to the next. Pinned, every contender rides the same path, so what
    differs between them is what the sandbox adds. (Containers are started by the
    Docker daemon and do not inherit this.)
    """
    if not enabled or not hasattr(os, "sched_setaffinity"):
        yield
        return
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})
    try:
        yield
    finally:
        os.sched_setaffinity(0, allowed)


def interleaved_us(contenders: list[RoundTrip], line: bytes, rounds: int) -> list[float]:
    """Median µs per round trip of each contender over blocks of 100, the blocks
    alternating between contenders so that the load of a shared machine falls on
    all of them alike."""
    block = 100
    for round_trip in contenders:
        for _ in range(50):  # warm-up
            round_trip(line)
    samples: list[list[float]] = [[] for _ in contenders]
    for _ in range(max(1, rounds // block)):
        for round_trip, times in zip(contenders, samples, strict=True):
            started = time.perf_counter()
            for _ in range(block):
                round_trip(line)
            times.append((time.perf_counter() - started) / block * 1e6)
    return [statistics.median(times) for times in samples]


def first_reply_ms(argv: list[str], path: BotPath) -> float:
    """Start `argv` and wait for its reply to one `start` line (bare tool, no sandbox code)."""
    began = time.perf_counter()
    process = spawn(argv, path, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdin is not None
    assert process.stdout is not None
    process.stdin.write(b'{"type": "start"}\n')
    process.stdin.flush()
    process.stdout.readline()
    elapsed = (time.perf_counter() - began) * 1000
    process.kill()
    process.wait()
    return elapsed


def run_ms(argv: list[str], path: BotPath) -> float:
    began = time.perf_counter()
    spawn(argv, path).wait()
    return (time.perf_counter() - began) * 1000


def sandbox_start_ms(launch: Callable[[], BotProcess]) -> float:
    """Launch a bot and wait for its reply to `start`; teardown is not counted."""
    began = time.perf_counter()
    bot = launch()
    try:
        bot.exchange(b'{"type": "start"}\n', time.monotonic() + 30)
        return (time.perf_counter() - began) * 1000
    finally:
        bot.kill()


def median(measure: Callable[[], float], repeats: int) -> float:
    return statistics.median(measure() for _ in range(repeats))


@dataclass
class BotPath:
    """One way to reach a bot: the bare tool's command prefix and our launcher."""

    name: str
    prefix: list[str]
    python: str
    launch: Callable[[BotProgram, Limits], BotProcess]
    env: dict[str, str] | None = field(default_factory=dict)
    run_as: int | None = None  # the bare tool runs as the same user as the sandbox's


def paths(limits: Limits) -> list[BotPath]:
    found = [BotPath("pipe (subprocess)", [], interpreter(), launch_subprocess)]
    bwrap = bwrap_path()
    if bwrap:
        python = bot_interpreter()
        sandbox_args = bwrap_sandbox_args(limits, bwrap, python)
        prefix = [*sandbox_args, "--remount-ro", "/", "--chdir", "/tmp"]
        run_as = bwrap_run_as(bwrap, python)
        found.append(BotPath("bwrap", prefix, python, launch_bwrap, run_as=run_as))
    if docker_available():
        image = os.environ.get("ARENA_SANDBOX_IMAGE", DEFAULT_IMAGE)

        def launch(program: BotProgram, limits: Limits) -> BotProcess:
            return launch_docker(program, limits, image=image, runtime=None)

        prefix = ["docker", "run", "-i", "--rm", "--network", "none", image]
        # The docker client needs the environment (DOCKER_HOST and such).
        found.append(BotPath("docker", prefix, "python3", launch, env=None))
    return found


def run(rounds: int, starts: int, *, pin: bool = True) -> str:
    limits = Limits()
    workdir = Path(tempfile.mkdtemp(prefix="onecard-bench-"))
    quick_file = workdir / "quick.py"
    quick_file.write_text(QUICK_BOT)
    quick = BotProgram("quick", quick_file)

    decisions: list[str] = []
    start_ups: list[str] = []
    for path in paths(limits):
        echo = [*path.prefix, path.python, "-I", "-S", "-c", ECHO]
        same_bot = [*path.prefix, path.python, "-I", "-S", "-c", QUICK_BOT]
        for label, payload in (("small", SMALL), ("1 KB", KILOBYTE)):
            line = (payload + "\n").encode()
            with (
                pinned_to_one_cpu(pin and path.name != "docker"),
                bare_process(echo, path) as echo_trip,
                bare_process(same_bot, path) as bare_trip,
                sandboxed(path.launch(quick, limits)) as our_trip,
            ):
                echo_us, bare_us, ours_us = interleaved_us(
                    [echo_trip, bare_trip, our_trip], line, rounds
                )
            # The bot's own work (parsing the message) is in both `bare` and `ours`:
            # what the sandbox adds, on top of the echo, is the path's real cost.
            added = ours_us - bare_us
            decisions.append(
                f"| {path.name}, {label} line | {echo_us:.1f} µs | {bare_us:.1f} µs "
                f"| {ours_us:.1f} µs | {added:+.1f} µs | {ours_us / bare_us:.2f}x "
                f"| {(echo_us + added) / echo_us:.2f}x |"
            )
        nothing = [*[a for a in path.prefix if a != "-i"], path.python, "-I", "-S", "-c", "pass"]
        pass_ms = median(partial(run_ms, nothing, path), starts)
        bare_ms = median(partial(first_reply_ms, same_bot, path), starts)
        ours_ms = median(partial(sandbox_start_ms, partial(path.launch, quick, limits)), starts)
        start_ups.append(
            f"| {path.name} | {pass_ms:.0f} ms | {bare_ms:.0f} ms | {ours_ms:.0f} ms "
            f"| {ours_ms / bare_ms:.2f}x |"
        )

    flags = "" if pin else " --no-pin"
    lines = [
        f"`.venv/bin/python benchmarks/sandbox.py --rounds {rounds} --starts {starts}{flags}`",
        f"({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, Python {sys.version.split()[0]}).",
        "",
        "Per decision, one JSON line to the bot and one back: the median of blocks of 100",
        "round trips that alternate between the three. *Echo* is a Python process",
        "that echoes lines (the physical limit of the path); *bare bot* is the same bot",
        "as the sandbox runs, behind the same bare path (a plain pipe, bare `bwrap`, bare",
        "`docker run -i`) with no sandbox code; *sandbox* is `BotProcess.exchange` plus",
        "reply parsing (deadline, line and budget checks, hostile-JSON checks). The bot",
        "parses each message and answers at once. *Added* is sandbox minus bare bot (the",
        "bot's own work cancels out); the ratios are sandbox / bare bot and (echo +",
        "added) / echo, the issue's target being 1.5x."
        + (
            " Pipe paths ran pinned to one CPU (see `pinned_to_one_cpu`); docker"
            " containers are placed by the daemon."
            if pin
            else " Nothing pinned: the scheduler places every process."
        ),
        "",
        "| path | echo | bare bot | sandbox | added | sandbox / bare | vs echo |",
        "|---|---|---|---|---|---|---|",
        *decisions,
        "",
        f"Start-up of one bot, median of {starts}: `-c pass` is the bare tool running",
        "`python3 -I -S -c pass` to its exit; *bare bot* and *sandbox* run until the bot's",
        "reply to a `start` line (the bot imports json first). Ratio: sandbox / bare bot.",
        "",
        "| backend | `-c pass` | bare bot | sandbox | ratio |",
        "|---|---|---|---|---|",
        *start_ups,
        "",
        "Reading: on the production path (docker) a decision costs what the bare",
        "`docker run -i` path costs, and a bot starts faster than a bare `docker run`",
        "(the SDK skips the CLI; the container is created, given its code and started",
        "over one connection). On pipes the sandbox adds about 4-5 µs to a 10-15 µs",
        "round trip: a poll for output nobody asked for before each message (0.4 µs),",
        "a deadline-bounded wait (poll then read, 1.1 µs more than a blocking read),",
        "the hostile-JSON checks (0.7 µs) and the bookkeeping. (A local bot gets its own",
        "process group, not its own session: setsid would also give it its own scheduler",
        "autogroup, 0.45 µs more per round trip; bwrap's --new-session still detaches",
        "the bot itself from any terminal.)",
        "Unpinned, the scheduler's placement alone moves a round trip between 10 and",
        "50 µs from one process to the next (`--no-pin` shows it), which swamps all of",
        "that. A local bot's start runs a bootstrap that imports nothing (runpy alone",
        "cost 5 ms) and pays for entering its cgroups: on cgroup v1 each of the two",
        "writes to `cgroup.procs` can wait for an RCU grace period (up to 2 x 10 ms when",
        "starts are spread out; `echo 1 > /sys/kernel/rcu_expedited` on a worker host",
        "brings it to about 1 ms; which starts pay it varies from run to run, hence the",
        "spread of the bwrap start-up ratio between 1.3x and 1.9x). A match starts each",
        "bot once, not per game.",
    ]
    return "\n".join(lines)


def _preexec_reference(cgroup: Any, limits: Limits, run_as: int | None) -> Callable[[], None]:
    """What sandbox/backends/pipes.py ran between fork and exec before the launcher."""
    import resource

    from sandbox.backends.launcher import cpu_seconds

    rlimits = [
        (resource.RLIMIT_AS, limits.memory_bytes),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_NOFILE, limits.open_files),
        (resource.RLIMIT_FSIZE, limits.file_bytes),
        (resource.RLIMIT_CPU, cpu_seconds(limits)),
    ]

    def run_in_child() -> None:
        pid = str(os.getpid()).encode()
        for procs in cgroup.procs_files():
            fd = os.open(procs, os.O_WRONLY)
            os.write(fd, pid)
            os.close(fd)
        for which, value in rlimits:
            resource.setrlimit(which, (value, value))
        if run_as is not None:
            drop_privileges(run_as)

    return run_in_child


def launch_costs(starts: int) -> str:
    """Wall and CPU of the worker per bot start: the launcher against a preexec_fn."""
    import resource

    sys.path.insert(1, str(ROOT / "platform"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings.base")
    import django

    django.setup()
    import arena.matches.tasks  # noqa: F401  (a worker's modules, for its size)
    from sandbox.backends.cgroups import BotCgroup
    from sandbox.backends.launcher import launcher_argv, wait_started

    limits = Limits()
    run_as = 65534 if os.geteuid() == 0 else None

    def start(use_launcher: bool) -> tuple[float, float]:
        cgroup = BotCgroup.create(memory_bytes=limits.memory_bytes, pids=limits.pids)
        if cgroup is None:
            raise SystemExit("--launch needs a writable cgroup hierarchy (run as root)")
        pipes: dict[str, Any] = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE}
        cpu = resource.getrusage(resource.RUSAGE_SELF)
        began = time.perf_counter()
        if use_launcher:
            argv = launcher_argv(
                ["/bin/true"], limits, cgroup_procs=cgroup.procs_files(), run_as=run_as
            )
            process = subprocess.Popen(argv, env={}, process_group=0, **pipes)
            assert process.stdout is not None
            if not wait_started(process.stdout.fileno()):
                raise SystemExit("the launcher failed")
        else:
            hook = _preexec_reference(cgroup, limits, run_as)
            process = subprocess.Popen(
                ["/bin/true"], env={}, process_group=0, preexec_fn=hook, **pipes
            )
        wall = time.perf_counter() - began
        after = resource.getrusage(resource.RUSAGE_SELF)
        process.communicate()
        cgroup.remove()
        spent = (after.ru_utime + after.ru_stime) - (cpu.ru_utime + cpu.ru_stime)
        return 1000 * wall, 1000 * spent

    results: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    for number in range(2 * starts):
        use_launcher = number % 2 == 0
        results[use_launcher].append(start(use_launcher))
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    lines = [
        f"`.venv/bin/python benchmarks/sandbox.py --launch {starts}` "
        f"({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; a {rss} MB process "
        "with Django and the platform loaded, as a worker; alternating):",
        "",
        "| start of one bot process | wall, median | worker's CPU, median |",
        "|---|---|---|",
    ]
    for use_launcher, label in ((False, "preexec_fn (fork)"), (True, "launcher (vfork)")):
        walls = [wall for wall, _ in results[use_launcher]]
        cpus = [cpu for _, cpu in results[use_launcher]]
        lines.append(
            f"| {label} | {statistics.median(walls):.2f} ms | {statistics.median(cpus):.2f} ms |"
        )
    return "\n".join(lines)


def write_section(text: str) -> None:
    path = ROOT / "docs" / "benchmarks.md"
    document = path.read_text()
    pattern = re.compile(r"(## Sandbox\n\n)(.*?)(?=\n## |\Z)", re.S)
    if not pattern.search(document):
        raise SystemExit("docs/benchmarks.md has no '## Sandbox' section")
    path.write_text(pattern.sub(lambda m: m.group(1) + text + "\n", document, count=1))


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--rounds", type=int, default=1000)
    options.add_argument("--starts", type=int, default=8)
    options.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    options.add_argument(
        "--launch", type=int, metavar="N", help="only time N bot process starts, two ways"
    )
    options.add_argument(
        "--no-pin", action="store_true", help="let the scheduler place the pipe paths' processes"
    )
    args = options.parse_args()
    if args.launch:
        print(launch_costs(args.launch))
        return
    text = run(args.rounds, args.starts, pin=not args.no_pin)
    print(text)
    if args.write:
        write_section(text)


if __name__ == "__main__":
    main()
