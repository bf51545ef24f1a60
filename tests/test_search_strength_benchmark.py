"""benchmarks/search_strength.py: a line played in sittings through its record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.benchmark_scripts import benchmark_script

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "search_strength.py"
# Few playouts a move: the same deals give the same games, fast.
FAST = ["--lines", "two,four", "--iterations", "4", "--quiet"]


@pytest.fixture(scope="module")
def strength():
    with benchmark_script("search_strength") as module:
        yield module


def recorded_deals_as(record: Path, code: str) -> list[dict]:
    """The record's deals, each as if the bots and engine of ``code`` had played it."""
    rows = [json.loads(row) for row in record.read_text().splitlines()]
    return [{**row, "settings": {**row["settings"], "code": code}} for row in rows]


def line_rows(output: str) -> dict[str, list[str]]:
    """Each printed line's columns after its label: bot, games, wins, rate, interval."""
    rows = {}
    for row in output.splitlines():
        if row.startswith(("2 seats", "4 seats")):
            label, rest = row[:34].strip(), row[34:].split()
            rows[label] = rest
    return rows


def test_a_line_played_in_two_sittings_counts_as_one(strength, tmp_path, capsys):
    strength.main([*FAST, "--games", "8"])
    whole = line_rows(capsys.readouterr().out)

    record = tmp_path / "record.jsonl"
    strength.main([*FAST, "--games", "4", "--record", str(record)])
    capsys.readouterr()
    strength.main([*FAST, "--games", "8", "--record", str(record)])
    resumed = line_rows(capsys.readouterr().out)

    assert set(whole) == {"2 seats, 4 playouts", "4 seats, 1 search v 3, 4 playouts"}
    for label, columns in whole.items():
        # Same games and wins; the last column says how many came from the record.
        assert resumed[label][:-1] == columns
        assert resumed[label][-1] == "4"
    deals = [json.loads(row) for row in record.read_text().splitlines()]
    assert len(deals) == 4 + 2  # 2-seat deals of 2 games, 4-seat deals of 4


def test_deals_under_other_settings_are_played_again(strength, tmp_path, capsys):
    record = tmp_path / "record.jsonl"
    strength.main([*FAST, "--games", "4", "--record", str(record)])
    capsys.readouterr()
    rows = [json.loads(row) for row in record.read_text().splitlines()]
    for row in rows:
        row["settings"]["code"] = "another engine"
    record.write_text("".join(json.dumps(row) + "\n" for row in rows))

    strength.main([*FAST, "--games", "4", "--record", str(record)])
    output = capsys.readouterr().out

    assert "0 deals played before with these settings" in output
    assert all(columns[-1] == "0" for columns in line_rows(output).values())


def test_a_record_that_is_not_one_is_refused(strength, tmp_path):
    record = tmp_path / "record.jsonl"
    record.write_text("not json\n")
    with pytest.raises(SystemExit, match=r"record\.jsonl:1: not a deal of this benchmark"):
        strength.main([*FAST, "--games", "2", "--record", str(record)])


def test_each_budget_is_compared_deal_by_deal_with_the_one_before(strength, capsys):
    line = strength.Line("2 seats, 50 ms", 2, None, None, "search", budget_ms=50)
    before = strength.Tally(by_deal={1: 1, 2: 0, 3: 1, 4: 2})
    after = strength.Tally(by_deal={1: 2, 2: 1, 3: 1, 4: 2, 5: 0})  # deal 5: not in both
    said = strength.paired_difference((line.label, before), (line.label, after), seats=2)
    # Gains per game of 0.5, 0.5, 0 and 0 over the 4 common deals: +25 points.
    assert said.startswith("2 seats, 50 ms against 2 seats, 50 ms, paired over 4 common deals:")
    assert "+25.0 points (-3.3 to +53.3)" in said

    sweep = ["--lines", "budgets", "--budgets", "25,50", "--iterations", "4", "--games", "4"]
    strength.main([*sweep, "--quiet"])
    out = capsys.readouterr().out
    # A fixed number of playouts plays both budgets alike: no difference.
    assert "paired over 2 common deals: +0.0 points (+0.0 to +0.0)" in out


def test_a_line_is_compared_deal_by_deal_with_another_codes_deals(strength, tmp_path, capsys):
    record = tmp_path / "record.jsonl"
    two = ["--lines", "two", "--iterations", "4", "--quiet", "--games", "4"]
    strength.main([*two, "--record", str(record)])
    capsys.readouterr()
    # The same deals as another checkout's bots played them: one game more won on
    # the first deal, and one deal this run has not played.
    rows = [json.loads(row) for row in record.read_text().splitlines()]
    before = recorded_deals_as(record, "before")
    before[0]["wins"] += 1 if before[0]["wins"] < 2 else -1
    before.append({**before[0], "deal": 99})
    with record.open("a") as out:
        out.writelines(json.dumps(row) + "\n" for row in before)

    strength.main([*two, "--record", str(record), "--baseline-code", "before"])
    said = capsys.readouterr().out.splitlines()[-1]

    gain = rows[0]["wins"] - before[0]["wins"]  # on deal 1, the other deal alike
    assert said.startswith("  this code against code before, paired over 2 common deals:")
    assert f"{100 * gain / 2 / 2:+.1f} points" in said
    with pytest.raises(SystemExit):
        strength.main([*two, "--baseline-code", "before"])  # nothing to compare with


def test_time_budget_deals_count_only_under_their_cpu(strength, tmp_path, capsys):
    record = tmp_path / "record.jsonl"
    timed = ["--lines", "two", "--budget-ms", "6", "--cpu-time", "--quiet", "--games", "2"]
    strength.main([*timed, "--record", str(record), "--cpu", "a recorded CPU"])
    capsys.readouterr()
    assert json.loads(record.read_text())["settings"]["cpu"] == "a recorded CPU"

    strength.main([*timed, "--record", str(record), "--cpu", "a recorded CPU"])
    assert line_rows(capsys.readouterr().out)["2 seats, 6 ms"][-1] == "2"  # counted
    strength.main([*timed, "--record", str(record)])  # this machine's CPU: played again
    assert line_rows(capsys.readouterr().out)["2 seats, 6 ms"][-1] == "0"


def test_another_codes_line_is_counted_and_never_played(strength, tmp_path, capsys):
    record = tmp_path / "record.jsonl"
    two = ["--lines", "two", "--iterations", "4", "--quiet", "--games", "4"]
    strength.main([*two, "--record", str(record)])
    capsys.readouterr()
    older = recorded_deals_as(record, "older")
    older[0]["wins"] = 2 - older[0]["wins"]  # what only the record can say
    record.write_text("".join(json.dumps(row) + "\n" for row in older))

    strength.main([*two, "--record", str(record), "--code", "older"])
    output = capsys.readouterr().out

    wins = older[0]["wins"] + older[1]["wins"]
    assert line_rows(output)["2 seats, 4 playouts"][:3] == ["search", "4", str(wins)]
    assert "code older, from the record" in output
    with pytest.raises(SystemExit, match="deal 3 of '2 seats, 4 playouts' is not in the record"):
        strength.main([*two, "--games", "6", "--record", str(record), "--code", "older"])
    assert len(record.read_text().splitlines()) == 2  # nothing played, nothing added
    with pytest.raises(SystemExit):
        strength.main([*two, "--code", "older"])  # nothing to count
