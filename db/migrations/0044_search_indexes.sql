-- Search (lib/reports/search, docs/API.md#search): every field a term reads has an index, so a term is one bitmap
-- of index scans whatever the history's size. Descriptions are matched within (ILIKE) through trigrams; pg_trgm is
-- a trusted extension, which the database's owner may create. Metadata is jsonb_ops (not jsonb_path_ops): a value
-- at any key (`$.*`) is found only through it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "payments_deposit_address_lower_idx" ON "payments" USING btree (lower("deposit_address"));--> statement-breakpoint
CREATE INDEX "payments_tx_hash_lower_idx" ON "payments" USING btree (lower("tx_hash"));--> statement-breakpoint
CREATE INDEX "payments_amount_idx" ON "payments" USING btree ("amount_units");--> statement-breakpoint
CREATE INDEX "payments_metadata_idx" ON "payments" USING gin ("metadata");--> statement-breakpoint
CREATE INDEX "payments_description_trgm_idx" ON "payments" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payments_payer_address_lower_idx" ON "payments" USING btree (lower("payer_address"));--> statement-breakpoint
CREATE INDEX "payouts_to_address_lower_idx" ON "payouts" USING btree (lower("to_address"));--> statement-breakpoint
CREATE INDEX "payouts_tx_hash_lower_idx" ON "payouts" USING btree (lower("tx_hash"));--> statement-breakpoint
CREATE INDEX "payouts_amount_idx" ON "payouts" USING btree ("amount_units");--> statement-breakpoint
CREATE INDEX "payouts_metadata_idx" ON "payouts" USING gin ("metadata");--> statement-breakpoint
CREATE INDEX "payouts_description_trgm_idx" ON "payouts" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "deposits_tx_hash_lower_idx" ON "deposits" USING btree (lower("tx_hash"));--> statement-breakpoint
CREATE INDEX "deposits_from_address_lower_idx" ON "deposits" USING btree (lower("from_address"));--> statement-breakpoint
CREATE INDEX "refunds_to_address_lower_idx" ON "refunds" USING btree (lower("to_address"));--> statement-breakpoint
CREATE INDEX "refunds_tx_hash_lower_idx" ON "refunds" USING btree (lower("tx_hash"));--> statement-breakpoint
CREATE INDEX "refunds_amount_idx" ON "refunds" USING btree ("amount_units");--> statement-breakpoint
CREATE INDEX "refunds_metadata_idx" ON "refunds" USING gin ("metadata");--> statement-breakpoint
CREATE INDEX "refunds_reason_trgm_idx" ON "refunds" USING gin ("reason" gin_trgm_ops);