//! maildev (web/node_modules/.bin/maildev) as a test peer: a real SMTP server on a free loopback
//! port, whose REST API says what arrived. Each test starts its own (on its own ports, with its own
//! mail directory), so tests run in parallel; the process is killed when the `Maildev` is dropped.
//! It can be stopped and started again on the same ports (an SMTP server that goes away and comes
//! back); the mail directory keeps what arrived before.

use std::{
    path::{Path, PathBuf},
    process::Stdio,
    time::{Duration, Instant},
};

use serde_json::Value;
use tokio::process::{Child, Command};

/// How long maildev may take to answer after it is started (it needs about a second).
const READY_WITHIN: Duration = Duration::from_secs(30);

pub struct Maildev {
    child: Option<Child>,
    pub smtp_port: u16,
    pub web_port: u16,
    dir: PathBuf,
    client: reqwest::Client,
}

/// One email as maildev's API tells it.
#[derive(Debug, Clone)]
pub struct Email {
    pub id: String,
    /// The first recipient's address, lowercased.
    pub to: String,
    pub to_name: Option<String>,
    pub subject: String,
    pub html: String,
    pub text: String,
}

impl Email {
    fn from_json(json: Value) -> Email {
        let string = |value: &Value| value.as_str().unwrap_or_default().to_owned();
        Email {
            id: string(&json["id"]),
            to: string(&json["to"][0]["address"]).to_lowercase(),
            to_name: json["to"][0]["name"].as_str().filter(|name| !name.is_empty()).map(str::to_owned),
            subject: string(&json["subject"]),
            html: string(&json["html"]),
            text: string(&json["text"]),
        }
    }
}

/// The first line an SMTP server at `port` sends, if one answers.
async fn smtp_banner(port: u16) -> Option<String> {
    use tokio::io::AsyncBufReadExt;
    let stream = tokio::time::timeout(Duration::from_secs(2), tokio::net::TcpStream::connect(("127.0.0.1", port))).await.ok()?.ok()?;
    let mut line = String::new();
    let mut reader = tokio::io::BufReader::new(stream);
    tokio::time::timeout(Duration::from_secs(2), reader.read_line(&mut line)).await.ok()?.ok()?;
    Some(line)
}

/// web/node_modules/.bin/maildev of the workspace (this file also serves cli/'s tests).
fn binary() -> PathBuf {
    let relative = "web/node_modules/.bin/maildev";
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.ancestors().map(|dir| dir.join(relative)).find(|path| path.exists()).unwrap_or_else(|| manifest.join(relative))
}

/// A port nobody listens on right now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port").local_addr().unwrap().port()
}

impl Maildev {
    /// Starts maildev on two free loopback ports; panics with a clear message when it is not
    /// installed (`make web-deps`) or does not come up.
    pub async fn start() -> Maildev {
        let path = binary();
        assert!(
            path.exists(),
            "maildev is not installed at {}: run `make web-deps` (the email tests deliver to a real SMTP server)",
            path.display()
        );
        let client = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap();
        // A port picked free may be taken before maildev binds it: try again on others.
        let mut last_error = String::new();
        for _ in 0..3 {
            let dir = std::env::temp_dir().join(format!("insights-maildev-{}", insights::ids::new_id()));
            std::fs::create_dir_all(&dir).expect("create maildev's mail directory");
            let (smtp_port, web_port) = (free_port(), free_port());
            if smtp_port == web_port {
                continue;
            }
            let mut maildev = Maildev { child: None, smtp_port, web_port, dir, client: client.clone() };
            match maildev.spawn().await {
                Ok(()) => return maildev,
                Err(error) => last_error = error,
            }
        }
        panic!("maildev did not start: {last_error}");
    }

    /// Spawns the process on this instance's ports and waits until its API and SMTP port answer.
    async fn spawn(&mut self) -> Result<(), String> {
        let log = std::fs::OpenOptions::new().create(true).append(true).open(self.dir.join("maildev.log")).map_err(|e| e.to_string())?;
        let child = Command::new(binary())
            .args(["--smtp", &self.smtp_port.to_string(), "--ip", "127.0.0.1"])
            .args(["--web", &self.web_port.to_string(), "--web-ip", "127.0.0.1"])
            .arg("--mail-directory")
            .arg(self.dir.join("mail"))
            .stdin(Stdio::null())
            .stdout(log.try_clone().map_err(|e| e.to_string())?)
            .stderr(log)
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("run {}: {e}", binary().display()))?;
        self.child = Some(child);
        let deadline = Instant::now() + READY_WITHIN;
        loop {
            if let Some(status) = self.child.as_mut().unwrap().try_wait().map_err(|e| e.to_string())? {
                return Err(format!("maildev exited with {status}: {}", self.log()));
            }
            // maildev keeps running when one of its ports is taken (it only logs it): another
            // process answering there would pass the checks below, then go away mid-test.
            if self.log().contains("EADDRINUSE") {
                self.kill().await;
                return Err(format!("a port was taken: {}", self.log()));
            }
            let api = self.client.get(self.api("/api/email")).send().await.is_ok_and(|r| r.status().is_success());
            if api && smtp_banner(self.smtp_port).await.is_some_and(|banner| banner.starts_with("220")) {
                // Still running: the ports answering are this process's, not another test's.
                if let Some(status) = self.child.as_mut().unwrap().try_wait().map_err(|e| e.to_string())? {
                    return Err(format!("maildev exited with {status}: {}", self.log()));
                }
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!("maildev did not answer within {READY_WITHIN:?}: {}", self.log()));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("maildev.log")).unwrap_or_default()
    }

    fn api(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.web_port)
    }

    /// `smtp://127.0.0.1:PORT`, for `--smtp-url`.
    pub fn smtp_url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.smtp_port)
    }

    /// Every email received, in arrival order.
    pub async fn emails(&self) -> Vec<Email> {
        let response = self.client.get(self.api("/api/email")).send().await.expect("maildev's API answers");
        assert!(response.status().is_success(), "GET /api/email: {}", response.status());
        let list: Vec<Value> = response.json().await.expect("maildev's email list");
        list.into_iter().map(Email::from_json).collect()
    }

    /// Waits until at least `n` emails have arrived (failing after `timeout`) and returns them all.
    pub async fn wait_for(&self, n: usize, timeout: Duration) -> Vec<Email> {
        let deadline = Instant::now() + timeout;
        loop {
            let emails = self.emails().await;
            if emails.len() >= n {
                return emails;
            }
            assert!(Instant::now() < deadline, "{} of {n} emails arrived in {timeout:?}", emails.len());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The raw message (headers and MIME parts) as it was received.
    pub async fn source(&self, id: &str) -> String {
        let response = self.client.get(self.api(&format!("/api/email/{id}/source"))).send().await.expect("maildev's API answers");
        assert!(response.status().is_success(), "GET source of {id}: {}", response.status());
        response.text().await.unwrap()
    }

    /// The headers of the received message, unfolded, as (lowercased name, value).
    pub async fn headers(&self, id: &str) -> Vec<(String, String)> {
        let source = self.source(id).await;
        let head = source.split("\r\n\r\n").next().unwrap_or_default().split("\n\n").next().unwrap_or_default();
        let mut headers: Vec<(String, String)> = Vec::new();
        for line in head.lines() {
            if line.starts_with([' ', '\t']) {
                if let Some((_, value)) = headers.last_mut() {
                    value.push_str(line.trim_start());
                }
            } else if let Some((name, value)) = line.split_once(':') {
                headers.push((name.trim().to_lowercase(), value.trim().to_owned()));
            }
        }
        headers
    }

    /// Forgets every email received so far.
    pub async fn clear(&self) {
        let response = self.client.delete(self.api("/api/email/all")).send().await.expect("maildev's API answers");
        assert!(response.status().is_success(), "DELETE /api/email/all: {}", response.status());
    }

    async fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill().await;
        }
    }

    /// Stops the server: its SMTP port refuses connections until `restart`.
    pub async fn stop(&mut self) {
        self.kill().await;
        let deadline = Instant::now() + READY_WITHIN;
        while tokio::net::TcpStream::connect(("127.0.0.1", self.smtp_port)).await.is_ok() {
            assert!(Instant::now() < deadline, "maildev's SMTP port still answers after it was killed");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Starts the server again on the same ports and mail directory.
    pub async fn restart(&mut self) {
        self.kill().await;
        if let Err(error) = self.spawn().await {
            panic!("maildev did not start again on port {}: {error}", self.smtp_port);
        }
    }
}

impl Drop for Maildev {
    fn drop(&mut self) {
        if let Some(child) = self.child.as_mut() {
            let _ = child.start_kill();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
