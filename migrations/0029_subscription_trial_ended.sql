-- The SQL twin of the state machine's 'trial expired' (`subscriptions::machine::status`, TrialStatus
-- Expired): a trial that ran and ended, by expiry (recorded, or past its end before the sweep
-- records it) or cancelled after it started. A withdrawn or rejected request never ran.
-- The staff user search (spec 3 §5) offers, of the readers who have a subscription to a channel,
-- only those whose trial ended.
create function subscription_trial_ended(s channel_subscription) returns boolean
language sql stable as $$
    select s.subscription_type = 'trial'
       and (s.subscription_state = 'expired'
            or (s.subscription_state in ('active', 'paymentFailed') and s.cancel_at <= now())
            or (s.subscription_state = 'canceled' and s.trial_duration is not null))
$$;
