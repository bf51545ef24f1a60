"""Platform benchmark: the cost of the platform around a match, and the
speed of the ladder's read queries on a large database.

Part 1 plays the same matches twice, with the same bots, seeds and sandbox backend:
once straight through `sandbox.run_match` (a pool of WORKERS processes), once end to
end (matches created in PostgreSQL, queued on Redis, played by a Celery worker with
WORKERS processes, results, logs and ratings written back), and prints matches per
minute for each and their ratio. The two paths alternate in blocks of BLOCK matches
(`--block`, `--repeat` rounds), so that both see the same (shared, drifting) machine.

Part 2 seeds 10,000 bots and 1,000,000 games (COPY into PostgreSQL) and prints the
median and p95 time of the leaderboard and match-history reads.

`--platform-cpu` instead measures the platform's own CPU per match, part by part:
a worker whose sandbox hands back one recorded match (recorded_worker.py) plays
them end to end, so the bots' and the engine's time is out of the figures.
`--phases` plays them end to end for real and prints where each worker process's
time goes, phase by phase (phases_worker.py notes the times). `--scaling` plays
the same matches end to end with 1, 2 and 4 worker processes on the bwrap and
docker backends and prints matches per minute, games per second and where the
CPU went, with the machine's load.

Everything happens in its own database (default `arena_bench`, dropped and created
again), its own Redis databases and its own queue, so it can run next to a site or
a test run. Usage:

    .venv/bin/python benchmarks/arena_platform.py                 # both parts, full size
    .venv/bin/python benchmarks/arena_platform.py --matches 20 --bots 1000 --games 100000
    .venv/bin/python benchmarks/arena_platform.py --platform-cpu --matches 300
    .venv/bin/python benchmarks/arena_platform.py --phases --repeat 2
    .venv/bin/python benchmarks/arena_platform.py --scaling --matches 40

Needs PostgreSQL and Redis (BENCH_DATABASE_URL, BENCH_REDIS_URL) and a sandbox
backend (--backend, bwrap by default).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
EXAMPLES = ("random", "greedy", "heuristic")
Plan = tuple[tuple[str, str], int]  # (pair of example bots, seed) of one match
QUEUE = "arena-bench"


def configure_environment(args: argparse.Namespace) -> None:
    """Point Django, Celery and the worker at the benchmark's own services."""
    redis = args.redis_url.rstrip("/")
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "arena.settings.base",
            "DATABASE_URL": args.database_url,
            "CELERY_BROKER_URL": f"{redis}/{args.redis_db}",
            "CELERY_RESULT_BACKEND": f"{redis}/{args.redis_db + 1}",
            "ARENA_CELERY_QUEUE": QUEUE,
            "ARENA_SANDBOX_BACKEND": args.backend,
            "ARENA_VAR_DIR": str(REPO / "var" / "bench"),
            "ARENA_LOG_LEVEL": "WARNING",
            "DJANGO_DEBUG": "false",
        }
    )


def recreate_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if "bench" not in name.split("_"):
        raise SystemExit(
            f"refusing to drop {name!r}: the benchmark database's name has 'bench' as a"
            " word (arena_bench, arena_bench_2)"
        )
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def setup_django() -> None:
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


# --- Part 1: matches straight through the sandbox vs through the platform ---------


def match_plan(count: int) -> list[Plan]:
    """(pair of example bots, seed) for each match; the same plan for both runs."""
    pairs = [(a, b) for i, a in enumerate(EXAMPLES) for b in EXAMPLES[i + 1 :]]
    return [(pairs[i % len(pairs)], 1000 + i) for i in range(count)]


def play_direct(job: tuple[tuple[str, str], int, int, str]) -> int:
    import sandbox

    (first, second), seed, games, backend = job
    programs = [
        sandbox.BotProgram(name, REPO / "bots_examples" / f"{name}_bot.py")
        for name in (first, second)
    ]
    result = sandbox.run_match(
        programs, games=games, seed=seed, backend=backend, allow_unsandboxed=True
    )
    return len(result.games)


class DirectRunner:
    """`sandbox.run_match` in a pool of `workers` processes, kept for the whole
    measurement (its start-up is not timed, like the Celery worker's)."""

    def __init__(self, *, games: int, workers: int, backend: str) -> None:
        self.games, self.backend = games, backend
        self.pool = multiprocessing.get_context("fork").Pool(workers)

    def run(self, plan: list[Plan]) -> float:
        jobs = [(pair, seed, self.games, self.backend) for pair, seed in plan]
        started = time.perf_counter()
        played = sum(self.pool.imap_unordered(play_direct, jobs))
        elapsed = time.perf_counter() - started
        assert played == self.games * len(plan), played
        return elapsed

    def processes(self) -> dict[str, list[int]]:
        """This path's own processes (its bots' are not among them)."""
        return {"pool processes": [process.pid for process in self.pool._pool]}  # type: ignore[attr-defined]

    def close(self) -> None:
        self.pool.close()
        self.pool.join()


def example_versions() -> dict[str, object]:
    """The example bots as trusted, active bots of a system user."""
    import hashlib

    from django.contrib.auth import get_user_model
    from django.core.files.base import ContentFile

    from arena.bots.models import Bot, BotVersion

    owner, _ = get_user_model().objects.get_or_create(username="bench")
    versions = {}
    for name in EXAMPLES:
        source = (REPO / "bots_examples" / f"{name}_bot.py").read_bytes()
        bot, created = Bot.objects.get_or_create(
            owner=owner, name=f"bench-{name}", defaults={"is_example": True}
        )
        if not created:
            versions[name] = bot.versions.get(status=BotVersion.Status.ACTIVE)
            continue
        versions[name] = BotVersion.objects.create(
            bot=bot,
            number=1,
            kind=BotVersion.Kind.PY,
            code=ContentFile(source, name="main.py"),
            sha256=hashlib.sha256(source).hexdigest(),
            size=len(source),
            status=BotVersion.Status.ACTIVE,
        )
    return versions


def start_worker(
    workers: int,
    recorded: Path | None = None,
    events: Path | None = None,
    checkout: Path = REPO,
    name: str = "bench",
    extra_env: dict[str, str] | None = None,
    pool: str = "prefork",
) -> subprocess.Popen[bytes]:
    """A Celery worker on the benchmark's queue, running the platform's code from
    `checkout`; with `recorded`, one whose sandbox hands back that recorded match
    (benchmarks/recorded_worker.py); with `events`, one that notes when each part
    of a match begins and ends there (benchmarks/phases_worker.py). With `pool`
    "solo", one process that plays its matches itself (`workers` is then 1)."""
    if recorded is not None:
        launcher = [str(HERE / "recorded_worker.py"), str(recorded)]
    elif events is not None:
        launcher = [str(HERE / "phases_worker.py"), str(events)]
    else:
        launcher = ["-m", "celery", "-A", "arena"]
    argv = [
        sys.executable, *launcher, "worker", "--loglevel=WARNING",
        f"--concurrency={workers}", f"--pool={pool}", "-Q", QUEUE,
        "--without-mingle", "--without-gossip", f"--hostname={name}@%h",
    ]  # fmt: skip
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(checkout), str(checkout / "platform")]),
        **(extra_env or {}),
    )
    log = REPO / "var" / "bench" / f"{name}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as output:  # the worker's banner and warnings, out of the figures
        return subprocess.Popen(
            argv, cwd=checkout, env=env, start_new_session=True, stdout=output, stderr=output
        )


# In the benchmark's own database only: every match that reaches an end state says
# so at its commit, so the benchmark knows when the last one is over without polling
# (ten polls a second cost ~1 ms of CPU per match, and the last match of a block was
# seen 50 ms late on average: ~0.7% of an 8-second block).
FINISHED_CHANNEL = "arena_bench_finished"
FINISHED_TRIGGER = f"""
CREATE OR REPLACE FUNCTION arena_bench_notify_finished() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('{FINISHED_CHANNEL}', NEW.id::text);
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE OR REPLACE TRIGGER arena_bench_finished AFTER UPDATE OF state ON matches_match
    FOR EACH ROW WHEN (NEW.state IN ('done', 'failed') AND OLD.state <> NEW.state)
    EXECUTE FUNCTION arena_bench_notify_finished();
"""


class FinishedMatches:
    """Waits for matches to end, told by the trigger above (LISTEN/NOTIFY)."""

    def __init__(self, database_url: str) -> None:
        import psycopg

        self.connection = psycopg.connect(database_url, autocommit=True)
        self.connection.execute(FINISHED_TRIGGER)
        self.connection.execute(f"LISTEN {FINISHED_CHANNEL}")

    def wait_for(self, ids: Iterable[int], *, timeout: float) -> None:
        pending = set(ids)
        deadline = time.monotonic() + timeout
        while pending:
            left = deadline - time.monotonic()
            if left <= 0:
                raise SystemExit(f"timed out waiting for {len(pending)} matches")
            for notice in self.connection.notifies(timeout=min(left, 5.0)):
                pending.discard(int(notice.payload))
                if not pending:
                    break
            else:
                # No word for five seconds: look in the table (a lost notice would
                # otherwise stop the benchmark until its timeout).
                pending -= self._finished(pending)

    def _finished(self, ids: set[int]) -> set[int]:
        rows = self.connection.execute(
            "SELECT id FROM matches_match WHERE id = ANY(%s) AND state IN ('done', 'failed')",
            [list(ids)],
        ).fetchall()
        return {row[0] for row in rows}

    def close(self) -> None:
        self.connection.close()


class PlatformRunner:
    """Matches end to end: created in PostgreSQL, queued on Redis, played and recorded
    by one Celery worker with `workers` processes, started once (its start-up is
    not timed)."""

    def __init__(
        self,
        *,
        games: int,
        workers: int,
        recorded: Path | None = None,
        events: Path | None = None,
        checkout: Path = REPO,
        name: str = "bench",
        extra_env: dict[str, str] | None = None,
        solo: bool = False,
    ) -> None:
        import socket

        from arena.celery import app
        from arena.core.tasks import probe
        from arena.matches.selectors import default_competition

        self.games = games
        self.versions = example_versions()
        self.competition = default_competition()
        self.created: list[int] = []
        self.finished = FinishedMatches(os.environ["DATABASE_URL"])
        if name == "bench":
            app.control.purge()  # messages left by an interrupted run are not ours
        # Solo: `workers` Celery workers of one process each, every one its own
        # consumer (no master handing tasks to pool processes).
        names = [f"{name}{number}" for number in range(workers)] if solo else [name]
        self.workers = [
            start_worker(
                1 if solo else workers,
                recorded=recorded,
                events=events,
                checkout=checkout,
                name=worker_name,
                extra_env=extra_env,
                pool="solo" if solo else "prefork",
            )
            for worker_name in names
        ]
        self.solo = solo
        self.hostnames = [f"{worker_name}@{socket.gethostname()}" for worker_name in names]
        probe.delay().get(timeout=120)
        self._wait_until_all_answer(timeout=120)

    def _wait_until_all_answer(self, *, timeout: float) -> None:
        from arena.celery import app

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            replies = app.control.ping(destination=self.hostnames, timeout=1)
            if len(replies) == len(self.hostnames):
                return
        raise SystemExit(f"workers {self.hostnames} did not all start")

    def consume(self, on: bool) -> None:
        """Let this runner's worker take matches from the queue, or not (when two
        workers of different checkouts take turns on it)."""
        from arena.celery import app

        change = app.control.add_consumer if on else app.control.cancel_consumer
        replies = change(QUEUE, destination=self.hostnames, reply=True, timeout=10)
        assert len(replies) == len(self.hostnames), f"{self.hostnames}: {len(replies)} answered"

    def run(self, plan: list[Plan]) -> float:
        from django.db import transaction

        from arena.matches.models import Match
        from arena.matches.services import match_create

        started = time.perf_counter()
        # One transaction per match: each is queued at its commit, so the workers
        # start while the rest are created. (The ladder's matchmaker commits a tick's
        # matches together, one COMMIT for all: this costs the platform more.)
        created = []
        for (first, second), seed in plan:
            with transaction.atomic():
                match = match_create(
                    kind=Match.Kind.LADDER,
                    versions=[self.versions[first], self.versions[second]],
                    ruleset=self.competition.ruleset,
                    games=self.games,
                    competition=self.competition,
                    rated=True,
                    seed=seed,
                )
            created.append(match.pk)
        self.finished.wait_for(created, timeout=60 + 10 * len(plan))
        self.created += created
        return time.perf_counter() - started

    def processes(self) -> dict[str, list[int]]:
        """The worker's own processes, taken between matches (no bot runs then)."""
        if self.solo:
            return {"solo workers": [worker.pid for worker in self.workers]}
        (worker,) = self.workers
        pool = [pid for pid in process_tree(worker.pid) if pid != worker.pid]
        return {"pool processes": pool, "Celery master": [worker.pid]}

    def close(self) -> None:
        """Stop the worker, then check that every match was played, stored and rated."""
        import signal

        from arena.matches.models import Game, Match
        from arena.ratings.models import RatingChange

        self.finished.close()
        for worker in self.workers:
            os.killpg(worker.pid, signal.SIGTERM)
        for worker in self.workers:
            worker.wait(timeout=60)
        batch = Match.objects.filter(pk__in=self.created)
        failed = batch.filter(state=Match.State.FAILED)
        if failed.exists():
            raise SystemExit(f"{failed.count()} matches failed: {failed.first().error}")
        games_stored = Game.objects.filter(match__in=batch).count()
        rated = RatingChange.objects.filter(game__match__in=batch).count()
        assert games_stored == self.games * len(self.created), games_stored
        assert rated == 2 * games_stored, rated


def part_throughput(args: argparse.Namespace) -> None:
    """The same matches through both paths, in alternating blocks of `--block`
    matches, `--repeat` times over. The machine is shared and its speed drifts by
    a quarter within minutes: alternating whole runs of 200 matches (30 s each) gave
    single-pair overheads from +3% to +35% in one sitting; blocks of a few seconds
    let both paths see the same machine. Which path goes first rotates too. Each
    block ends with one worker process idle while the other finishes its last match,
    in both paths alike: with blocks of 50 (~8 s) that adds ~2% to both times, which
    pulls the ratio towards 1 by about that fraction of the overhead.

    With `--compare-with CHECKOUT` (repeatable), another path takes its turn in
    every round: the platform end to end with the worker running that checkout's
    code (another commit, in a `git worktree`), so that versions of the platform
    are compared on the same machine in the same minutes. `--compare-env NAME=VALUE`
    (repeatable) adds a path with this checkout's worker under one more setting."""
    plan = match_plan(args.matches)
    blocks = [plan[start : start + args.block] for start in range(0, len(plan), args.block)]
    print(
        f"\n## {args.matches} matches of {args.games_per_match} games, {args.workers} worker "
        f"processes, backend {args.backend}, {args.repeat} round(s) of {len(blocks)} "
        f"alternating blocks; load average {os.getloadavg()[0]:.1f}"
    )
    runners: dict[str, DirectRunner | PlatformRunner] = {
        "direct": DirectRunner(
            games=args.games_per_match, workers=args.workers, backend=args.backend
        )
    }
    try:
        # label: (checkout, worker name, extra environment, solo workers)
        paths: dict[str, tuple[Path, str, dict[str, str], bool]] = {
            "platform": (REPO, "bench", {}, False)
        }
        for number, checkout in enumerate(args.compare_with or [], start=1):
            paths[f"compared{number}"] = (Path(checkout).resolve(), f"compared{number}", {}, False)
        for number, setting in enumerate(args.compare_env or [], start=1):
            variable, _, value = setting.partition("=")
            paths[f"setting{number}"] = (REPO, f"setting{number}", {variable: value}, False)
        if args.compare_solo:
            paths["solo"] = (REPO, "solo", {}, True)
        for label, (checkout, name, extra_env, solo) in paths.items():
            # One worker at a time on the queue: each takes its turn (`take_turn`).
            take_turn(None, runners)
            runners[label] = PlatformRunner(
                games=args.games_per_match,
                workers=args.workers,
                checkout=checkout,
                name=name,
                extra_env=extra_env,
                solo=solo,
            )
        for label, (checkout, _name, extra_env, solo) in list(paths.items())[1:]:
            described = (
                f"{args.workers} Celery workers of the solo pool instead of one prefork worker"
                if solo
                else "the "
                + (" ".join(f"{k}={v}" for k, v in extra_env.items()) or f"code of {checkout}")
            )
            print(f"  {label}: the platform with {described}")
        measure_rounds(args, runners, blocks)
    finally:
        # Every worker is stopped, even when one of them fails its checks.
        with contextlib.ExitStack() as closing:
            for runner in runners.values():
                closing.callback(runner.close)


def take_turn(
    runner: PlatformRunner | None, runners: dict[str, DirectRunner | PlatformRunner]
) -> None:
    """Leave the queue to `runner`'s worker alone (to none with None). With one
    platform path there is nobody to take turns with: nothing to do."""
    workers = [other for other in runners.values() if isinstance(other, PlatformRunner)]
    if workers == [runner] or not workers:
        return
    for other in workers:
        other.consume(other is runner)


def measure_rounds(
    args: argparse.Namespace,
    runners: dict[str, DirectRunner | PlatformRunner],
    blocks: list[list[Plan]],
) -> None:
    names = list(runners)
    totals = dict.fromkeys(names, 0.0)
    cpu = dict.fromkeys(names, 0.0)
    # Each path's own processes, part by part: on a shared machine the machine's
    # CPU counts other people's work too, these counts do not.
    own: dict[str, dict[str, float]] = {name: {} for name in names}
    round_overheads: dict[str, list[float]] = {name: [] for name in names[1:]}
    backends = database_backends(args.database_url)
    redis = pids_named("redis-server")

    def run(name: str, block: list[Plan]) -> float:
        runner = runners[name]
        if isinstance(runner, PlatformRunner):
            take_turn(runner, runners)
        groups: dict[str, Members] = {
            **runner.processes(),
            "PostgreSQL": backends,
            "Redis": redis,
        }
        used, mine = machine_cpu_seconds(), time.process_time()
        with CpuMeter(groups) as meter:
            elapsed = runner.run(block)
        cpu[name] += machine_cpu_seconds() - used
        parts = {**meter.seconds(), "this process": time.process_time() - mine}
        for part, seconds in parts.items():
            own[name][part] = own[name].get(part, 0.0) + seconds
        return elapsed

    # Untimed: each worker process's first matches import modules, connect to
    # the database and prepare statements.
    warm_up = blocks[0][: 2 * args.workers]
    for name in names:
        run(name, warm_up)
    cpu = dict.fromkeys(names, 0.0)
    own = {name: {} for name in names}
    turn = 0
    for _ in range(args.repeat):
        spent = dict.fromkeys(names, 0.0)
        for block in blocks:
            order = names[turn % len(names) :] + names[: turn % len(names)]
            turn += 1
            for name in order:
                spent[name] += run(name, block)
        line = f"  direct {spent['direct']:6.1f} s"
        for name in names[1:]:
            totals[name] += spent[name]
            round_overheads[name].append(100 * (spent[name] - spent["direct"]) / spent["direct"])
            line += f"   {name} {spent[name]:6.1f} s ({round_overheads[name][-1]:+5.1f}%)"
        totals["direct"] += spent["direct"]
        print(f"{line}   load {os.getloadavg()[0]:.1f}")
    runs = args.matches * args.repeat
    print(
        f"sandbox.run_match directly   {totals['direct']:7.1f} s   "
        f"{60 * runs / totals['direct']:7.1f} matches/min"
    )
    for name in names[1:]:
        label = "queue+worker+DB+ratings" if name == "platform" else f"{name} (as described above)"
        print(f"{label:28s} {totals[name]:7.1f} s   {60 * runs / totals[name]:7.1f} matches/min")
        print(
            f"ratio ({name}/direct)  {totals['direct'] / totals[name]:.3f}   platform overhead "
            f"{100 * (totals[name] - totals['direct']) / totals['direct']:+.1f}% of the match time"
        )
        if len(round_overheads[name]) > 1:
            values = round_overheads[name]
            print(
                f"  overhead per round         median {statistics.median(values):+.1f}%, "
                f"from {min(values):+.1f}% to {max(values):+.1f}%"
            )
    for name in names[2:]:
        print(f"this checkout took {totals['platform'] / totals[name]:.3f} of {name}'s time")
    direct_own = sum(own["direct"].values())
    for name in names:
        total = sum(own[name].values())
        extra = "" if name == "direct" else f" (+{1000 * (total - direct_own) / runs:.1f} ms)"
        print(
            f"own CPU per match, {name:10s} {1000 * total / runs:5.1f} ms{extra} = "
            + " + ".join(f"{part} {1000 * t / runs:.1f}" for part, t in own[name].items() if t)
        )
    # Steadier than the clock on a shared machine (steal time is not counted), but
    # blind to waits: what the machine's CPUs spent per match on each path.
    print(
        "machine CPU per match        "
        + ", ".join(
            f"{name} {1000 * cpu[name] / runs:.1f} ms"
            + (
                ""
                if name == "direct"
                else f" ({100 * (cpu[name] - cpu['direct']) / cpu['direct']:+.1f}%)"
            )
            for name in names
        )
    )


def cpu_seconds(pid: int) -> float:
    """User + system CPU of one live process."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_tree(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    tree, stack = [], [root]
    while stack:
        pid = stack.pop()
        tree.append(pid)
        stack += children.get(pid, [])
    return tree


def pids_named(name: str) -> list[int]:
    found = subprocess.run(["pgrep", "-x", name], capture_output=True, text=True).stdout
    return [int(pid) for pid in found.split()]


def machine_cpu_seconds() -> float:
    """CPU time spent on this machine so far: user, nice, system, irq and softirq
    (not idle, iowait, or steal, which the hypervisor gave to someone else)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    return sum(values[i] for i in (0, 1, 2, 5, 6)) / os.sysconf("SC_CLK_TCK")


SERVER_PROCESSES = {"PostgreSQL": "postgres", "Redis": "redis-server"}


def database_backends(database_url: str) -> Callable[[], list[int]]:
    """The PostgreSQL server processes serving the benchmark's database, not the
    rest of a shared server's (other databases' sessions, and the background
    processes they keep busy), asked anew each call: connections come and go."""
    import psycopg

    connection = psycopg.connect(database_url, autocommit=True)

    def backends() -> list[int]:
        rows = connection.execute(
            "SELECT pid FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
        return [pid for (pid,) in rows]

    return backends


Members = list[int] | Callable[[], list[int]]  # a group of processes, fixed or asked anew


class CpuMeter:
    """The CPU used by named groups of processes while a block runs, each group's
    members read at its start, its end and every `every` seconds between: a
    process that starts meanwhile counts from zero, one that ends keeps what it was
    last seen to have used (the workers' database connections close after 60 s)."""

    def __init__(self, groups: dict[str, Members], every: float = 0.5):
        import threading

        self.groups, self.every = groups, every
        self.first: dict[tuple[str, int], float] = {}
        self.last: dict[tuple[str, int], float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self, *, starting: bool = False) -> None:
        for name, members in self.groups.items():
            for pid in members() if callable(members) else members:
                used = cpu_seconds(pid)
                if used:
                    key = (name, pid)
                    self.first.setdefault(key, used if starting else 0.0)
                    self.last[key] = used

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self._sample()

    def __enter__(self) -> CpuMeter:
        self._sample(starting=True)
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()

    def seconds(self) -> dict[str, float]:
        spent = dict.fromkeys(self.groups, 0.0)
        for (name, pid), used in self.last.items():
            spent[name] += used - self.first[(name, pid)]
        return spent


def part_platform_cpu(args: argparse.Namespace) -> None:
    """The platform's own CPU per match: a worker whose sandbox hands back one
    recorded match plays `--matches` of them end to end, and the CPU of each part
    is read from /proc (the PostgreSQL backends of the benchmark's database, Redis,
    the worker's master and pool processes, this process creating the matches)."""
    import pickle
    import tempfile

    import sandbox

    programs = [
        sandbox.BotProgram(name, REPO / "bots_examples" / f"{name}_bot.py") for name in EXAMPLES[:2]
    ]
    recorded = sandbox.run_match(
        programs, games=args.games_per_match, seed=1, backend=args.backend, allow_unsandboxed=True
    )
    with tempfile.NamedTemporaryFile(suffix=".pickle") as recorded_file:
        pickle.dump(recorded, recorded_file)
        recorded_file.flush()
        platform = PlatformRunner(
            games=args.games_per_match, workers=args.workers, recorded=Path(recorded_file.name)
        )
        plan = [(tuple(EXAMPLES[:2]), 1)] * args.matches
        print(
            f"\n## the platform's own CPU: {args.matches} recorded matches of "
            f"{args.games_per_match} games end to end, {args.workers} worker processes; "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        backends = database_backends(args.database_url)
        redis = pids_named("redis-server")
        try:
            for _ in range(args.repeat):
                processes = platform.processes()
                groups: dict[str, Members] = {
                    "PostgreSQL": backends,
                    "Redis": redis,
                    "Celery master": processes["Celery master"],
                    "worker pool processes": processes["pool processes"],
                }
                machine, own = machine_cpu_seconds(), time.process_time()
                with CpuMeter(groups) as meter:
                    elapsed = platform.run(plan)  # type: ignore[arg-type]
                machine, own = machine_cpu_seconds() - machine, time.process_time() - own
                parts = meter.seconds()
                parts["creating the matches (this process)"] = own
                per_match = {name: 1000 * seconds / args.matches for name, seconds in parts.items()}
                print(
                    f"  {60 * args.matches / elapsed:7.0f} matches/min; CPU per match "
                    f"{sum(per_match.values()):5.1f} ms = "
                    + " + ".join(f"{name} {ms:.1f}" for name, ms in per_match.items())
                    + f"   (whole machine {1000 * machine / args.matches:.1f} ms)"
                )
        finally:
            platform.close()


def tree_cpu_seconds(root: int) -> float:
    """User + system CPU of a live process tree, with what the children its members
    reaped used."""
    total = 0.0
    for pid in process_tree(root):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(fields[i]) for i in (11, 12, 13, 14)) / os.sysconf("SC_CLK_TCK")
    return total


def part_scaling(args: argparse.Namespace) -> None:
    """Throughput end to end with 1, 2 and 4 worker processes (`--worker-counts`) on
    each backend (`--backends`): the same plan of `--matches` matches per cell, after
    an untimed warm-up, and where the time went. The CPU columns are shares of one
    core over the cell's wall time: the worker's processes (its own work: the
    bots' CPU is not in it, docker's run under the Docker daemon and bwrap's are
    not reaped into the worker's accounts), PostgreSQL's and Redis's server
    processes, and the whole machine, which includes whatever else it runs."""
    plan = match_plan(args.matches)
    cores = os.cpu_count() or 1
    counts = [int(count) for count in args.worker_counts.split(",")]
    print(
        f"\n## throughput: {args.matches} matches of {args.games_per_match} games per cell, "
        f"{cores} cores; load average {' '.join(f'{v:.1f}' for v in os.getloadavg())} "
        "(1, 5, 15 min)"
    )
    print(
        "| backend | worker processes | time | matches/min | games/s | worker CPU "
        "| PostgreSQL CPU | Redis CPU | machine busy | load before, after |"
    )
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|---|")
    for backend in args.backends.split(","):
        for workers in counts:
            runner = PlatformRunner(
                games=args.games_per_match,
                workers=workers,
                extra_env={"ARENA_SANDBOX_BACKEND": backend},
            )
            try:
                runner.run(plan[: 2 * workers])  # untimed: imports, connections, images
                load_before = os.getloadavg()[0]
                servers = [pid for name in SERVER_PROCESSES.values() for pid in pids_named(name)]
                before = {pid: cpu_seconds(pid) for pid in servers}
                tree, machine = tree_cpu_seconds(runner.worker.pid), machine_cpu_seconds()
                elapsed = runner.run(plan)
                tree = tree_cpu_seconds(runner.worker.pid) - tree
                machine = machine_cpu_seconds() - machine
                spent = {}
                for label, name in SERVER_PROCESSES.items():
                    pids = pids_named(name)
                    spent[label] = sum(cpu_seconds(pid) - before.get(pid, 0.0) for pid in pids)
            finally:
                runner.close()

            def share(seconds: float, elapsed: float = elapsed) -> str:
                return f"{100 * seconds / elapsed:.0f} %"

            print(
                f"| {backend} | {workers} | {elapsed:.1f} s | {60 * len(plan) / elapsed:.0f} "
                f"| {len(plan) * args.games_per_match / elapsed:.1f} | {share(tree)} "
                f"| {share(spent['PostgreSQL'])} | {share(spent['Redis'])} "
                f"| {100 * machine / (elapsed * cores):.0f} % of {cores} cores "
                f"| {load_before:.1f}, {os.getloadavg()[0]:.1f} |",
                flush=True,
            )


# The parts of a match in a worker process, between the stamps phases_worker.py
# notes. The result write runs on the process's recorder thread, overlapping the
# hand-over and the next match's claim: each phase pairs its start with the next
# end, whatever the other thread noted in between.
PHASES = {
    "claim (task start to sandbox)": ("task_start", "sandbox_start"),
    "sandbox.run_match": ("sandbox_start", "sandbox_end"),
    "rest of the task": ("sandbox_end", "task_end"),
    "hand-over to the next task": ("task_end", "task_start"),
    "result write (recorder thread)": ("write_start", "recorded"),
}


def phase_times(events: Path) -> dict[str, list[float]]:
    """Milliseconds spent in each phase, over every pool process's stamps."""
    spent: dict[str, list[float]] = {name: [] for name in PHASES}
    for stamps in events.iterdir():
        began: dict[str, float] = {}
        for line in stamps.read_text().splitlines():
            at, event = line.split()
            for name, (_start, end) in PHASES.items():
                if event == end and name in began:
                    spent[name].append(1000 * (float(at) - began.pop(name)))
            for name, (start, _end) in PHASES.items():
                if event == start:
                    began[name] = float(at)
    return spent


def part_phases(args: argparse.Namespace) -> None:
    """Where each worker process's time goes while it plays matches end to end, on
    the real sandbox and under the real load: the median and mean of each phase.
    Less noisy than the throughput comparison for a change to one phase; run it
    from two checkouts in turn to compare them."""
    import shutil
    import tempfile

    events = Path(tempfile.mkdtemp(prefix="arena-phases-"))
    plan = match_plan(args.matches)
    print(
        f"\n## phases of {args.matches} matches of {args.games_per_match} games end to end, "
        f"{args.workers} worker processes, backend {args.backend}; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    platform = PlatformRunner(games=args.games_per_match, workers=args.workers, events=events)
    try:
        platform.run(plan[: 2 * args.workers])  # untimed warm-up
        for _ in range(args.repeat):
            for stamps in events.iterdir():
                stamps.unlink()
            elapsed = platform.run(plan)
            spent = phase_times(events)
            print(f"  {60 * len(plan) / elapsed:6.1f} matches/min")
            for name, values in spent.items():
                if values:
                    print(
                        f"    {name:30s} median {statistics.median(values):7.2f} ms"
                        f"   mean {statistics.mean(values):7.2f} ms   ({len(values)})"
                    )
    finally:
        platform.close()
        shutil.rmtree(events, ignore_errors=True)


@contextlib.contextmanager
def timed_calls(targets: list[tuple[object, str, str]]) -> Iterator[dict[str, float]]:
    """Wrap module functions so that their cumulative wall time is recorded."""
    spent: dict[str, float] = dict.fromkeys((label for _, _, label in targets), 0.0)
    originals = []
    for module, name, label in targets:
        original = getattr(module, name)
        originals.append((module, name, original))

        def wrapper(*a: object, _f: Callable[..., object] = original, _l: str = label, **k: object):
            began = time.perf_counter()
            try:
                return _f(*a, **k)
            finally:
                spent[_l] += time.perf_counter() - began

        setattr(module, name, wrapper)
    try:
        yield spent
    finally:
        for module, name, original in originals:
            setattr(module, name, original)


def part_breakdown(args: argparse.Namespace) -> None:
    """Where a worker's time goes, in this process (no queue): the platform's own
    share of `match_run` is everything but `sandbox.run_match`."""
    from django.db import transaction

    import sandbox
    from arena.celery import app
    from arena.matches.models import Match
    from arena.matches.selectors import default_competition
    from arena.matches.services import match_create
    from arena.play import results, runner

    count = max(10, args.matches // 5)
    versions = example_versions()
    competition = default_competition()
    with transaction.atomic():
        created = [
            match_create(
                kind=Match.Kind.LADDER,
                versions=[versions[first], versions[second]],
                ruleset=competition.ruleset,
                games=args.games_per_match,
                competition=competition,
                rated=True,
                seed=seed,
            ).pk
            for (first, second), seed in match_plan(count)
        ]
    app.control.purge()  # played here, not by a worker
    runner.match_run(match_id=created[0])  # warm up imports and connections
    targets = [
        (sandbox, "run_match", "sandbox.run_match"),
        (runner, "match_record_result", "record result (games, logs, seats, ratings)"),
        (results, "ratings_apply_match_games", "  of which ratings"),
    ]
    with timed_calls(targets) as spent:
        began = time.perf_counter()
        for match_id in created[1:]:
            runner.match_run(match_id=match_id)
        total = time.perf_counter() - began
    played = len(created) - 1
    sandboxed = spent["sandbox.run_match"]
    print(
        f"\n## where a worker's time goes: {played} matches of {args.games_per_match} games "
        f"played in this process; load average {os.getloadavg()[0]:.1f}"
    )
    print(f"  match_run, per match                         {1000 * total / played:7.1f} ms")
    for label, seconds in spent.items():
        print(f"  {label:<44} {1000 * seconds / played:7.1f} ms")
    own = total - sandboxed
    rest = own - spent["record result (games, logs, seats, ratings)"]
    print(f"  claim with seats, lease, rest                {1000 * rest / played:7.1f} ms")
    print(
        f"  platform's own (match_run - sandbox)         {1000 * own / played:7.1f} ms = "
        f"{100 * own / sandboxed:.1f}% of the match time"
    )


# --- Part 2: read queries on 10,000 bots and 1,000,000 games -----------------------


def copy_into(model: type, columns: list[str], rows: Iterable[tuple[object, ...]]) -> int:
    """COPY rows into a model's table; every other column gets its field default."""
    from django.db import connection
    from django.db.models import JSONField

    fields = {f.attname: f for f in model._meta.concrete_fields}  # type: ignore[attr-defined]
    # A primary key left out is the sequence's to fill.
    rest = [name for name, f in fields.items() if name not in columns and not f.primary_key]
    defaults: list[object] = []
    for name in rest:
        field = fields[name]
        value = field.get_default()
        defaults.append(json.dumps(value) if isinstance(field, JSONField) else value)
    names = ", ".join(f'"{fields[n].column}"' for n in [*columns, *rest])
    count = 0
    with connection.cursor() as cursor:
        raw = cursor.cursor  # the psycopg cursor under Django's wrapper
        with raw.copy(f'COPY "{model._meta.db_table}" ({names}) FROM STDIN') as copy:  # type: ignore[attr-defined]
            for row in rows:
                copy.write_row((*row, *defaults))
                count += 1
    return count


def reset_sequences(*models: type) -> None:
    from django.core.management.color import no_style
    from django.db import connection

    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), list(models)):
            cursor.execute(sql)


def seed_large(*, bots: int, games: int, games_per_match: int, seed: int) -> dict[str, float]:
    """Users, bots, versions, 2-seat rated matches with games, ratings and every
    rating change, spread over a year; one bot (id 1) plays 5% of all matches."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from arena.bots.models import Bot, BotVersion
    from arena.matches.models import Game, Match, MatchSeat
    from arena.matches.selectors import default_competition
    from arena.ratings.elo import expected_score
    from arena.ratings.models import Rating, RatingChange

    rng = random.Random(seed)
    User = get_user_model()
    competition = default_competition()
    ruleset = json.dumps(competition.ruleset)
    now = datetime.now(UTC)
    start = now - timedelta(days=365)
    timings: dict[str, float] = {}

    def timed(label: str, action: Callable[[], int]) -> None:
        began = time.perf_counter()
        count = action()
        timings[label] = time.perf_counter() - began
        print(f"  {label:<16} {count:>9,} rows in {timings[label]:6.1f} s", flush=True)

    users = max(1, bots // 10)
    offset = (User.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    timed(
        "users",
        lambda: copy_into(
            User,
            ["id", "password", "username", "is_active", "is_staff", "is_superuser", "date_joined"],
            ((offset + u, "!", f"seed-user-{u}", True, False, False, start) for u in range(users)),
        ),
    )
    bot_offset = (Bot.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    bot_ids = [bot_offset + b for b in range(bots)]
    timed(
        "bots",
        lambda: copy_into(
            Bot,
            ["id", "owner_id", "name", "created_at"],
            (
                (bid, offset + b % users, f"seed-bot-{b:05d}", start)
                for b, bid in enumerate(bot_ids)
            ),
        ),
    )
    version_offset = (
        BotVersion.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    ) + 1
    version_of = {bid: version_offset + b for b, bid in enumerate(bot_ids)}
    timed(
        "bot versions",
        lambda: copy_into(
            BotVersion,
            ["id", "bot_id", "number", "kind", "code", "sha256", "size", "status", "created_at"],
            (
                (version_of[bid], bid, 1, "py", f"bots/{bid}/1.py", "0" * 64, 100, "active", start)
                for bid in bot_ids
            ),
        ),
    )

    matches = games // games_per_match
    veteran = bot_ids[0]
    tables: list[tuple[int, int]] = []
    for _ in range(matches):
        if rng.random() < 0.05:
            other = rng.choice(bot_ids[1:])
            tables.append((veteran, other) if rng.random() < 0.5 else (other, veteran))
        else:
            tables.append(tuple(rng.sample(bot_ids, 2)))  # type: ignore[arg-type]
    span = (now - start).total_seconds()
    match_times = [
        start + timedelta(seconds=span * (m + 1) / (matches + 1)) for m in range(matches)
    ]
    m0 = (Match.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    timed(
        "matches",
        lambda: copy_into(
            Match,
            ["id", "kind", "competition_id", "rated", "ruleset", "games_planned", "seed",
             "state", "attempts", "created_at", "started_at", "finished_at"],
            (
                (m0 + m, "ladder", competition.pk, True, ruleset, games_per_match, m, "done", 1,
                 at, at, at)
                for m, at in enumerate(match_times)
            ),
        ),
    )  # fmt: skip

    # Results: the better-rated bot of a pair wins more often; Elo replayed on the way
    # so that ratings and their history are consistent.
    strength = {bid: rng.gauss(0, 300) for bid in bot_ids}
    elo = dict.fromkeys(bot_ids, 1500.0)
    played = dict.fromkeys(bot_ids, 0)
    won = dict.fromkeys(bot_ids, 0)
    rank_sum = dict.fromkeys(bot_ids, 0)
    trend: dict[int, list[float]] = {bid: [] for bid in bot_ids}
    last_played: dict[int, datetime] = {}
    r0 = (Rating.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    rating_id = {bid: r0 + r for r, bid in enumerate(bot_ids)}
    log = zlib.compress(b'{"format":"onecard-replay/1"}')
    game_rows: list[tuple[object, ...]] = []
    change_rows: list[tuple[object, ...]] = []
    g0 = (Game.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    game_id = g0
    from arena.ratings.elo import game_update

    for m, (a, b) in enumerate(tables):
        at = match_times[m]
        for number in range(games_per_match):
            a_wins = rng.random() < expected_score(strength[a], strength[b])
            ranks = [1, 2] if a_wins else [2, 1]
            game_rows.append(
                (game_id, m0 + m, number, "[0, 1]" if number % 2 == 0 else "[1, 0]",
                 json.dumps(ranks), 0 if a_wins else 1, 40, at)
            )  # fmt: skip
            new = game_update(
                ratings=[elo[a], elo[b]], ranks=ranks, games_played=[played[a], played[b]]
            )
            for bid, rank, after in ((a, ranks[0], new[0]), (b, ranks[1], new[1])):
                change_rows.append((rating_id[bid], game_id, version_of[bid], elo[bid], after, at))
                elo[bid] = after
                played[bid] += 1
                won[bid] += rank == 1
                rank_sum[bid] += rank
                trend[bid] = [*trend[bid][-9:], after]
                last_played[bid] = at
            game_id += 1

    # Read before the COPY starts: the connection serves nothing else during one.
    s0 = (MatchSeat.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1

    def seat_rows() -> Iterator[tuple[object, ...]]:
        seat_id = s0
        for m, table in enumerate(tables):
            for index, bid in enumerate(table):
                yield (seat_id, m0 + m, index, bid, version_of[bid], games_per_match)
                seat_id += 1

    timed(
        "match seats",
        lambda: copy_into(
            MatchSeat, ["id", "match_id", "index", "bot_id", "bot_version_id", "games"], seat_rows()
        ),
    )
    timed(
        "games",
        lambda: copy_into(
            Game,
            ["id", "match_id", "number", "seating", "ranks", "winner_index", "turns",
             "created_at", "log_compressed"],
            ((*row, log) for row in game_rows),
        ),
    )  # fmt: skip
    timed(
        "ratings",
        lambda: copy_into(
            Rating,
            ["id", "bot_id", "competition_id", "elo", "games", "wins", "rank_sum", "score_sum",
             "last_played_at", "trend"],
            (
                (rating_id[bid], bid, competition.pk, elo[bid], played[bid], won[bid],
                 rank_sum[bid], float(won[bid]), last_played.get(bid), json.dumps(trend[bid]))
                for bid in bot_ids
                if played[bid]
            ),
        ),
    )  # fmt: skip
    timed(
        "rating changes",
        lambda: copy_into(
            RatingChange,
            ["rating_id", "game_id", "bot_version_id", "before", "after", "created_at"],
            change_rows,
        ),
    )
    reset_sequences(User, Bot, BotVersion, Match, MatchSeat, Game, Rating, RatingChange)
    began = time.perf_counter()
    with connection.cursor() as cursor:
        # VACUUM too: index-only scans need the visibility map that COPY leaves unset.
        cursor.execute("VACUUM ANALYZE")
    timings["vacuum analyze"] = time.perf_counter() - began
    print(f"  vacuum analyze   {timings['vacuum analyze']:>22.1f} s")
    return timings


def time_queries(label: str, runs: int, query: Callable[[int], object]) -> tuple[float, float]:
    samples = []
    for i in range(runs):
        began = time.perf_counter()
        query(i)
        samples.append(1000 * (time.perf_counter() - began))
    median, p95 = statistics.median(samples), percentile(samples, 0.95)
    verdict = "ok" if p95 < 50 else "OVER 50 ms"
    print(f"  {label:<44} median {median:7.2f} ms   p95 {p95:7.2f} ms   {verdict}")
    return median, p95


def part_queries(args: argparse.Namespace) -> None:
    from arena.bots.models import Bot
    from arena.matches.selectors import default_competition, match_list
    from arena.ratings.selectors import head_to_head, leaderboard_list, rating_history

    if args.reuse and Bot.objects.filter(name__startswith="seed-bot-").exists():
        print("\n## reusing the seeded database")
    else:
        print(f"\n## seeding {args.bots:,} bots and {args.games:,} games (COPY)")
        began = time.perf_counter()
        seed_large(bots=args.bots, games=args.games, games_per_match=4, seed=args.seed)
        print(f"  seeded in {time.perf_counter() - began:.0f} s")
    competition = default_competition()
    bots = list(Bot.objects.filter(name__startswith="seed-bot-").order_by("pk"))
    veteran = bots[0]
    rng = random.Random(args.seed)
    sample = [rng.choice(bots[1:]) for _ in range(args.runs)]
    pages = max(1, len(bots) // 50)
    runs = args.runs
    print(
        f"\n## read queries, {runs} runs each (random bot or page per run); "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    results = {
        "leaderboard, first page (50 rows)": time_queries(
            "leaderboard, first page (50 rows)",
            runs,
            lambda i: leaderboard_list(competition=competition, limit=50),
        ),
        "leaderboard, random page": time_queries(
            "leaderboard, random page",
            runs,
            lambda i: leaderboard_list(
                competition=competition, offset=50 * rng.randrange(pages), limit=50
            ),
        ),
        "leaderboard, search by name": time_queries(
            "leaderboard, search by name",
            runs,
            lambda i: leaderboard_list(competition=competition, search=f"bot-0{i % 1000:03d}"),
        ),
        "leaderboard, ordered by games": time_queries(
            "leaderboard, ordered by games",
            runs,
            lambda i: leaderboard_list(competition=competition, ordering="-games"),
        ),
        "bot match history, first page (25 + seats)": time_queries(
            "bot match history, first page (25 + seats)",
            runs,
            lambda i: list(match_list(bot=sample[i])[:25]),
        ),
        "veteran's match history (5% of all matches)": time_queries(
            "veteran's match history (5% of all matches)",
            runs,
            lambda i: list(match_list(bot=veteran)[:25]),
        ),
        "bot rating history (latest 200)": time_queries(
            "bot rating history (latest 200)",
            runs,
            lambda i: rating_history(bot=sample[i], competition=competition, limit=200),
        ),
        "bot head to head": time_queries(
            "bot head to head",
            runs,
            lambda i: head_to_head(bot=sample[i], competition=competition),
        ),
    }
    worst = max(p95 for _, p95 in results.values())
    print(f"  worst p95 {worst:.1f} ms (target < 50 ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/arena_bench"
        ),
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379")
    )
    parser.add_argument("--redis-db", type=int, default=12, help="broker db; results use +1")
    parser.add_argument("--backend", default="bwrap", help="sandbox backend for both runs")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument(
        "--games-per-match", type=int, default=4, help="the default ladder's match length"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--repeat", type=int, default=3, help="rounds of alternating direct/platform blocks"
    )
    parser.add_argument("--block", type=int, default=50, help="matches per alternating block")
    parser.add_argument("--bots", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=200, help="timed runs per query")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument(
        "--platform-cpu",
        action="store_true",
        help="only the platform's own CPU per match, with a recorded match for a sandbox",
    )
    parser.add_argument(
        "--phases",
        action="store_true",
        help="only where each worker process's time goes, phase by phase, end to end",
    )
    parser.add_argument("--skip-queries", action="store_true")
    parser.add_argument(
        "--scaling",
        action="store_true",
        help="only throughput with --worker-counts processes on each of --backends",
    )
    parser.add_argument("--worker-counts", default="1,2,4")
    parser.add_argument("--backends", default="bwrap,docker")
    parser.add_argument(
        "--compare-with",
        metavar="CHECKOUT",
        action="append",
        help="also time the platform with the worker running this checkout's code (repeatable)",
    )
    parser.add_argument(
        "--compare-env",
        metavar="NAME=VALUE",
        action="append",
        help="also time this checkout's platform with one more setting (repeatable)",
    )
    parser.add_argument(
        "--compare-solo",
        action="store_true",
        help="also time this checkout's platform on WORKERS solo-pool workers of one process each",
    )
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="time the queries on the database a previous --skip-throughput run seeded",
    )
    args = parser.parse_args()

    configure_environment(args)
    if not args.reuse:
        recreate_database(args.database_url)
    setup_django()
    print(f"# platform benchmark, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores")
    if args.platform_cpu:
        part_platform_cpu(args)
        return
    if args.phases:
        part_phases(args)
        return
    if args.scaling:
        part_scaling(args)
        return
    if not args.skip_throughput:
        part_throughput(args)
        part_breakdown(args)
    if not args.skip_queries:
        part_queries(args)


if __name__ == "__main__":
    main()
