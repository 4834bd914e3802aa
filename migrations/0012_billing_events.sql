-- Stripe events are recorded by the webhook and applied by a job (billing::webhook): a pending
-- event keeps its object until it is applied; one that failed waits until retry_at, so it does
-- not hold back the others.
alter table stripe_event add column object jsonb;
alter table stripe_event add column applied_at timestamptz;
alter table stripe_event add column attempts integer not null default 0;
alter table stripe_event add column retry_at timestamptz;
update stripe_event set applied_at = received_at;
create index stripe_event_pending_idx on stripe_event (received_at, event_id) where applied_at is null;

-- When the subscription's state was last read from Stripe (the database's clock, at or before the
-- read began). An event received before that needs no read of its own: the state applied already
-- includes its change (billing::sync).
alter table billing_stripe_subscription add column read_at timestamptz;
