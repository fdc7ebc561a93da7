//! A schema directory as it was at a git revision (`prp compat --against main`): its `*.json`
//! files written from the repository's objects to a temporary directory, removed on drop. The
//! work tree is not touched.

use crate::Error;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The files of a directory at a revision, in a temporary directory of their own.
#[derive(Debug)]
pub struct Snapshot {
    dir: PathBuf,
}

impl Snapshot {
    /// The `*.json` files under `dir` (inside a git work tree) as they are at `rev`.
    pub fn at(dir: &Path, rev: &str) -> Result<Snapshot, Error> {
        let prefix = git(dir, &["rev-parse", "--show-prefix"])?;
        let prefix = String::from_utf8_lossy(&prefix).trim_end().to_owned();
        let listing = git(
            dir,
            &[
                "ls-tree",
                "-r",
                "-z",
                "--full-name",
                "--name-only",
                rev,
                "--",
                ".",
            ],
        )?;
        let out = Snapshot { dir: temp_dir() };
        // Left by an earlier process that had this id and was killed.
        let _ = std::fs::remove_dir_all(&out.dir);
        for full in listing.split(|b| *b == 0).filter(|p| !p.is_empty()) {
            let full = String::from_utf8_lossy(full);
            let Some(rel) = full.strip_prefix(&prefix) else {
                continue;
            };
            if !rel.ends_with(".json") {
                continue;
            }
            let text = git(dir, &["cat-file", "blob", &format!("{rev}:{full}")])?;
            let to = out.dir.join(rel);
            let written = to
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| std::fs::write(&to, text));
            written.map_err(|e| Error(format!("cannot write {}: {e}", to.display())))?;
        }
        Ok(out)
    }

    /// Where the files are.
    pub fn path(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Snapshot {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A directory of the system's temporary one no other snapshot uses.
fn temp_dir() -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("prp-compat-{}-{n}", std::process::id()))
}

/// `git ARGS` run in `dir`: its standard output, or what it said on failure.
fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>, Error> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| Error(format!("cannot run git: {e}")))?;
    if !out.status.success() {
        let said = String::from_utf8_lossy(&out.stderr);
        return Err(Error(format!("git {}: {}", args.join(" "), said.trim())));
    }
    Ok(out.stdout)
}
