//! `insights-cli billing-accounts`: the real binary against a fresh database per test: an import
//! (header, BOM, CRLF, quotes, blank lines, case of emails), its second run, a renamed account,
//! unknown users, refused rows, --dry-run, an unreadable file, and `list --email`.

mod command;

use std::path::{Path, PathBuf};

use sqlx::PgPool;

/// A CSV file in the temporary directory, removed when the test ends.
struct CsvFile(PathBuf);

impl CsvFile {
    fn new(text: &str) -> CsvFile {
        let path = std::env::temp_dir().join(format!("billing-accounts-{}.csv", uuid()));
        std::fs::write(&path, text).unwrap();
        CsvFile(path)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for CsvFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn uuid() -> String {
    format!("{}-{:x}", std::process::id(), std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos())
}

/// The binary, pointed at the test's own database.
struct Cli {
    url: String,
}

impl Cli {
    fn of(pool: &PgPool) -> Cli {
        let database = pool.connect_options().get_database().expect("a test database").to_owned();
        let mut url = url::Url::parse(&std::env::var("DATABASE_URL").expect("DATABASE_URL")).unwrap();
        url.set_path(&database);
        Cli { url: url.to_string() }
    }

    async fn run(&self, args: &[&str]) -> command::Run {
        command::run(args, |command| {
            command.env("DATABASE_URL", &self.url).env_remove("INSIGHTS_LOG");
        })
        .await
    }

    /// Runs `billing-accounts import FILE [extra]`, which must succeed; returns its stdout.
    async fn import(&self, file: &CsvFile, extra: &[&str]) -> String {
        let path = file.path().to_str().unwrap();
        let mut args = vec!["billing-accounts", "import", path];
        args.extend(extra);
        self.run(&args).await.succeeded()
    }
}

async fn add_user(pool: &PgPool, email: &str, name: &str) {
    sqlx::query(
        "insert into users (user_id, subject, email, name, last_login)
         values (substr(md5($1), 1, 24), 'dev|' || $1, $1, $2, now())",
    )
    .bind(email)
    .bind(name)
    .execute(pool)
    .await
    .unwrap();
}

/// (email, account number, name) of every billing account, by email and number.
async fn accounts(pool: &PgPool) -> Vec<(String, String, Option<String>)> {
    sqlx::query_as(
        "select u.email::text, a.account_number, a.name from billing_account a join users u using (user_id)
          order by u.email, a.account_number",
    )
    .fetch_all(pool)
    .await
    .unwrap()
}

fn owned(rows: &[(&str, &str, Option<&str>)]) -> Vec<(String, String, Option<String>)> {
    rows.iter().map(|(e, n, m)| (e.to_string(), n.to_string(), m.map(str::to_owned))).collect()
}

async fn readers(pool: &PgPool) {
    add_user(pool, "ann@client.example", "Ann Reader").await;
    add_user(pool, "Bob@Client.example", "Bob Reader").await;
}

/// A file as spreadsheets write it: BOM, CRLF, a header naming the columns, quoted values, a blank
/// line, emails in another case; one unknown user and three bad rows.
const FILE: &str = "\u{feff}Email,Account number,Name\r\n\
                    ann@client.example,ACC-1,Ann's desk\r\n\
                    \r\n\
                    ANN@CLIENT.EXAMPLE,\"ACC-2\",\"Metals, London\"\r\n\
                    bob@client.example,ACC-3,\r\n\
                    nobody@client.example,ACC-9,Nobody\r\n\
                    ,ACC-4,No email\r\n\
                    bob@client.example,,No number\r\n\
                    bob@client.example,ACC-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA,Too long\r\n";

#[sqlx::test(migrations = "../migrations")]
async fn an_import_adds_the_accounts_then_a_second_run_changes_nothing(pool: PgPool) {
    readers(&pool).await;
    let cli = Cli::of(&pool);
    let file = CsvFile::new(FILE);

    let stdout = cli.import(&file, &[]).await;
    assert!(stdout.starts_with("Imported: "), "{stdout}");
    assert!(stdout.contains("7 rows after a header"), "{stdout}");
    assert_eq!(command::figure(&stdout, "accounts added"), Some(3), "{stdout}");
    assert_eq!(command::figure(&stdout, "accounts updated"), Some(0), "{stdout}");
    assert_eq!(command::figure(&stdout, "rows for unknown users"), Some(1), "{stdout}");
    assert_eq!(command::figure(&stdout, "rows refused"), Some(3), "{stdout}");
    let line_of = |needle: &str| stdout.lines().find(|l| l.contains(needle)).unwrap_or_else(|| panic!("{needle}: {stdout}")).to_owned();
    assert!(line_of("nobody@client.example").contains("ACC-9"), "{stdout}");
    assert!(line_of("no email").trim_start().starts_with("7 "), "line numbers count the header and blank line: {stdout}");
    assert!(line_of("no account number").trim_start().starts_with("8 "), "{stdout}");
    assert!(line_of("account number longer than 64 characters").trim_start().starts_with("9 "), "{stdout}");
    let expected = owned(&[
        ("ann@client.example", "ACC-1", Some("Ann's desk")),
        ("ann@client.example", "ACC-2", Some("Metals, London")),
        ("Bob@Client.example", "ACC-3", None),
    ]);
    assert_eq!(accounts(&pool).await, expected);

    let again = cli.import(&file, &[]).await;
    assert_eq!(command::figure(&again, "accounts added"), Some(0), "{again}");
    assert_eq!(command::figure(&again, "accounts updated"), Some(0), "a second run updates nothing: {again}");
    assert_eq!(command::figure(&again, "rows for unknown users"), Some(1), "{again}");
    assert_eq!(accounts(&pool).await, expected);

    // A new name for a known account is an update; a row without a name keeps the name.
    let renamed = CsvFile::new("ann@client.example,ACC-1,Ann's new desk\nann@client.example,ACC-2\n");
    let stdout = cli.import(&renamed, &[]).await;
    assert!(stdout.contains("2 rows,"), "no header: {stdout}");
    assert_eq!(command::figure(&stdout, "accounts added"), Some(0), "{stdout}");
    assert_eq!(command::figure(&stdout, "accounts updated"), Some(1), "{stdout}");
    assert_eq!(
        accounts(&pool).await[..2],
        owned(&[("ann@client.example", "ACC-1", Some("Ann's new desk")), ("ann@client.example", "ACC-2", Some("Metals, London")),])
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_dry_run_reports_and_writes_nothing(pool: PgPool) {
    readers(&pool).await;
    let cli = Cli::of(&pool);
    let file = CsvFile::new(FILE);
    let stdout = cli.import(&file, &["--dry-run"]).await;
    assert!(stdout.starts_with("Dry run, nothing was written: "), "{stdout}");
    assert_eq!(command::figure(&stdout, "accounts added"), Some(3), "{stdout}");
    assert!(accounts(&pool).await.is_empty());
}

#[sqlx::test(migrations = "../migrations")]
async fn an_unreadable_file_is_refused_with_its_reason(pool: PgPool) {
    let cli = Cli::of(&pool);
    let missing = std::env::temp_dir().join(format!("no-such-{}.csv", uuid()));
    let command::Run { output, stderr, .. } = cli.run(&["billing-accounts", "import", missing.to_str().unwrap()]).await;
    assert!(!output.status.success());
    assert!(stderr.contains(&format!("cannot read {}: No such file or directory", missing.display())), "{stderr}");

    let directory = std::env::temp_dir();
    let command::Run { output, stderr, .. } = cli.run(&["billing-accounts", "import", directory.to_str().unwrap()]).await;
    assert!(!output.status.success());
    assert!(stderr.contains("cannot read"), "{stderr}");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_accounts_of_a_user_are_listed_by_email(pool: PgPool) {
    readers(&pool).await;
    let cli = Cli::of(&pool);
    cli.import(&CsvFile::new("email,account,name\nbob@client.example,ACC-7,Bob's desk\n"), &[]).await;

    let command::Run { output, stdout, stderr } = cli.run(&["billing-accounts", "list", "--email", "BOB@client.example"]).await;
    assert!(output.status.success(), "{stderr}");
    assert!(stdout.contains("Billing accounts of Bob Reader <Bob@Client.example>"), "{stdout}");
    assert!(stdout.lines().any(|l| l.contains("ACC-7") && l.contains("Bob's desk")), "{stdout}");

    let command::Run { stdout, .. } = cli.run(&["billing-accounts", "list", "--email", "ann@client.example"]).await;
    assert!(stdout.contains("Ann Reader <ann@client.example>") && stdout.contains("has no billing account"), "{stdout}");

    let command::Run { output, stderr, .. } = cli.run(&["billing-accounts", "list", "--email", "nobody@client.example"]).await;
    assert!(!output.status.success());
    assert!(stderr.contains("no Insights user has the email \"nobody@client.example\""), "{stderr}");
}
