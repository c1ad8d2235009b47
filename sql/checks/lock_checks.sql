-- Keeps other writers of checks out until the load's transaction ends (readers go on); returns
-- nothing. The load inserts the checks it found missing with COPY, which a concurrent insert
-- of the same id would make fail.
LOCK TABLE checks IN SHARE ROW EXCLUSIVE MODE
