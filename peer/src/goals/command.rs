//! The three goal commands, built as `paperclip.prp.command.v2` with their constant members filled
//! in and every schema limit checked before a value exists: an objective of 1 to 4000 characters
//! (Unicode code points, as JSON Schema counts them), a token budget of at least 1 or `null`.
//!
//! ```
//! use prp_peer::goals;
//!
//! let change = goals::GoalSet::builder()
//!     .objective("Make the refund exporter pass its tests")
//!     .token_budget(50_000)
//!     .build()?;
//! let command = goals::set("cmd-12", 12, "2026-05-18T14:00:00Z", change)?;
//! assert_eq!(command.type_.as_str(), "session.goal.set");
//! # Ok::<(), prp_types::Issue>(())
//! ```

use crate::encode::Validate;
use crate::issue::Issue;
use crate::types::{CommandPayloadV2, CommandTypeV2, CommandV2, DateTime, Text1To160};
use prp_codegen_runtime::{Failure, Integer};

/// The payload of `session.goal.set`: `objective`, `status` (`active` or `paused`), `tokenBudget`
/// (a positive integer, or `null` for no budget) and `requestId`, each optional. Build it with
/// `GoalSet::builder()`.
pub type GoalSet = crate::types::CommandPayloadSessionGoalSetV2;

/// `session.goal.get`: asks the runner for its current goal snapshot.
pub fn get<I, T>(command_id: I, controller_seq: i64, issued_at: T) -> Result<CommandV2, Issue>
where
    I: TryInto<Text1To160>,
    T: TryInto<DateTime>,
    Failure: From<I::Error> + From<T::Error>,
{
    build(
        command_id,
        controller_seq,
        issued_at,
        CommandTypeV2::SessionGoalGet,
        CommandPayloadV2::Other(Box::default()),
    )
}

/// `session.goal.set`: sets the objective, pauses or resumes, or changes the token budget.
pub fn set<I, T>(
    command_id: I,
    controller_seq: i64,
    issued_at: T,
    change: GoalSet,
) -> Result<CommandV2, Issue>
where
    I: TryInto<Text1To160>,
    T: TryInto<DateTime>,
    Failure: From<I::Error> + From<T::Error>,
{
    // A payload changed in code after it was built is checked again here, where it is located.
    change.validate().map_err(|e| e.under("/payload"))?;
    build(
        command_id,
        controller_seq,
        issued_at,
        CommandTypeV2::SessionGoalSet,
        CommandPayloadV2::SessionGoalSet(Box::new(change)),
    )
}

/// `session.goal.clear`: removes the goal.
pub fn clear<I, T>(command_id: I, controller_seq: i64, issued_at: T) -> Result<CommandV2, Issue>
where
    I: TryInto<Text1To160>,
    T: TryInto<DateTime>,
    Failure: From<I::Error> + From<T::Error>,
{
    build(
        command_id,
        controller_seq,
        issued_at,
        CommandTypeV2::SessionGoalClear,
        CommandPayloadV2::Other(Box::default()),
    )
}

fn build<I, T>(
    command_id: I,
    controller_seq: i64,
    issued_at: T,
    type_: CommandTypeV2,
    payload: CommandPayloadV2,
) -> Result<CommandV2, Issue>
where
    I: TryInto<Text1To160>,
    T: TryInto<DateTime>,
    Failure: From<I::Error> + From<T::Error>,
{
    Ok(CommandV2::builder()
        .command_id(command_id)
        .controller_seq(Integer::from(controller_seq))
        .type_(type_)
        .issued_at(issued_at)
        .payload(payload)
        .build()?)
}
