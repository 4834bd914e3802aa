//! SQL of the uploads area.

use sqlx::{PgExecutor, PgPool};

/// Whether upload `name` is linked from something every visitor is shown (migration 0025).
pub async fn is_public(db: impl PgExecutor<'_>, name: &str) -> sqlx::Result<bool> {
    let public = sqlx::query_scalar!("select is_public from upload where name = $1", name).fetch_optional(db).await?;
    Ok(public.unwrap_or(false))
}

/// The key upload links are signed with: `fresh` unless a server stored one first.
pub async fn signing_key(pool: &PgPool, fresh: Vec<u8>) -> sqlx::Result<Vec<u8>> {
    sqlx::query!("insert into server_secret (name, secret) values ('uploads', $1) on conflict (name) do nothing", fresh)
        .execute(pool)
        .await?;
    sqlx::query_scalar!("select secret from server_secret where name = 'uploads'").fetch_one(pool).await
}

/// Records the images of a PDF's pages (`names`, in page order) with each page's text (none
/// when empty: a scan, a blank page).
pub async fn insert_pdf_pages(pool: &PgPool, names: &[String], texts: &[Option<String>]) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into upload (name, pdf_page, page_text)
         select name, page::integer, text from unnest($1::text[], $2::text[]) with ordinality as p (name, text, page)
         on conflict (name) do update set pdf_page = excluded.pdf_page, page_text = excluded.page_text",
        names,
        texts as &[Option<String>],
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// The PDF page number and text of those of `names` that are PDF pages with text.
pub async fn page_texts(pool: &PgPool, names: &[&str]) -> sqlx::Result<Vec<(String, i32, String)>> {
    let names: Vec<String> = names.iter().map(|name| (*name).to_owned()).collect();
    let rows = sqlx::query!(
        r#"select name, pdf_page as "pdf_page!", page_text as "page_text!" from upload
           where name = any($1) and pdf_page is not null and page_text is not null"#,
        &names,
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|row| (row.name, row.pdf_page, row.page_text)).collect())
}
