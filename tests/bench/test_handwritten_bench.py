"""bench/handwritten_ab.py runs to its figures: the parts that need neither PostgreSQL nor Redis
(the store on SQLite, the local layer, admin's log-in), briefly, and its last line is the JSON the
README's "Hand-written, and why" quotes. The figures themselves are not checked here (timings
are the bench's to show), but what the bench asserts as it runs is: both ways of a move read the
same rows and lose none, every socket gets every message, and a refused admin log-in is answered
429 without a password hash while one let through is hashed."""

from __future__ import annotations

from tests.bench.running import bench_figures


def test_the_handwritten_bench_measures_each_piece_beside_its_library_and_prints_json_last():
    figures = bench_figures(
        "bench/handwritten_ab.py", "--no-shared", "--rounds", "1", "--moves", "5", "--sends", "5", "--admin-tries", "1"
    )
    assert set(figures["store_cpu_us_per_move_sqlite"]) == {"store", "orm"}
    assert figures["store_statements_per_move_sqlite"]["store"] > 0
    for size in ("8", "50", "8_beside_200", "50_beside_200"):
        assert set(figures[f"layer_cpu_us_per_group_send_{size}"]) == {"local", "in_memory", "in_memory_plain"}
    hashes = figures["admin_login_hashes_per_try"]
    assert hashes["refused"] == 0 and hashes["hashed"] >= 1, figures
    assert set(figures["admin_login_cpu_us_per_try"]) == {"refused", "hashed"}
    assert figures["admin_login_hasher"].startswith("pbkdf2_sha256")
