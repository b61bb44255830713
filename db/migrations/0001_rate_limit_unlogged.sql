-- Rate-limit counters need no durability: losing them in a crash only resets windows. UNLOGGED skips the
-- WAL write and commit flush that every API request would otherwise pay.
ALTER TABLE "rate_limit_buckets" SET UNLOGGED;
