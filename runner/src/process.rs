//! The harness process (PROTOCOL §6.5): started in a process group of its own with a cleared
//! environment (only `PATH` kept), and ended by signalling the whole group, so that workers it
//! started go with it.

use std::ffi::OsString;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus, Stdio};

use rustix::process::{Pid, Signal, kill_process_group};

use super::reconcile::ProcessExit;

/// Starts `argv` with piped stdio in a new process group (whose id is the child's pid).
pub fn spawn(argv: &[OsString]) -> std::io::Result<Child> {
    let Some((program, args)) = argv.split_first() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "no harness command was given",
        ));
    };
    let mut command = Command::new(program);
    command
        .args(args)
        .env_clear()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    if let Some(path) = std::env::var_os("PATH") {
        command.env("PATH", path);
    }
    command.spawn()
}

/// A process group, by its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Group(Pid);

impl Group {
    /// The group a child leads (it was started with [`spawn`]).
    pub fn of(child: &Child) -> Option<Group> {
        Pid::from_raw(i32::try_from(child.id()).ok()?).map(Group)
    }

    /// Asks every process of the group to stop.
    pub fn terminate(self) {
        // No process left in the group is not an error here.
        let _ = kill_process_group(self.0, Signal::TERM);
    }

    /// Kills every process of the group.
    pub fn kill(self) {
        let _ = kill_process_group(self.0, Signal::KILL);
    }
}

/// How a process ended.
pub fn process_exit(status: ExitStatus) -> ProcessExit {
    ProcessExit {
        exit_code: status.code(),
        success: status.success(),
        signal: status.signal(),
    }
}
