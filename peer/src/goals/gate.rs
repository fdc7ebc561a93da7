//! Whether a command may go on the wire (PROTOCOL §5.3 rules 2, 3 and 6, with the Open point on
//! mapping a control to an advertised action decided).
//!
//! The mapping, decided:
//!
//! | command | needs |
//! |---|---|
//! | `session.goal.get` | `availability: available` only |
//! | `session.goal.set` with an `objective` | `set`, and the objective within `maxObjectiveChars` code points |
//! | `session.goal.set` with `status: "paused"` | `pause` |
//! | `session.goal.set` with `status: "active"` on a held goal that is paused | `resume` |
//! | `session.goal.set` with `status: "active"` otherwise | `set` |
//! | `session.goal.set` with `tokenBudget` (a number or `null`) | `set` and `tokenBudgetControl: true` |
//! | `session.goal.clear` | `clear` |
//!
//! A set needs every action its members need. A set with none of `objective`, `status` and
//! `tokenBudget` changes nothing and is refused, since it would only cost the runner a turn. Every
//! refusal is a controller-side error: nothing is sent.
//!
//! Goal commands travel as `paperclip.prp.command.v2` and every other command as
//! `paperclip.prp.command.v1` (rule 6), so a v2 command of another type is refused too.

use crate::encode::Validate;
use crate::issue::Issue;
use crate::types::{
    Command, CommandPayloadSessionGoalSetStatusV2 as SetStatus, CommandPayloadV2, CommandTypeV2,
    CommandV2, GoalCapability, GoalCapabilityAction as Action, GoalCapabilityAvailability,
    GoalSnapshot, GoalSnapshotStatus,
};

/// A command on its way out: v1 or v2.
#[derive(Debug, Clone, Copy)]
pub enum Outgoing<'a> {
    /// A `paperclip.prp.command.v1` command.
    V1(&'a Command),
    /// A `paperclip.prp.command.v2` command.
    V2(&'a CommandV2),
}

impl<'a> From<&'a Command> for Outgoing<'a> {
    fn from(c: &'a Command) -> Self {
        Outgoing::V1(c)
    }
}

impl<'a> From<&'a CommandV2> for Outgoing<'a> {
    fn from(c: &'a CommandV2) -> Self {
        Outgoing::V2(c)
    }
}

impl Outgoing<'_> {
    /// The command's `type`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Outgoing::V1(c) => c.type_.as_str(),
            Outgoing::V2(c) => c.type_.as_str(),
        }
    }

    /// The command checked against its schema.
    pub fn validate(&self) -> Result<(), Issue> {
        match self {
            Outgoing::V1(c) => c.validate(),
            Outgoing::V2(c) => c.validate(),
        }
    }
}

/// Why a command may not be sent. Each has a stable [`Refusal::code`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Refusal {
    /// A goal command in a session negotiated below version 2.
    #[error(
        "`{command}` needs a session negotiated at protocol version 2; this one is at version {negotiated}"
    )]
    GoalCommandNeedsV2 {
        /// The command's type.
        command: &'static str,
        /// The session's version.
        negotiated: u32,
    },
    /// A command other than a goal command, written as v2.
    #[error(
        "only session goal commands are sent as paperclip.prp.command.v2; send `{command}` as paperclip.prp.command.v1"
    )]
    NotAGoalCommand {
        /// The command's type.
        command: &'static str,
    },
    /// The runner has advertised no session-goal capability (a v1 snapshot, or none yet).
    #[error("the runner has advertised no session goal capability, so goals are unsupported")]
    NoGoalCapability,
    /// The capability says goals are `unsupported` or `policy_disabled`.
    #[error("session goals are {availability} on this runner{}", reason_suffix(.reason_code))]
    GoalsUnavailable {
        /// `availability`.
        availability: &'static str,
        /// `reasonCode`, when the runner gave one.
        reason_code: Option<String>,
    },
    /// The control needs an action the capability does not list.
    #[error("`{command}` needs the `{action}` action, which the runner does not advertise")]
    ActionNotAdvertised {
        /// The command's type.
        command: &'static str,
        /// The missing action.
        action: &'static str,
    },
    /// A `tokenBudget` change without `tokenBudgetControl: true`.
    #[error("the runner does not advertise tokenBudgetControl, so tokenBudget cannot be changed")]
    NoTokenBudgetControl,
    /// An objective longer than the runner's `maxObjectiveChars`.
    #[error("the objective has {chars} characters; the runner accepts at most {max}")]
    ObjectiveTooLong {
        /// The objective's length in code points.
        chars: usize,
        /// `maxObjectiveChars`.
        max: i64,
    },
    /// A `session.goal.set` with none of `objective`, `status` and `tokenBudget`.
    #[error("`session.goal.set` changes nothing: give an objective, a status or a tokenBudget")]
    EmptySet,
    /// The command breaks its schema (a value changed in code after it was built).
    #[error("the command is invalid: {0}")]
    Invalid(Issue),
}

fn reason_suffix(code: &Option<String>) -> String {
    code.as_ref()
        .map(|c| format!(" (reasonCode `{c}`)"))
        .unwrap_or_default()
}

impl Refusal {
    /// A stable snake_case name for the refusal.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::GoalCommandNeedsV2 { .. } => "goal_command_needs_v2",
            Refusal::NotAGoalCommand { .. } => "not_a_goal_command",
            Refusal::NoGoalCapability => "no_goal_capability",
            Refusal::GoalsUnavailable { .. } => "goals_unavailable",
            Refusal::ActionNotAdvertised { .. } => "action_not_advertised",
            Refusal::NoTokenBudgetControl => "no_token_budget_control",
            Refusal::ObjectiveTooLong { .. } => "objective_too_long",
            Refusal::EmptySet => "empty_goal_set",
            Refusal::Invalid(_) => "invalid_command",
        }
    }
}

/// The actions a goal command needs, in the order `set`, `pause`, `resume`, `clear`, given the
/// goal the controller holds (for telling a resume from a set). `get` needs none.
pub fn required_actions(command: &CommandV2, held: Option<&GoalSnapshot>) -> Vec<Action> {
    let mut needs = Vec::new();
    match (&command.type_, &command.payload) {
        (CommandTypeV2::SessionGoalClear, _) => needs.push(Action::Clear),
        (CommandTypeV2::SessionGoalSet, CommandPayloadV2::SessionGoalSet(p)) => {
            if p.objective.is_some() || !p.token_budget.is_absent() {
                needs.push(Action::Set);
            }
            match p.status {
                Some(SetStatus::Paused) => needs.push(Action::Pause),
                Some(SetStatus::Active) => {
                    let paused = held.is_some_and(|g| g.status == GoalSnapshotStatus::Paused);
                    needs.push(if paused { Action::Resume } else { Action::Set });
                }
                // A status this version does not know asks for no action it knows.
                _ => {}
            }
        }
        _ => {}
    }
    needs.sort_by_key(|a| *a as u8);
    needs.dedup();
    needs
}

/// Whether `command` may be sent in a session at `version`, with the runner's latest goal
/// `capability` and the goal the controller holds.
pub fn check(
    version: u32,
    capability: Option<&GoalCapability>,
    held: Option<&GoalSnapshot>,
    command: Outgoing<'_>,
) -> Result<(), Refusal> {
    command.validate().map_err(Refusal::Invalid)?;
    let command = match command {
        // A v1 command cannot carry a goal type: the v1 enum has none.
        Outgoing::V1(_) => return Ok(()),
        Outgoing::V2(c) => c,
    };
    let name = command.type_.as_str();
    if !name.starts_with("session.goal.") {
        return Err(Refusal::NotAGoalCommand { command: name });
    }
    if version < 2 {
        return Err(Refusal::GoalCommandNeedsV2 {
            command: name,
            negotiated: version,
        });
    }
    let capability = capability.ok_or(Refusal::NoGoalCapability)?;
    if capability.availability != GoalCapabilityAvailability::Available {
        return Err(Refusal::GoalsUnavailable {
            availability: capability.availability.as_str(),
            reason_code: capability.reason_code.as_ref().map(|c| c.to_string()),
        });
    }
    if let CommandPayloadV2::SessionGoalSet(p) = &command.payload {
        if p.objective.is_none() && p.status.is_none() && p.token_budget.is_absent() {
            return Err(Refusal::EmptySet);
        }
        if let Some(objective) = &p.objective {
            let chars = objective.chars().count();
            if chars as i64 > capability.max_objective_chars {
                return Err(Refusal::ObjectiveTooLong {
                    chars,
                    max: capability.max_objective_chars,
                });
            }
        }
        if !p.token_budget.is_absent() && !capability.token_budget_control {
            return Err(Refusal::NoTokenBudgetControl);
        }
    }
    for action in required_actions(command, held) {
        if !capability.actions.contains(&action) {
            return Err(Refusal::ActionNotAdvertised {
                command: name,
                action: action.as_str(),
            });
        }
    }
    Ok(())
}
