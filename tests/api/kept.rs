//! The map of what servers keep in memory (`insights::kept::map`) against the database: every row
//! of it moves its revision, every column a kept value's read selects is in it, and every column of
//! the tables they read is decided on. The values' own "changed behind its back" tests stay in
//! their areas' files; these check the map itself, row by row.

use std::{
    collections::{BTreeMap, BTreeSet, HashMap},
    sync::{Arc, Mutex},
};

use insights::kept::map::{KEPT, KeptValue, MAP, Moves, NOT_KEPT, Revision, Scope};
use serde_json::Value;
use sqlx::{AssertSqlSafe, PgConnection, PgPool};
use tracing_subscriber::{Layer, layer::SubscriberExt};

/// A published article with every link a kept value reads (topic, tag, contributor, channel, desk,
/// promotional content), a reader who subscribes, follows and has read it twice, and a second of
/// each record for a changed link to point to. Written with SQL: the map is about rows and columns.
struct Seed {
    ids: BTreeMap<&'static str, String>,
}

impl Seed {
    async fn write(pool: &PgPool) -> Seed {
        let names = [
            "staff", "reader", "desk", "desk2", "promotion", "promotion2", "page", "topic", "topic2", "tag", "tag2", "channel",
            "channel2", "template", "article", "draft", "firm", "firmsub", "firmsub2", "channel3",
        ];
        let ids: BTreeMap<&'static str, String> = names.into_iter().map(|name| (name, insights::ids::new_id())).collect();
        let seed = Seed { ids };
        for statement in SEED.split(";\n").map(str::trim).filter(|s| !s.is_empty()) {
            let statement = seed.fill(statement);
            sqlx::raw_sql(AssertSqlSafe(statement.clone()))
                .execute(pool)
                .await
                .unwrap_or_else(|error| panic!("seed: {error}\n{statement}"));
        }
        seed
    }

    /// `sql` with each `{name}` replaced by that record's id (ids are hex: safe to write in).
    fn fill(&self, sql: &str) -> String {
        self.ids.iter().fold(sql.to_owned(), |sql, (name, id)| sql.replace(&format!("{{{name}}}"), id))
    }

    fn id(&self, name: &str) -> &str {
        &self.ids[name]
    }
}

const SEED: &str = "
insert into users (user_id, subject, email, name, role, position, phone, display_avatar, profile_picture)
    values ('{staff}', 'dev|{staff}', 'staff@insights.example', 'Staff Writer', 'Editor', 'Analyst', '+1 555', true, '{staff}.png');
insert into users (user_id, subject, email, name, role) values ('{reader}', 'dev|{reader}', 'reader@insights.example', 'Reader', 'Subscriber');
insert into desk (desk_id, name, description, email) values ('{desk}', 'Research Desk', 'Research', 'desk@insights.example');
insert into desk (desk_id, name, email) values ('{desk2}', 'Other Desk', 'other@insights.example');
insert into promotion_page (promotion_page_id, name, html, teams_channel, page_summary, social_sharing_image_url, success_title, success_message)
    values ('{page}', 'Landing', '<p>Landing</p>', 'https://teams.example', 'Summary', '{page}.png', 'Thanks', 'We will call');
insert into promotional_content (promotional_content_id, name, description, link, article_image, sidebar_image, expiry_date)
    values ('{promotion}', 'Webinar', 'A webinar', 'https://example.com/webinar', '{promotion}.png', '{promotion}.jpg', now() + interval '30 days');
insert into promotional_content (promotional_content_id, name, description) values ('{promotion2}', 'Other promotion', 'Another');
insert into category (category_id, name, description, small_image, large_image, promotional_content_id)
    values ('{topic}', 'Energy', 'About energy', '{topic}.png', '{topic}.jpg', '{promotion}');
insert into category (category_id, name, description) values ('{topic2}', 'Metals', 'About metals');
insert into tag (tag_id, name, description) values ('{tag}', 'Oil', 'About oil');
insert into tag (tag_id, name, description) values ('{tag2}', 'Gas', 'About gas');
insert into channel (channel_id, name, description, url, profile_image, cover_image, gl_account, price, type, owner_type, owner_desk_id,
                     default_trial_duration_days, created_by)
    values ('{channel}', 'Energy Research', 'For clients', 'energy', '{channel}.png', '{channel}.jpg', 'GL-1', 49.5, 'premium', 'desk', '{desk}',
            14, '{staff}');
insert into channel (channel_id, name, type, owner_type, owner_desk_id, default_trial_duration_days)
    values ('{channel2}', 'Open Research', 'freeOpen', 'desk', '{desk2}', 14);
insert into channel_admin (channel_id, user_id) values ('{channel}', '{staff}');
insert into template (template_id, title) values ('{template}', 'A template');
insert into article (article_id, title, state, premium_channel_id, published_by_desk_id, author_id, html, body_text, summary, publish_date,
                     was_published_previously, is_premium, premium_expiry_offset, show_watermark, display_in_chart_section, is_pinned,
                     template_id)
    values ('{article}', 'Oil prices', 'Published', '{channel}', '{desk}', '{staff}', '<p>Oil body text</p>', 'Oil body text',
            'Oil prices summary', now() - interval '1 day', true, true, '3d', true, true, true, '{template}');
insert into article (article_id, title) values ('{draft}', 'A draft');
insert into article_category values ('{article}', '{topic}');
insert into article_tag values ('{article}', '{tag}');
insert into article_contributor values ('{article}', '{staff}');
insert into article_promotional_content values ('{article}', '{promotion}');
insert into channel_subscription (channel_id, user_id, subscription_type, subscription_state, account_number, legal_entity_name, billing_email_address)
    values ('{channel}', '{reader}', 'account', 'active', 'ACC-1', 'Reader Ltd', 'billing@reader.example');
insert into category_follow (category_id, user_id) values ('{topic}', '{reader}');
insert into article_view (article_id, user_id, views) values ('{article}', '{reader}', 2);
insert into channel (channel_id, name, type, owner_type, owner_desk_id, default_trial_duration_days)
    values ('{channel3}', 'Metals Research', 'freeClosed', 'desk', '{desk2}', 14);
insert into firm (firm_id, name, billing_method) values ('{firm}', 'Client Bank', 'account');
insert into firm_member (user_id, firm_id, joined_by) values ('{reader}', '{firm}', 'staff');
insert into firm_subscription (firm_subscription_id, firm_id, channel_id, starts_at, subscription_type, subscription_state)
    values ('{firmsub}', '{firm}', '{channel}', now() - interval '1 day', 'account', 'active');
insert into firm_subscription (firm_subscription_id, firm_id, channel_id, starts_at, subscription_type, subscription_state)
    values ('{firmsub2}', '{firm}', '{channel3}', now() - interval '1 day', 'nonCharge', 'active');
insert into firm_seat (firm_subscription_id, firm_id, user_id) values ('{firmsub}', '{firm}', '{reader}')
";

/// The seeded row each table's changes are made to.
fn seeded_row(table: &str) -> &'static str {
    match table {
        "article" => "article_id = '{article}'",
        "category" => "category_id = '{topic}'",
        "tag" => "tag_id = '{tag}'",
        "channel" => "channel_id = '{channel}'",
        "desk" => "desk_id = '{desk}'",
        "users" => "user_id = '{staff}'",
        "promotional_content" => "promotional_content_id = '{promotion}'",
        "article_category" => "article_id = '{article}' and category_id = '{topic}'",
        "article_tag" => "article_id = '{article}' and tag_id = '{tag}'",
        "article_contributor" => "article_id = '{article}' and user_id = '{staff}'",
        "article_promotional_content" => "article_id = '{article}' and promotional_content_id = '{promotion}'",
        "article_view" => "article_id = '{article}' and user_id = '{reader}'",
        "category_follow" => "category_id = '{topic}' and user_id = '{reader}'",
        "channel_subscription" => "channel_id = '{channel}' and user_id = '{reader}'",
        "channel_admin" => "channel_id = '{channel}' and user_id = '{staff}'",
        "firm" => "firm_id = '{firm}'",
        "firm_subscription" => "firm_subscription_id = '{firmsub}'",
        "firm_seat" => "firm_subscription_id = '{firmsub}' and user_id = '{reader}'",
        other => panic!("no seeded row of {other}: add one to `seeded_row`"),
    }
}

/// A row added to a table (the seeded article, reader, topic or channel being the one it concerns).
fn inserted_row(table: &str) -> &'static str {
    match table {
        "article" => "insert into article (article_id, title, state, publish_date) values ('{new}', 'New', 'Published', now())",
        "category" => "insert into category (category_id, name, description) values ('{new}', 'New topic', 'New')",
        "promotional_content" => "insert into promotional_content (promotional_content_id, name) values ('{new}', 'New promotion')",
        "channel" => {
            "insert into channel (channel_id, name, type, owner_type, owner_desk_id, default_trial_duration_days)
             values ('{new}', 'New channel', 'freeOpen', 'desk', '{desk}', 14)"
        }
        "article_category" => "insert into article_category values ('{article}', '{topic2}')",
        "article_tag" => "insert into article_tag values ('{article}', '{tag2}')",
        "article_contributor" => "insert into article_contributor values ('{article}', '{reader}')",
        "article_promotional_content" => "insert into article_promotional_content values ('{article}', '{promotion2}')",
        // Read twice at once: the reader's reading revision follows read-twice articles only.
        "article_view" => "insert into article_view (article_id, user_id, views) values ('{draft}', '{reader}', 2)",
        "category_follow" => "insert into category_follow (category_id, user_id) values ('{topic2}', '{reader}')",
        "channel_subscription" => {
            "insert into channel_subscription (channel_id, user_id, subscription_type, subscription_state)
             values ('{channel2}', '{reader}', 'free', 'active')"
        }
        "channel_admin" => "insert into channel_admin (channel_id, user_id) values ('{channel}', '{reader}')",
        "firm_seat" => "insert into firm_seat (firm_subscription_id, firm_id, user_id) values ('{firmsub2}', '{firm}', '{reader}')",
        other => panic!("no row to add to {other}: add one to `inserted_row`"),
    }
}

/// The row removed from a table, where it is not the seeded one (which others reference).
fn deleted_row(table: &str) -> String {
    match table {
        "category" => "category_id = '{topic2}'".to_owned(),
        "promotional_content" => "promotional_content_id = '{promotion2}'".to_owned(),
        "channel" => "channel_id = '{channel2}'".to_owned(),
        other => seeded_row(other).to_owned(),
    }
}

/// A different valid value for columns whose type alone does not give one (constraints, keys,
/// generated columns): the whole `set` clause.
fn changed_value(table: &str, column: &str) -> Option<&'static str> {
    Some(match (table, column) {
        ("article", "state") => "state = 'Archived'",
        ("article", "premium_channel_id") => "premium_channel_id = '{channel2}'",
        ("article", "published_by_desk_id") => "published_by_desk_id = '{desk2}'",
        ("article", "published_by_user_id") => "published_by_desk_id = null, published_by_user_id = '{staff}'",
        ("article", "author_id") => "author_id = '{reader}'",
        ("article", "template_id") => "template_id = null",
        ("article", "is_premium") => "is_premium = false, premium_expiry_offset = null",
        ("article", "premium_expiry_offset") => "premium_expiry_offset = '1w'",
        // Generated from the publish date and the offset.
        ("article", "premium_expires_at") => "premium_expiry_offset = '1m'",
        ("category", "parent_id") => "parent_id = '{topic2}'",
        ("category", "promotional_content_id") => "promotional_content_id = '{promotion2}'",
        ("promotional_content", "promotion_page_id") => "link = null, promotion_page_id = '{page}'",
        ("channel", "type") => "type = 'freeClosed'",
        ("channel", "owner_type" | "owner_user_id") => "owner_type = 'contributor', owner_desk_id = null, owner_user_id = '{staff}'",
        ("channel", "owner_desk_id") => "owner_desk_id = '{desk2}'",
        ("channel", "state" | "archived_at") => "state = 'archived', archived_at = now()",
        ("channel", "created_by") => "created_by = '{reader}'",
        ("users", "profile_picture") => "profile_picture = '{reader}.jpg'",
        ("channel_subscription", "channel_id") => "channel_id = '{channel2}'",
        ("channel_subscription", "user_id") => "user_id = '{staff}'",
        ("channel_subscription", "subscription_type") => "subscription_type = 'free', account_number = null",
        ("channel_subscription", "subscription_state") => "subscription_state = 'canceled'",
        ("channel_subscription", "billing_method") => "subscription_type = 'external', account_number = null, billing_method = 'Invoice'",
        ("channel_subscription", "trial_duration") => "subscription_type = 'trial', account_number = null, trial_duration = 7",
        ("channel_subscription", "email_frequency") => "email_frequency = case when email_frequency = 'weekly' then 'daily' else 'weekly' end",
        ("channel_subscription", "billing_email_address") => "billing_email_address = 'other@reader.example'",
        // From read twice to read once: the article may be recommended again.
        ("article_view", "views") => "views = 1",
        ("article_view", "article_id") | ("article_category", "article_id") | ("article_contributor", "article_id") => {
            "article_id = '{draft}'"
        }
        ("article_view", "user_id") | ("category_follow", "user_id") => "user_id = '{staff}'",
        ("article_category", "category_id") | ("category_follow", "category_id") => "category_id = '{topic2}'",
        ("article_contributor", "user_id") => "user_id = '{reader}'",
        ("channel_admin", "channel_id") => "channel_id = '{channel2}'",
        ("channel_admin", "user_id") => "user_id = '{reader}'",
        ("firm_seat", "assigned_by") => "assigned_by = '{staff}'",
        ("firm_seat", "email_frequency") => "email_frequency = 'weekly'",
        ("firm_subscription", "channel_id") => "channel_id = '{channel2}'",
        ("firm_subscription", "subscription_type") => "subscription_type = 'nonCharge'",
        ("firm_subscription", "subscription_state") => "subscription_state = 'canceled'",
        ("firm_subscription", "price_basis") => "price_basis = 'flat'",
        ("firm_subscription", "created_by") => "created_by = '{staff}'",
        _ => return None,
    })
}

/// A different value of a column's type.
fn changed_by_type(column: &str, data_type: &str) -> String {
    match data_type {
        "text" => format!("{column} = coalesce({column}, '') || 'x'"),
        "boolean" => format!("{column} = not coalesce({column}, false)"),
        "integer" | "bigint" | "numeric" => format!("{column} = coalesce({column}, 0) + 1"),
        "timestamp with time zone" => format!("{column} = coalesce({column}, now()) - interval '1 hour'"),
        "tsvector" => format!("{column} = to_tsvector('english', 'changed words')"),
        other => panic!("{column}: no changed value for type {other}: add one to `changed_value`"),
    }
}

/// The statement that makes `row`'s change to the seeded data.
async fn change_of(pool: &PgPool, seed: &Seed, row: &Moves) -> String {
    let sql = match row.column {
        "(insert)" => inserted_row(row.table).replace("{new}", &insights::ids::new_id()),
        "(delete)" => format!("delete from {} where {}", row.table, deleted_row(row.table)),
        column => {
            let set = match changed_value(row.table, column) {
                Some(set) => set.to_owned(),
                None => {
                    let data_type: String = sqlx::query_scalar(
                        "select data_type from information_schema.columns where table_schema = 'public' and table_name = $1 and column_name = $2",
                    )
                    .bind(row.table)
                    .bind(column)
                    .fetch_optional(pool)
                    .await
                    .unwrap()
                    .unwrap_or_else(|| panic!("MAP names {}.{column}, which is not a column", row.table));
                    changed_by_type(column, &data_type)
                }
            };
            format!("update {} set {set} where {}", row.table, seeded_row(row.table))
        }
    };
    seed.fill(&sql)
}

/// The revision's current value for the seeded reader or article.
async fn current(conn: &mut PgConnection, seed: &Seed, revision: Revision) -> i64 {
    let sql = revision.current_value_sql().expect("a revision with a value");
    let query = sqlx::query_scalar::<_, i64>(sql);
    let query = match revision.scope() {
        Scope::PerUser => query.bind(seed.id("reader")),
        Scope::PerArticle => query.bind(seed.id("article")),
        _ => query,
    };
    query.fetch_one(conn).await.unwrap()
}

#[sqlx::test(migrations = "./migrations")]
async fn every_map_row_moves_its_revision(pool: PgPool) {
    let seed = Seed::write(&pool).await;
    let mut unmoved = Vec::new();
    for row in MAP {
        // Each change in a transaction of its own, rolled back: the revision must move in the
        // writing transaction, and the next row starts from the same seed.
        let change = change_of(&pool, &seed, row).await;
        let mut tx = pool.begin().await.unwrap();
        let before = current(&mut tx, &seed, row.revision).await;
        sqlx::raw_sql(AssertSqlSafe(change.clone()))
            .execute(&mut *tx)
            .await
            .unwrap_or_else(|error| panic!("{}.{}: {error}\n{change}", row.table, row.column));
        let after = current(&mut tx, &seed, row.revision).await;
        tx.rollback().await.unwrap();
        if after == before {
            unmoved.push(format!("{}.{} does not move {:?} ({}): {change}", row.table, row.column, row.revision, row.migration));
        }
    }
    assert!(unmoved.is_empty(), "map rows whose change leaves their revision:\n{}", unmoved.join("\n"));
}

/// The SQL of every statement sqlx runs on this thread while the guard lives (its `sqlx::query`
/// events: the text, or the summary when that is the whole statement).
#[derive(Clone, Default)]
struct Statements(Arc<Mutex<Vec<String>>>);

impl<S: tracing::Subscriber> Layer<S> for Statements {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        if event.metadata().target() != "sqlx::query" {
            return;
        }
        #[derive(Default)]
        struct Fields {
            summary: String,
            statement: String,
        }
        impl tracing::field::Visit for Fields {
            fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
                match field.name() {
                    "summary" => self.summary = value.to_owned(),
                    "db.statement" => self.statement = value.trim().to_owned(),
                    _ => {}
                }
            }
            fn record_debug(&mut self, _: &tracing::field::Field, _: &dyn std::fmt::Debug) {}
        }
        let mut fields = Fields::default();
        event.record(&mut fields);
        let sql = if fields.statement.is_empty() { fields.summary } else { fields.statement };
        self.0.lock().unwrap().push(sql);
    }
}

impl Statements {
    fn capture() -> (Statements, tracing::subscriber::DefaultGuard) {
        let statements = Statements::default();
        let subscriber = tracing_subscriber::registry().with(statements.clone());
        (statements.clone(), tracing::subscriber::set_default(subscriber))
    }

    fn take(&self) -> Vec<String> {
        std::mem::take(&mut self.0.lock().unwrap())
    }
}

/// Runs the read of a kept value over the seed (each filter it can take given, so that its
/// statements name every column some read of it selects).
async fn read_kept_value(pool: &PgPool, seed: &Seed, value: &KeptValue) {
    use insights::{articles, channels, reading, search, subscriptions, taxonomy};
    let article = vec![seed.id("article").to_owned()];
    let channel = vec![seed.id("channel").to_owned()];
    let a_month_ago = chrono::Utc::now() - chrono::Duration::days(30);
    match value.name {
        "cards" => {
            reading::queries::card_rows(pool, &article).await.unwrap();
        }
        "article_relations" => {
            articles::queries::relations_of(pool, &article).await.unwrap();
        }
        "search_snippets" => {
            search::queries::snippets(pool, &article, &[true], "oil").await.unwrap();
        }
        "article_pages" => {
            reading::queries::article(pool, seed.id("article")).await.unwrap();
        }
        "channel_recent_articles" => {
            reading::queries::newest_in_channel(pool, seed.id("channel"), a_month_ago, 6).await.unwrap();
        }
        "latest_pages" => {
            let filter = reading::queries::LatestFilter {
                channels: &channel,
                only_mine: false,
                exclude_mine: false,
                free_only: true,
                limit: 10,
                offset: 0,
            };
            reading::queries::next_premium_end(pool).await.unwrap();
            reading::queries::latest_ids(pool, &filter).await.unwrap();
        }
        "search_pages" | "search_counts" => {
            let every_filter = search::queries::SearchFilter {
                topics: Some(vec![seed.id("topic").to_owned()]),
                channel: Some(seed.id("channel").to_owned()),
                date_from: Some(a_month_ago),
                date_to: Some(chrono::Utc::now()),
                tag: Some(seed.id("tag").to_owned()),
                desk: Some(seed.id("desk").to_owned()),
                contributor: Some(seed.id("staff").to_owned()),
                channels: Some(channel.clone()),
                query: Some("oil".to_owned()),
                body_channels: Some(channel.clone()),
                charts_only: true,
                pinned_first: true,
                ..Default::default()
            };
            let mut conn = pool.acquire().await.unwrap();
            if value.name == "search_counts" {
                search::queries::count(&mut *conn, &every_filter).await.unwrap();
            } else {
                let ranking = search::queries::ranking_in_use(&mut *conn).await.unwrap();
                search::queries::page(&mut conn, &every_filter, ranking, None, 10).await.unwrap();
                // Without words a page is ordered by date (pinned first).
                let by_date = search::queries::SearchFilter { query: None, body_channels: None, ..every_filter };
                search::queries::page(&mut conn, &by_date, ranking, None, 10).await.unwrap();
            }
        }
        "recommended" => {
            reading::queries::recommended_ids(pool, seed.id("reader"), &channel, 10, 0).await.unwrap();
        }
        "followed_topics" => {
            reading::queries::followed_topics(pool, seed.id("reader")).await.unwrap();
        }
        "reader_subscriptions" => {
            subscriptions::queries::of_user(pool, seed.id("reader")).await.unwrap();
            insights::firms::queries::seats_of_user(pool, seed.id("reader")).await.unwrap();
        }
        "all_channels" => {
            // As `channels::read::all_channels` reads them.
            let every_channel = channels::queries::ChannelFilter { viewer: "", sort: "name", ..Default::default() };
            channels::queries::select_channels(pool, &every_channel).await.unwrap();
            channels::queries::admins_of(pool, &channel).await.unwrap();
        }
        "topic_list" | "shared_topic_reads" => {
            taxonomy::queries::list_categories(pool).await.unwrap();
        }
        "topic_counts" => {
            taxonomy::queries::list_topic_counts(pool).await.unwrap();
        }
        other => panic!("no read of the kept value {other}: add it to `read_kept_value`"),
    }
}

/// The statements the read of `value` runs.
async fn statements_of(pool: &PgPool, seed: &Seed, value: &KeptValue) -> Vec<String> {
    // A few tries: while other tests' threads set and drop their own subscribers, tracing may
    // rebuild a callsite's interest without this thread's (seen under load, never alone). A read
    // that runs no statement at all still fails after them.
    for _ in 0..3 {
        let (statements, guard) = Statements::capture();
        read_kept_value(pool, seed, value).await;
        drop(guard);
        let statements: Vec<String> = statements
            .take()
            .into_iter()
            .filter(|sql| {
                let sql = sql.trim_start().to_lowercase();
                sql.starts_with("select") || sql.starts_with("with")
            })
            .collect();
        if !statements.is_empty() {
            return statements;
        }
    }
    panic!("{}: no statement captured", value.name);
}

/// Every column of the public tables, in order.
async fn table_columns(pool: &PgPool) -> HashMap<String, Vec<String>> {
    let rows: Vec<(String, String)> = sqlx::query_as(
        "select table_name::text, column_name::text from information_schema.columns
         where table_schema = 'public' order by table_name, ordinal_position",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    let mut columns: HashMap<String, Vec<String>> = HashMap::new();
    for (table, column) in rows {
        columns.entry(table).or_default().push(column);
    }
    columns
}

/// The (table, column) pairs a statement reads, from its generic plan (every branch, whatever the
/// parameters): each `alias.column` the plan names, for the aliases of table scans.
async fn columns_read(conn: &mut PgConnection, tables: &HashMap<String, Vec<String>>, sql: &str) -> BTreeSet<(String, String)> {
    sqlx::raw_sql(AssertSqlSafe(format!("prepare kept_probe as {sql}"))).execute(&mut *conn).await.unwrap_or_else(|e| panic!("{e}\n{sql}"));
    let parameters: i32 = sqlx::query_scalar(
        "select coalesce(cardinality(parameter_types), 0) from pg_prepared_statements where name = 'kept_probe'",
    )
    .fetch_one(&mut *conn)
    .await
    .unwrap();
    let nulls = vec!["null"; parameters as usize].join(", ");
    let explain = if parameters == 0 { "execute kept_probe".to_owned() } else { format!("execute kept_probe({nulls})") };
    sqlx::raw_sql("set plan_cache_mode = force_generic_plan").execute(&mut *conn).await.unwrap();
    let plan: Value = sqlx::query_scalar(AssertSqlSafe(format!("explain (verbose, format json) {explain}")))
        .fetch_one(&mut *conn)
        .await
        .unwrap();
    sqlx::raw_sql("deallocate kept_probe; reset plan_cache_mode").execute(&mut *conn).await.unwrap();

    let mut aliases = HashMap::new();
    collect_aliases(&plan, &mut aliases);
    let mut read = BTreeSet::new();
    collect_references(&plan, true, &aliases, tables, &mut read);
    // A partial index's condition is the statement's, yet the plan leaves it out (the index implies it).
    let mut indexes = BTreeSet::new();
    collect_index_names(&plan, &mut indexes);
    for index in indexes {
        let predicate: Option<(String, String)> = sqlx::query_as(
            "select t.relname::text, pg_get_expr(i.indpred, i.indrelid) from pg_index i
             join pg_class x on x.oid = i.indexrelid join pg_class t on t.oid = i.indrelid
             where x.relname = $1 and i.indpred is not null",
        )
        .bind(&index)
        .fetch_optional(&mut *conn)
        .await
        .unwrap();
        if let Some((table, predicate)) = predicate {
            let words: BTreeSet<&str> = predicate.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).collect();
            read.extend(tables[&table].iter().filter(|column| words.contains(column.as_str())).map(|column| (table.clone(), column.clone())));
        }
    }
    read
}

/// The indexes a plan reads.
fn collect_index_names(node: &Value, indexes: &mut BTreeSet<String>) {
    match node {
        Value::Object(fields) => {
            if let Some(Value::String(index)) = fields.get("Index Name") {
                indexes.insert(index.clone());
            }
            fields.values().for_each(|value| collect_index_names(value, indexes));
        }
        Value::Array(items) => items.iter().for_each(|item| collect_index_names(item, indexes)),
        _ => {}
    }
}

/// Table scans' aliases (unique within a plan) → their tables.
fn collect_aliases(node: &Value, aliases: &mut HashMap<String, String>) {
    match node {
        Value::Object(fields) => {
            if let (Some(Value::String(table)), Some(Value::String(alias)), Some(Value::String(schema))) =
                (fields.get("Relation Name"), fields.get("Alias"), fields.get("Schema"))
                && schema == "public"
            {
                aliases.insert(alias.clone(), table.clone());
            }
            fields.values().for_each(|value| collect_aliases(value, aliases));
        }
        Value::Array(items) => items.iter().for_each(|item| collect_aliases(item, aliases)),
        _ => {}
    }
}

/// Every `alias.column` in a plan's expressions. A node below another may return a scanned table's
/// whole row (a "physical" target list, cheaper to pass up) whatever the query reads: such an
/// output is left out, as the nodes above name the columns they use.
fn collect_references(
    node: &Value,
    top: bool,
    aliases: &HashMap<String, String>,
    tables: &HashMap<String, Vec<String>>,
    read: &mut BTreeSet<(String, String)>,
) {
    match node {
        Value::Object(fields) => {
            for (key, value) in fields {
                match (key.as_str(), value) {
                    ("Plan", plan) => collect_references(plan, true, aliases, tables, read),
                    ("Plans", plans) => collect_references(plans, false, aliases, tables, read),
                    (_, Value::String(text)) => references_in(text, aliases, tables, read),
                    (key, Value::Array(items)) => {
                        let texts: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
                        if key == "Output" && !top && is_whole_row(&texts, aliases, tables) {
                            continue;
                        }
                        texts.into_iter().for_each(|text| references_in(text, aliases, tables, read));
                    }
                    _ => {}
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_references(item, top, aliases, tables, read)),
        _ => {}
    }
}

/// Whether an output is every column of one scanned table, each as it is.
fn is_whole_row(output: &[&str], aliases: &HashMap<String, String>, tables: &HashMap<String, Vec<String>>) -> bool {
    let Some((alias, _)) = output.first().and_then(|first| first.split_once('.')) else { return false };
    let Some(table) = aliases.get(alias) else { return false };
    let columns = &tables[table];
    output.len() == columns.len()
        && output.iter().zip(columns).all(|(item, column)| {
            item.split_once('.').is_some_and(|(a, c)| a == alias && c.trim_matches('"') == column)
        })
}

/// The `alias.column` (and `alias.*`: every column) references in an expression.
fn references_in(text: &str, aliases: &HashMap<String, String>, tables: &HashMap<String, Vec<String>>, read: &mut BTreeSet<(String, String)>) {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let chars: Vec<char> = text.chars().collect();
    let name_end = |from: usize| (from..chars.len()).find(|&i| !is_name(chars[i])).unwrap_or(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let starts_name = is_name(chars[i]) && (i == 0 || !(is_name(chars[i - 1]) || chars[i - 1] == '.' || chars[i - 1] == '"'));
        if !starts_name {
            i += 1;
            continue;
        }
        let end = name_end(i);
        let alias: String = chars[i..end].iter().collect();
        i = end;
        let Some(table) = aliases.get(&alias).filter(|_| chars.get(end) == Some(&'.')) else { continue };
        let column: String = match chars.get(end + 1) {
            Some('*') => {
                read.extend(tables[table].iter().map(|column| (table.clone(), column.clone())));
                continue;
            }
            // A column named like a keyword is quoted (`u."position"`).
            Some('"') => chars[end + 2..].iter().take_while(|&&c| c != '"').collect(),
            _ => chars[end + 1..name_end(end + 1)].iter().collect(),
        };
        if !column.is_empty() {
            read.insert((table.clone(), column));
        }
    }
}

/// What each kept value reads: (table, column) pairs, the statements' branches it never takes
/// left out.
async fn reads_of_kept_values(pool: &PgPool, seed: &Seed) -> Vec<(&'static KeptValue, BTreeSet<(String, String)>)> {
    let tables = table_columns(pool).await;
    let mut conn = pool.acquire().await.unwrap();
    let mut reads = Vec::new();
    for value in KEPT {
        let mut read = BTreeSet::new();
        for sql in statements_of(pool, seed, value).await {
            read.extend(columns_read(&mut conn, &tables, &sql).await);
        }
        read.retain(|(table, column)| !value.branches_not_taken.iter().any(|(t, c, _)| (*t, *c) == (table, column)));
        reads.push((value, read));
    }
    reads
}

#[sqlx::test(migrations = "./migrations")]
async fn every_column_a_kept_value_reads_is_in_the_map(pool: PgPool) {
    let seed = Seed::write(&pool).await;
    let mut missing = Vec::new();
    for (value, read) in reads_of_kept_values(&pool, &seed).await {
        for (table, column) in read {
            let moved = MAP.iter().any(|row| row.table == table && row.column == column && value.under.contains(&row.revision));
            let decided = NOT_KEPT.iter().any(|(t, c, _)| (*t, *c) == (table.as_str(), column.as_str()));
            if !moved && !decided {
                missing.push(format!("{} (under {:?}) reads {table}.{column}, which none of its revisions follows", value.name, value.under));
            }
        }
    }
    assert!(missing.is_empty(), "columns kept values read without a map row or a NOT_KEPT entry:\n{}", missing.join("\n"));
}

#[sqlx::test(migrations = "./migrations")]
async fn every_column_of_every_table_a_kept_value_reads_is_decided(pool: PgPool) {
    let seed = Seed::write(&pool).await;
    let tables = table_columns(&pool).await;
    let read_tables: BTreeSet<String> =
        reads_of_kept_values(&pool, &seed).await.into_iter().flat_map(|(_, read)| read.into_iter().map(|(table, _)| table)).collect();
    let mut undecided = Vec::new();
    for table in &read_tables {
        for column in &tables[table] {
            let mapped = MAP.iter().any(|row| row.table == table && row.column == column);
            let decided = NOT_KEPT.iter().any(|(t, c, _)| (*t, *c) == (table.as_str(), column.as_str()));
            if !mapped && !decided {
                undecided.push(format!("{table}.{column}"));
            }
        }
    }
    assert!(
        undecided.is_empty(),
        "columns of tables kept values read, neither in the map nor in NOT_KEPT (add a trigger and a map row, or say why not):\n{}",
        undecided.join("\n")
    );
}
