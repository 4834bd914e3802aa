-- Service emails (an approval, a reminder, a reader's interest) are delivered before notifications
-- and digests: a trial approval must not wait behind a 100,000-reader fan-out.
alter table email_outbox add column bulk boolean not null default false;
update email_outbox set bulk = true where kind in ('articlePublished', 'digest');

-- Claims walk service emails first, then a fan-out's backlog in order.
drop index email_outbox_due_idx;
create index email_outbox_due_idx on email_outbox (bulk, next_attempt_at, email_id) where state in ('pending', 'sending');
