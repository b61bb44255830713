-- Verified API keys are cached per process for a few seconds (lib/identity/api-keys/verified-key-cache.ts):
-- every change that can refuse a key (revoked, rotated, re-scoped, deleted) notifies its secret hash at
-- commit, and every process drops it. last_used_at, touched once a minute, notifies nothing.
create function notify_api_key_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('api_key_changed', old.secret_hash);
  return null;
end
$$;
--> statement-breakpoint
create trigger api_keys_notify_changed after update on api_keys
  for each row when (
    old.revoked_at is distinct from new.revoked_at or old.scopes is distinct from new.scopes
    or old.secret_hash is distinct from new.secret_hash or old.merchant_id is distinct from new.merchant_id
    or old.mode is distinct from new.mode
  ) execute function notify_api_key_changed();
--> statement-breakpoint
create trigger api_keys_notify_deleted after delete on api_keys
  for each row execute function notify_api_key_changed();
