//! `insights-cli import-subscribers`: the core routine it calls (`subscriptions::import`) on an empty
//! channel, run twice, with --overwrite and --dry-run, its error report, a failure midway, refused
//! channels and files, its progress; and the real binary with its progress going to a pipe.

use std::{
    path::{Path, PathBuf},
    sync::Mutex,
};

use insights::subscriptions::{
    import::{self, ImportError, ImportReport, ImportRequest, Summary},
    machine,
    model::SubscriptionType,
};
use sqlx::PgPool;

use crate::support::{TestApp, TestRole};

/// A CSV file in the temporary directory, removed with its error report when the test ends.
struct CsvFile(PathBuf);

impl CsvFile {
    fn new(text: &str) -> CsvFile {
        let path = std::env::temp_dir().join(format!("import-{}.csv", insights::ids::new_id()));
        std::fs::write(&path, text).unwrap();
        CsvFile(path)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    fn report(&self) -> Option<String> {
        std::fs::read_to_string(import::error_report_path(&self.0)).ok()
    }
}

impl Drop for CsvFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(import::error_report_path(&self.0));
        let _ = std::fs::remove_file(&self.0);
    }
}

struct Setup {
    app: TestApp,
    premium: String,
    free: String,
}

/// The app with a premium channel "Metals Premium" and a free open one "Metals Free".
async fn setup(pool: PgPool) -> Setup {
    let app = TestApp::spawn(pool).await;
    let admin = app.token(TestRole::Administrator).await;
    let admin_id = app.user_id(&admin).await;
    let desk = app.add_desk(&admin, "Metals desk", &[&admin_id]).await;
    let premium = app.channel_of_type(&admin, &desk, "Metals Premium", "premium").await;
    let free = app.channel_of_type(&admin, &desk, "Metals Free", "freeOpen").await;
    Setup { app, premium, free }
}

/// `count` users who have signed in, with addresses `{prefix}{i}@client.example` from 1.
async fn signed_in_users(pool: &PgPool, prefix: &str, count: i32) {
    sqlx::query(
        "insert into users (user_id, subject, email, name, last_login)
         select id, 'dev|' || id, $1 || i || '@client.example', $1 || ' ' || i, now()
         from generate_series(1, $2) as i, lateral (select substr(md5($1 || i), 1, 24) as id) as g",
    )
    .bind(prefix)
    .bind(count)
    .execute(pool)
    .await
    .unwrap();
}

async fn count(pool: &PgPool, table: &str) -> i64 {
    let sql = match table {
        "channel_subscription" => "select count(*) from channel_subscription",
        "subscription_audit" => "select count(*) from subscription_audit",
        "email_outbox" => "select count(*) from email_outbox",
        other => panic!("no count for {other}"),
    };
    sqlx::query_scalar(sql).fetch_one(pool).await.unwrap()
}

/// Rows of the three tables an import writes.
async fn written(pool: &PgPool) -> [i64; 3] {
    [count(pool, "channel_subscription").await, count(pool, "subscription_audit").await, count(pool, "email_outbox").await]
}

async fn run(app: &TestApp, request: &ImportRequest) -> Result<ImportReport, ImportError> {
    import::import_subscribers(&app.pool, app.state.jobs.as_ref(), request, &|_, _| {}).await
}

fn csv_lines(prefix: &str, count: i32) -> String {
    (1..=count).map(|i| format!("{prefix}{i}@client.example\n")).collect()
}

#[sqlx::test(migrations = "./migrations")]
async fn importing_into_an_empty_channel_adds_the_signed_in_users_and_reports_the_rest(pool: PgPool) {
    let s = setup(pool).await;
    let pool = &s.app.pool;
    signed_in_users(pool, "reader", 5).await;
    s.app.insert_user("never@client.example").await;
    let file = CsvFile::new(
        "Email,Name\n\
         reader1@client.example,One\n\
         READER2@Client.Example,Two\n\
         \"reader3@client.example\",\"Three, Jr\"\n\
         \n\
         never@client.example\n\
         nobody@client.example\n\
         reader1@CLIENT.example\n\
         ,\n\
         @reader4@client.example\n\
         reader4@client.example\r\n\
         reader5@client.example",
    );

    let report = run(&s.app, &ImportRequest::new("Metals Premium", file.path())).await.unwrap();

    assert_eq!(report.channel_id, s.premium);
    assert_eq!(report.subscription_type, SubscriptionType::NonCharge, "premium channels default to nonCharge");
    assert_eq!(
        report.summary,
        Summary { lines: 11, identified: 7, added: 5, no_account: 1, unmatched: 1, refused_lines: 4, ..Summary::default() }
    );
    let rows: Vec<(String, String, String, Option<String>, bool)> = sqlx::query_as(
        "select u.email, s.subscription_type, s.subscription_state, s.notes, s.added_by_admin
         from channel_subscription s join users u using (user_id) where s.channel_id = $1 order by u.email",
    )
    .bind(&s.premium)
    .fetch_all(pool)
    .await
    .unwrap();
    assert_eq!(rows.len(), 5);
    let notes = format!("Imported from {} by insights-cli", file.path().file_name().unwrap().to_string_lossy());
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row, &(format!("reader{}@client.example", i + 1), "nonCharge".into(), "active".into(), Some(notes.clone()), true));
    }
    let audit: Vec<(String, Option<String>, String, i64)> =
        sqlx::query_as("select route, actor_id, action, count(*) from subscription_audit where channel_id = $1 group by 1, 2, 3")
            .bind(&s.premium)
            .fetch_all(pool)
            .await
            .unwrap();
    assert_eq!(audit, vec![("cli".to_owned(), None, "grant".to_owned(), 5)]);
    let welcomes: i64 = sqlx::query_scalar("select count(*) from email_outbox where kind = 'welcome' and channel_id = $1")
        .bind(&s.premium)
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(welcomes, 5);

    let expected = [
        (1, "Email", "not an email address"),
        (6, "never@client.example", import::NEVER_SIGNED_IN),
        (7, "nobody@client.example", import::NO_SUCH_USER),
        (8, "reader1@CLIENT.example", "duplicate of line 2"),
        (9, "", "empty line"),
        (10, "@reader4@client.example", "not an email address"),
    ];
    let listed: Vec<(u64, &str, &str)> = report.refused.iter().map(|r| (r.line, r.value.as_str(), r.reason.as_str())).collect();
    assert_eq!(listed, expected);
    assert_eq!(report.error_report.as_deref(), Some(import::error_report_path(file.path()).as_path()));
    let written_report = file.report().expect("an error report beside the file");
    assert_eq!(written_report.lines().next(), Some("line,value,reason"));
    assert_eq!(written_report.lines().count(), expected.len() + 1);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_free_channel_gets_free_subscriptions_and_refuses_another_type(pool: PgPool) {
    let s = setup(pool).await;
    signed_in_users(&s.app.pool, "reader", 3).await;
    let file = CsvFile::new(&csv_lines("reader", 3));

    let report = run(&s.app, &ImportRequest::new(&s.free, file.path())).await.unwrap();
    assert_eq!((report.subscription_type, report.summary.added), (SubscriptionType::Free, 3));
    assert_eq!(file.report(), None, "no error report when every line added a subscriber");

    let trial = ImportRequest { subscription_type: Some(SubscriptionType::Trial), ..ImportRequest::new("Metals Free", file.path()) };
    let error = run(&s.app, &trial).await.unwrap_err();
    assert!(matches!(error, ImportError::Invalid(_)), "{error:?}");
    assert!(error.to_string().contains("--type: Metals Free is a free channel"), "{error}");

    // The admin form's rules, with the command's option names.
    let account = ImportRequest { subscription_type: Some(SubscriptionType::Account), ..ImportRequest::new(&s.premium, file.path()) };
    assert_eq!(run(&s.app, &account).await.unwrap_err().to_string(), "--account-number: This field is required");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_second_run_adds_nothing(pool: PgPool) {
    let s = setup(pool).await;
    signed_in_users(&s.app.pool, "reader", 12).await;
    let file = CsvFile::new(&format!("email\n{}", csv_lines("reader", 12)));
    let request = ImportRequest { chunk_size: 5, ..ImportRequest::new(&s.premium, file.path()) };

    let first = run(&s.app, &request).await.unwrap();
    assert_eq!(first.summary.added, 12);
    let before = written(&s.app.pool).await;

    let second = run(&s.app, &request).await.unwrap();
    assert_eq!(second.summary, Summary { lines: 13, identified: 12, already_subscribed: 12, refused_lines: 1, ..Summary::default() });
    assert_eq!(written(&s.app.pool).await, before, "nothing was written the second time");
    assert!(second.refused.iter().skip(1).all(|row| row.reason == import::ALREADY_SUBSCRIBED), "{:?}", second.refused);
    assert_eq!(second.refused.len(), 13);
}

#[sqlx::test(migrations = "./migrations")]
async fn overwrite_gives_existing_subscribers_the_new_subscription(pool: PgPool) {
    let s = setup(pool).await;
    let pool = &s.app.pool;
    signed_in_users(pool, "reader", 4).await;
    let file = CsvFile::new(&csv_lines("reader", 4));
    // reader1..3 are subscribed (nonCharge); reader4 is not.
    let three = CsvFile::new(&csv_lines("reader", 3));
    run(&s.app, &ImportRequest::new(&s.premium, three.path())).await.unwrap();

    let request = ImportRequest {
        subscription_type: Some(SubscriptionType::Trial),
        trial_duration: Some(30),
        overwrite: true,
        ..ImportRequest::new(&s.premium, file.path())
    };
    let report = run(&s.app, &request).await.unwrap();

    assert_eq!(report.summary, Summary { lines: 4, identified: 4, added: 1, updated: 3, ..Summary::default() });
    let types: Vec<(String, Option<i32>)> =
        sqlx::query_as("select subscription_type, trial_duration from channel_subscription where channel_id = $1")
            .bind(&s.premium)
            .fetch_all(pool)
            .await
            .unwrap();
    assert_eq!(types, vec![("trial".to_owned(), Some(30)); 4]);
    let changes: i64 = sqlx::query_scalar("select count(*) from subscription_audit where action = 'change' and route = 'cli'")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(changes, 3);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_dry_run_reports_but_writes_nothing(pool: PgPool) {
    let s = setup(pool).await;
    let pool = &s.app.pool;
    signed_in_users(pool, "reader", 8).await;
    let file = CsvFile::new(&format!("{}nobody@client.example\n", csv_lines("reader", 8)));
    let jobs_before: i64 = sqlx::query_scalar("select count(*) from apalis.jobs").fetch_one(pool).await.unwrap();

    let request = ImportRequest { dry_run: true, chunk_size: 3, ..ImportRequest::new(&s.premium, file.path()) };
    let report = run(&s.app, &request).await.unwrap();

    assert!(report.dry_run);
    assert_eq!(report.summary, Summary { lines: 9, identified: 9, added: 8, unmatched: 1, ..Summary::default() });
    assert_eq!(written(pool).await, [0, 0, 0]);
    let jobs_after: i64 = sqlx::query_scalar("select count(*) from apalis.jobs").fetch_one(pool).await.unwrap();
    assert_eq!(jobs_after, jobs_before, "no email delivery was enqueued");
    assert!(file.report().is_some_and(|report| report.contains("nobody@client.example")), "the dry run still writes its report");

    // A real run afterwards adds them all: the dry run left no lock or row behind.
    let real = run(&s.app, &ImportRequest::new(&s.premium, file.path())).await.unwrap();
    assert_eq!(real.summary.added, 8);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_error_report_escapes_cells_a_spreadsheet_would_run(pool: PgPool) {
    let s = setup(pool).await;
    let file = CsvFile::new(
        "\"=HYPERLINK(\"\"http://evil.example\"\",\"\"click\"\")@x.com\"\n\
         +1@x.com\n\
         -2@x.com\n\
         @SUM(A1:A9)\n\
         \"=1+1\"\n\
         plain@x.com\n",
    );

    run(&s.app, &ImportRequest::new(&s.premium, file.path())).await.unwrap();

    let text = file.report().unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    assert_eq!(reader.headers().unwrap(), vec!["line", "value", "reason"]);
    let rows: Vec<Vec<String>> = reader.records().map(|r| r.unwrap().iter().map(str::to_owned).collect()).collect();
    let row = |line: &str, value: &str, reason: &str| vec![line.to_owned(), value.to_owned(), reason.to_owned()];
    assert_eq!(
        rows,
        vec![
            row("1", "'=HYPERLINK(\"http://evil.example\",\"click\")@x.com", import::NO_SUCH_USER),
            row("2", "'+1@x.com", import::NO_SUCH_USER),
            row("3", "'-2@x.com", import::NO_SUCH_USER),
            row("4", "'@SUM(A1:A9)", "not an email address"),
            row("5", "'=1+1", "not an email address"),
            row("6", "plain@x.com", import::NO_SUCH_USER),
        ]
    );
    // No cell of the raw file starts with a formula character.
    for line in text.lines().skip(1) {
        let value = line.split_once(',').unwrap().1.trim_start_matches('"');
        assert!(!value.starts_with(['=', '+', '-', '@']), "{line}");
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn a_failure_midway_writes_nothing(pool: PgPool) {
    let s = setup(pool).await;
    let pool = &s.app.pool;
    signed_in_users(pool, "reader", 30).await;
    // The 25th user's row (users are written in id order) is refused by the database, in the third chunk of
    // ten, after two chunks were written.
    sqlx::query(
        "create function fail_import() returns trigger language plpgsql as $$
         begin
             if new.user_id = (select user_id from users where name like 'reader %' order by user_id offset 24 limit 1) then
                 raise exception 'injected failure';
             end if;
             return new;
         end $$",
    )
    .execute(pool)
    .await
    .unwrap();
    sqlx::query("create trigger fail_import before insert on channel_subscription for each row execute function fail_import()")
        .execute(pool)
        .await
        .unwrap();
    let file = CsvFile::new(&csv_lines("reader", 30));
    let done = Mutex::new(Vec::new());

    let request = ImportRequest { chunk_size: 10, ..ImportRequest::new(&s.premium, file.path()) };
    let error =
        import::import_subscribers(pool, s.app.state.jobs.as_ref(), &request, &|n, _| done.lock().unwrap().push(n)).await.unwrap_err();

    assert!(matches!(error, ImportError::Failed(_)), "{error:?}");
    assert!(error.to_string().contains("injected failure"), "{error}");
    assert_eq!(*done.lock().unwrap(), vec![0, 10, 20], "two chunks were done before the failure");
    assert_eq!(written(pool).await, [0, 0, 0]);
    assert_eq!(file.report(), None, "no report for an import that did not happen");
}

#[sqlx::test(migrations = "./migrations")]
async fn unknown_and_archived_channels_and_unreadable_files_are_refused(pool: PgPool) {
    let s = setup(pool).await;
    let file = CsvFile::new("ann@client.example\n");

    let error = run(&s.app, &ImportRequest::new("No Such Channel", file.path())).await.unwrap_err();
    assert!(matches!(error, ImportError::UnknownChannel(_)), "{error:?}");
    assert_eq!(error.to_string(), "no channel has the id or name \"No Such Channel\"");
    let well_formed = insights::ids::new_id();
    let error = run(&s.app, &ImportRequest::new(&well_formed, file.path())).await.unwrap_err();
    assert!(matches!(error, ImportError::UnknownChannel(_)), "{error:?}");

    let missing = std::env::temp_dir().join(format!("missing-{}.csv", insights::ids::new_id()));
    let error = run(&s.app, &ImportRequest::new(&s.premium, &missing)).await.unwrap_err();
    assert!(matches!(error, ImportError::Unreadable { .. }), "{error:?}");
    assert!(error.to_string().starts_with(&format!("cannot read {}: ", missing.display())), "{error}");

    insights::channels::service::archive_channel(&s.app.pool, &s.free, insights::channels::service::ArchivedBy::Operator).await.unwrap();
    let error = run(&s.app, &ImportRequest::new("Metals Free", file.path())).await.unwrap_err();
    assert!(matches!(error, ImportError::Archived { .. }), "{error:?}");
    assert_eq!(error.to_string(), machine::ARCHIVED);
    assert_eq!(written(&s.app.pool).await, [0, 0, 0]);
}

#[sqlx::test(migrations = "./migrations")]
async fn progress_counts_up_to_every_line(pool: PgPool) {
    let s = setup(pool).await;
    signed_in_users(&s.app.pool, "reader", 20).await;
    let file = CsvFile::new(&format!("email\n{}\nnot an address\n@x\n", csv_lines("reader", 20)));
    let calls = Mutex::new(Vec::new());

    let request = ImportRequest { chunk_size: 5, ..ImportRequest::new(&s.premium, file.path()) };
    let report = import::import_subscribers(&s.app.pool, s.app.state.jobs.as_ref(), &request, &|done, total| {
        calls.lock().unwrap().push((done, total))
    })
    .await
    .unwrap();

    let calls = calls.into_inner().unwrap();
    assert_eq!(report.summary.lines, 23);
    assert!(calls.iter().all(|&(_, total)| total == 23), "{calls:?}");
    // The three refused lines are done once the file is checked, then each chunk of five users.
    let done: Vec<u64> = calls.iter().map(|&(done, _)| done).collect();
    assert_eq!(done, vec![0, 3, 8, 13, 18, 23]);
}

/// The debug binary, when it has been built (`cargo build -p insights-cli`).
fn binary() -> Option<PathBuf> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cache/insights/target")))?;
    let bin = target.join("debug/insights-cli");
    bin.exists().then_some(bin)
}

/// A count of the command's summary ("  added:      3").
fn figure(stdout: &str, label: &str) -> Option<u64> {
    stdout.lines().find_map(|line| line.trim_start().strip_prefix(label)?.strip_prefix(':')?.trim().parse().ok())
}

#[sqlx::test(migrations = "./migrations")]
async fn the_binary_imports_with_its_progress_going_to_a_pipe(pool: PgPool) {
    let Some(bin) = binary() else {
        eprintln!("skipped: no insights-cli binary (cargo build -p insights-cli)");
        return;
    };
    let help = tokio::process::Command::new(&bin).arg("--help").output().await.unwrap();
    if !String::from_utf8_lossy(&help.stdout).contains("import-subscribers") {
        eprintln!("skipped: {} predates import-subscribers (cargo build -p insights-cli)", bin.display());
        return;
    }
    let database = pool.connect_options().get_database().expect("a test database").to_owned();
    let mut url = url::Url::parse(&std::env::var("DATABASE_URL").expect("DATABASE_URL")).unwrap();
    url.set_path(&database);
    let s = setup(pool).await;
    signed_in_users(&s.app.pool, "reader", 3).await;
    let file = CsvFile::new(&format!("email\n{}=cmd@x.com\n", csv_lines("reader", 3)));
    let cli = |extra: &[&str]| {
        let mut command = tokio::process::Command::new(&bin);
        command
            .args(["import-subscribers", "--channel", "Metals Premium"])
            .args(extra)
            .arg(file.path())
            .env("DATABASE_URL", url.as_str())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        command
    };

    let output = cli(&[]).output().await.unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "stdout: {stdout}\nstderr: {stderr}");
    assert!(stdout.starts_with("Imported: "), "{stdout}");
    assert_eq!(figure(&stdout, "added"), Some(3), "{stdout}");
    assert_eq!(figure(&stdout, "unmatched"), Some(1), "{stdout}");
    assert!(stdout.contains(&format!("see {}", import::error_report_path(file.path()).display())), "{stdout}");
    assert!(!stderr.contains('\u{1b}'), "no terminal control codes on a pipe: {stderr:?}");
    assert!(file.report().unwrap().contains("'=cmd@x.com"));
    assert_eq!(count(&s.app.pool, "channel_subscription").await, 3);

    let again = cli(&["--dry-run"]).output().await.unwrap();
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(again.status.success(), "{stdout}");
    assert!(stdout.starts_with("Dry run, nothing was written: "), "{stdout}");
    assert_eq!(figure(&stdout, "already subscribed"), Some(3), "{stdout}");

    let unknown = tokio::process::Command::new(&bin)
        .args(["import-subscribers", "--channel", "No Such Channel"])
        .arg(file.path())
        .env("DATABASE_URL", url.as_str())
        .output()
        .await
        .unwrap();
    assert!(!unknown.status.success());
    let stderr = String::from_utf8_lossy(&unknown.stderr);
    assert!(stderr.contains("no channel has the id or name \"No Such Channel\""), "{stderr}");
}

#[sqlx::test(migrations = "./migrations")]
async fn an_imported_trial_follows_the_trial_policy_unless_a_reason_overrides_it(pool: PgPool) {
    let s = setup(pool).await;
    let pool = &s.app.pool;
    signed_in_users(pool, "reader", 2).await;
    // reader1's trial of the channel ended 10 days ago: within the 365-day cool-off.
    let reader1: String = sqlx::query_scalar("select user_id from users where email = 'reader1@client.example'").fetch_one(pool).await.unwrap();
    s.app.subscribe(&s.premium, &reader1, "trial", "expired", Some(-10), true).await;
    sqlx::query("update channel_subscription set trial_duration = 14").execute(pool).await.unwrap();
    let file = CsvFile::new(&csv_lines("reader", 2));
    let trial = |days: i32, reason: Option<&str>| ImportRequest {
        subscription_type: Some(SubscriptionType::Trial),
        trial_duration: Some(days),
        policy_override_reason: reason.map(str::to_owned),
        ..ImportRequest::new("Metals Premium", file.path())
    };

    // Longer than the policy's 90 days: nothing imported.
    let refused = run(&s.app, &trial(95, None)).await;
    assert!(matches!(&refused, Err(error) if error.to_string() == "--trial-duration: The trial policy allows at most 90 days."), "{refused:?}");

    // reader2 gets the trial; reader1 is refused on their line, saying until when.
    let report = run(&s.app, &trial(30, None)).await.unwrap();
    assert_eq!(report.summary.added, 1);
    let reasons: Vec<(u64, &str)> = report.refused.iter().map(|r| (r.line, r.reason.as_str())).collect();
    assert_eq!(reasons.len(), 1, "{reasons:?}");
    assert_eq!(reasons[0].0, 1);
    assert!(reasons[0].1.starts_with("You had a trial of Metals Premium until"), "{reasons:?}");

    // With a reason, reader1 gets it too, the override kept in the audit trail.
    let report = run(&s.app, &trial(30, Some("Renewal agreed with the client's compliance team"))).await.unwrap();
    assert_eq!(report.summary.added, 1, "{report:?}");
    let overrides: i64 = sqlx::query_scalar("select count(*) from audit_event where change -> 'trialPolicyOverride' ->> 'reason' like 'Renewal%'")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(overrides, 1);
}
