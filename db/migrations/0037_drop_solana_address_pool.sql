DROP TABLE "solana_address_pool" CASCADE;--> statement-breakpoint
DROP SEQUENCE "deposit_index_sandbox_evm";--> statement-breakpoint
DROP SEQUENCE "deposit_index_sandbox_tron";--> statement-breakpoint
DROP SEQUENCE "deposit_index_sandbox_solana";--> statement-breakpoint
DROP SEQUENCE "deposit_index_live_evm";--> statement-breakpoint
DROP SEQUENCE "deposit_index_live_tron";--> statement-breakpoint
DROP SEQUENCE "deposit_index_live_solana";
