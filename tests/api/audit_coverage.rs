//! Audit coverage (issue 40): every mutation of the schema is either called here, in one shared
//! world, and must leave at least one `audit_event` row with its name as the action, or is exempt
//! with its reason (the reader's own activity, not data staff manage). A mutation added to the
//! schema fails this test until its row in `COVERAGE` decides which.

use std::collections::{BTreeSet, HashMap};

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::support::{TestApp, TestRole};

enum Coverage {
    /// Called by the walk (`World::perform`), in the table's order; the call must leave a row.
    Audited,
    /// Not called: why the trail need not record it.
    Exempt(&'static str),
}

use Coverage::{Audited, Exempt};

const READER_OWN: &str = "the reader's own activity (not staff-managed data)";
const CARD_CHECKOUT: &str = "the reader's own card checkout: needs the Stripe test double (tests/api/checkout.rs); \
     the subscription it leads to is written when Stripe's webhook is applied (actor stripe)";

/// Every mutation of the schema, in the order the walk performs the audited ones (adds before
/// edits before deletes, readers' requests before staff process them).
const COVERAGE: &[(&str, Coverage)] = &[
    // Users.
    ("editUser", Audited),
    // Desks, topics, tags, channels.
    ("addDesk", Audited),
    ("editDesk", Audited),
    ("deleteDesk", Audited),
    ("addCategory", Audited),
    ("editCategory", Audited),
    ("deleteCategory", Audited),
    ("addTag", Audited),
    ("editTag", Audited),
    ("deleteTag", Audited),
    ("addChannel", Audited),
    ("editChannel", Audited),
    ("archiveChannel", Audited),
    // Articles, campaigns, templates.
    ("addArticle", Audited),
    ("editArticle", Audited),
    ("publishEdit", Audited),
    ("createCampaign", Audited),
    ("restoreArticleRevision", Audited),
    ("publishAdd", Audited),
    ("archiveArticle", Audited),
    ("addTemplate", Audited),
    ("editTemplate", Audited),
    ("deleteTemplate", Audited),
    // Promotions.
    ("addPromotionPage", Audited),
    ("editPromotionPage", Audited),
    ("addPromotionalContent", Audited),
    ("editPromotionalContent", Audited),
    ("deletePromotionalContent", Audited),
    ("deletePromotionPage", Audited),
    // Billing accounts.
    ("addBillingAccount", Audited),
    ("removeBillingAccount", Audited),
    // Readers' subscription requests and staff decisions (the subscription state machine).
    ("requestTrialChannelSubscription", Audited),
    ("processTrialRequest", Audited),
    ("requestFreeClosedSubscription", Audited),
    ("processFreeClosedRequest", Audited),
    ("createOpenFreeChannelSubscription", Audited),
    ("cancelSubscription", Audited),
    ("createInvoicePaymentRequest", Audited),
    ("processInvoiceRequest", Audited),
    ("createAccountSubscription", Audited),
    // Staff subscriber forms.
    ("createNonChargeChannelSubscription", Audited),
    ("nonChargeChannelSubscriptionExpiredAcknowledged", Audited),
    ("createExternalBillingChannelSubscription", Audited),
    ("createTrialChannelSubscription", Audited),
    ("createAccountChannelSubscription", Audited),
    ("changeSubscription", Audited),
    ("cancelNonStripeSubscriptionImmediately", Audited),
    ("deleteChannelSubscriber", Audited),
    ("createFreeChannelSubscription", Audited),
    ("createBulkSubscriptions", Audited),
    // Firms.
    ("addFirm", Audited),
    ("editFirm", Audited),
    ("addFirmMember", Audited),
    ("removeFirmMember", Audited),
    ("setFirmAdmin", Audited),
    ("createFirmSubscription", Audited),
    ("changeFirmSubscription", Audited),
    ("assignFirmSeat", Audited),
    ("releaseFirmSeat", Audited),
    ("inviteToFirm", Audited),
    ("withdrawFirmInvitation", Audited),
    ("setFirmUsageEmail", Audited),
    ("cancelFirmSubscription", Audited),
    ("archiveFirm", Audited),
    // Sign-in: recorded as action `sign-in` (`RECORDED_AS`).
    ("updateUserFromToken", Audited),
    // The reader's own activity.
    ("followEntity", Exempt(READER_OWN)),
    ("addArticleViewStat", Exempt(READER_OWN)),
    ("notifyRegisteredInterestInArticle", Exempt(READER_OWN)),
    ("notifyRegisteredChannelInterest", Exempt(READER_OWN)),
    ("notifyRegisteredInterestInPromotionalContent", Exempt(READER_OWN)),
    ("logPromotionalContentImpression", Exempt(READER_OWN)),
    ("logPromotionalContentClick", Exempt(READER_OWN)),
    ("setSubscriptions", Exempt(READER_OWN)),
    ("setUserEmailNotificationSettings", Exempt(READER_OWN)),
    ("setPremiumChannelEmailNotificationSettings", Exempt(READER_OWN)),
    ("changeEmailPreference", Exempt(READER_OWN)),
    ("createStripeCustomer", Exempt(CARD_CHECKOUT)),
    ("createStripeSubscription", Exempt(CARD_CHECKOUT)),
    ("createPaymentSetupIntent", Exempt(CARD_CHECKOUT)),
    // The trial policy and its terms (last: readers' trial requests accept the first terms).
    ("editTrialPolicy", Audited),
    ("editTrialTerms", Audited),
    // Disclosures.
    ("editDisclosure", Audited),
    // Private feeds and access tokens (a reader's own, which Administrators revoke too: audited).
    ("createFeedLink", Audited),
    ("revokeFeedLink", Audited),
    ("createAccessToken", Audited),
    ("revokeAccessToken", Audited),
];

/// Mutations whose row carries another action than their name.
const RECORDED_AS: &[(&str, &str)] = &[("updateUserFromToken", "sign-in")];

/// The root fields of the `type Mutation` block of the SDL, doc comments skipped.
fn schema_mutations(sdl: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_doc = false;
    for line in sdl.lines().skip_while(|line| !line.starts_with("type Mutation {")).skip(1) {
        let line = line.trim();
        if line == "}" && !in_doc {
            break;
        }
        if let Some(rest) = line.strip_prefix("\"\"\"") {
            // A one-line doc comment opens and closes on the line.
            if !(rest.len() >= 3 && rest.ends_with("\"\"\"")) {
                in_doc = !in_doc;
            }
            continue;
        }
        if in_doc || line.is_empty() || line.starts_with('"') || line.starts_with('#') {
            continue;
        }
        let end = line.find(['(', ':']).unwrap_or(line.len());
        names.push(line[..end].trim().to_owned());
    }
    names
}

/// Staff, readers and the records the walk makes as it goes.
struct World {
    app: TestApp,
    admin: String,
    editor: String,
    contributor: String,
    admin_id: String,
    editor_id: String,
    contributor_id: String,
    /// Readers by name: (token, id), signed in on first use.
    readers: HashMap<&'static str, (String, String)>,
    /// Records by name (the desk, the premium channel, ...).
    ids: HashMap<&'static str, String>,
    /// Mutations called successfully.
    called: Vec<&'static str>,
    /// Calls that answered errors (or were not written).
    failed: Vec<String>,
    /// Calls that succeeded without an audit row.
    unaudited: Vec<String>,
}

impl World {
    async fn new(pool: PgPool) -> World {
        let app = TestApp::spawn(pool).await;
        let admin = app.token(TestRole::Administrator).await;
        let editor = app.token(TestRole::Editor).await;
        let contributor = app.token(TestRole::Contributor).await;
        let (admin_id, editor_id, contributor_id) = (app.user_id(&admin).await, app.user_id(&editor).await, app.user_id(&contributor).await);
        World {
            app,
            admin,
            editor,
            contributor,
            admin_id,
            editor_id,
            contributor_id,
            readers: HashMap::new(),
            ids: HashMap::new(),
            called: Vec::new(),
            failed: Vec::new(),
            unaudited: Vec::new(),
        }
    }

    /// A reader's (token, id), signed in the first time it is asked for.
    async fn reader(&mut self, name: &'static str) -> (String, String) {
        if !self.readers.contains_key(name) {
            let reader = self.app.signed_in_reader(&format!("{name}@client.example")).await;
            self.readers.insert(name, reader);
        }
        self.readers[name].clone()
    }

    /// A record made earlier; an unknown name gives an id nothing has (the call then fails).
    fn id(&self, name: &str) -> String {
        self.ids.get(name).cloned().unwrap_or_else(|| format!("missing-{name}"))
    }

    /// Keeps the `_id` of a record a call returned.
    fn keep(&mut self, name: &'static str, record: &Value) {
        if let Some(id) = record["_id"].as_str() {
            self.ids.insert(name, id.to_owned());
        }
    }

    async fn version(&self, sql: &'static str, id: &str) -> i32 {
        sqlx::query_scalar(sql).bind(id).fetch_optional(&self.app.pool).await.unwrap().unwrap_or(0)
    }

    async fn audit_rows(&self, action: &str) -> i64 {
        sqlx::query_scalar("select count(*) from audit_event where action = $1").bind(action).fetch_one(&self.app.pool).await.unwrap()
    }

    /// Sends `query` (whose only root field is `mutation`) as `token`: records an error answer, and
    /// a success that left no new audit row of its action. Returns the field's value (null on error).
    async fn call(&mut self, mutation: &'static str, token: String, query: &str, variables: Value) -> Value {
        let action = RECORDED_AS.iter().find(|(name, _)| *name == mutation).map_or(mutation, |(_, action)| *action);
        let before = self.audit_rows(action).await;
        let response = self.app.gql(Some(&token), query, variables).await;
        let fields: Vec<&String> = response["data"].as_object().map(|data| data.keys().collect()).unwrap_or_default();
        if response["errors"] != Value::Null || fields != [mutation] {
            self.failed.push(format!("{mutation}: {response}"));
            return Value::Null;
        }
        self.called.push(mutation);
        let after = self.audit_rows(action).await;
        if after <= before {
            self.unaudited.push(mutation.to_owned());
        }
        response["data"][mutation].clone()
    }

    /// An article nothing is missing from to publish it.
    fn complete_article(&self, title: &str) -> Value {
        json!({
            "title": title, "html": "<p>Brent rose.</p>", "summary": "Prices up", "premiumChannelId": self.id("premium"),
            "contributors": [self.contributor_id], "categories": [self.id("topic")], "tags": [self.id("tag")],
            "isPremium": true, "premiumExpiryOffset": "1w",
        })
    }

    fn promotion_page(name: &str) -> Value {
        json!({
            "name": name, "html": "<p>Join our energy week</p>", "teamsChannel": "events@insights.example", "pageSummary": "Energy week",
            "socialSharingImageUrl": "0123456789abcdef01234567.png", "successTitle": "Thank you", "successMessage": "We will be in touch",
        })
    }

    /// A staff subscriber form (`create…ChannelSubscription`, `changeSubscription`).
    async fn subscriber_form(&mut self, mutation: &'static str, item: Value) -> Value {
        let query = format!("mutation($item: ChannelSubscriptionInput!) {{ {mutation}(item: $item) {{ subscriptionType subscriptionState }} }}");
        self.call(mutation, self.admin.clone(), &query, json!({ "item": item })).await
    }

    /// A staff decision on a reader's request.
    async fn decide(&mut self, mutation: &'static str, channel: &str, user: &str) -> Value {
        let query =
            format!("mutation($item: RequestDecisionInput!) {{ {mutation}(item: $item) {{ name channelSubscription {{ subscriptionState }} }} }}");
        let item = json!({ "userId": user, "channelId": channel, "approved": true });
        self.call(mutation, self.admin.clone(), &query, json!({ "item": item })).await
    }

    /// A reader's mutation taking a channel id.
    async fn reader_on_channel(&mut self, mutation: &'static str, reader: &'static str, channel: &str) -> Value {
        let (token, _) = self.reader(reader).await;
        let terms = if mutation == "requestTrialChannelSubscription" { ", acceptedTermsVersion: 1" } else { "" };
        let query = format!("mutation($c: ID!) {{ {mutation}(channelId: $c{terms}) {{ subscriptionType subscriptionState }} }}");
        self.call(mutation, token, &query, json!({ "c": channel })).await
    }

    /// Performs `mutation` successfully in the world as it stands.
    async fn perform(&mut self, mutation: &'static str) {
        let (admin, editor, contributor) = (self.admin.clone(), self.editor.clone(), self.contributor.clone());
        match mutation {
            // ---- users ----
            "editUser" => {
                let version = self.version("select version from users where user_id = $1", &self.contributor_id).await;
                let item = json!({ "_id": self.contributor_id, "version": version, "position": "Oil analyst", "displayAvatar": false,
                                   "tableauAccess": false });
                self.call(mutation, admin, "mutation($item: UserInput!) { editUser(item: $item) { _id version } }", json!({ "item": item })).await;
            }
            "updateUserFromToken" => {
                let (access, id_token) = crate::users::sign_in(&self.app, "subscriber").await;
                let query = "mutation($t: String!) { updateUserFromToken(idToken: $t) { isNewUser user { _id } } }";
                self.call(mutation, access, query, json!({ "t": id_token })).await;
            }

            // ---- desks ----
            "addDesk" => {
                let item = json!({ "name": "Audit desk", "email": "desk@insights.example",
                                   "contributors": [self.admin_id, self.editor_id, self.contributor_id] });
                let desk = self.call(mutation, admin, "mutation($item: DeskInput!) { addDesk(item: $item) { _id } }", json!({ "item": item })).await;
                self.keep("desk", &desk);
            }
            "editDesk" => {
                let item = json!({ "_id": self.id("desk"), "version": 1, "name": "Audit equities desk", "email": "eq@insights.example",
                                   "contributors": [self.admin_id, self.editor_id, self.contributor_id] });
                self.call(mutation, admin, "mutation($item: DeskInput!) { editDesk(item: $item) { _id version } }", json!({ "item": item })).await;
            }
            "deleteDesk" => {
                let spare = self.app.add_desk(&admin, "Spare desk", &[&self.admin_id]).await;
                self.call(mutation, admin, "mutation($id: ID!) { deleteDesk(id: $id) { _id name } }", json!({ "id": spare })).await;
            }

            // ---- topics and tags ----
            "addCategory" => {
                let item = json!({ "name": "Audit topic", "description": "About it" });
                let topic =
                    self.call(mutation, admin, "mutation($item: CategoryInput!) { addCategory(item: $item) { _id } }", json!({ "item": item })).await;
                self.keep("topic", &topic);
            }
            "editCategory" => {
                let item = json!({ "_id": self.id("topic"), "version": 1, "name": "Audit topic", "description": "Edited" });
                self.call(mutation, admin, "mutation($item: CategoryInput!) { editCategory(item: $item) { _id version } }", json!({ "item": item }))
                    .await;
            }
            "deleteCategory" => {
                let spare = self.app.add_category(&admin, "Spare topic", None).await;
                self.call(mutation, admin, "mutation($id: ID!) { deleteCategory(id: $id) { _id name } }", json!({ "id": spare })).await;
            }
            "addTag" => {
                let item = json!({ "name": "Audit tag", "description": "About it" });
                let tag = self.call(mutation, admin, "mutation($item: TagInput!) { addTag(item: $item) { _id } }", json!({ "item": item })).await;
                self.keep("tag", &tag);
            }
            "editTag" => {
                let item = json!({ "_id": self.id("tag"), "version": 1, "name": "Audit tag", "description": "Edited" });
                self.call(mutation, admin, "mutation($item: TagInput!) { editTag(item: $item) { _id version } }", json!({ "item": item })).await;
            }
            "deleteTag" => {
                let spare = self.app.add_tag(&admin, "Spare tag").await;
                self.call(mutation, admin, "mutation($id: ID!) { deleteTag(id: $id) { _id name } }", json!({ "id": spare })).await;
            }

            // ---- channels ----
            "addChannel" => {
                let desk = self.id("desk");
                let item = TestApp::premium_channel("Audit Premium", &desk, &[&self.editor_id]);
                let query = "mutation($item: ChannelInput!) { addChannel(item: $item) { _id } }";
                let premium = self.call(mutation, admin.clone(), query, json!({ "item": item })).await;
                self.keep("premium", &premium);
                // The free channels the readers' requests need.
                let open = self.app.channel_of_type(&admin, &desk, "Audit Open", "freeOpen").await;
                let closed = self.app.channel_of_type(&admin, &desk, "Audit Closed", "freeClosed").await;
                self.ids.insert("open", open);
                self.ids.insert("closed", closed);
            }
            "editChannel" => {
                let premium = self.id("premium");
                let mut item = TestApp::premium_channel("Audit Premium", &self.id("desk"), &[&self.editor_id]);
                item["_id"] = json!(premium);
                item["version"] = json!(self.version("select version from channel where channel_id = $1", &premium).await);
                item["description"] = json!("Edited for the audit");
                let query = "mutation($item: ChannelInput!) { editChannel(item: $item) { _id version } }";
                self.call(mutation, admin, query, json!({ "item": item })).await;
            }
            "archiveChannel" => {
                let spare = self.app.channel_of_type(&admin, &self.id("desk"), "Spare channel", "freeOpen").await;
                self.call(mutation, admin, "mutation($id: ID!) { archiveChannel(id: $id) { _id state } }", json!({ "id": spare })).await;
            }

            // ---- articles, campaigns, templates ----
            "addArticle" => {
                let query = "mutation($item: ArticleInput!) { addArticle(item: $item) { _id } }";
                let draft = self.call(mutation, contributor, query, json!({ "item": { "title": "Audit draft" } })).await;
                self.keep("draft", &draft);
            }
            "editArticle" | "publishEdit" => {
                let draft = self.id("draft");
                let mut item = self.complete_article("Audit draft");
                item["_id"] = json!(draft);
                item["version"] = json!(self.version("select version from article where article_id = $1", &draft).await);
                let token = if mutation == "editArticle" { contributor } else { editor };
                let query = format!("mutation($item: ArticleInput!) {{ {mutation}(item: $item) {{ _id state version }} }}");
                self.call(mutation, token, &query, json!({ "item": item })).await;
            }
            "publishAdd" => {
                let item = self.complete_article("Audit published");
                let query = "mutation($item: ArticleInput!) { publishAdd(item: $item) { _id state } }";
                let published = self.call(mutation, editor, query, json!({ "item": item })).await;
                self.keep("published", &published);
            }
            "archiveArticle" => {
                let published = self.id("published");
                let version = self.version("select version from article where article_id = $1", &published).await;
                let query = "mutation($id: ID!, $version: Int!) { archiveArticle(_id: $id, version: $version) { _id state } }";
                self.call(mutation, editor, query, json!({ "id": published, "version": version })).await;
            }
            "createCampaign" => {
                let query = "mutation($a: ID!, $t: String!) { createCampaign(articleId: $a, campaignType: $t) { _id } }";
                self.call(mutation, editor, query, json!({ "a": self.id("draft"), "t": "email" })).await;
            }
            "editTrialPolicy" => {
                let version = self.version("select version from trial_policy where $1::text is not null", "").await;
                let query = "mutation($item: TrialPolicyInput!) { editTrialPolicy(item: $item) { version } }";
                let item = json!({ "maxDays": 60, "coolOffDays": 365, "termsRequired": true, "version": version });
                self.call(mutation, admin, query, json!({ "item": item })).await;
            }
            "createFeedLink" => {
                let query = "mutation($scope: FeedScopeInput!) { createFeedLink(scope: $scope) { link { _id } } }";
                let created = self.call(mutation, admin, query, json!({ "scope": { "kind": "all" } })).await;
                self.keep("feed_link", &created["link"]);
            }
            "revokeFeedLink" => {
                let query = "mutation($id: ID!) { revokeFeedLink(id: $id) }";
                self.call(mutation, admin, query, json!({ "id": self.id("feed_link") })).await;
            }
            "createAccessToken" => {
                let query = "mutation { createAccessToken(name: \"Audit assistant\") { token { _id } } }";
                let created = self.call(mutation, admin, query, json!({})).await;
                self.keep("access_token", &created["token"]);
            }
            "revokeAccessToken" => {
                let query = "mutation($id: ID!) { revokeAccessToken(id: $id) }";
                self.call(mutation, admin, query, json!({ "id": self.id("access_token") })).await;
            }
            "editDisclosure" => {
                let channel = self.id("premium");
                let query = "mutation($item: DisclosureInput!) { editDisclosure(item: $item) { version } }";
                let item = json!({ "scopeType": "channel", "scopeId": channel, "html": "<p>Conflicts of interest</p>", "version": 0 });
                self.call(mutation, admin, query, json!({ "item": item })).await;
            }
            "editTrialTerms" => {
                let query = "mutation($item: TrialTermsInput!) { editTrialTerms(item: $item) { version } }";
                self.call(mutation, admin, query, json!({ "item": { "html": "<p>Terms, second edition</p>", "version": 1 } })).await;
            }
            "restoreArticleRevision" => {
                // The draft's first revision (its add) brought back.
                let draft = self.id("draft");
                let version = self.version("select version from article where article_id = $1", &draft).await;
                let revision: Option<String> =
                    sqlx::query_scalar("select revision_id from article_revision where article_id = $1 order by number limit 1")
                        .bind(&draft)
                        .fetch_optional(&self.app.pool)
                        .await
                        .unwrap();
                let query =
                    "mutation($a: ID!, $r: ID!, $v: Int!) { restoreArticleRevision(articleId: $a, revisionId: $r, version: $v) { _id state } }";
                self.call(mutation, editor, query, json!({ "a": draft, "r": revision, "v": version })).await;
            }
            "addTemplate" | "editTemplate" => {
                let mut item = json!({ "title": "Morning note", "html": "<p>Hello</p>", "premiumChannelId": self.id("premium"),
                                       "contributors": [self.editor_id], "categories": [self.id("topic")], "tags": [self.id("tag")] });
                if mutation == "editTemplate" {
                    item["_id"] = json!(self.id("template"));
                    item["version"] = json!(1);
                    item["title"] = json!("Evening note");
                }
                let query = format!("mutation($item: TemplateInput!) {{ {mutation}(item: $item) {{ _id version }} }}");
                let template = self.call(mutation, editor, &query, json!({ "item": item })).await;
                if mutation == "addTemplate" {
                    self.keep("template", &template);
                }
            }
            "deleteTemplate" => {
                let query = "mutation($id: ID!) { deleteTemplate(id: $id) { _id name } }";
                self.call(mutation, editor, query, json!({ "id": self.id("template") })).await;
            }

            // ---- promotions ----
            "addPromotionPage" => {
                let query = "mutation($item: PromotionPageInput!) { addPromotionPage(item: $item) { _id } }";
                let page = self.call(mutation, admin, query, json!({ "item": World::promotion_page("Energy week") })).await;
                self.keep("page", &page);
            }
            "editPromotionPage" => {
                let mut item = World::promotion_page("Energy week 2");
                item["_id"] = json!(self.id("page"));
                item["version"] = json!(1);
                let query = "mutation($item: PromotionPageInput!) { editPromotionPage(item: $item) { _id version } }";
                self.call(mutation, admin, query, json!({ "item": item })).await;
            }
            "addPromotionalContent" => {
                let item = json!({ "name": "Energy", "description": "About energy", "destination": "ExternalLink",
                                   "link": "https://example.com/promo" });
                let query = "mutation($item: PromotionalContentInput!) { addPromotionalContent(item: $item) { _id } }";
                let promotion = self.call(mutation, admin, query, json!({ "item": item })).await;
                self.keep("promotion", &promotion);
            }
            "editPromotionalContent" => {
                let item = json!({ "_id": self.id("promotion"), "version": 1, "name": "Energy", "destination": "CustomLandingPage",
                                   "promotionPageId": self.id("page") });
                let query = "mutation($item: PromotionalContentInput!) { editPromotionalContent(item: $item) { _id version } }";
                self.call(mutation, admin, query, json!({ "item": item })).await;
            }
            "deletePromotionalContent" => {
                let query = "mutation($id: ID!) { deletePromotionalContent(id: $id) }";
                self.call(mutation, admin, query, json!({ "id": self.id("promotion") })).await;
            }
            "deletePromotionPage" => {
                let query = "mutation($item: DeletePromotionPageInput!) { deletePromotionPage(item: $item) }";
                self.call(mutation, admin, query, json!({ "item": { "_id": self.id("page") } })).await;
            }

            // ---- billing accounts ----
            "addBillingAccount" => {
                let (_, buyer) = self.reader("buyer").await;
                let query = "mutation($u: ID!) { addBillingAccount(userId: $u, accountNumber: \"ACC-1001\", name: \"Acme\") { _id id } }";
                self.call(mutation, admin, query, json!({ "u": buyer })).await;
            }
            "removeBillingAccount" => {
                let (_, buyer) = self.reader("buyer").await;
                let add = "mutation($u: ID!) { addBillingAccount(userId: $u, accountNumber: \"ACC-2002\") { _id } }";
                let spare = self.app.gql(Some(&admin), add, json!({ "u": buyer })).await;
                let spare = spare["data"]["addBillingAccount"]["_id"].clone();
                self.call(mutation, admin, "mutation($id: ID!) { removeBillingAccount(id: $id) }", json!({ "id": spare })).await;
            }

            // ---- readers' requests and staff decisions ----
            "requestTrialChannelSubscription" => {
                self.reader_on_channel(mutation, "trial", &self.id("premium")).await;
            }
            "processTrialRequest" => {
                let (_, reader) = self.reader("trial").await;
                self.decide(mutation, &self.id("premium"), &reader).await;
            }
            "requestFreeClosedSubscription" => {
                self.reader_on_channel(mutation, "closed", &self.id("closed")).await;
            }
            "processFreeClosedRequest" => {
                let (_, reader) = self.reader("closed").await;
                self.decide(mutation, &self.id("closed"), &reader).await;
            }
            "createOpenFreeChannelSubscription" => {
                let (token, _) = self.reader("open").await;
                let query = "mutation($c: ID!) { createOpenFreeChannelSubscription(item: { channelId: $c }) { subscriptionState } }";
                self.call(mutation, token, query, json!({ "c": self.id("open") })).await;
            }
            "cancelSubscription" => {
                self.reader_on_channel(mutation, "open", &self.id("open")).await;
            }
            "createInvoicePaymentRequest" => {
                let (token, _) = self.reader("invoice").await;
                let query = "mutation($c: ID!) { createInvoicePaymentRequest(channelId: $c, legalEntityName: \"Acme Ltd\",
                    billingEmailAddress: \"ap@acme.example\") { subscriptionType subscriptionState } }";
                self.call(mutation, token, query, json!({ "c": self.id("premium") })).await;
            }
            "processInvoiceRequest" => {
                let (_, reader) = self.reader("invoice").await;
                self.decide(mutation, &self.id("premium"), &reader).await;
            }
            "createAccountSubscription" => {
                let (token, _) = self.reader("buyer").await;
                let query = "mutation($c: ID!) { createAccountSubscription(channelId: $c, subscriptionType: \"account\",
                    accountNumber: \"ACC-1001\") { subscriptionType subscriptionState } }";
                self.call(mutation, token, query, json!({ "c": self.id("premium") })).await;
            }

            // ---- staff subscriber forms ----
            "createNonChargeChannelSubscription" => {
                let (_, reader) = self.reader("lapsed").await;
                let item = json!({ "channelId": self.id("premium"), "userId": reader, "notes": "Agreed with sales" });
                self.subscriber_form(mutation, item).await;
            }
            "nonChargeChannelSubscriptionExpiredAcknowledged" => {
                // The non-charge subscription staff added has ended.
                let (_, reader) = self.reader("lapsed").await;
                sqlx::query("update channel_subscription set cancel_at = now() - interval '1 minute' where user_id = $1")
                    .bind(&reader)
                    .execute(&self.app.pool)
                    .await
                    .unwrap();
                self.reader_on_channel(mutation, "lapsed", &self.id("premium")).await;
            }
            "createExternalBillingChannelSubscription" => {
                let (_, reader) = self.reader("external").await;
                let item = json!({ "channelId": self.id("premium"), "userId": reader, "notes": "Agreed with sales", "billingMethod": "Invoice",
                                   "pricePerMonth": "60" });
                self.subscriber_form(mutation, item).await;
            }
            "createTrialChannelSubscription" => {
                let (_, reader) = self.reader("staff-trial").await;
                let item = json!({ "channelId": self.id("premium"), "userId": reader, "notes": "Agreed with sales", "trialDuration": 7 });
                self.subscriber_form(mutation, item).await;
            }
            "createAccountChannelSubscription" => {
                let (_, reader) = self.reader("clearing").await;
                let item = json!({ "channelId": self.id("premium"), "userId": reader, "notes": "Agreed with sales", "accountNumber": "CLR-1" });
                self.subscriber_form(mutation, item).await;
            }
            "changeSubscription" => {
                let (_, reader) = self.reader("clearing").await;
                let item = json!({ "channelId": self.id("premium"), "userId": reader, "subscriptionType": "external", "billingMethod": "Invoice" });
                self.subscriber_form(mutation, item).await;
            }
            "cancelNonStripeSubscriptionImmediately" | "deleteChannelSubscriber" => {
                let (_, reader) = self.reader("clearing").await;
                let query = if mutation == "deleteChannelSubscriber" {
                    "mutation($c: ID!, $u: ID!) { deleteChannelSubscriber(channelId: $c, userId: $u) }"
                } else {
                    "mutation($c: ID!, $u: ID!) { cancelNonStripeSubscriptionImmediately(channelId: $c, userId: $u) { subscriptionState } }"
                };
                self.call(mutation, admin, query, json!({ "c": self.id("premium"), "u": reader })).await;
            }
            "createFreeChannelSubscription" => {
                let (_, reader) = self.reader("free").await;
                let item = json!({ "channelId": self.id("closed"), "userId": reader, "notes": "Agreed with sales" });
                self.subscriber_form(mutation, item).await;
            }
            "createBulkSubscriptions" => {
                let (_, first) = self.reader("bulk-1").await;
                let (_, second) = self.reader("bulk-2").await;
                let query = "mutation($item: BulkSubscriptionInput!, $users: [ID!]!, $existing: [ID!]!) {
                    createBulkSubscriptions(item: $item, users: $users, existing: $existing) { added updated alreadySubscribed refused } }";
                let item = json!({ "channelId": self.id("premium"), "fileName": "clients.csv" });
                let result = self.call(mutation, admin, query, json!({ "item": item, "users": [first, second], "existing": [] })).await;
                if !result.is_null() && result["added"] != 2 {
                    self.failed.push(format!("{mutation}: expected 2 added: {result}"));
                }
            }

            // ---- firms ----
            "addFirm" => {
                let item = json!({ "name": "Fjord Capital", "domains": ["fjord.example"], "billingMethod": "account" });
                let firm = self.call(mutation, admin, "mutation($item: FirmInput!) { addFirm(item: $item) { _id } }", json!({ "item": item })).await;
                self.keep("firm", &firm);
            }
            "editFirm" => {
                let item = json!({ "_id": self.id("firm"), "version": 1, "name": "Fjord Capital AG", "billingMethod": "account",
                                   "domains": ["fjord.example"] });
                self.call(mutation, admin, "mutation($item: FirmInput!) { editFirm(item: $item) { _id version } }", json!({ "item": item })).await;
            }
            "addFirmMember" => {
                let (_, member) = self.reader("member").await;
                let query = "mutation($f: ID!, $u: ID!) { addFirmMember(firmId: $f, userId: $u) { _id } }";
                self.call(mutation, admin, query, json!({ "f": self.id("firm"), "u": member })).await;
            }
            "removeFirmMember" => {
                let (_, leaver) = self.reader("leaver").await;
                let add = "mutation($f: ID!, $u: ID!) { addFirmMember(firmId: $f, userId: $u) { _id } }";
                let added = self.app.gql(Some(&admin), add, json!({ "f": self.id("firm"), "u": leaver })).await;
                if added["errors"] != Value::Null {
                    self.failed.push(format!("{mutation}: its member could not be added: {added}"));
                }
                let query = "mutation($f: ID!, $u: ID!) { removeFirmMember(firmId: $f, userId: $u) { _id } }";
                self.call(mutation, admin, query, json!({ "f": self.id("firm"), "u": leaver })).await;
            }
            "setFirmAdmin" => {
                let (_, member) = self.reader("member").await;
                let query = "mutation($f: ID!, $u: ID!) { setFirmAdmin(firmId: $f, userId: $u, isAdmin: true) { _id } }";
                self.call(mutation, admin, query, json!({ "f": self.id("firm"), "u": member })).await;
            }
            "createFirmSubscription" | "changeFirmSubscription" => {
                let mut item = json!({ "firmId": self.id("firm"), "channelId": self.id("premium"), "subscriptionType": "account",
                                       "accountNumber": "ACC-9", "seats": 3, "notes": "Signed for 2027" });
                if mutation == "changeFirmSubscription" {
                    let id = self.id("firm subscription");
                    item["version"] = json!(self.version("select version from firm_subscription where firm_subscription_id = $1", &id).await);
                    item["seats"] = json!(5);
                }
                let query = format!("mutation($item: FirmSubscriptionInput!) {{ {mutation}(item: $item) {{ _id version }} }}");
                let subscription = self.call(mutation, admin, &query, json!({ "item": item })).await;
                if mutation == "createFirmSubscription" {
                    self.keep("firm subscription", &subscription);
                }
            }
            "assignFirmSeat" | "releaseFirmSeat" => {
                let (_, member) = self.reader("member").await;
                let query = format!("mutation($s: ID!, $u: ID!) {{ {mutation}(firmSubscriptionId: $s, userId: $u) }}");
                self.call(mutation, admin, &query, json!({ "s": self.id("firm subscription"), "u": member })).await;
            }
            "inviteToFirm" => {
                // The firm's administrator invites.
                let (member, _) = self.reader("member").await;
                self.call(mutation, member, "mutation($e: String!) { inviteToFirm(email: $e) }", json!({ "e": "consultant@gmail.com" })).await;
            }
            "withdrawFirmInvitation" => {
                let query = "mutation($f: ID!, $e: String!) { withdrawFirmInvitation(firmId: $f, email: $e) }";
                self.call(mutation, admin, query, json!({ "f": self.id("firm"), "e": "consultant@gmail.com" })).await;
            }
            "setFirmUsageEmail" => {
                let (member, _) = self.reader("member").await;
                self.call(mutation, member, "mutation { setFirmUsageEmail(on: true) }", json!({})).await;
            }
            "cancelFirmSubscription" => {
                let id = self.id("firm subscription");
                let version = self.version("select version from firm_subscription where firm_subscription_id = $1", &id).await;
                let query =
                    "mutation($f: ID!, $c: ID!, $v: Int!) { cancelFirmSubscription(firmId: $f, channelId: $c, version: $v) { subscriptionState } }";
                self.call(mutation, admin, query, json!({ "f": self.id("firm"), "c": self.id("premium"), "v": version })).await;
            }
            "archiveFirm" => {
                let firm = self.id("firm");
                let version = self.version("select version from firm where firm_id = $1", &firm).await;
                let query = "mutation($id: ID!, $v: Int!) { archiveFirm(id: $id, version: $v) { state version } }";
                self.call(mutation, admin, query, json!({ "id": firm, "v": version })).await;
            }

            _ => self.failed.push(format!("{mutation}: marked Audited in COVERAGE but World::perform has no call for it")),
        }
    }
}

#[sqlx::test]
async fn every_mutation_leaves_an_audit_row_or_is_exempt_with_its_reason(pool: PgPool) {
    // The table knows every mutation of the schema, and only those.
    let schema = schema_mutations(&insights::graphql::sdl());
    assert!(schema.len() > 50, "the Mutation block was not parsed: {schema:?}");
    let known: BTreeSet<&str> = COVERAGE.iter().map(|(name, _)| *name).collect();
    assert_eq!(known.len(), COVERAGE.len(), "a mutation is listed twice in COVERAGE");
    let undecided: Vec<&str> = schema.iter().map(String::as_str).filter(|name| !known.contains(name)).collect();
    assert!(
        undecided.is_empty(),
        "mutations whose audit coverage is not decided: add each to COVERAGE (and a call to World::perform) or exempt it with a reason: {undecided:?}"
    );
    let stale: Vec<&str> = known.iter().copied().filter(|name| !schema.iter().any(|s| s == name)).collect();
    assert!(stale.is_empty(), "COVERAGE names mutations the schema no longer has: {stale:?}");
    for (name, coverage) in COVERAGE {
        if let Exempt(reason) = coverage {
            assert!(!reason.trim().is_empty(), "{name}: an exemption needs its reason");
        }
    }

    // The walk: each audited mutation, called once, in the table's order.
    let mut world = World::new(pool).await;
    for (name, coverage) in COVERAGE {
        if let Audited = coverage {
            world.perform(name).await;
        }
    }

    let audited: Vec<&str> = COVERAGE.iter().filter(|(_, c)| matches!(c, Audited)).map(|(name, _)| *name).collect();
    let not_called: Vec<&str> = audited.iter().copied().filter(|name| !world.called.contains(name)).collect();
    let mut problems = Vec::new();
    if !world.unaudited.is_empty() {
        problems.push(format!("{} mutations succeeded but left no audit_event row with their action: {:?}", world.unaudited.len(), world.unaudited));
    }
    if !world.failed.is_empty() {
        problems.push(format!("{} calls failed:\n  {}", world.failed.len(), world.failed.join("\n  ")));
    }
    if !not_called.is_empty() {
        problems.push(format!("audited mutations not called successfully: {not_called:?}"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_mutation_block_is_read_without_its_doc_comments() {
    let sdl = "type Query {\n\tme: User\n}\ntype Mutation {\n\t\"\"\"\n\tAdds one: (a) thing.\n\t\"\"\"\n\taddTag(item: TagInput!): Tag!\n\t\"\"\"One line.\"\"\"\n\tdeleteTag(id: ID!): DeleteResult!\n\tsetFirmUsageEmail(on: Boolean!): Boolean!\n}\ntype Tag {\n\tname: String!\n}\n";
    assert_eq!(schema_mutations(sdl), ["addTag", "deleteTag", "setFirmUsageEmail"]);
}
