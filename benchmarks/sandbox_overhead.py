"""How much the sandbox costs: per decision, per bot start-up and per match, per backend.

    .venv/bin/python benchmarks/sandbox_overhead.py [--rounds 1000] [--starts 8] [--messages 100]
        [--write]

Each backend against the bare path it rides on, side by side in one run (the machine
is shared and noisy; compare within a run). The bare path runs the same bot with
no sandbox code: a plain pipe to a subprocess, bare `bwrap` with the backend's
options, and for docker the Docker SDK path the backend uses (a container made with
the backend's own create options, attached and started through the SDK), with the
bot's code given on its command line.

- per decision: one JSON line to the bot and one back, through an echo process (the
  path's physical limit), the bare bot, and the backend (`BotProcess.exchange` plus
  reply parsing);
- per start-up: the bare tool running `python3 -c pass` to its exit, and the bot
  started until its reply to `start`, bare and through the backend;
- per match: start-up, a `start` line and `--messages` turn lines, and the end of
  the bot (its input closed, the process or container gone), bare and through the
  backend.

Every sentence printed is computed from this run's figures. `--write` replaces the
Sandbox section of docs/benchmarks.md with what is printed.

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
import socket
import statistics
import struct
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parents[1]

from machine import machine  # noqa: E402

from sandbox.backends.bwrap import (  # noqa: E402
    bot_interpreter,
    bwrap_path,
    bwrap_run_as,
    bwrap_sandbox_args,
    launch_bwrap,
)
from sandbox.backends.docker import (  # noqa: E402
    DEFAULT_IMAGE,
    SANDBOX_TMP,
    docker_available,
    docker_client,
    host_config,
    launch_docker,
)
from sandbox.backends.local import interpreter, launch_subprocess  # noqa: E402
from sandbox.backends.pipes import drop_privileges  # noqa: E402
from sandbox.labels import container_labels  # noqa: E402
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
START = b'{"type": "start"}\n'
SMALL = json.dumps({"type": "turn", "seat": 0, "turn": 3, "legal": ["5H"], "time_ms": 1000})
KILOBYTE = json.dumps(
    {"type": "turn", "seat": 0, "hand": ["5H"] * 150, "legal": [], "time_ms": 1000}
)
# Docker's attach stream: an 8-byte header (stream, size) before each payload.
FRAME_HEADER = struct.Struct(">BxxxL")

RoundTrip = Callable[[bytes], object]


class BarePath(Protocol):
    """A way to run a bot with no sandbox code: the baseline of one backend."""

    def open(self, code: str) -> AbstractContextManager[RoundTrip]:
        """Start ``python3 -I -S -c code``; on leaving, close its input and wait for
        it to end (the bots here exit at the end of their input)."""
        ...

    def run(self, code: str) -> None:
        """Run ``python3 -I -S -c code`` to its exit."""
        ...


@dataclass
class ProcessPath:
    """A bare command line: nothing, or bwrap with the backend's options."""

    prefix: list[str]
    python: str
    run_as: int | None = None  # the same user as the sandbox's bot

    def _spawn(self, code: str, **pipes: Any) -> subprocess.Popen[bytes]:
        drop = None if self.run_as is None else partial(drop_privileges, self.run_as)
        argv = [*self.prefix, self.python, "-I", "-S", "-c", code]
        return subprocess.Popen(argv, env={}, preexec_fn=drop, **pipes)

    @contextmanager
    def open(self, code: str) -> Iterator[RoundTrip]:
        process = self._spawn(code, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert process.stdin is not None
        assert process.stdout is not None
        stdin, stdout = process.stdin, process.stdout

        def round_trip(line: bytes) -> bytes:
            stdin.write(line)
            stdin.flush()
            return stdout.readline()

        try:
            yield round_trip
            stdin.close()
            process.wait()
        finally:
            process.kill()
            process.wait()

    def run(self, code: str) -> None:
        self._spawn(code).wait()


@dataclass
class ContainerPath:
    """The bare Docker SDK path: a container with the backend's create options,
    attached and started over the SDK's API client as the backend does, the code on
    its command line (the backend copies it in with `put_archive` and starts it
    through its bootstrap), the attach stream read with a plain blocking socket."""

    image: str
    limits: Limits

    def _create(self, code: str) -> tuple[Any, str]:
        api = docker_client()
        created = api.create_container(
            self.image,
            command=["python3", "-I", "-S", "-c", code],
            user="65534:65534",
            working_dir=SANDBOX_TMP,
            hostname="bot",
            environment=[],
            network_disabled=True,
            stdin_open=True,
            labels=container_labels(self.limits),
            host_config=host_config(api, self.limits, None),
        )
        return api, created["Id"]

    @contextmanager
    def open(self, code: str) -> Iterator[RoundTrip]:
        api, container = self._create(code)
        attached = None
        try:
            attached = api.attach_socket(
                container, params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1}
            )
            sock: socket.socket = getattr(attached, "_sock", attached)
            sock.settimeout(None)
            api.start(container)
            frames = bytearray()
            stdout = bytearray()

            def round_trip(line: bytes) -> bytes:
                sock.sendall(line)
                while (newline := stdout.find(b"\n")) < 0:
                    data = sock.recv(65536)
                    if not data:
                        raise EOFError("the container ended")
                    frames.extend(data)
                    while len(frames) >= FRAME_HEADER.size:
                        stream, size = FRAME_HEADER.unpack_from(frames)
                        end = FRAME_HEADER.size + size
                        if len(frames) < end:
                            break
                        if stream == 1:
                            stdout.extend(frames[FRAME_HEADER.size : end])
                        del frames[:end]
                reply = bytes(stdout[: newline + 1])
                del stdout[: newline + 1]
                return reply

            yield round_trip
            sock.shutdown(socket.SHUT_WR)
            while sock.recv(65536):  # the stream ends when the container does
                pass
        finally:
            if attached is not None:
                attached.close()
            api.remove_container(container, force=True, v=True)

    def run(self, code: str) -> None:
        api, container = self._create(code)
        try:
            api.start(container)
            api.wait(container)
        finally:
            api.remove_container(container, force=True, v=True)


@dataclass
class Backend:
    """One backend and the bare path it rides on."""

    name: str
    bare_name: str  # what the sentences call the bare path
    bare: BarePath
    launch: Callable[[BotProgram, Limits], BotProcess]
    pinned: bool  # whether pinning this process to one CPU reaches the bot


def backends(limits: Limits) -> list[Backend]:
    found = [
        Backend(
            "subprocess", "a bare pipe", ProcessPath([], interpreter()), launch_subprocess, True
        )
    ]
    bwrap = bwrap_path()
    if bwrap:
        python = bot_interpreter()
        prefix = [
            *bwrap_sandbox_args(limits, bwrap, python),
            "--remount-ro",
            "/",
            "--chdir",
            "/tmp",
        ]
        bare = ProcessPath(prefix, python, run_as=bwrap_run_as(bwrap, python))
        found.append(Backend("bwrap", "bare bwrap", bare, launch_bwrap, True))
    if docker_available():
        image = os.environ.get("ARENA_SANDBOX_IMAGE", DEFAULT_IMAGE)

        def launch(program: BotProgram, limits: Limits) -> BotProcess:
            return launch_docker(program, limits, image=image, runtime=None)

        # Containers are started by the Docker daemon: pinning does not reach them.
        found.append(
            Backend("docker", "the bare SDK path", ContainerPath(image, limits), launch, False)
        )
    return found


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
    differs between them is what the sandbox adds.
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


def interleaved_ms(measures: list[Callable[[], float]], repeats: int) -> list[float]:
    """The median of each measure over ``repeats``, taken in turn."""
    samples: list[list[float]] = [[] for _ in measures]
    for _ in range(repeats):
        for measure, times in zip(measures, samples, strict=True):
            times.append(measure())
    return [statistics.median(times) for times in samples]


def elapsed_ms(began: float) -> float:
    return (time.perf_counter() - began) * 1000


def run_ms(bare: BarePath) -> float:
    began = time.perf_counter()
    bare.run("pass")
    return elapsed_ms(began)


def bare_start_ms(bare: BarePath) -> float:
    """Start the bare bot and wait for its reply to `start`; its end is not counted."""
    began = time.perf_counter()
    with bare.open(QUICK_BOT) as round_trip:
        round_trip(START)
        took = elapsed_ms(began)
    return took


def sandbox_start_ms(launch: Callable[[], BotProcess]) -> float:
    """Launch a bot and wait for its reply to `start`; teardown is not counted."""
    began = time.perf_counter()
    bot = launch()
    try:
        bot.exchange(START, time.monotonic() + 30)
        return elapsed_ms(began)
    finally:
        bot.kill()


def bare_match_ms(bare: BarePath, messages: int) -> float:
    line = (SMALL + "\n").encode()
    began = time.perf_counter()
    with bare.open(QUICK_BOT) as round_trip:
        round_trip(START)
        for _ in range(messages):
            round_trip(line)
    return elapsed_ms(began)


def sandbox_match_ms(launch: Callable[[], BotProcess], messages: int) -> float:
    """A match's life of one bot through the backend, ended as a seat ends it (close)."""
    line = (SMALL + "\n").encode()
    began = time.perf_counter()
    with sandboxed(launch()) as round_trip:
        round_trip(START)
        for _ in range(messages):
            round_trip(line)
    return elapsed_ms(began)


def change(ours: float, bare: float, unit: str, digits: int) -> str:
    """'adds 4.1 µs (+38%)' or 'saves 12 ms (-9%)': the sandbox against the bare path."""
    added = ours - bare
    verb = "adds" if added >= 0 else "saves"
    return f"{verb} {abs(added):.{digits}f} {unit} ({added / bare:+.0%})"


def run(rounds: int, starts: int, messages: int, *, pin: bool = True) -> str:
    limits = Limits()
    workdir = Path(tempfile.mkdtemp(prefix="onecard-bench-"))
    quick_file = workdir / "quick.py"
    quick_file.write_text(QUICK_BOT)
    quick = BotProgram("quick", quick_file)

    decisions: list[str] = []
    start_ups: list[str] = []
    matches: list[str] = []
    said: list[str] = []
    for backend in backends(limits):
        launch = partial(backend.launch, quick, limits)
        small: tuple[float, float] = (0.0, 0.0)
        for label, payload in (("small", SMALL), ("1 KB", KILOBYTE)):
            line = (payload + "\n").encode()
            with (
                pinned_to_one_cpu(pin and backend.pinned),
                backend.bare.open(ECHO) as echo_trip,
                backend.bare.open(QUICK_BOT) as bare_trip,
                sandboxed(launch()) as our_trip,
            ):
                echo_us, bare_us, ours_us = interleaved_us(
                    [echo_trip, bare_trip, our_trip], line, rounds
                )
            # The bot's own work (parsing the message) is in both `bare` and `ours`:
            # what the sandbox adds, on top of the echo, is the path's real cost.
            added = ours_us - bare_us
            decisions.append(
                f"| {backend.name}, {label} line | {echo_us:.1f} µs | {bare_us:.1f} µs "
                f"| {ours_us:.1f} µs | {added:+.1f} µs | {ours_us / bare_us:.2f}x "
                f"| {(echo_us + added) / echo_us:.2f}x |"
            )
            if label == "small":
                small = (bare_us, ours_us)
        pass_ms, bare_ms, ours_ms = interleaved_ms(
            [
                partial(run_ms, backend.bare),
                partial(bare_start_ms, backend.bare),
                partial(sandbox_start_ms, launch),
            ],
            starts,
        )
        start_ups.append(
            f"| {backend.name} | {pass_ms:.0f} ms | {bare_ms:.0f} ms | {ours_ms:.0f} ms "
            f"| {ours_ms / bare_ms:.2f}x |"
        )
        bare_match, ours_match = interleaved_ms(
            [
                partial(bare_match_ms, backend.bare, messages),
                partial(sandbox_match_ms, launch, messages),
            ],
            starts,
        )
        matches.append(
            f"| {backend.name} | {bare_match:.0f} ms | {ours_match:.0f} ms "
            f"| {ours_match - bare_match:+.0f} ms | {ours_match / bare_match:.2f}x |"
        )
        said.append(
            f"- {backend.name}: over {backend.bare_name}, the sandbox "
            f"{change(small[1], small[0], 'µs', 1)} per decision (small line), "
            f"{change(ours_ms, bare_ms, 'ms', 0)} per start-up, and "
            f"{change(ours_match, bare_match, 'ms', 0)} per match of {messages} messages."
        )

    flags = "" if pin else " --no-pin"
    pinning = (
        "The subprocess and bwrap rows ran pinned to one CPU (see `pinned_to_one_cpu`); "
        "docker containers are placed by the daemon."
        if pin
        else "Nothing pinned: the scheduler places every process."
    )
    lines = [
        f"`.venv/bin/python benchmarks/sandbox_overhead.py --rounds {rounds} --starts {starts} "
        f"--messages {messages}{flags}`; {machine()}.",
        "",
        "Per decision, one JSON line to the bot and one back: the median of blocks of 100",
        "round trips that alternate between the three. *Echo* is a Python process that",
        "echoes lines (the physical limit of the path); *bare bot* is the same bot as the",
        "sandbox runs, behind the bare path (a plain pipe, bare `bwrap`, or a container",
        "made, attached and started through the Docker SDK with the backend's create",
        "options) with no sandbox code; *sandbox* is `BotProcess.exchange` plus reply",
        "parsing. The bot parses each message and answers at once. *Added* is sandbox",
        "minus bare bot (the bot's own work cancels out); the ratios are sandbox / bare",
        f"bot and (echo + added) / echo. {pinning}",
        "",
        "| path | echo | bare bot | sandbox | added | sandbox / bare | vs echo |",
        "|---|---|---|---|---|---|---|",
        *decisions,
        "",
        f"Start-up of one bot, medians of {starts} taken in turn: `-c pass` is the bare",
        "path running `python3 -I -S -c pass` to its exit (for docker: create, start, wait,",
        "remove); *bare bot* and *sandbox* run until the bot's reply to a `start` line.",
        "",
        "| backend | `-c pass` | bare bot | sandbox | sandbox / bare |",
        "|---|---|---|---|---|",
        *start_ups,
        "",
        f"One bot's match, medians of {starts} taken in turn: start-up, a `start` line and",
        f"{messages} small turn lines, then the end: input closed, the bot's exit awaited,",
        "its process or container gone (the sandbox's `close()`, as a seat ends a match).",
        "",
        "| backend | bare bot | sandbox | added | sandbox / bare |",
        "|---|---|---|---|---|",
        *matches,
        "",
        *said,
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

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings.base")
    import django

    django.setup()
    import arena.play.tasks  # noqa: F401  (a worker's modules, for its size)
    from sandbox.backends.cgroups import BotCgroup
    from sandbox.backends.launcher import launcher_argv, wait_started
    from sandbox.errors import InfrastructureError

    limits = Limits()
    run_as = 65534 if os.geteuid() == 0 else None

    def start(use_launcher: bool) -> tuple[float, float]:
        try:
            cgroup = BotCgroup.create(memory_bytes=limits.memory_bytes, pids=limits.pids)
        except InfrastructureError as error:
            raise SystemExit(f"--launch needs a writable cgroup hierarchy: {error}") from None
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
        f"`.venv/bin/python benchmarks/sandbox_overhead.py --launch {starts}`; {machine()}; "
        f"a {rss} MB process with Django and the platform loaded, as a worker; "
        "the two ways alternating:",
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
    options.add_argument("--messages", type=int, default=100, help="turn lines per match")
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
    text = run(args.rounds, args.starts, args.messages, pin=not args.no_pin)
    print(text)
    if args.write:
        write_section(text)


if __name__ == "__main__":
    main()
