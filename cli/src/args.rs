//! Arguments shared by the commands that regenerate or check a generated file: `[--check] DIR`.

use std::path::PathBuf;

#[derive(Debug, PartialEq, Eq)]
pub struct CheckDir {
    pub check: bool,
    pub dir: PathBuf,
}

/// Parses `[--check] DIR`; `dir_name` names the operand in error messages.
pub fn check_dir(args: &[String], dir_name: &str) -> Result<CheckDir, String> {
    let mut check = false;
    let mut dir = None;
    for a in args {
        match a.as_str() {
            "--check" => check = true,
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`")),
            _ if dir.is_some() => return Err(format!("more than one {dir_name} given")),
            _ => dir = Some(PathBuf::from(a)),
        }
    }
    let dir = dir.ok_or(format!("no {dir_name} given"))?;
    Ok(CheckDir { check, dir })
}
