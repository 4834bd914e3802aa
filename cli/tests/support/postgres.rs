//! A private PostgreSQL the test may stop and start: a cluster of its own (initdb) in a temporary
//! directory, on a free loopback port, from the machine's server binaries
//! (/usr/lib/postgresql/<version>/bin). PostgreSQL refuses to run as root: as root, every
//! command runs as the `postgres` user, who owns the directory. Stopped and removed when dropped.

use std::{path::PathBuf, process::Command};

use super::{free_port, tail};

pub struct PrivatePostgres {
    bin: PathBuf,
    dir: tempfile::TempDir,
    pub port: u16,
}

/// The newest /usr/lib/postgresql/*/bin with initdb in it.
fn server_binaries() -> PathBuf {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| Some((entry.file_name().to_str()?.parse().ok()?, entry.path().join("bin"))))
        .filter(|(_, bin): &(u32, PathBuf)| bin.join("initdb").exists())
        .collect();
    found.sort();
    found.pop().map(|(_, bin)| bin).unwrap_or_else(|| {
        panic!("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin: install Debian's `postgresql` package (the test runs a private server it can restart)")
    })
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

impl PrivatePostgres {
    /// Creates the cluster and starts it.
    pub async fn start() -> PrivatePostgres {
        let bin = server_binaries();
        let dir = tempfile::Builder::new().prefix("insights-cluster-pg-").tempdir().unwrap();
        if is_root() {
            let status = Command::new("chown").arg("postgres:postgres").arg(dir.path()).status().expect("run chown");
            assert!(status.success(), "chown postgres {}: the user `postgres` is needed to run PostgreSQL as root", dir.path().display());
        }
        let pg = PrivatePostgres { bin, dir, port: free_port() };
        let data = pg.data();
        pg.run("initdb", &["-D", data.to_str().unwrap(), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]);
        pg.start_server();
        pg
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    pub fn log(&self) -> PathBuf {
        self.dir.path().join("server.log")
    }

    /// `postgres://postgres@127.0.0.1:PORT/{database}`.
    pub fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }

    /// Runs one of the server's programs (as `postgres` when we are root); panics with its output on failure.
    fn run(&self, program: &str, args: &[&str]) {
        let output = self.command(program, args).output().unwrap_or_else(|e| panic!("run {program}: {e}"));
        assert!(
            output.status.success(),
            "{program} {args:?} failed ({}):\n{}\n{}\nserver log:\n{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
            tail(&std::fs::read_to_string(self.log()).unwrap_or_default(), 30)
        );
    }

    fn command(&self, program: &str, args: &[&str]) -> Command {
        let path = self.bin.join(program);
        let mut command = if is_root() {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(&path);
            command
        } else {
            Command::new(&path)
        };
        command.args(args).current_dir(self.dir.path());
        command
    }

    fn pg_ctl(&self, args: &[&str]) {
        let data = self.data();
        let mut all = vec!["-D", data.to_str().unwrap()];
        all.extend_from_slice(args);
        self.run("pg_ctl", &all);
    }

    /// Starts the server and waits until it accepts connections.
    pub fn start_server(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100",
            self.port,
            self.dir.path().display()
        );
        let log = self.log();
        self.pg_ctl(&["-l", log.to_str().unwrap(), "-w", "-t", "60", "-o", &options, "start"]);
    }

    /// Stops the server at once (`-m fast`: sessions are ended, as in a restart or failover).
    pub fn stop_server(&self) {
        self.pg_ctl(&["-m", "fast", "-w", "-t", "60", "stop"]);
    }
}

impl Drop for PrivatePostgres {
    fn drop(&mut self) {
        let data = self.data();
        let _ = self.command("pg_ctl", &["-D", data.to_str().unwrap(), "-m", "immediate", "-w", "stop"]).output();
    }
}
