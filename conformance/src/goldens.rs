//! Golden files (PROTOCOL §2.7): for every accepted replay fixture `replay/<name>.json` of a
//! fixtures directory, `replay/golden/<name>.snapshot.json` and `<name>.summary.json`.
//!
//! Rendering is pure; [`Goldens::check`] compares with the files on disk and [`Goldens::write`]
//! writes them, so `prp goldens` and the tests share one code path.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use prp_peer::contract::Contract;
use prp_peer::reducer::replay_fixture_bytes_with;

/// One golden file's path and expected contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoldenFile {
    /// Where the file lives.
    pub path: PathBuf,
    /// Its exact bytes.
    pub contents: String,
}

/// A replay fixture that did not replay, so has no goldens (an expected rejection, such as an
/// unsupported required version).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejected {
    /// The fixture.
    pub fixture: PathBuf,
    /// Why it was rejected: the contract pipeline's issues, in pipeline order, never empty.
    pub issues: Vec<prp_types::Issue>,
}

/// A golden file that does not match its fixture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Drift {
    /// The file does not exist.
    Missing(PathBuf),
    /// The file exists with other bytes.
    Stale(PathBuf),
}

impl Drift {
    /// The file concerned.
    pub fn path(&self) -> &Path {
        match self {
            Drift::Missing(p) | Drift::Stale(p) => p,
        }
    }
}

/// Every golden file of a fixtures directory, rendered in memory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Goldens {
    /// Two files per accepted fixture (snapshot, then summary), fixtures in file-name order.
    pub files: Vec<GoldenFile>,
    /// The fixtures that were rejected, in file-name order.
    pub rejected: Vec<Rejected>,
}

/// Renders the goldens of every `*.json` file directly in `fixtures_dir/replay`.
///
/// A fixture is accepted when [`replay_fixture_bytes_with`] accepts it under `contract` (see there
/// for which checks that includes): a fixture beyond the contract's protocol range is an expected
/// rejection, with no goldens.
pub fn render(fixtures_dir: &Path, contract: Contract) -> io::Result<Goldens> {
    let replay_dir = fixtures_dir.join("replay");
    let golden_dir = replay_dir.join("golden");
    let mut fixtures = Vec::new();
    for entry in fs::read_dir(&replay_dir)? {
        let path = entry?.path();
        if path.is_file() && path.extension().is_some_and(|ext| ext == "json") {
            fixtures.push(path);
        }
    }
    fixtures.sort();
    let mut goldens = Goldens::default();
    for fixture in fixtures {
        let bytes = fs::read(&fixture)?;
        let stem = fixture
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        match replay_fixture_bytes_with(contract, &bytes) {
            Ok(snapshot) => {
                goldens.files.push(GoldenFile {
                    path: golden_dir.join(format!("{stem}.snapshot.json")),
                    contents: snapshot.to_pretty(),
                });
                goldens.files.push(GoldenFile {
                    path: golden_dir.join(format!("{stem}.summary.json")),
                    contents: snapshot.summary().to_pretty(),
                });
            }
            Err(issues) => goldens.rejected.push(Rejected { fixture, issues }),
        }
    }
    Ok(goldens)
}

impl Goldens {
    /// Every file that is missing or differs from its rendering, byte for byte.
    pub fn check(&self) -> io::Result<Vec<Drift>> {
        let mut drift = Vec::new();
        for file in &self.files {
            if let Some(d) = file.drift()? {
                drift.push(d);
            }
        }
        Ok(drift)
    }

    /// Writes every missing or stale file (creating the golden directory if needed) and returns
    /// the paths written; files already up to date are left untouched.
    pub fn write(&self) -> io::Result<Vec<PathBuf>> {
        let mut written = Vec::new();
        for file in &self.files {
            if file.drift()?.is_some() {
                if let Some(parent) = file.path.parent() {
                    fs::create_dir_all(parent)?;
                }
                fs::write(&file.path, &file.contents)?;
                written.push(file.path.clone());
            }
        }
        Ok(written)
    }
}

impl GoldenFile {
    /// How the file on disk differs from `contents`, if it does.
    pub fn drift(&self) -> io::Result<Option<Drift>> {
        match fs::read(&self.path) {
            Ok(bytes) if bytes == self.contents.as_bytes() => Ok(None),
            Ok(_) => Ok(Some(Drift::Stale(self.path.clone()))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                Ok(Some(Drift::Missing(self.path.clone())))
            }
            Err(e) => Err(e),
        }
    }
}
