//! `insights-cli seed taxonomy`: the core it calls, run twice, and with bad rows.

use insights::taxonomy::seed::{self, SeedError, Summary};
use sqlx::PgPool;

const GOOD: &str = "type,path,description,sector,locked,premium
topic,Equities,Listed equities,true,,
topic,Equities > Europe,European equities,,,
topic,Equities > Europe > Banks,European banks,,,true
topic,Commodities,Commodities research,true,,
tag,ESG,Environmental and social
tag,Earnings,Results
";

async fn run(pool: &PgPool, csv: &str) -> Result<Summary, SeedError> {
    let rows = seed::parse(csv.as_bytes()).map_err(SeedError::Rows)?;
    seed::apply(pool, rows, &|_| {}).await
}

async fn count(pool: &PgPool, table: &'static str) -> i64 {
    let sql = match table {
        "category" => "select count(*) from category",
        "tag" => "select count(*) from tag",
        other => panic!("no count for {other}"),
    };
    sqlx::query_scalar(sql).fetch_one(pool).await.unwrap()
}

#[sqlx::test(migrations = "./migrations")]
async fn seeding_twice_changes_nothing_the_second_time(pool: PgPool) {
    let first = run(&pool, GOOD).await.unwrap();
    assert_eq!((first.topics_added, first.tags_added), (4, 2));
    let versions: Vec<i32> = sqlx::query_scalar("select version from category order by category_id").fetch_all(&pool).await.unwrap();

    let second = run(&pool, GOOD).await.unwrap();
    assert_eq!(second, Summary { topics_unchanged: 4, tags_unchanged: 2, ..Summary::default() });
    let after: Vec<i32> = sqlx::query_scalar("select version from category order by category_id").fetch_all(&pool).await.unwrap();
    assert_eq!(versions, after, "nothing was rewritten");

    let banks: (bool, Option<String>) = sqlx::query_as(
        "select c.is_premium, p.name from category c join category p on p.category_id = c.parent_id where c.name = 'Banks'",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(banks, (true, Some("Europe".to_owned())));
}

#[sqlx::test(migrations = "./migrations")]
async fn a_changed_description_is_an_update(pool: PgPool) {
    run(&pool, GOOD).await.unwrap();
    let changed = GOOD.replace("European banks", "Banks in Europe").replace("Environmental and social", "ESG research");
    let summary = run(&pool, &changed).await.unwrap();
    assert_eq!((summary.topics_updated, summary.topics_unchanged, summary.tags_updated), (1, 3, 1));
}

#[sqlx::test(migrations = "./migrations")]
async fn a_file_with_a_bad_row_writes_nothing_and_names_the_line(pool: PgPool) {
    let bad = format!("{GOOD}topic,Equities > Asia,,,,\n");
    let Err(SeedError::Rows(errors)) = run(&pool, &bad).await else { panic!("should fail") };
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].line, 8);
    assert!(errors[0].message.contains("description is required"));
    assert_eq!(count(&pool, "category").await, 0);

    // A parent that exists nowhere is found while applying: still nothing is written.
    let orphan = format!("{GOOD}topic,Rates > Short End,Front-end rates,,,\n");
    let Err(SeedError::Rows(errors)) = run(&pool, &orphan).await else { panic!("should fail") };
    assert_eq!(errors[0].line, 8, "{errors:?}");
    assert!(errors[0].message.contains("parent topic 'Rates'"));
    assert_eq!(count(&pool, "category").await, 0);
    assert_eq!(count(&pool, "tag").await, 0);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_shipped_taxonomy_loads(pool: PgPool) {
    let csv = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/seeds/taxonomy.csv")).unwrap();
    let summary = run(&pool, &csv).await.unwrap();
    assert!(summary.topics_added >= 300, "{summary:?}");
    let deepest: i32 = sqlx::query_scalar(
        "with recursive t as (select category_id, 1 as level from category where parent_id is null
           union all select c.category_id, t.level + 1 from category c join t on c.parent_id = t.category_id)
         select max(level) from t",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(deepest, 5);
}
