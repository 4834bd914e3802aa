//! SQL of search: the page of matching published articles cut by a keyset cursor, their total,
//! and the highlighted snippets of a page.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor, PgPool, Postgres, QueryBuilder};

use super::cursor::Cursor;
use crate::reading::queries::Listed;

/// How matches are ordered by relevance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ranking {
    /// The RUM index returns matches nearest first (`<=>`), so a page reads only its rows.
    Rum,
    /// Every match is ranked with `ts_rank` (GIN finds them): what remains without RUM.
    Gin,
}

/// What a search selects. Every filter is optional.
#[derive(Debug, Default, Clone, PartialEq, Eq, Hash)]
pub struct SearchFilter {
    /// A topic and its sub-topics.
    pub topics: Option<Vec<String>>,
    pub channel: Option<String>,
    pub date_from: Option<DateTime<Utc>>,
    pub date_to: Option<DateTime<Utc>>,
    pub tag: Option<String>,
    pub desk: Option<String>,
    pub contributor: Option<String>,
    /// Only these channels (the caller's active subscriptions).
    pub channels: Option<Vec<String>>,
    /// Words for `websearch_to_tsquery` ('english'), already checked to make a non-empty query.
    pub query: Option<String>,
    /// Whose bodies the words may match: none, every article's (staff); else the articles open to
    /// all and those of these channels (the caller's subscriptions that give full articles), the
    /// others on their title and summary alone (`push_match`).
    pub body_channels: Option<Vec<String>>,
    pub free_only: bool,
    pub premium_only: bool,
    pub charts_only: bool,
    pub pinned_first: bool,
}

impl SearchFilter {
    /// Whether what it selects changes only with the articles, not with the clock as well (a
    /// premium period ends by itself).
    pub fn is_timeless(&self) -> bool {
        !self.free_only && !self.premium_only
    }
}

/// Premium now: marked premium, in a channel that is not free-open, within its premium period
/// (the entitlement rule's `is_open_to_all`, negated), after `from article a left join channel c`.
const PREMIUM: &str = "(a.is_premium and c.type is distinct from 'freeOpen' and a.premium_channel_id is not null
                        and (a.premium_expires_at is null or a.premium_expires_at > now()))";

/// The filters, after `from article a left join channel c` (published articles only); the words'
/// match too when `with_words`.
fn push_filters(q: &mut QueryBuilder<Postgres>, f: &SearchFilter, with_words: bool) {
    q.push(" where a.state = 'Published'");
    if let Some(words) = f.query.as_ref().filter(|_| with_words) {
        push_match(q, f, words, PREMIUM);
    }
    // `offset 0` keeps each link subquery whole, so its index is read once (see articles::queries).
    if let Some(topics) = &f.topics {
        q.push(" and a.article_id in (select article_id from article_category where category_id = any(")
            .push_bind(topics.clone())
            .push(") offset 0)");
    }
    if let Some(tag) = &f.tag {
        q.push(" and a.article_id in (select article_id from article_tag where tag_id = ").push_bind(tag.clone()).push(" offset 0)");
    }
    if let Some(contributor) = &f.contributor {
        q.push(" and a.article_id in (select article_id from article_contributor where user_id = ")
            .push_bind(contributor.clone())
            .push(" offset 0)");
    }
    if let Some(channel) = &f.channel {
        q.push(" and a.premium_channel_id = ").push_bind(channel.clone());
    }
    if let Some(channels) = &f.channels {
        q.push(" and a.premium_channel_id = any(").push_bind(channels.clone()).push(")");
    }
    if let Some(desk) = &f.desk {
        q.push(" and a.published_by_desk_id = ").push_bind(desk.clone());
    }
    if let Some(from) = f.date_from {
        q.push(" and a.publish_date >= ").push_bind(from);
    }
    if let Some(to) = f.date_to {
        q.push(" and a.publish_date < ").push_bind(to);
    }
    if f.premium_only {
        q.push(" and ").push(PREMIUM);
    }
    if f.free_only {
        q.push(" and not ").push(PREMIUM);
    }
    if f.charts_only {
        q.push(" and a.display_in_chart_section");
    }
}

/// The words' match, `premium` saying of a row whether it is premium now (`PREMIUM`). An article
/// the caller may not read in full (`can_see_full_version`: premium now, and not of one of
/// `body_channels`) matches on its title and summary alone (`title_summary_vector`, migration
/// 0030), never on its body: else a reader could confirm a figure of a premium body one search at
/// a time. The match index still finds the candidates (a title and summary match is a subset).
fn push_match(q: &mut QueryBuilder<Postgres>, f: &SearchFilter, words: &str, premium: &str) {
    q.push(" and a.search_vector @@ websearch_to_tsquery('english', ").push_bind(words.to_owned()).push(")");
    if let Some(channels) = &f.body_channels {
        q.push(" and (not ")
            .push(premium)
            .push(" or a.premium_channel_id = any(")
            .push_bind(channels.clone())
            .push(") or a.title_summary_vector @@ websearch_to_tsquery('english', ")
            .push_bind(words.to_owned())
            .push("))");
    }
}

/// The articles of one page and the cursor of each row, best first.
#[derive(Debug, Clone)]
pub struct Hit {
    pub article: Listed,
    pub cursor: Cursor,
}

/// The relevance of a match, as the ranking orders it: RUM's distance (smaller is better) or
/// `ts_rank` negated (so that smaller is better in both).
fn relevance(ranking: Ranking) -> &'static str {
    match ranking {
        Ranking::Rum => "(a.search_vector <=> websearch_to_tsquery('english', ",
        Ranking::Gin => "(-ts_rank(a.search_vector, websearch_to_tsquery('english', ",
    }
}

fn push_relevance(q: &mut QueryBuilder<Postgres>, ranking: Ranking, words: &str) {
    q.push(relevance(ranking)).push_bind(words.to_owned()).push(match ranking {
        Ranking::Rum => "))::float8",
        Ranking::Gin => ")))::float8",
    });
}

/// One page of matches after `after`, in the search's order: by relevance (then newest) with a
/// query, else newest first (pinned first when asked). A keyset cursor: a row published between two
/// pages lands where it belongs and never shifts the rows that follow.
///
/// With RUM, PostgreSQL reads matches nearest first straight from the index only when the order is
/// the distance alone, and many matches share a distance (a word used once). So a page is read in
/// up to three steps, each from an index: the rest of the cursor's group of equal distance (newest
/// first), the nearest matches beyond it, read well past the page (`NEAREST_READ`) so that the
/// group at the page's edge usually ends among them, and, only when it does not, the start of
/// that group (newest first). Without RUM, or without a query, one statement orders by the full key.
///
/// A group is read one of two ways. From the match index, every match has its distance computed
/// (~16 µs each, the text read whole) before the newest of the group are picked: right for a rare
/// word, ~80 ms for a word in 5,000 articles. Walking the newest published articles and testing
/// each stops at the page: right when the group is a large share of the articles (a common word
/// used alike everywhere), but it reads the whole table when the group is small. So the walk is
/// tried only when the matches are many (`walk_bound`, from their count, taken once when a group
/// is read and reused as the search's total), for at most a few times the rows the page should
/// need; a group it does not fill within that is read from the index.
pub async fn page(db: &mut PgConnection, f: &SearchFilter, ranking: Ranking, after: Option<&Cursor>, limit: i64) -> sqlx::Result<Page> {
    if ranking != Ranking::Rum || f.query.is_none() {
        return Ok(Page { hits: hits(db, f, ranking, Step::Ordered { after }, limit).await?, matches: None });
    }
    let mut matches = None;
    async fn group(
        db: &mut PgConnection,
        f: &SearchFilter,
        matches: &mut Option<(i64, i64)>,
        distance: f64,
        before: Option<(DateTime<Utc>, &String)>,
        need: i64,
    ) -> sqlx::Result<Vec<Hit>> {
        let (count, published) = match *matches {
            Some(known) => known,
            None => *matches.insert(count_with_published(&mut *db, f).await?),
        };
        if let Some(bound) = walk_bound(count, published, need) {
            let walked = hits(db, f, Ranking::Rum, Step::Group { distance, before, walk: Some(bound) }, need).await?;
            if walked.len() as i64 == need {
                return Ok(walked);
            }
        }
        hits(db, f, Ranking::Rum, Step::Group { distance, before, walk: None }, need).await
    }
    let mut rows = Vec::new();
    if let Some(cursor) = after {
        rows = group(db, f, &mut matches, cursor.relevance, Some((cursor.published, &cursor.id)), limit).await?;
    }
    let need = limit - rows.len() as i64;
    if need > 0 {
        let read = (4 * need).max(NEAREST_READ);
        let mut nearest = hits(db, f, ranking, Step::Nearest { beyond: after.map(|c| c.relevance) }, read).await?;
        match nearest.get(need as usize - 1).map(|hit| hit.cursor.relevance) {
            Some(edge) if nearest.len() as i64 == read && nearest.last().is_some_and(|hit| hit.cursor.relevance == edge) => {
                // The group at the page's edge goes on past the rows read: the rows before it, then the group apart.
                let whole: Vec<Hit> = nearest.into_iter().filter(|hit| hit.cursor.relevance < edge).collect();
                let need = need - whole.len() as i64;
                rows.extend(whole);
                rows.extend(group(db, f, &mut matches, edge, None, need).await?);
            }
            Some(_) => {
                // Every row of the edge's group was read (a farther row follows it, or no row at all).
                nearest.sort_by(by_order);
                nearest.truncate(need as usize);
                rows.extend(nearest);
            }
            None => rows.extend(nearest),
        }
    }
    rows.sort_by(by_order);
    Ok(Page { hits: rows, matches: matches.map(|(count, _)| count) })
}

/// The search's order: by relevance, then newest first.
fn by_order(a: &Hit, b: &Hit) -> std::cmp::Ordering {
    let (a, b) = (&a.cursor, &b.cursor);
    a.relevance.total_cmp(&b.relevance).then(b.published.cmp(&a.published)).then(b.id.cmp(&a.id))
}

/// How many of the nearest matches a page reads at least (4 × its rows when more): a row read in
/// distance order costs ~25 µs (its distance computed again from the heap), so 200 cost ~5 ms,
/// where reading a group apart computes every match's distance (~45 ms for a word in 3,000
/// articles). In the reader benchmark a word's first page ends its edge's group within 64–182 rows.
const NEAREST_READ: i64 = 200;

/// A page of hits, and every match's count when reading it took one.
#[derive(Debug, Clone)]
pub struct Page {
    pub hits: Vec<Hit>,
    pub matches: Option<i64>,
}

/// How many of the newest articles to walk for `need` rows of a group when `matches` of
/// `published` articles match: if the whole group were the matches, the walk would read about
/// `need × published / matches` rows; it is allowed twice that (and `need`), and only when that is fewer than
/// the matches the index would read.
fn walk_bound(matches: i64, published: i64, need: i64) -> Option<i64> {
    if matches <= 0 {
        return None;
    }
    let bound = 2 * need.saturating_mul(published) / matches + need;
    (bound < matches).then_some(bound)
}

/// What one statement of `page` reads.
#[derive(Clone, Copy)]
enum Step<'a> {
    /// Matches after the cursor in the search's full order.
    Ordered { after: Option<&'a Cursor> },
    /// RUM: the nearest matches (beyond a distance), by distance alone.
    Nearest { beyond: Option<f64> },
    /// RUM: the matches at one distance (published before a row of it), newest first; by walking
    /// at most `walk` of the newest articles, else from the match index.
    Group { distance: f64, before: Option<(DateTime<Utc>, &'a String)>, walk: Option<i64> },
}

async fn hits(db: &mut PgConnection, f: &SearchFilter, ranking: Ranking, step: Step<'_>, limit: i64) -> sqlx::Result<Vec<Hit>> {
    if let Step::Group { distance, before, walk: Some(bound) } = step {
        return walk_group(db, f, ranking, distance, before, bound, limit).await;
    }
    let mut q = QueryBuilder::<Postgres>::new("select a.article_id, a.card_revision, a.publish_date, a.is_pinned, ");
    match &f.query {
        Some(words) => push_relevance(&mut q, ranking, words),
        None => {
            q.push("0::float8");
        }
    }
    q.push(" as relevance from article a left join channel c on c.channel_id = a.premium_channel_id");
    push_filters(&mut q, f, true);
    let words = f.query.as_deref().unwrap_or_default();
    match step {
        Step::Ordered { after: Some(cursor) } if f.query.is_some() => {
            // (relevance, -publish date, -id) after the cursor's.
            q.push(" and (");
            push_relevance(&mut q, ranking, words);
            q.push(" > ").push_bind(cursor.relevance).push(" or (");
            push_relevance(&mut q, ranking, words);
            q.push(" = ").push_bind(cursor.relevance);
            q.push(" and (a.publish_date, a.article_id) < (")
                .push_bind(cursor.published)
                .push(", ")
                .push_bind(cursor.id.clone())
                .push(")))");
        }
        Step::Ordered { after: Some(cursor) } if f.pinned_first => {
            q.push(" and (a.is_pinned, a.publish_date, a.article_id) < (")
                .push_bind(cursor.pinned)
                .push(", ")
                .push_bind(cursor.published)
                .push(", ")
                .push_bind(cursor.id.clone())
                .push(")");
        }
        Step::Ordered { after: Some(cursor) } => {
            q.push(" and (a.publish_date, a.article_id) < (").push_bind(cursor.published).push(", ").push_bind(cursor.id.clone()).push(")");
        }
        Step::Ordered { after: None } => {}
        Step::Nearest { beyond } => {
            if let Some(beyond) = beyond {
                q.push(" and ");
                push_relevance(&mut q, ranking, words);
                q.push(" > ").push_bind(beyond);
            }
        }
        Step::Group { distance, before, walk: _ } => {
            q.push(" and ");
            push_relevance(&mut q, ranking, words);
            q.push(" = ").push_bind(distance);
            if let Some((published, id)) = before {
                q.push(" and (a.publish_date, a.article_id) < (").push_bind(published).push(", ").push_bind(id.clone()).push(")");
            }
        }
    }
    match step {
        Step::Nearest { .. } => {
            q.push(" order by a.search_vector <=> websearch_to_tsquery('english', ").push_bind(words.to_owned()).push(")");
        }
        Step::Group { .. } => {
            q.push(" order by a.publish_date desc, a.article_id desc");
        }
        Step::Ordered { .. } => {
            q.push(match (&f.query, f.pinned_first) {
                (Some(_), _) => " order by relevance, a.publish_date desc, a.article_id desc",
                (None, true) => " order by a.is_pinned desc, a.publish_date desc, a.article_id desc",
                (None, false) => " order by a.publish_date desc, a.article_id desc",
            });
        }
    }
    q.push(" limit ").push_bind(limit);
    fetch_hits(db, q).await
}

/// The matches at `distance` (published before `before`) among the `bound` newest articles that
/// pass the other filters, newest first: walked in date order (the subquery's limit keeps
/// PostgreSQL from choosing the match index, whose estimate for a word is often far too low), each
/// tested until the page is full.
async fn walk_group(
    db: &mut PgConnection,
    f: &SearchFilter,
    ranking: Ranking,
    distance: f64,
    before: Option<(DateTime<Utc>, &String)>,
    bound: i64,
    limit: i64,
) -> sqlx::Result<Vec<Hit>> {
    let words = f.query.as_deref().unwrap_or_default();
    let mut q = QueryBuilder::<Postgres>::new("select a.article_id, a.card_revision, a.publish_date, a.is_pinned, ");
    push_relevance(&mut q, ranking, words);
    q.push(
        " from (select a.article_id, a.card_revision, a.publish_date, a.is_pinned, a.search_vector, a.title_summary_vector, a.premium_channel_id, ",
    )
    .push(PREMIUM)
    .push(" as is_premium_now from article a left join channel c on c.channel_id = a.premium_channel_id");
    push_filters(&mut q, f, false);
    if let Some((published, id)) = before {
        q.push(" and (a.publish_date, a.article_id) < (").push_bind(published).push(", ").push_bind(id.clone()).push(")");
    }
    q.push(" order by a.publish_date desc, a.article_id desc limit ")
        .push_bind(bound)
        .push(") a where true");
    push_match(&mut q, f, words, "a.is_premium_now");
    q.push(" and ");
    push_relevance(&mut q, ranking, words);
    q.push(" = ").push_bind(distance).push(" limit ").push_bind(limit);
    fetch_hits(db, q).await
}

async fn fetch_hits(db: &mut PgConnection, mut q: QueryBuilder<Postgres>) -> sqlx::Result<Vec<Hit>> {
    let rows: Vec<(String, i64, DateTime<Utc>, bool, f64)> = q.build_query_as().persistent(false).fetch_all(db).await?;
    Ok(rows
        .into_iter()
        .map(|(article_id, card_revision, published, pinned, relevance)| Hit {
            cursor: Cursor { relevance, published, pinned, id: article_id.clone() },
            article: Listed { article_id, card_revision },
        })
        .collect())
}

/// What the counts read: the articles with their channel, which the filters name.
const COUNTED: &str = " from article a left join channel c on c.channel_id = a.premium_channel_id";

/// How many published articles the search matches (counted from the match index, not ranked).
pub async fn count(db: impl PgExecutor<'_>, f: &SearchFilter) -> sqlx::Result<i64> {
    let mut q = QueryBuilder::<Postgres>::new(format!("select count(*){COUNTED}"));
    push_filters(&mut q, f, true);
    q.build_query_scalar().persistent(false).fetch_one(db).await
}

/// `count`, and how many articles are published in all (kept by a trigger: no scan).
async fn count_with_published(db: impl PgExecutor<'_>, f: &SearchFilter) -> sqlx::Result<(i64, i64)> {
    let mut q = QueryBuilder::<Postgres>::new(format!(
        "select count(*), (select articles from article_state_count where state = 'Published')::int8{COUNTED}"
    ));
    push_filters(&mut q, f, true);
    q.build_query_as().persistent(false).fetch_one(db).await
}

/// Marks around matched words in snippets: private-use characters, which the text never holds,
/// so the snippet can be HTML-escaped before they become `<mark>` tags.
pub const MARK_START: char = '\u{E000}';
pub const MARK_END: char = '\u{E001}';

/// The longest stretch of body text a snippet is taken from: headlines parse their whole text.
const SNIPPET_BODY_CHARS: i32 = 6000;

/// A snippet of each article matching `words`: from the summary and the start of the body where
/// `with_body` says the caller may read it, else from the summary alone (what the card shows under
/// the title: a snippet of the title would only say the title again); with the card revision of the
/// text it was taken from. A snippet without a marked match is no snippet (`graphql`).
pub async fn snippets(
    db: impl PgExecutor<'_>,
    ids: &[String],
    with_body: &[bool],
    words: &str,
) -> sqlx::Result<Vec<(String, i64, bool, String)>> {
    let rows = sqlx::query!(
        r#"select a.article_id, a.card_revision, p.with_body as "with_body!",
                  ts_headline('english',
                              case when p.with_body then coalesce(a.summary, '') || E'\n' || left(a.body_text, $4)
                                   else coalesce(a.summary, '') end,
                              websearch_to_tsquery('english', $3),
                              'StartSel=' || $5 || ', StopSel=' || $6 || ', MaxWords=35, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "')
                    as "snippet!"
           from unnest($1::text[], $2::bool[]) as p(id, with_body)
           join article a on a.article_id = p.id"#,
        ids,
        with_body,
        words,
        SNIPPET_BODY_CHARS,
        MARK_START.to_string(),
        MARK_END.to_string(),
    )
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|r| (r.article_id, r.card_revision, r.with_body, r.snippet)).collect())
}

/// Whether `words` make a query at all (`websearch_to_tsquery` of stop words alone is empty).
pub async fn is_meaningful(db: impl PgExecutor<'_>, words: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(r#"select numnode(websearch_to_tsquery('english', $1)) > 0 as "meaningful!""#, words).fetch_one(db).await
}

/// The ranking the database offers: RUM when `article_search_rum_idx` exists.
pub async fn ranking_in_use(db: impl PgExecutor<'_>) -> sqlx::Result<Ranking> {
    let rum: bool = sqlx::query_scalar("select to_regclass('article_search_rum_idx') is not null").fetch_one(db).await?;
    Ok(if rum { Ranking::Rum } else { Ranking::Gin })
}

/// Whether the `rum` extension is installed on the server.
pub async fn rum_available(db: impl PgExecutor<'_>) -> sqlx::Result<bool> {
    sqlx::query_scalar("select exists(select 1 from pg_available_extensions where name = 'rum')").fetch_one(db).await
}

/// Creates the extension and the ranked-search index over published articles (once).
pub async fn create_rum_index(db: &PgPool) -> sqlx::Result<()> {
    sqlx::raw_sql("create extension if not exists rum").execute(db).await?;
    sqlx::raw_sql(
        "create index if not exists article_search_rum_idx on article using rum (search_vector rum_tsvector_ops)
         where state = 'Published'",
    )
    .execute(db)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::walk_bound;

    #[test]
    fn a_common_word_is_walked_a_little_and_a_rare_one_read_from_the_index() {
        // 'copper' in 5,000 of 100,000 articles: ~200 rows for 10 if all are one group; 450 allowed.
        assert_eq!(walk_bound(5_000, 100_000, 10), Some(410));
        // 'molybdenum' in 20: the walk would read the whole table.
        assert_eq!(walk_bound(20, 100_000, 10), None);
        assert_eq!(walk_bound(0, 0, 10), None);
        assert_eq!(walk_bound(7, 7, 2), Some(6), "all match: the first rows walked are the page");
        assert_eq!(walk_bound(7, 7, 4), None, "the index reads no more than the walk would");
    }
}
