-- The issue time (`iat`) of the newest token whose claims a user's row holds (issue 35): an older
-- token does not write its claims over a newer one's, so a role lowered at the identity provider
-- stays lowered once a newer token was seen, and an older token asking for more is refused.
alter table users add column token_issued_at timestamptz;
