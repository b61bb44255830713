-- Pushed status (lib/platform/db/change-feed.ts): a transaction that changes a payment or writes an event
-- notifies at its commit, and only then; the live streams read again when told instead of every second.
-- A payment's change is sent as its id; an event as "<merchant_id>:<mode> <stream_xid>" (the stream waits
-- until that transaction is below every running one before it can read it).
create function notify_payment_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('payment_changed', new.id);
  return null;
end
$$;
--> statement-breakpoint
create trigger payments_notify_changed after update on payments
  for each row when (old.* is distinct from new.*) execute function notify_payment_changed();
--> statement-breakpoint
create function notify_event_created() returns trigger language plpgsql as $$
begin
  perform pg_notify('event_created', new.merchant_id || ':' || new.mode || ' ' || new.stream_xid::text);
  return null;
end
$$;
--> statement-breakpoint
create trigger events_notify_created after insert on events
  for each row execute function notify_event_created();
