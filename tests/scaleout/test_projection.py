"""bench/projection.py: the projection past one machine follows the figures a service_load run
printed, counts each process's background per process, finds which shared part gives first,
and lets the absence check grow with processes x tables unless the deadline loop is confined."""

from __future__ import annotations

import json

from bench.projection import Assumptions, Costs, first_limits, last_figures, main, needs


def a_run(**changed) -> dict:
    """A service_load final line (its figures, as the bench prints them)."""
    run = {
        "tables": 100,
        "servers": 2,
        "moves_per_s": 90.0,
        "cpu_ms_per_move": 9.0,
        "pg_cpu_ms_per_move": 2.0,
        "redis_cpu_ms_per_move": 0.1,
        "nginx_cpu_ms_per_move": 0.25,
        "pg_xacts_per_move": 3.0,
        "pg_write_xacts_per_move": 1.2,
        "pg_statements_per_move": 12.0,
        "pg_rows_written_per_move": 6.0,
        "pg_wal_bytes_per_move": 4500.0,
        "redis_ops_per_move": 2.0,
        "idle_daphne_cpu_ms_per_s_per_server": 20.0,
        "idle_pg_cpu_ms_per_s_per_server": 4.5,
        "idle_pg_xacts_per_s_per_server": 24.0,
        "idle_pg_statements_per_s_per_server": 11.0,
        "idle_redis_ops_per_s_per_server": 0.2,
        "idle_redis_cpu_ms_per_s": 1.0,
    }
    return {**run, **changed}


def test_what_tables_need_follows_the_measured_figures():
    plain, dearer = Costs.from_run(a_run()), Costs.from_run(a_run(cpu_ms_per_move=18.0, pg_wal_bytes_per_move=9000.0))
    one, other = needs(plain, 10_000, Assumptions()), needs(dearer, 10_000, Assumptions())
    assert other["daphne_cores"] > 2 * one["daphne_cores"]  # the idle part stays per process
    assert other["processes"] > 2 * one["processes"] * 0.95
    assert other["pg_wal_mb_per_s"] == 2 * one["pg_wal_mb_per_s"]
    assert other["pg_write_xacts_per_s"] == one["pg_write_xacts_per_s"] == 10_000 * 0.9 * 1.2
    by_command = needs(plain, 10_000, Assumptions(redis_us_per_command=12.0))
    assert by_command["redis_cores"] == by_command["redis_ops_per_s"] * 12.0 / 1e6 != one["redis_cores"]


def test_a_process_background_is_counted_per_process_not_per_move():
    quiet, busy = Costs.from_run(a_run(idle_pg_xacts_per_s_per_server=0.0)), Costs.from_run(a_run())
    assert busy.pg_xacts < quiet.pg_xacts  # the run's two processes' share came off each move
    found = needs(busy, 10_000, Assumptions())
    by_moves = found["moves_per_s"] * busy.pg_xacts
    assert found["pg_xacts_per_s"] == by_moves + found["timer_processes"] * 24.0


def test_the_shared_part_whose_one_instance_fills_first_gives_first():
    redis_bound = first_limits(Costs.from_run(a_run(redis_cpu_ms_per_move=1.0)), Assumptions())
    pg_bound = first_limits(Costs.from_run(a_run(pg_cpu_ms_per_move=20.0)), Assumptions())
    assert redis_bound[0][0] == "Redis instance" and pg_bound[0][0] == "PostgreSQL primary"
    limit = dict(redis_bound)["Redis instance"]
    assert needs(Costs.from_run(a_run(redis_cpu_ms_per_move=1.0)), limit, Assumptions())["redis_instances"] >= 1
    assert needs(Costs.from_run(a_run(redis_cpu_ms_per_move=1.0)), limit - 100, Assumptions())["redis_instances"] < 1


def test_the_absence_check_grows_with_processes_times_tables_unless_confined():
    costs = Costs.from_run(a_run())
    everywhere = [needs(costs, tables, Assumptions())["pg_scan_rows_per_s"] for tables in (10_000, 20_000)]
    confined = [
        needs(costs, tables, Assumptions(timer_processes=3))["pg_scan_rows_per_s"] for tables in (10_000, 20_000)
    ]
    assert everywhere[1] > 3.9 * everywhere[0]
    assert confined[1] == 2 * confined[0] and confined[0] < everywhere[0]


def test_the_report_reads_a_runs_last_line(tmp_path, capsys):
    output = tmp_path / "run.txt"
    output.write_text('flood: ...\n{"tables": 3}\n' + json.dumps(a_run()) + "\n")
    assert last_figures(output.read_text())["cpu_ms_per_move"] == 9.0
    main([str(output), "--tables", "2500", "40000"])
    printed = capsys.readouterr().out
    assert "2,500" in printed and "40,000" in printed and "First to give" in printed
