//! Clients no one here wrote: `feedparser` (PyPI) reads the private feeds; the official MCP SDKs,
//! Python's (PyPI `mcp`) and TypeScript's (npm `@modelcontextprotocol/sdk`, with the web app's
//! packages), talk to the MCP server. The Python ones live in a virtualenv scripts/test.sh makes
//! (`$HOME/.cache/insights/clients-venv`, or `INSIGHTS_CLIENTS_PYTHON` naming its python).

use std::{io::Write, path::PathBuf, process::{Command, Stdio}};

use serde_json::Value;

pub fn python() -> PathBuf {
    match std::env::var_os("INSIGHTS_CLIENTS_PYTHON") {
        Some(path) => PathBuf::from(path),
        None => PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/insights/clients-venv/bin/python"),
    }
}

/// Runs `script` with `input` on its standard input; its standard output as JSON.
pub fn run_python(script: &str, input: &[u8]) -> Value {
    let install = "install them with scripts/test.sh (python3 -m venv ~/.cache/insights/clients-venv && \
                   ~/.cache/insights/clients-venv/bin/pip install feedparser mcp), or set INSIGHTS_CLIENTS_PYTHON";
    run(python(), &["-c", script], input, install)
}

/// Runs `program` with `args` and `input` on its standard input; its standard output as JSON.
fn run(program: PathBuf, args: &[&str], input: &[u8], install: &str) -> Value {
    let mut child = Command::new(&program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| panic!("{} is needed for these tests but cannot run ({error}): {install}", program.display()));
    child.stdin.take().expect("stdin").write_all(input).expect("write the input");
    let output = child.wait_with_output().expect("the client runs");
    assert!(output.status.success(), "the client failed: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| panic!("not JSON ({error}): {}", String::from_utf8_lossy(&output.stdout)))
}

/// An Atom document as `feedparser` reads it: whether it found it malformed (`bozo`), the feed's
/// title and each entry's id, title, link, times, authors, categories, summary and content.
pub fn feedparser(document: &[u8]) -> Value {
    const SCRIPT: &str = r#"
import json, sys, feedparser
parsed = feedparser.parse(sys.stdin.buffer.read())
print(json.dumps({
    "bozo": bool(parsed.bozo),
    "bozo_exception": str(parsed.get("bozo_exception", "")),
    "version": parsed.version,
    "title": parsed.feed.get("title"),
    "entries": [{
        "id": e.get("id"),
        "title": e.get("title"),
        "link": e.get("link"),
        "published": e.get("published"),
        "updated": e.get("updated"),
        "authors": [a.get("name") for a in e.get("authors", [])],
        "categories": [t.get("label") or t.get("term") for t in e.get("tags", [])],
        "summary": e.get("summary"),
        "content": [c.get("value") for c in e.get("content", [])],
    } for e in parsed.entries],
}))
"#;
    run_python(SCRIPT, document)
}

/// Runs MCP sessions with the official Python SDK (`clients/mcp_client.py`): `sessions` at once,
/// each initialising and taking `steps`; what each answered. Waits without blocking the runtime
/// the server under test runs on.
pub async fn mcp_python(url: &str, token: &str, sessions: usize, steps: Value) -> Value {
    const SCRIPT: &str = include_str!("clients/mcp_client.py");
    let input = serde_json::json!({ "url": url, "token": token, "sessions": sessions, "steps": steps }).to_string();
    tokio::task::spawn_blocking(move || run_python(SCRIPT, input.as_bytes())).await.expect("the client ran")
}

/// `mcp_python`, with the official TypeScript SDK (`clients/mcp_client.mjs`, run by node).
pub async fn mcp_node(url: &str, token: &str, sessions: usize, steps: Value) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/api/support/clients/mcp_client.mjs");
    let input = serde_json::json!({ "url": url, "token": token, "sessions": sessions, "steps": steps }).to_string();
    let install = "install the web app's packages (cd web && npm ci)";
    tokio::task::spawn_blocking(move || run(PathBuf::from("node"), &[script], input.as_bytes(), install)).await.expect("the client ran")
}
