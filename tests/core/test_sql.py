import pytest

from app.core import sql


def test_statements_are_read_once_by_name():
    statements = sql.load("jobs", "claim_slot", "heartbeat")
    assert "INSERT INTO job_runs" in statements.claim_slot
    assert "SET alive_at = now()" in statements.heartbeat


def test_a_missing_file_stops_the_start():
    with pytest.raises(sql.SqlFileMissing, match=r"sql/jobs/no_such_statement\.sql"):
        sql.load("jobs", "claim_slot", "no_such_statement")
