-- A sweep of a customer's deposit address (and what prepares it) is attributed to the deposits it collected
-- (docs/DEPOSITS.md): outbound_costs takes the subject `deposit`.
ALTER TABLE "outbound_costs" DROP CONSTRAINT "outbound_costs_subject_check";--> statement-breakpoint
ALTER TABLE "outbound_costs" ADD CONSTRAINT "outbound_costs_subject_check" CHECK ("outbound_costs"."subject_type" in ('payment','deposit','payout','refund','installation'));
