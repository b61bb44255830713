-- One derivation-index sequence per mode and key family: every instance draws from the same sequence,
-- so no two payments ever get the same deposit address. Indexes burnt by rolled-back transactions are
-- simply never used (gaps are harmless; reuse would not be).
CREATE SEQUENCE IF NOT EXISTS "deposit_index_sandbox_evm" AS bigint MINVALUE 0 START 0;
--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS "deposit_index_sandbox_tron" AS bigint MINVALUE 0 START 0;
--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS "deposit_index_sandbox_solana" AS bigint MINVALUE 0 START 0;
--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS "deposit_index_live_evm" AS bigint MINVALUE 0 START 0;
--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS "deposit_index_live_tron" AS bigint MINVALUE 0 START 0;
--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS "deposit_index_live_solana" AS bigint MINVALUE 0 START 0;
