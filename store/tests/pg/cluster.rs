//! A throwaway PostgreSQL cluster for tests and benchmarks: `initdb` into a temporary directory,
//! `pg_ctl start` on a free loopback port (and a Unix socket in the same directory), stopped and
//! removed on drop. As root, the server runs as the `postgres` user (it refuses to run as root).
//!
//! The binaries come from `$PG_BIN`, else `/usr/lib/postgresql/*/bin` (the newest), else `PATH`.
//! Without them, [`Cluster::start`] prints why and returns `None` (a visible skip), except under
//! `CI=true`, where a missing PostgreSQL is a failure.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// A running cluster.
pub struct Cluster {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    as_postgres: bool,
}

fn find_bin() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PG_BIN").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|b| b.join("initdb").is_file())
        .collect();
    versions.sort_by_key(|p| {
        p.parent()
            .and_then(|v| v.file_name())
            .and_then(|v| v.to_str())
            .and_then(|v| v.parse::<u32>().ok())
            .unwrap_or(0)
    });
    if let Some(newest) = versions.pop() {
        return Some(newest);
    }
    std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .find(|d| d.join("initdb").is_file() && d.join("pg_ctl").is_file())
    })
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Uid:"))
                .map(|u| u.split_whitespace().next() == Some("0"))
        })
        .unwrap_or(false)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

impl Cluster {
    /// Starts a cluster, or `None` (after saying why) when PostgreSQL is not installed.
    pub fn start() -> Option<Cluster> {
        let Some(bin) = find_bin() else {
            let in_ci = std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true"));
            assert!(
                !in_ci,
                "PostgreSQL binaries not found (required when CI=true; set PG_BIN)"
            );
            eprintln!("skipped: PostgreSQL binaries not found (set PG_BIN to their directory)");
            return None;
        };
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        // Short: a Unix socket path must fit in 107 bytes.
        let dir = std::env::temp_dir().join(format!("prp-pg-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let as_postgres = is_root();
        if as_postgres {
            let status = Command::new("chown")
                .args(["postgres:postgres"])
                .arg(&dir)
                .status()
                .unwrap();
            assert!(status.success(), "chown of {} failed", dir.display());
        }
        let cluster = Cluster {
            bin,
            dir,
            port: free_port(),
            as_postgres,
        };
        let data = cluster.data();
        cluster.run(
            "initdb",
            &[
                "-D",
                &data,
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-instructions",
            ],
        );
        cluster.pg_ctl(&["start"]);
        Some(cluster)
    }

    fn data(&self) -> String {
        self.dir.join("data").display().to_string()
    }

    /// The server tool `tool`, run as the `postgres` user when the tests run as root.
    fn command(&self, tool: &str) -> Command {
        let program = self.bin.join(tool);
        if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&program);
            c
        } else {
            Command::new(&program)
        }
    }

    fn run(&self, tool: &str, args: &[&str]) {
        let program = self.bin.join(tool);
        let output = self
            .command(tool)
            .args(args)
            .env("LC_ALL", "C")
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", program.display()));
        assert!(
            output.status.success(),
            "{tool} {args:?} failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }

    fn pg_ctl(&self, action: &[&str]) {
        let data = self.data();
        let log = self.dir.join("server.log").display().to_string();
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c max_connections=200",
            self.port,
            self.dir.display()
        );
        let mut args = vec!["-D", &data, "-l", &log, "-w", "-t", "60", "-o", &options];
        args.extend_from_slice(action);
        self.run("pg_ctl", &args);
    }

    /// The URL of database `postgres` as the `postgres` superuser, over TCP.
    pub fn url(&self) -> String {
        format!(
            "postgres://postgres@127.0.0.1:{}/postgres?sslmode=disable",
            self.port
        )
    }

    /// The URL of a fresh database `name`, created now.
    pub fn database(&self, name: &str) -> String {
        self.run(
            "createdb",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "postgres",
                name,
            ],
        );
        format!(
            "postgres://postgres@127.0.0.1:{}/{name}?sslmode=disable",
            self.port
        )
    }

    /// Runs SQL through `psql` on database `db`.
    pub fn psql(&self, db: &str, sql: &str) {
        self.run(
            "psql",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "postgres",
                "-d",
                db,
                "-v",
                "ON_ERROR_STOP=1",
                "-qAt",
                "-c",
                sql,
            ],
        );
    }

    /// Stops the server (fast shutdown) and starts it again on the same port.
    pub fn restart(&self) {
        self.pg_ctl(&["-m", "fast", "restart"]);
    }

    /// Stops the server; `restart` or `resume` brings it back.
    pub fn pause(&self) {
        self.pg_ctl(&["-m", "fast", "stop"]);
    }

    /// Starts a paused server again.
    pub fn resume(&self) {
        self.pg_ctl(&["start"]);
    }

    /// The directory holding the cluster.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let data = self.data();
        let _ = self
            .command("pg_ctl")
            .args(["-D", &data, "-m", "immediate", "-w", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
