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
//! Goal commands travel as `paperclip.prp.command.v2`, `external_provider.operation` as
//! `paperclip.prp.command.v3` and every other command as `paperclip.prp.command.v1` (rule 6;
//! PROTOCOL-V3 §2), so a v2 or v3 command of another type is refused too.
//!
//! `external_provider.operation` is the one v3-only command. The Open point of PROTOCOL-V3 §2,
//! decided as for goal commands: in a session negotiated below 3 it is refused with its own code,
//! `external_provider_needs_v3`; and, as a missing goal capability means unsupported, a runner
//! that has not advertised `externalProvider: true` is sent none.

use crate::encode::Validate;
use crate::issue::Issue;
use crate::types::{
    Command, CommandPayloadSessionGoalSetStatusV2 as SetStatus, CommandPayloadV2, CommandTypeV2,
    CommandTypeV3, CommandV2, CommandV3, GoalCapability, GoalCapabilityAction as Action,
    GoalCapabilityAvailability, GoalSnapshot, GoalSnapshotStatus,
};

/// A command on its way out: v1, v2 or v3.
#[derive(Debug, Clone, Copy)]
pub enum Outgoing<'a> {
    /// A `paperclip.prp.command.v1` command.
    V1(&'a Command),
    /// A `paperclip.prp.command.v2` command.
    V2(&'a CommandV2),
    /// A `paperclip.prp.command.v3` command.
    V3(&'a CommandV3),
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

impl<'a> From<&'a CommandV3> for Outgoing<'a> {
    fn from(c: &'a CommandV3) -> Self {
        Outgoing::V3(c)
    }
}

impl Outgoing<'_> {
    /// The command's `type`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Outgoing::V1(c) => c.type_.as_str(),
            Outgoing::V2(c) => c.type_.as_str(),
            Outgoing::V3(c) => c.type_.as_str(),
        }
    }

    /// The command checked against its schema.
    pub fn validate(&self) -> Result<(), Issue> {
        match self {
            Outgoing::V1(c) => c.validate(),
            Outgoing::V2(c) => c.validate(),
            Outgoing::V3(c) => c.validate(),
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
    /// `external_provider.operation` in a session negotiated below version 3.
    #[error("external provider operations require PRP v3; this session negotiated v{negotiated}")]
    ExternalProviderNeedsV3 {
        /// The session's version.
        negotiated: u32,
    },
    /// A command other than `external_provider.operation`, written as v3.
    #[error(
        "only external provider operations are sent as paperclip.prp.command.v3; send `{command}` as paperclip.prp.command.v{stamp}"
    )]
    NotAnExternalProviderOperation {
        /// The command's type.
        command: &'static str,
        /// The version it is sent as.
        stamp: u32,
    },
    /// The runner's capability snapshot does not say `externalProvider: true` (or there is none).
    #[error(
        "the runner has not advertised externalProvider, so it takes no external provider operations"
    )]
    NoExternalProvider,
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
            Refusal::ExternalProviderNeedsV3 { .. } => "external_provider_needs_v3",
            Refusal::NotAnExternalProviderOperation { .. } => "not_an_external_provider_operation",
            Refusal::NoExternalProvider => "no_external_provider",
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

/// What the runner has advertised, as the gate reads it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Advertised<'a> {
    /// The latest goal capability; `None` means goals are unsupported.
    pub goals: Option<&'a GoalCapability>,
    /// Whether the capability snapshot says `externalProvider: true`.
    pub external_provider: bool,
}

/// Whether `command` may be sent in a session at `version`, with what the runner has advertised
/// and the goal the controller holds.
pub fn check(
    version: u32,
    advertised: Advertised<'_>,
    held: Option<&GoalSnapshot>,
    command: Outgoing<'_>,
) -> Result<(), Refusal> {
    command.validate().map_err(Refusal::Invalid)?;
    match command {
        // A v1 command cannot carry a goal or external provider type: the v1 enum has neither.
        Outgoing::V1(_) => Ok(()),
        Outgoing::V2(c) => check_goal(version, advertised.goals, held, c),
        Outgoing::V3(c) => check_external_provider(version, advertised.external_provider, c),
    }
}

/// The v3 branch: only `external_provider.operation`, only at version 3, only to a runner that
/// advertised it.
fn check_external_provider(
    version: u32,
    advertised: bool,
    command: &CommandV3,
) -> Result<(), Refusal> {
    let name = command.type_.as_str();
    if command.type_ != CommandTypeV3::ExternalProviderOperation {
        return Err(Refusal::NotAnExternalProviderOperation {
            command: name,
            stamp: crate::versions::command_schema_version(name),
        });
    }
    if version < 3 {
        return Err(Refusal::ExternalProviderNeedsV3 {
            negotiated: version,
        });
    }
    if !advertised {
        return Err(Refusal::NoExternalProvider);
    }
    Ok(())
}

/// The v2 branch: the goal rules of the table above.
fn check_goal(
    version: u32,
    capability: Option<&GoalCapability>,
    held: Option<&GoalSnapshot>,
    command: &CommandV2,
) -> Result<(), Refusal> {
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
