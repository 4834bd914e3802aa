//! maildev (web/node_modules/.bin/maildev) as the cluster's SMTP server: what arrived, from its API.
//! A trimmed copy of tests/api/support/maildev.rs, which finds maildev from the root crate's
//! directory (this test target's is cli/).

use std::{
    path::PathBuf,
    process::Command,
    time::{Duration, Instant},
};

use serde_json::Value;

use super::{Process, free_port, tail};

pub struct Maildev {
    process: Process,
    pub smtp_port: u16,
    web_port: u16,
    _dir: tempfile::TempDir,
    client: reqwest::Client,
}

/// One received email: the first recipient (lowercased) and the subject.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Email {
    pub to: String,
    pub subject: String,
}

fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../web/node_modules/.bin/maildev")
}

impl Maildev {
    /// Starts maildev on free loopback ports; panics with a clear message when it is not installed.
    pub async fn start() -> Maildev {
        let path = binary();
        assert!(
            path.exists(),
            "maildev is not installed at {}: run `make web-deps` (the cluster test delivers to a real SMTP server)",
            path.display()
        );
        let dir = tempfile::Builder::new().prefix("insights-cluster-maildev-").tempdir().unwrap();
        let (smtp_port, web_port) = (free_port(), free_port());
        let mut command = Command::new(&path);
        command.args(["--smtp", &smtp_port.to_string(), "--ip", "127.0.0.1", "--web", &web_port.to_string(), "--web-ip", "127.0.0.1"]);
        command.arg("--mail-directory").arg(dir.path().join("mail"));
        let process = Process::spawn("maildev", &dir.path().join("maildev.log"), command);
        let client = reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(10)).build().unwrap();
        let mut maildev = Maildev { process, smtp_port, web_port, _dir: dir, client };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let log = maildev.process.log_text();
            assert!(maildev.process.is_running() && !log.contains("EADDRINUSE"), "maildev did not start:\n{}", tail(&log, 30));
            let api = maildev.client.get(maildev.api("/api/email")).send().await.is_ok_and(|r| r.status().is_success());
            if api && tokio::net::TcpStream::connect(("127.0.0.1", smtp_port)).await.is_ok() {
                return maildev;
            }
            assert!(Instant::now() < deadline, "maildev did not answer within 30 s:\n{}", tail(&log, 30));
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    fn api(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.web_port)
    }

    /// `smtp://127.0.0.1:PORT`, for `INSIGHTS_SMTP_URL`.
    pub fn smtp_url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.smtp_port)
    }

    /// Every email received, in arrival order.
    pub async fn emails(&self) -> Vec<Email> {
        let response = self.client.get(self.api("/api/email")).send().await.expect("maildev's API answers");
        assert!(response.status().is_success(), "GET /api/email: {}", response.status());
        let list: Vec<Value> = response.json().await.expect("maildev's email list");
        list.iter()
            .map(|email| Email {
                to: email["to"][0]["address"].as_str().unwrap_or_default().to_lowercase(),
                subject: email["subject"].as_str().unwrap_or_default().to_owned(),
            })
            .collect()
    }
}
