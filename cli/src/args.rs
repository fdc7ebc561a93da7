//! Argument shapes shared by commands: one optional `--flag` and one operand.

use std::path::PathBuf;

/// `[--check] DIR`, for the commands that regenerate or check a generated file.
#[derive(Debug, PartialEq, Eq)]
pub struct CheckDir {
    pub check: bool,
    pub dir: PathBuf,
}

/// Parses `[--check] DIR`; `dir_name` names the operand in error messages.
pub fn check_dir(args: &[String], dir_name: &str) -> Result<CheckDir, String> {
    let (check, dir) = flag_and_operand(args, "--check", dir_name)?;
    Ok(CheckDir {
        check,
        dir: PathBuf::from(dir),
    })
}

/// Parses `[FLAG] OPERAND` in any order: whether `flag` was given, and the operand. Any other
/// option, a missing operand or a second one is an error naming `operand_name`.
pub fn flag_and_operand(
    args: &[String],
    flag: &str,
    operand_name: &str,
) -> Result<(bool, String), String> {
    let mut given = false;
    let mut operand = None;
    for a in args {
        match a.as_str() {
            s if s == flag => given = true,
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`")),
            _ if operand.is_some() => return Err(format!("more than one {operand_name} given")),
            _ => operand = Some(a.clone()),
        }
    }
    let operand = operand.ok_or(format!("no {operand_name} given"))?;
    Ok((given, operand))
}
