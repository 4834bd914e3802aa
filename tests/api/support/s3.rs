//! A real S3 protocol server for tests: moto's server (PyPI `moto[server]`), started once per test
//! binary on a free port from the virtualenv scripts/test.sh installs it in
//! (`$HOME/.cache/insights/moto-venv`, or `INSIGHTS_MOTO_PYTHON` naming its python). It stops when
//! the test binary ends (it watches its standard input). Each test makes its own bucket.
//! Without moto the tests fail, saying so: they never pass without the server.
//!
//! Shared by the API tests and the CLI's (`#[path]`), so it uses nothing of either harness.

use std::{
    io::Read,
    net::{TcpListener, TcpStream},
    path::PathBuf,
    process::{Child, Command, Stdio},
    sync::{Mutex, OnceLock},
    time::{Duration, Instant},
};

/// Credentials moto accepts (it checks none); requests are still signed as with real S3.
pub const ACCESS_KEY_ID: &str = "insights-test";
pub const SECRET_ACCESS_KEY: &str = "insights-test-secret";

pub struct S3Server {
    pub endpoint: String,
    /// Kept open: moto exits when this pipe closes, i.e. when the test binary ends.
    _server: Mutex<Child>,
}

/// Where moto's python is: `INSIGHTS_MOTO_PYTHON`, else the virtualenv scripts/test.sh makes.
fn python() -> PathBuf {
    match std::env::var_os("INSIGHTS_MOTO_PYTHON") {
        Some(path) => PathBuf::from(path),
        None => PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/insights/moto-venv/bin/python"),
    }
}

/// A port nothing listens on (bound then released).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The server of this test binary, started on first use.
pub fn server() -> &'static S3Server {
    static SERVER: OnceLock<S3Server> = OnceLock::new();
    SERVER.get_or_init(start)
}

fn start() -> S3Server {
    let python = python();
    let install = "install it with scripts/test.sh (python3 -m venv ~/.cache/insights/moto-venv && \
                   ~/.cache/insights/moto-venv/bin/pip install 'moto[server]'), or set INSIGHTS_MOTO_PYTHON";
    let port = free_port();
    // moto's server, ended by the closing of its standard input.
    let program = format!(
        "import os, sys, threading\n\
         from moto.server import main\n\
         threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()\n\
         main(['-H', '127.0.0.1', '-p', '{port}'])\n"
    );
    let mut child = Command::new(&python)
        .args(["-c", &program])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| {
            panic!("moto's S3 server is needed for these tests but {} cannot run ({error}): {install}", python.display())
        });
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            let mut stderr = String::new();
            let _ = child.stderr.take().unwrap().read_to_string(&mut stderr);
            panic!("moto's S3 server did not start ({status}): {}\n{install}", stderr.trim());
        }
        assert!(started.elapsed() < Duration::from_secs(30), "moto's S3 server did not answer on port {port} within 30 s");
        std::thread::sleep(Duration::from_millis(50));
    }
    // Its log is not needed; left unread, a full pipe would stall it.
    drop(child.stderr.take());
    S3Server { endpoint: format!("http://127.0.0.1:{port}"), _server: Mutex::new(child) }
}

impl S3Server {
    /// Makes a new empty bucket with a unique name and returns the name.
    pub async fn bucket(&self) -> String {
        let name = format!("insights-test-{}", insights::ids::new_id());
        let response = reqwest::Client::new().put(format!("{}/{name}", self.endpoint)).send().await.expect("reach moto's S3 server");
        assert!(response.status().is_success(), "create the bucket {name}: {}", response.status());
        name
    }

    /// `INSIGHTS_UPLOAD_URL` for `prefix` in `bucket`, with the server and credentials as options.
    pub fn upload_url(&self, bucket: &str, prefix: &str) -> String {
        format!(
            "s3://{bucket}/{prefix}?endpoint={}&allow_http=true&region=us-east-1&access_key_id={ACCESS_KEY_ID}&secret_access_key={SECRET_ACCESS_KEY}",
            self.endpoint
        )
    }

    /// The standard AWS environment for this server (for a process such as the CLI).
    #[allow(dead_code)] // the CLI's tests use it, the API tests do not
    pub fn aws_env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AWS_ENDPOINT_URL", self.endpoint.clone()),
            ("AWS_ALLOW_HTTP", "true".to_owned()),
            ("AWS_REGION", "us-east-1".to_owned()),
            ("AWS_ACCESS_KEY_ID", ACCESS_KEY_ID.to_owned()),
            ("AWS_SECRET_ACCESS_KEY", SECRET_ACCESS_KEY.to_owned()),
        ]
    }

    /// The object `key` of `bucket` (its bytes and content type), read through moto's own API
    /// (requests by the bucket's owner, not through the app's store); None when missing.
    pub async fn object(&self, bucket: &str, key: &str) -> Option<(Vec<u8>, String)> {
        let response = self.signed_get(&format!("{bucket}/{key}")).await;
        if response.status() == 404 {
            return None;
        }
        assert!(response.status().is_success(), "GET {bucket}/{key}: {}", response.status());
        let content_type = response.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
        Some((response.bytes().await.unwrap().to_vec(), content_type))
    }

    /// The keys of `bucket`, in order (one listing page: tests keep fewer than 1,000 objects).
    pub async fn keys(&self, bucket: &str) -> Vec<String> {
        let response = self.signed_get(&format!("{bucket}?list-type=2")).await;
        assert!(response.status().is_success(), "list {bucket}: {}", response.status());
        let xml = response.text().await.unwrap();
        xml.split("<Key>").skip(1).filter_map(|rest| rest.split_once("</Key>")).map(|(key, _)| key.to_owned()).collect()
    }

    /// moto answers anonymous reads with 403 but checks no signature: any `Authorization` with an
    /// access key makes the request the owner's.
    async fn signed_get(&self, path: &str) -> reqwest::Response {
        let authorization =
            format!("AWS4-HMAC-SHA256 Credential={ACCESS_KEY_ID}/20250101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=0");
        reqwest::Client::new()
            .get(format!("{}/{path}", self.endpoint))
            .header("authorization", authorization)
            .send()
            .await
            .expect("reach moto's S3 server")
    }
}
