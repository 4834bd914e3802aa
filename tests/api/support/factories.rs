//! Factories: records made through the real API (so they obey every rule), or rows inserted
//! directly where the API to make them belongs to a later feature (articles, views).

use serde_json::{Value, json};

use super::TestApp;

pub const ADD_CATEGORY: &str = "mutation($item: CategoryInput!) { addCategory(item: $item) { _id name parent level version isFeatured } }";
pub const EDIT_CATEGORY: &str =
    "mutation($item: CategoryInput!) { editCategory(item: $item) { _id name parent level version isFeatured } }";
pub const ADD_DESK: &str = "mutation($item: DeskInput!) { addDesk(item: $item) { _id name version } }";
pub const ADD_CHANNEL: &str = "mutation($item: ChannelInput!) { addChannel(item: $item) { _id name version type state price glAccount canEdit adminUsers { _id } owner { _id name type } } }";
pub const ADD_TAG: &str = "mutation($item: TagInput!) { addTag(item: $item) { _id name description version } }";

impl TestApp {
    /// Adds a topic as `token`'s user and returns its id; panics with the response on failure.
    pub async fn add_category(&self, token: &str, name: &str, parent: Option<&str>) -> String {
        let item = json!({ "name": name, "description": format!("About {name}"), "parent": parent });
        let response = self.gql(Some(token), ADD_CATEGORY, json!({ "item": item })).await;
        response["data"]["addCategory"]["_id"].as_str().unwrap_or_else(|| panic!("add {name}: {response}")).to_owned()
    }

    pub async fn add_tag(&self, token: &str, name: &str) -> String {
        let item = json!({ "name": name, "description": format!("About {name}") });
        let response = self.gql(Some(token), ADD_TAG, json!({ "item": item })).await;
        response["data"]["addTag"]["_id"].as_str().unwrap_or_else(|| panic!("add tag {name}: {response}")).to_owned()
    }

    pub async fn find_category(&self, token: &str, id: &str) -> Value {
        let query = "query($id: ID!) { findCategoryById(id: $id) { _id name description parent level version isFeatured articleCount subscribersCount contributorsCount views isFollowing } }";
        self.gql(Some(token), query, json!({ "id": id })).await
    }

    /// A user row, as sign-in would create it.
    pub async fn insert_user(&self, email: &str) -> String {
        let id = insights::ids::new_id();
        sqlx::query("insert into users (user_id, subject, email, name) values ($1, $2, $3, $4)")
            .bind(&id)
            .bind(format!("dev|{id}"))
            .bind(email)
            .bind(email.split('@').next().unwrap())
            .execute(&self.pool)
            .await
            .unwrap();
        id
    }

    /// An article row linked to topics and tags, with contributors, written directly (quicker than the API).
    pub async fn insert_article(&self, categories: &[&str], tags: &[&str], contributors: &[&str]) -> String {
        let id = insights::ids::new_id();
        sqlx::query("insert into article (article_id, title) values ($1, 'An article')").bind(&id).execute(&self.pool).await.unwrap();
        for category in categories {
            sqlx::query("insert into article_category values ($1, $2)").bind(&id).bind(category).execute(&self.pool).await.unwrap();
        }
        for tag in tags {
            sqlx::query("insert into article_tag values ($1, $2)").bind(&id).bind(tag).execute(&self.pool).await.unwrap();
        }
        for user in contributors {
            sqlx::query("insert into article_contributor values ($1, $2)").bind(&id).bind(user).execute(&self.pool).await.unwrap();
        }
        id
    }

    pub async fn insert_views(&self, article: &str, user: &str, views: i32) {
        sqlx::query("insert into article_view (article_id, user_id, views) values ($1, $2, $3)")
            .bind(article)
            .bind(user)
            .bind(views)
            .execute(&self.pool)
            .await
            .unwrap();
    }

    /// The id of `token`'s user (created by this first call if needed).
    pub async fn user_id(&self, token: &str) -> String {
        let response = self.gql(Some(token), "{ me { _id } }", json!({})).await;
        response["data"]["me"]["_id"].as_str().unwrap_or_else(|| panic!("me: {response}")).to_owned()
    }

    pub async fn add_desk(&self, token: &str, name: &str, contributors: &[&str]) -> String {
        let item = json!({ "name": name, "email": "desk@insights.example", "contributors": contributors });
        let response = self.gql(Some(token), ADD_DESK, json!({ "item": item })).await;
        response["data"]["addDesk"]["_id"].as_str().unwrap_or_else(|| panic!("add desk {name}: {response}")).to_owned()
    }

    /// A premium channel owned by `desk`, with `admins` (the creator is added by the server).
    pub fn premium_channel(name: &str, desk: &str, admins: &[&str]) -> Value {
        json!({
            "name": name, "description": "Research for paying clients", "type": "premium", "ownerType": "desk",
            "ownerId": desk, "adminUsers": admins, "price": "49.5", "glAccount": "GL-4410", "defaultTrialDurationDays": 14,
        })
    }

    /// Adds a channel from `item` and returns its id; panics with the response on failure.
    pub async fn add_channel(&self, token: &str, item: Value) -> String {
        let response = self.gql(Some(token), ADD_CHANNEL, json!({ "item": item })).await;
        response["data"]["addChannel"]["_id"].as_str().unwrap_or_else(|| panic!("add channel: {response}")).to_owned()
    }

    /// A subscription row (the subscriber screens come later).
    pub async fn insert_subscription(&self, channel: &str, user: &str, state: &str, cancel_at: Option<chrono::DateTime<chrono::Utc>>) {
        sqlx::query(
            "insert into channel_subscription (channel_id, user_id, subscription_type, subscription_state, cancel_at)
             values ($1, $2, 'account', $3, $4)",
        )
        .bind(channel)
        .bind(user)
        .bind(state)
        .bind(cancel_at)
        .execute(&self.pool)
        .await
        .unwrap();
    }

    /// An article row in a channel, published by a desk, written directly (quicker than the API).
    pub async fn insert_channel_article(&self, channel: Option<&str>, desk: Option<&str>, state: &str) -> String {
        let id = insights::ids::new_id();
        sqlx::query(
            "insert into article (article_id, title, state, premium_channel_id, published_by_desk_id, publish_date)
             values ($1, 'An article', $2, $3, $4, case when $2 = 'Published' then now() end)",
        )
        .bind(&id)
        .bind(state)
        .bind(channel)
        .bind(desk)
        .execute(&self.pool)
        .await
        .unwrap();
        id
    }
}

/// A published article for the reader tests, written directly with its body text (so the search
/// trigger indexes it) and everything the entitlement rule reads.
pub struct ReaderArticle<'a> {
    pub title: &'a str,
    pub summary: &'a str,
    pub body: &'a str,
    pub channel: Option<&'a str>,
    pub desk: Option<&'a str>,
    pub state: &'a str,
    pub is_premium: bool,
    /// '3d', '1w' or '1m'.
    pub expiry: Option<&'a str>,
    pub days_ago: i64,
    pub categories: &'a [&'a str],
    pub tags: &'a [&'a str],
    pub contributors: &'a [&'a str],
    pub show_watermark: bool,
    pub is_pinned: bool,
    pub charts: bool,
}

impl Default for ReaderArticle<'_> {
    fn default() -> Self {
        ReaderArticle {
            title: "Copper outlook",
            summary: "A short summary",
            body: "The body of the article",
            channel: None,
            desk: None,
            state: "Published",
            is_premium: false,
            expiry: None,
            days_ago: 1,
            categories: &[],
            tags: &[],
            contributors: &[],
            show_watermark: false,
            is_pinned: false,
            charts: false,
        }
    }
}

impl TestApp {
    /// Runs one SQL statement on the test database (a change made behind the API's back).
    pub async fn sql(&self, statement: &'static str) {
        sqlx::query(statement).execute(&self.pool).await.unwrap();
    }

    /// The same with one text value bound to `$1`.
    pub async fn sql_with(&self, statement: &'static str, value: &str) {
        sqlx::query(statement).bind(value).execute(&self.pool).await.unwrap();
    }

    pub async fn insert_reader_article(&self, a: ReaderArticle<'_>) -> String {
        let id = insights::ids::new_id();
        sqlx::query(
            "insert into article (article_id, title, summary, html, body_text, state, premium_channel_id, published_by_desk_id,
                                  is_premium, premium_expiry_offset, publish_date, show_watermark, is_pinned, display_in_chart_section)
             values ($1, $2, $3, '<p>' || $4 || '</p>', $4, $5, $6, $7, $8, $9,
                     case when $5 in ('Published', 'Archived') then now() - make_interval(days => $10::int) end, $11, $12, $13)",
        )
        .bind(&id)
        .bind(a.title)
        .bind(a.summary)
        .bind(a.body)
        .bind(a.state)
        .bind(a.channel)
        .bind(a.desk)
        .bind(a.is_premium)
        .bind(a.expiry)
        .bind(a.days_ago as i32)
        .bind(a.show_watermark)
        .bind(a.is_pinned)
        .bind(a.charts)
        .execute(&self.pool)
        .await
        .unwrap();
        for category in a.categories {
            sqlx::query("insert into article_category values ($1, $2)").bind(&id).bind(category).execute(&self.pool).await.unwrap();
        }
        for tag in a.tags {
            sqlx::query("insert into article_tag values ($1, $2)").bind(&id).bind(tag).execute(&self.pool).await.unwrap();
        }
        for user in a.contributors {
            sqlx::query("insert into article_contributor values ($1, $2)").bind(&id).bind(user).execute(&self.pool).await.unwrap();
        }
        id
    }

    /// A subscription of any type and state (the subscriber screens come later).
    pub async fn subscribe(&self, channel: &str, user: &str, kind: &str, state: &str, ends_in_days: Option<i64>, full: bool) {
        sqlx::query(
            "insert into channel_subscription (channel_id, user_id, subscription_type, subscription_state, cancel_at,
                                               is_full_article_content, account_number)
             values ($1, $2, $3, $4, now() + make_interval(days => $5::int), $6, case when $3 = 'account' then 'ACC-1' end)
             on conflict (channel_id, user_id) do update set subscription_type = excluded.subscription_type,
                 subscription_state = excluded.subscription_state, cancel_at = excluded.cancel_at,
                 is_full_article_content = excluded.is_full_article_content, account_number = excluded.account_number",
        )
        .bind(channel)
        .bind(user)
        .bind(kind)
        .bind(state)
        .bind(ends_in_days.map(|d| d as i32))
        .bind(full)
        .execute(&self.pool)
        .await
        .unwrap();
    }

    /// A channel of `kind` ('premium', 'freeOpen', 'freeClosed') owned by `desk`, made by `admin`.
    pub async fn channel_of_type(&self, admin: &str, desk: &str, name: &str, kind: &str) -> String {
        let mut item = TestApp::premium_channel(name, desk, &[]);
        if kind != "premium" {
            item["type"] = json!(kind);
            item["price"] = Value::Null;
            item["glAccount"] = Value::Null;
        }
        self.add_channel(admin, item).await
    }
}

impl TestApp {
    /// A user who has signed in at least once (last_login set), written directly; returns the id.
    pub async fn insert_signed_in_user(&self, email: &str, name: &str, company: Option<&str>) -> String {
        let id = self.insert_user(email).await;
        sqlx::query("update users set name = $2, company = $3, last_login = now() where user_id = $1")
            .bind(&id)
            .bind(name)
            .bind(company)
            .execute(&self.pool)
            .await
            .unwrap();
        id
    }

    /// A reader's token and id, signed in (last_login set) as `updateUserFromToken` would record it.
    pub async fn signed_in_reader(&self, email: &str) -> (String, String) {
        let token = super::tokens::for_user(&self.state, email, super::TestRole::Subscriber.scopes()).await;
        let id = self.user_id(&token).await;
        sqlx::query("update users set last_login = now() where user_id = $1").bind(&id).execute(&self.pool).await.unwrap();
        (token, id)
    }
}

/// What the tests of research delivered outside the web app share (feeds, MCP): an Administrator
/// (contributor of the desk), the Metals desk with its premium channel "Metals Premium", the topic
/// "Copper", and a signed-in reader, rita@client.example, with no subscription.
pub struct MetalsResearch {
    pub admin: String,
    pub admin_id: String,
    pub desk: String,
    pub channel: String,
    pub topic: String,
    pub reader: String,
    pub reader_id: String,
}

impl TestApp {
    pub async fn metals_research(&self) -> MetalsResearch {
        let admin = self.token(super::TestRole::Administrator).await;
        let admin_id = self.user_id(&admin).await;
        let desk = self.add_desk(&admin, "Metals desk", &[&admin_id]).await;
        let channel = self.channel_of_type(&admin, &desk, "Metals Premium", "premium").await;
        let topic = self.add_category(&admin, "Copper", None).await;
        let (reader, reader_id) = self.signed_in_reader("rita@client.example").await;
        MetalsResearch { admin, admin_id, desk, channel, topic, reader, reader_id }
    }
}
