//! The cluster tests' harness: the real binary as separate processes (`serve --no-worker`,
//! `worker`, `migrate`, `token`) on one database, each with its output in a log file that is
//! printed when the test fails; everything is killed when the `Cluster` is dropped (a panic too).
//!
//! Uploads go to one local directory shared by the servers (what a shared volume gives); the
//! object-storage backend has its own tests against an S3 server (tests/api/uploads.rs).

pub mod balancer;
pub mod load;
// The API tests' maildev starter, shared.
#[path = "../../../tests/api/support/maildev.rs"]
#[allow(dead_code)]
pub mod maildev;
pub mod postgres;

use std::{
    fs::File,
    io::Write,
    path::{Path, PathBuf},
    process::{Child, Command, ExitStatus, Stdio},
    time::{Duration, Instant},
};

use serde_json::{Value, json};
use sqlx::{Connection, PgPool};

/// The binary under test (built by cargo for this test target).
pub const BIN: &str = env!("CARGO_BIN_EXE_insights-cli");

/// How long a process may take to answer `/healthz` (or to exit after SIGTERM).
pub const STARTUP: Duration = Duration::from_secs(60);

/// How long a server's drain lasts (`/healthz` says draining while it still serves): several
/// polls of the load balancer (every 100 ms).
pub const SHUTDOWN_GRACE_MS: u64 = 500;

/// The tests of this file one at a time: each runs several servers (and some a load) on what is
/// often a two-core machine.
pub async fn one_at_a_time() -> tokio::sync::MutexGuard<'static, ()> {
    static TURN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    TURN.lock().await
}

/// A loopback port nobody listens on right now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port").local_addr().unwrap().port()
}

/// `DATABASE_URL`: the `postgres` database of the machine's PostgreSQL, as for the API tests.
pub fn server_database_url() -> String {
    std::env::var("DATABASE_URL").unwrap_or_else(|_| {
        panic!("DATABASE_URL is not set: the cluster tests need a PostgreSQL server (`scripts/postgres.sh url postgres` prints one)")
    })
}

/// A database of its own on the machine's PostgreSQL, dropped (with its connections) at the end.
pub struct Database {
    server_url: String,
    name: String,
    pub url: String,
}

impl Database {
    pub async fn create() -> Database {
        let server_url = server_database_url();
        let name = format!("cluster_{}", insights::ids::new_id());
        let mut conn = sqlx::PgConnection::connect(&server_url).await.unwrap_or_else(|e| panic!("connect to {server_url}: {e}"));
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("create database {name}"))).execute(&mut conn).await.expect("create the test database");
        let mut url = url::Url::parse(&server_url).expect("DATABASE_URL is a URL");
        url.set_path(&name);
        Database { server_url, name, url: url.to_string() }
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        let (url, name) = (self.server_url.clone(), self.name.clone());
        // Drop runs outside any async context we could borrow: a runtime of its own, on a thread.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            runtime.block_on(async move {
                let mut conn = sqlx::PgConnection::connect(&url).await?;
                sqlx::raw_sql(sqlx::AssertSqlSafe(format!("drop database if exists {name} with (force)")))
                    .execute(&mut conn)
                    .await
                    .map(|_| ())
            })
        })
        .join();
        if !matches!(dropped, Ok(Ok(()))) {
            eprintln!("could not drop the test database {}: {dropped:?}", self.name);
        }
    }
}

/// A child process whose stdout and stderr go to a log file; killed when dropped.
pub struct Process {
    pub name: String,
    pub log: PathBuf,
    child: Option<Child>,
}

impl Process {
    /// Starts `command`, appending its output to `log` after a line saying what was started.
    pub fn spawn(name: &str, log: &Path, mut command: Command) -> Process {
        let mut file = File::options().create(true).append(true).open(log).expect("open the process log");
        writeln!(file, "----- {name}: {command:?}").unwrap();
        let child = command
            .stdin(Stdio::null())
            .stdout(file.try_clone().unwrap())
            .stderr(file)
            .spawn()
            .unwrap_or_else(|e| panic!("start {name} ({BIN}): {e}"));
        Process { name: name.to_owned(), log: log.to_owned(), child: Some(child) }
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("a running process").id()
    }

    /// Whether it is still running (false once it exited).
    pub fn is_running(&mut self) -> bool {
        self.child.as_mut().is_some_and(|child| child.try_wait().expect("poll the process").is_none())
    }

    /// Sends SIGTERM, as an orchestrator stopping the process does.
    pub fn terminate(&self) {
        let pid = self.pid() as libc::pid_t;
        // SAFETY: kill(2) with a pid of our own child, which has not been reaped yet.
        let sent = unsafe { libc::kill(pid, libc::SIGTERM) };
        assert_eq!(sent, 0, "SIGTERM to {} ({pid}): {}", self.name, std::io::Error::last_os_error());
    }

    /// Waits for the process to exit; panics (with its log) when it is still running after `within`.
    pub async fn wait_exit(&mut self, within: Duration) -> ExitStatus {
        let deadline = Instant::now() + within;
        let child = self.child.as_mut().expect("a started process");
        loop {
            if let Some(status) = child.try_wait().expect("poll the process") {
                self.child = None;
                return status;
            }
            assert!(Instant::now() < deadline, "{} still runs {within:?} after it was asked to stop", self.name);
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The last `n` lines of a log, for failure output.
pub fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// One `serve --no-worker` process on a fixed port (kept across restarts).
pub struct Server {
    pub name: String,
    pub port: u16,
    pub url: String,
    pub process: Process,
}

/// Several processes of the binary on one database: its temporary directory holds the logs, the
/// shared upload directory and the processes' working directory.
pub struct Cluster {
    pub dir: tempfile::TempDir,
    pub database_url: String,
    /// The load balancer's port, bound from the start so that the public URL is known.
    public_listener: Option<std::net::TcpListener>,
    env: Vec<(String, String)>,
    pub servers: Vec<Server>,
    pub workers: Vec<Process>,
    /// Printed with the processes' logs when the test fails (the private PostgreSQL's log).
    pub extra_logs: Vec<(String, PathBuf)>,
    pub http: reqwest::Client,
    pool: Option<PgPool>,
    /// Dropped after the processes (fields drop after `Drop::drop`).
    _database: Option<Database>,
}

impl Cluster {
    /// A cluster on a fresh database of the machine's PostgreSQL (`DATABASE_URL`), migrated.
    pub async fn on_fresh_database(env: &[(&str, &str)]) -> Cluster {
        let database = Database::create().await;
        let url = database.url.clone();
        Cluster::on(url, Some(database), env).await
    }

    /// A cluster on `database_url`; runs `insights-cli migrate` first (as a deployment does
    /// before it starts the new version's processes).
    pub async fn on(database_url: String, database: Option<Database>, extra_env: &[(&str, &str)]) -> Cluster {
        let dir = tempfile::Builder::new().prefix("insights-cluster-").tempdir().expect("a temporary directory");
        let uploads = dir.path().join("uploads");
        std::fs::create_dir_all(&uploads).unwrap();
        let public_listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind the load balancer's port");
        // What every process is told is its public URL: the tokens' issuer, the links in emails.
        let public_url = format!("http://{}", public_listener.local_addr().unwrap());
        let mut env: Vec<(String, String)> = [
            ("DATABASE_URL", database_url.as_str()),
            ("INSIGHTS_PUBLIC_URL", public_url.as_str()),
            ("INSIGHTS_UPLOAD_DIR", uploads.to_str().unwrap()),
            ("INSIGHTS_WEB_DIR", dir.path().join("web").to_str().unwrap()),
            ("INSIGHTS_LOG_FORMAT", "pretty"),
            ("INSIGHTS_LOG", "info,sqlx=warn,apalis=warn"),
            ("NO_COLOR", "1"),
            // Several processes share the test's PostgreSQL (with other tests' databases).
            ("INSIGHTS_DB_MAX_CONNECTIONS", "8"),
            ("INSIGHTS_SHUTDOWN_GRACE_MS", &SHUTDOWN_GRACE_MS.to_string()),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        env.extend(extra_env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        let http = reqwest::Client::builder()
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap();
        let cluster = Cluster {
            dir,
            database_url,
            public_listener: Some(public_listener),
            env,
            servers: Vec::new(),
            workers: Vec::new(),
            extra_logs: Vec::new(),
            http,
            pool: None,
            _database: database,
        };
        cluster.run(&["migrate"]).await;
        cluster
    }

    /// The binary with this cluster's settings (and none inherited from the test's environment).
    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(BIN);
        command.args(args).current_dir(self.dir.path());
        for (name, _) in std::env::vars() {
            if name.starts_with("INSIGHTS_") || name == "RUST_LOG" {
                command.env_remove(name);
            }
        }
        command.envs(self.env.iter().map(|(k, v)| (k, v)));
        command
    }

    fn log_path(&self, name: &str) -> PathBuf {
        self.dir.path().join(format!("{name}.log"))
    }

    /// Runs a one-shot command that must succeed; returns its stdout.
    pub async fn run(&self, args: &[&str]) -> String {
        let mut command = tokio::process::Command::from(self.command(args));
        let output = command.output().await.unwrap_or_else(|e| panic!("run {BIN} {args:?}: {e}"));
        let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        assert!(output.status.success(), "insights-cli {args:?} failed ({}):\n{stdout}\n{stderr}", output.status);
        stdout.into_owned()
    }

    /// A bearer token of the built-in provider from `insights-cli token` (signed with the key in
    /// the database, which every server validates with). The first call creates that key: call
    /// it before starting the servers.
    pub async fn token(&self, email: &str, role: &str) -> String {
        self.run(&["token", "--email", email, "--role", role, "--ttl", "2h"]).await.trim().to_owned()
    }

    /// Starts `serve --no-worker` on a free port and waits until its `/healthz` says ok; returns its index.
    pub async fn start_server(&mut self, name: &str) -> usize {
        let port = free_port();
        let process = self.spawn_server(name, port);
        self.servers.push(Server { name: name.to_owned(), port, url: format!("http://127.0.0.1:{port}"), process });
        let index = self.servers.len() - 1;
        self.wait_healthy(index).await;
        index
    }

    fn spawn_server(&self, name: &str, port: u16) -> Process {
        let mut command = self.command(&["serve", "--no-worker"]);
        command.env("INSIGHTS_LISTEN", format!("127.0.0.1:{port}"));
        Process::spawn(name, &self.log_path(name), command)
    }

    /// Starts the server `index` again on its port (after it exited) and waits until it is healthy.
    pub async fn restart_server(&mut self, index: usize) {
        let server = &self.servers[index];
        assert!(server.process.child.is_none(), "{} is still running", server.name);
        let process = self.spawn_server(&server.name, server.port);
        self.servers[index].process = process;
        self.wait_healthy(index).await;
    }

    /// Waits until the server's `/healthz` answers 200; panics with its log if it exits or takes too long.
    pub async fn wait_healthy(&mut self, index: usize) {
        let deadline = Instant::now() + STARTUP;
        let url = format!("{}/healthz", self.servers[index].url);
        loop {
            if let Ok(response) = self.http.get(&url).timeout(Duration::from_secs(2)).send().await
                && response.status() == 200
            {
                return;
            }
            let server = &mut self.servers[index];
            assert!(
                server.process.is_running(),
                "{} exited before it answered /healthz:\n{}",
                server.name,
                tail(&server.process.log_text(), 60)
            );
            assert!(Instant::now() < deadline, "{} did not answer /healthz within {STARTUP:?}", server.name);
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Starts a `worker` process and waits until it has registered itself in the database.
    pub async fn start_worker(&mut self, name: &str) {
        let process = Process::spawn(name, &self.log_path(name), self.command(&["worker"]));
        let pid = process.pid() as i32;
        self.workers.push(process);
        let deadline = Instant::now() + STARTUP;
        loop {
            let registered: i64 = sqlx::query_scalar("select count(*) from worker_process where pid = $1 and stopped_at is null")
                .bind(pid)
                .fetch_one(self.pool().await)
                .await
                .expect("read the worker registry");
            if registered > 0 {
                return;
            }
            let worker = self.workers.last_mut().unwrap();
            assert!(worker.is_running(), "{name} exited:\n{}", tail(&worker.log_text(), 60));
            assert!(Instant::now() < deadline, "{name} did not register within {STARTUP:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The load balancer in front of the servers started so far, on the public URL's port.
    pub async fn balancer(&mut self) -> balancer::Balancer {
        let listener = self.public_listener.take().expect("one load balancer per cluster");
        balancer::Balancer::start(listener, self.servers.iter().map(|s| s.url.clone()).collect()).await
    }

    /// A pool on the cluster's database, for what the test checks there.
    pub async fn pool(&mut self) -> &PgPool {
        if self.pool.is_none() {
            let pool = sqlx::postgres::PgPoolOptions::new()
                .max_connections(2)
                .connect(&self.database_url)
                .await
                .expect("connect to the cluster's database");
            self.pool = Some(pool);
        }
        self.pool.as_ref().unwrap()
    }

    /// Sends a GraphQL request to `base`; returns the HTTP status and the body.
    pub async fn gql(&self, base: &str, token: Option<&str>, query: &str, variables: Value) -> (u16, Value) {
        let mut request = self.http.post(format!("{base}/graphql")).json(&json!({ "query": query, "variables": variables }));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.unwrap_or_else(|e| panic!("POST {base}/graphql: {e}"));
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    /// A GraphQL request that must succeed: returns its (only) field; panics with the response otherwise.
    pub async fn ok(&self, base: &str, token: &str, query: &str, variables: Value) -> Value {
        let (status, body) = self.gql(base, Some(token), query, variables).await;
        assert!(status == 200 && body["errors"].is_null(), "{base}: {query}: {status} {body}");
        let data = body["data"].as_object().unwrap_or_else(|| panic!("{base}: {query}: {body}"));
        data.values().next().cloned().unwrap_or(Value::Null)
    }

    fn print_logs(&self) {
        let processes = self.servers.iter().map(|s| &s.process).chain(&self.workers);
        let mut logs: Vec<(String, PathBuf)> = processes.map(|p| (p.name.clone(), p.log.clone())).collect();
        logs.extend(self.extra_logs.iter().cloned());
        for (name, path) in logs {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            eprintln!("\n===== {name} ({}), last 150 lines =====\n{}", path.display(), tail(&text, 150));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.print_logs();
        }
        for server in &mut self.servers {
            server.process.kill();
        }
        for worker in &mut self.workers {
            worker.kill();
        }
    }
}
