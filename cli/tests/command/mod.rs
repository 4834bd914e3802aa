//! Running the real binary once from a test, and reading its summary: shared by the command tests
//! (`uploads migrate`, `billing-accounts`).

use std::process::Output;

/// What a run printed.
pub struct Run {
    pub output: Output,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `insights-cli ARGS`; `configure` sets its environment.
pub async fn run(args: &[&str], configure: impl FnOnce(&mut tokio::process::Command)) -> Run {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_insights-cli"));
    command.args(args);
    configure(&mut command);
    let output = command.output().await.expect("run insights-cli");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    Run { output, stdout, stderr }
}

impl Run {
    /// The run succeeded and, its output being a pipe, drew no progress bar; returns its stdout.
    pub fn succeeded(self) -> String {
        let Run { output, stdout, stderr } = self;
        assert!(output.status.success(), "stdout: {stdout}\nstderr: {stderr}");
        assert!(!stderr.contains('\u{1b}'), "no terminal control codes on a pipe: {stderr:?}");
        stdout
    }
}

/// A count of a command's summary ("  copied:      3").
pub fn figure(stdout: &str, label: &str) -> Option<u64> {
    stdout.lines().find_map(|line| line.trim_start().strip_prefix(label)?.strip_prefix(':')?.trim().parse().ok())
}
