-- Keys outlived their creator's membership and role (security review 2026-12, finding 2): removing a member or
-- changing their role now revokes the keys they could no longer create (lib/identity/users/revoke-member-keys.ts).
-- Those left working by earlier removals and demotions are revoked here, once: a key whose creator is no longer a
-- member of its merchant, and a key holding a scope its creator's role may not give. The roles' grants below are
-- lib/identity/users/grantable-scopes.ts as of this migration (owner and admin: every scope but sandbox:chains;
-- developer: the reads, and webhooks' and events' writes; viewer: the reads). The revocation trigger
-- notifies every process's key cache.
update api_keys k set revoked_at = now()
 where k.created_by_user_id is not null
   and (k.revoked_at is null or k.revoked_at > now())
   and not exists (
     select 1 from users u
      where u.id = k.created_by_user_id and u.merchant_id = k.merchant_id
        and k.scopes <@ (case u.role
          when 'owner' then array['payments:read','payments:write','payment_links:read','payment_links:write',
            'balances:read','balances:write','payouts:read','payouts:write','refunds:read','refunds:write',
            'webhooks:read','webhooks:write','events:read','events:write']
          when 'admin' then array['payments:read','payments:write','payment_links:read','payment_links:write',
            'balances:read','balances:write','payouts:read','payouts:write','refunds:read','refunds:write',
            'webhooks:read','webhooks:write','events:read','events:write']
          when 'developer' then array['payments:read','payment_links:read','balances:read','payouts:read',
            'refunds:read','webhooks:read','webhooks:write','events:read','events:write']
          else array['payments:read','payment_links:read','balances:read','payouts:read','refunds:read',
            'webhooks:read','events:read']
        end)::text[]);
