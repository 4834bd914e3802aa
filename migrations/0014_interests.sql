-- Registered interest in one model (spec 3 §7 interest mutations, issue 14): a reader's interest in
-- an article, a channel or a promotional content, once per reader, item and UTC day, with where it
-- was delivered and how that went. Replaces `article_interest` (0007) and `channel_interest` (0008).
-- And the index behind the campaigns of the article stats page.

create table interest (
    interest_id     bigint generated always as identity primary key,
    kind            text not null check (kind in ('Article', 'Channel', 'PromotionalContent')),
    -- The item, in the column of its kind: it goes with the item when that is deleted.
    article_id      text references article (article_id) on delete cascade,
    channel_id      text references channel (channel_id) on delete cascade,
    promotional_content_id text references promotional_content (promotional_content_id) on delete cascade,
    item_id         text not null generated always as (coalesce(article_id, channel_id, promotional_content_id)) stored,
    user_id         text not null references users (user_id) on delete cascade,
    day             date not null default (now() at time zone 'UTC')::date,
    registered_at   timestamptz not null default now(),
    -- 'email': its emails are written to the outbox with it, and its state follows theirs (the
    -- trigger below). 'teams': a job posts it to the promotion page's Teams webhook.
    delivery_method text not null check (delivery_method in ('email', 'teams')),
    -- For Administrators: the addresses emailed, or 'Microsoft Teams' (never the webhook URL, a secret).
    delivered_to    text,
    -- pending → delivered, or retrying (after a failed attempt) → delivered | failed (out of attempts).
    delivery_state  text not null default 'pending' check (delivery_state in ('pending', 'delivered', 'retrying', 'failed')),
    attempts        integer not null default 0 check (attempts >= 0),
    last_error      text,
    -- Teams: when the next attempt is due.
    next_attempt_at timestamptz not null default now(),
    delivered_at    timestamptz,
    constraint interest_item_of_kind check (
        num_nonnulls(article_id, channel_id, promotional_content_id) = 1
        and case kind when 'Article' then article_id is not null
                      when 'Channel' then channel_id is not null
                      else promotional_content_id is not null end),
    -- Once per reader, item and day; also the index of the list's item filter.
    constraint interest_once_a_day unique (item_id, kind, user_id, day)
);
-- The admin list: newest first, alone or by kind.
create index interest_registered_idx on interest (registered_at desc, interest_id desc);
create index interest_kind_registered_idx on interest (kind, registered_at desc, interest_id desc);
create index interest_user_id_idx on interest (user_id);
-- Deleting an item finds its interest.
create index interest_article_id_idx on interest (article_id) where article_id is not null;
create index interest_channel_id_idx on interest (channel_id) where channel_id is not null;
create index interest_promotional_content_id_idx on interest (promotional_content_id) where promotional_content_id is not null;
-- Teams deliveries whose attempt is due (the job, and the outbox schedule for lost jobs and retries).
create index interest_due_idx on interest (next_attempt_at) where delivery_method = 'teams' and delivery_state in ('pending', 'retrying');

-- ---- emails of an interest ----

-- The emails an interest caused, so its delivery state can follow theirs.
alter table email_outbox add column interest_id bigint references interest (interest_id) on delete set null;
create index email_outbox_interest_id_idx on email_outbox (interest_id) where interest_id is not null;

-- An interest delivered by email takes its state from its emails: failed when one failed (or was
-- kept unsent for want of an SMTP server), delivered when all were sent, retrying while one waits
-- for another attempt after a failure, else pending. Its `delivered_to` lists their recipients.
-- An interest whose emails were purged from the outbox keeps the state it last had.
create function interest_follow_emails(target bigint) returns void
    language sql as $$
        update interest i
           set delivery_state = e.state, attempts = e.attempts, last_error = e.last_error,
               delivered_at = e.delivered_at, delivered_to = e.recipients
          from (select case when bool_or(o.state in ('failed', 'sentNowhere')) then 'failed'
                            when bool_and(o.state = 'sent') then 'delivered'
                            when bool_or(o.last_error is not null) then 'retrying'
                            else 'pending' end as state,
                       max(o.attempts) as attempts,
                       coalesce((array_agg(o.last_error order by o.state = 'failed' desc, o.email_id)
                                     filter (where o.last_error is not null))[1],
                                case when bool_or(o.state = 'sentNowhere') then 'Not sent: no SMTP server is configured' end) as last_error,
                       case when bool_and(o.state = 'sent') then max(o.sent_at) end as delivered_at,
                       string_agg(distinct o.recipient, ', ' order by o.recipient) as recipients
                  from email_outbox o
                 where o.interest_id = target
                having count(*) > 0) e
         where i.interest_id = target
    $$;

create function interest_email_changed() returns trigger
    language plpgsql as $$
        begin
            perform interest_follow_emails(new.interest_id);
            return null;
        end
    $$;
create trigger email_outbox_interest_state
    after update of state, interest_id on email_outbox
    for each row when (new.interest_id is not null)
    execute function interest_email_changed();

-- ---- what 0007 and 0008 recorded ----

-- Article interest was one row per reader and article, moved to the day of its latest registration.
insert into interest (kind, article_id, user_id, day, registered_at, delivery_method, delivery_state, delivered_at)
select 'Article', article_id, user_id, (registered_at at time zone 'UTC')::date, registered_at, 'email',
       case when notified_at is null then 'pending' else 'delivered' end, notified_at
  from article_interest;
-- Its earlier days are known from the emails they caused (keys 'articleInterest:{to}:{article}:{reader}:{at}').
insert into interest (kind, article_id, user_id, day, registered_at, delivery_method, delivery_state)
select 'Article', a.article_id, u.user_id, (o.created_at at time zone 'UTC')::date, min(o.created_at), 'email', 'delivered'
  from email_outbox o
  join article a on a.article_id = split_part(o.delivery_key, ':', 3)
  join users u on u.user_id = split_part(o.delivery_key, ':', 4)
 where o.kind = 'articleInterest'
 group by a.article_id, u.user_id, (o.created_at at time zone 'UTC')::date
on conflict on constraint interest_once_a_day do nothing;
-- Channel interest's emails were written when it was registered.
insert into interest (kind, channel_id, user_id, day, registered_at, delivery_method, delivery_state, delivered_at)
select 'Channel', channel_id, user_id, day, registered_at, 'email', 'delivered', registered_at
  from channel_interest;

-- Their emails ('{kind}:{to}:{item}:{reader}:{occasion}'), written the day they were registered.
update email_outbox o
   set interest_id = i.interest_id
  from interest i
 where o.kind in ('articleInterest', 'channelInterest')
   and i.kind = case o.kind when 'articleInterest' then 'Article' else 'Channel' end
   and i.item_id = split_part(o.delivery_key, ':', 3)
   and i.user_id = split_part(o.delivery_key, ':', 4)
   and i.day = (o.created_at at time zone 'UTC')::date;

drop table article_interest;
drop table channel_interest;

-- ---- campaigns ----

-- Views and unique readers per campaign (ArticleStats.campaigns) from the index alone.
drop index article_view_event_campaign_id_idx;
create index article_view_event_campaign_id_idx on article_view_event (campaign_id) include (user_id) where campaign_id is not null;
