import pytest

from app.core import sql


def test_statements_are_read_once_by_name():
    statements = sql.load("jobs", "try_lock", "unlock")
    assert "pg_try_advisory_lock" in statements.try_lock
    assert "pg_advisory_unlock" in statements.unlock


def test_a_missing_file_stops_the_start():
    with pytest.raises(sql.SqlFileMissing, match=r"sql/jobs/no_such_statement\.sql"):
        sql.load("jobs", "try_lock", "no_such_statement")
