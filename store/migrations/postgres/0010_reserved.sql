-- Stand-in for schema version 10, which another change of this session
-- owns: it keeps the versions contiguous on this branch until that change
-- is merged, and is dropped then (it changes nothing).
SELECT 1;
