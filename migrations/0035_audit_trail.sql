-- The audit trail (issue 40): one append-only table of who changed what, when, from where.
--
-- Changes to the tables staff manage are written by a row trigger, in the transaction of the
-- change: a change that commits has its rows, one that fails has none. The trigger keeps only the
-- fields that changed (before and after), never secrets, and large texts as a digest (the article
-- revisions keep the texts). Who made the change comes from the connection's `insights.audit`
-- setting (JSON), which the server sets from the request on every connection a mutation takes
-- (`audit::context`), the CLI for its command and the workers for their jobs; a change made with
-- no such setting is recorded with actor kind `system`. Events that change nothing (sign-ins,
-- exports, a reader's data opened by staff, the trail read) are written with `audit_record`.

create table audit_event (
    event_id        bigint generated always as identity primary key,
    occurred_at     timestamptz not null default clock_timestamp(),
    actor_kind      text not null check (actor_kind in ('user', 'cli', 'worker', 'stripe', 'system')),
    actor_id        text check (length(actor_id) <= 100),
    actor_role      text check (length(actor_role) <= 40),
    -- The actor's address at the time (users change theirs; the trail keeps what it was).
    actor_email     text check (length(actor_email) <= 320),
    source_address  text check (length(source_address) <= 100),
    user_agent      text check (length(user_agent) <= 400),
    request_id      text check (length(request_id) <= 100),
    -- The GraphQL mutation or query, the REST endpoint (`GET /export/audit.csv`) or the CLI command
    -- (`cli import-subscribers`).
    action          text not null check (length(action) between 1 and 200),
    entity_type     text check (length(entity_type) <= 60),
    entity_id       text check (length(entity_id) <= 200),
    -- {"op": insert|update|delete, "before": {..}, "after": {..}} for a change; other events say
    -- what they need ({"reason": ..} for a refused sign-in, {"filters": ..} for an export).
    change          jsonb not null default '{}'
);
create index audit_event_time_idx on audit_event (occurred_at desc, event_id desc);
create index audit_event_actor_idx on audit_event (actor_id, occurred_at desc, event_id desc) where actor_id is not null;
create index audit_event_entity_idx on audit_event (entity_type, entity_id, occurred_at desc, event_id desc);
create index audit_event_action_idx on audit_event (action, occurred_at desc, event_id desc);

-- Append-only: no update, no delete, no truncate. The one exception is the retention purge, which
-- an operator turns on (INSIGHTS_AUDIT_RETENTION_DAYS, off by default): it deletes rows older than
-- the retention with `insights.audit_purge` set for its transaction. Where the deployment gives
-- the application a role of its own, that role has no UPDATE, DELETE or TRUNCATE on the table
-- (README, "Audit trail").
create function audit_event_append_only() returns trigger language plpgsql as $$
begin
    if tg_op = 'DELETE' and current_setting('insights.audit_purge', true) = 'on' then
        return old;
    end if;
    raise exception 'audit_event is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
end
$$;
create trigger audit_event_no_update before update or delete on audit_event
    for each row execute function audit_event_append_only();
create trigger audit_event_no_truncate before truncate on audit_event
    for each statement execute function audit_event_append_only();
revoke update, delete, truncate on audit_event from public;

-- Who is acting on this connection (`insights.audit`), or the system when nobody said.
create function audit_context() returns jsonb language sql stable as $$
    select coalesce(nullif(current_setting('insights.audit', true), '')::jsonb, '{"kind": "system"}'::jsonb)
$$;

-- One event by `p_actor`, or when null by the connection's actor. `action` falls back to the
-- actor's (the request's operation).
create function audit_record(p_actor jsonb, p_action text, p_entity_type text, p_entity_id text, p_change jsonb) returns void
language sql volatile as $$
    insert into audit_event (actor_kind, actor_id, actor_role, actor_email, source_address, user_agent, request_id,
                             action, entity_type, entity_id, change)
    select c ->> 'kind', c ->> 'id', c ->> 'role', c ->> 'email', c ->> 'address', left(c ->> 'agent', 400), c ->> 'request',
           left(coalesce(p_action, c ->> 'action', 'unknown'), 200), p_entity_type, left(p_entity_id, 200), coalesce(p_change, '{}')
    from coalesce(p_actor, audit_context()) c
$$;

-- The row trigger of an audited table. Arguments: the entity type, the column naming the entity
-- (for a link table, its owner: an article's topics are changes of the article), the columns never
-- kept (secrets, derived search text, bookkeeping), and the columns kept as a digest.
create function audit_row_change() returns trigger language plpgsql as $$
declare
    entity_type text := tg_argv[0];
    id_column text := tg_argv[1];
    skipped text[] := string_to_array(coalesce(tg_argv[2], ''), ',');
    digested text[] := string_to_array(coalesce(tg_argv[3], ''), ',');
    old_row jsonb;
    new_row jsonb;
    before jsonb := '{}';
    after jsonb := '{}';
    key text;
begin
    if tg_op <> 'INSERT' then old_row := to_jsonb(old) - skipped; end if;
    if tg_op <> 'DELETE' then new_row := to_jsonb(new) - skipped; end if;
    foreach key in array digested loop
        if old_row ? key and jsonb_typeof(old_row -> key) = 'string' then
            old_row := jsonb_set(old_row, array[key], to_jsonb('md5:' || md5(old_row ->> key) || ', ' || length(old_row ->> key) || ' chars'));
        end if;
        if new_row ? key and jsonb_typeof(new_row -> key) = 'string' then
            new_row := jsonb_set(new_row, array[key], to_jsonb('md5:' || md5(new_row ->> key) || ', ' || length(new_row ->> key) || ' chars'));
        end if;
    end loop;
    if tg_op = 'UPDATE' then
        select coalesce(jsonb_object_agg(o.key, o.value), '{}'), coalesce(jsonb_object_agg(o.key, new_row -> o.key), '{}')
          into before, after
          from jsonb_each(old_row) o
         where o.value is distinct from new_row -> o.key;
        if before = '{}' then
            return null; -- nothing the trail keeps has changed (e.g. a sign-in's last_login)
        end if;
    elsif tg_op = 'INSERT' then
        after := new_row;
    else
        before := old_row;
    end if;
    perform audit_record(null, null, entity_type, coalesce(to_jsonb(new), to_jsonb(old)) ->> id_column,
                         jsonb_build_object('op', lower(tg_op), 'table', tg_table_name, 'before', before, 'after', after));
    return null;
end
$$;

-- The tables staff manage (uploads are recorded by their endpoints). Bookkeeping (version, created/updated times), derived search text and
-- sign-in times are not kept; an article's, template's or page's HTML is kept as a digest.
create trigger audit after insert or update or delete on users for each row execute function
    audit_row_change('user', 'user_id', 'version,created_at,updated_at,search_text,first_login,last_login,token_issued_at');
create trigger audit after insert or update or delete on category for each row execute function
    audit_row_change('topic', 'category_id', 'version,created_at,updated_at');
create trigger audit after insert or update or delete on tag for each row execute function
    audit_row_change('tag', 'tag_id', 'version,created_at,updated_at,search_text');
create trigger audit after insert or update or delete on desk for each row execute function
    audit_row_change('desk', 'desk_id', 'version,created_at,updated_at');
create trigger audit after insert or delete on desk_contributor for each row execute function
    audit_row_change('desk', 'desk_id');
create trigger audit after insert or update or delete on channel for each row execute function
    audit_row_change('channel', 'channel_id', 'version,created_at,updated_at');
create trigger audit after insert or delete on channel_admin for each row execute function
    audit_row_change('channel', 'channel_id');
create trigger audit after insert or update or delete on billing_channel_price for each row execute function
    audit_row_change('channel', 'channel_id', 'created_at');
create trigger audit after insert or update or delete on article for each row execute function
    audit_row_change('article', 'article_id', 'version,created_at,updated_at,search_vector,title_summary_vector,body_text,card_revision', 'html');
create trigger audit after insert or delete on article_category for each row execute function
    audit_row_change('article', 'article_id');
create trigger audit after insert or delete on article_tag for each row execute function
    audit_row_change('article', 'article_id');
create trigger audit after insert or update or delete on article_contributor for each row execute function
    audit_row_change('article', 'article_id');
create trigger audit after insert or delete on article_promotional_content for each row execute function
    audit_row_change('article', 'article_id');
create trigger audit after insert or update or delete on campaign for each row execute function
    audit_row_change('campaign', 'campaign_id', 'created_at');
create trigger audit after insert or update or delete on template for each row execute function
    audit_row_change('template', 'template_id', 'version,created_at,updated_at', 'html');
create trigger audit after insert or delete on template_contributor for each row execute function
    audit_row_change('template', 'template_id');
create trigger audit after insert or delete on template_category for each row execute function
    audit_row_change('template', 'template_id');
create trigger audit after insert or delete on template_tag for each row execute function
    audit_row_change('template', 'template_id');
create trigger audit after insert or update or delete on promotional_content for each row execute function
    audit_row_change('promotional_content', 'promotional_content_id', 'version,created_at,updated_at');
create trigger audit after insert or update or delete on promotion_page for each row execute function
    audit_row_change('promotion_page', 'promotion_page_id', 'version,created_at,updated_at', 'html');
create trigger audit after insert or update or delete on billing_account for each row execute function
    audit_row_change('billing_account', 'user_id', 'created_at');
create trigger audit after insert or update or delete on firm for each row execute function
    audit_row_change('firm', 'firm_id', 'version,created_at,updated_at');
create trigger audit after insert or delete on firm_domain for each row execute function
    audit_row_change('firm', 'firm_id');
create trigger audit after insert or update or delete on firm_member for each row execute function
    audit_row_change('firm', 'firm_id');
create trigger audit after insert or update or delete on firm_invitation for each row execute function
    audit_row_change('firm', 'firm_id');
create trigger audit after insert or update or delete on firm_seat for each row execute function
    audit_row_change('firm', 'firm_id');

-- The subscription audit becomes part of the trail: subscription changes are written by the
-- subscription state machine (its route and transition with the states before and after), as
-- entity `channel_subscription` (`{channel}/{user}`) or `firm_subscription` (`{channel}/{firm}`).
insert into audit_event (occurred_at, actor_kind, actor_id, actor_email, action, entity_type, entity_id, change)
select a.changed_at,
       case a.route when 'cli' then 'cli' when 'worker' then 'worker' when 'stripe' then 'stripe' else 'user' end,
       a.actor_id, u.email, a.action,
       case when a.firm_id is null then 'channel_subscription' else 'firm_subscription' end,
       a.channel_id || '/' || coalesce(a.user_id, a.firm_id),
       jsonb_build_object('route', a.route, 'transition', a.action,
                          'before', jsonb_strip_nulls(jsonb_build_object('type', a.from_type, 'state', a.from_state)),
                          'after', jsonb_strip_nulls(jsonb_build_object('type', a.to_type, 'state', a.to_state,
                                                                        'cancelAt', a.to_cancel_at, 'notes', a.notes)))
from subscription_audit a left join users u on u.user_id = a.actor_id
order by a.changed_at, a.audit_id;
drop table subscription_audit;

-- The subscription changes as the old table showed them, for the subscription history and for
-- reports written against it.
create view subscription_audit as
select e.event_id as audit_id,
       split_part(e.entity_id, '/', 1) as channel_id,
       case when e.entity_type = 'channel_subscription' then split_part(e.entity_id, '/', 2) end as user_id,
       case when e.entity_type = 'firm_subscription' then split_part(e.entity_id, '/', 2) end as firm_id,
       e.occurred_at as changed_at,
       e.actor_id,
       e.change ->> 'route' as route,
       e.change ->> 'transition' as action,
       e.change -> 'before' ->> 'type' as from_type,
       e.change -> 'before' ->> 'state' as from_state,
       e.change -> 'after' ->> 'type' as to_type,
       e.change -> 'after' ->> 'state' as to_state,
       (e.change -> 'after' ->> 'cancelAt')::timestamptz as to_cancel_at,
       e.change -> 'after' ->> 'notes' as notes
from audit_event e
where e.entity_type in ('channel_subscription', 'firm_subscription');
