//! Version negotiation (PROTOCOL §5.1): the highest version both peers support, or none, and a
//! session that holds the selected version and refuses every message of another.
//!
//! A [`Session`] also holds the runner's latest capability snapshot and the goal projection
//! ([`crate::goals`]), so that it can answer whether a command may go on the wire
//! ([`Session::may_send`]), serialize only those that may ([`Session::serialize`]), and put a
//! placeholder in place of an event the peer's version does not carry
//! ([`Session::outgoing_event`]).
//!
//! `negotiate(local, peer)` selects `min(local.max, peer.max)` when it is at least
//! `max(local.min, peer.min)`; otherwise there is no common version and the connection fails
//! closed. This build supports [`SUPPORTED`] = 1..=3 (PROTOCOL-V3 §2). Which version each
//! message type belongs to is [`crate::versions`].

use std::fmt;

use crate::goals::{Advertised, GoalEvent, GoalProjection, Outcome, Outgoing, Refusal, gate};
use crate::issue::Issue;
use crate::types::{FixtureCapabilities, FixtureEvent, GoalCapability};

pub use crate::versions::{
    CommandSchemaError, check_command_schema, command_schema_version, event_schema,
    event_schema_version, event_type, outgoing_event,
};

/// A capability snapshot: v1 (`paperclip.prp.capabilities.v1`), v2 (with `sessionGoals`) or v3
/// (v2's, with an optional `externalProvider`).
pub type CapabilitySnapshot = FixtureCapabilities;

/// An inclusive range of protocol versions, `min..=max`, both at least 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VersionRange {
    min: u32,
    max: u32,
}

/// The versions this build speaks.
pub const SUPPORTED: VersionRange = VersionRange { min: 1, max: 3 };

/// Why a range or a negotiation failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NegotiationError {
    /// A range that is not `MIN..MAX` of integers with `1 <= MIN <= MAX`.
    #[error("malformed version range `{text}`: {why}")]
    MalformedRange {
        /// The range as given.
        text: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// The two ranges do not overlap.
    #[error("no common protocol version: local {local}, peer {peer}")]
    NoCommonVersion {
        /// This side's range.
        local: VersionRange,
        /// The other side's.
        peer: VersionRange,
    },
}

impl VersionRange {
    /// The range `min..=max`, refused when `min` is 0 or above `max`.
    pub fn new(min: i64, max: i64) -> Result<Self, NegotiationError> {
        let text = format!("{min}..{max}");
        let malformed = |why| NegotiationError::MalformedRange {
            text: text.clone(),
            why,
        };
        if min < 1 || max < 1 {
            return Err(malformed("versions start at 1"));
        }
        if min > max {
            return Err(malformed("the minimum is above the maximum"));
        }
        let (Ok(min), Ok(max)) = (u32::try_from(min), u32::try_from(max)) else {
            return Err(malformed("a version is out of range"));
        };
        Ok(VersionRange { min, max })
    }

    /// The lowest version.
    pub fn min(self) -> u32 {
        self.min
    }

    /// The highest version.
    pub fn max(self) -> u32 {
        self.max
    }

    /// Whether `v` lies in the range.
    pub fn contains(self, v: u32) -> bool {
        (self.min..=self.max).contains(&v)
    }
}

impl std::str::FromStr for VersionRange {
    type Err = NegotiationError;
    /// `MIN..MAX` (or a single `N` for `N..N`).
    fn from_str(s: &str) -> Result<Self, NegotiationError> {
        let malformed = |why| NegotiationError::MalformedRange {
            text: s.to_owned(),
            why,
        };
        let (a, b) = s.split_once("..").unwrap_or((s, s));
        let parse = |t: &str| {
            t.trim()
                .parse::<i64>()
                .map_err(|_| malformed("expected MIN..MAX of integers"))
        };
        VersionRange::new(parse(a)?, parse(b)?).map_err(|e| match e {
            NegotiationError::MalformedRange { why, .. } => malformed(why),
            other => other,
        })
    }
}

impl fmt::Display for VersionRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.min, self.max)
    }
}

/// The highest version both ranges contain.
pub fn negotiate(local: VersionRange, peer: VersionRange) -> Result<u32, NegotiationError> {
    let selected = local.max.min(peer.max);
    if selected >= local.min.max(peer.min) {
        Ok(selected)
    } else {
        Err(NegotiationError::NoCommonVersion { local, peer })
    }
}

/// Why a session refused a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// A message of a version other than the selected one.
    #[error("a version {got} message in a session negotiated at version {selected}")]
    VersionMismatch {
        /// The negotiated version.
        selected: u32,
        /// The message's.
        got: u32,
    },
}

/// A session after negotiation: the selected version, the runner's latest capability snapshot and
/// the goal projection.
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    version: u32,
    capabilities: Option<CapabilitySnapshot>,
    goals: GoalProjection,
}

impl Session {
    /// Negotiates between this build's [`SUPPORTED`] range and the peer's.
    pub fn negotiate(peer: VersionRange) -> Result<Self, NegotiationError> {
        negotiate(SUPPORTED, peer).map(|version| Session {
            version,
            capabilities: None,
            goals: GoalProjection::new(version),
        })
    }

    /// The selected version.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// Accepts a message of `version`, or says why not.
    pub fn accept(&self, version: u32) -> Result<(), SessionError> {
        if version == self.version {
            Ok(())
        } else {
            Err(SessionError::VersionMismatch {
                selected: self.version,
                got: version,
            })
        }
    }

    /// Takes the runner's capability snapshot. It must be of the negotiated version: a v3 session
    /// gets a v3 snapshot, a v2 session a v2 one (both always carry `sessionGoals`), a v1 session
    /// a v1 one (which means goals are unsupported). A snapshot of another version is refused as
    /// a message of another version is.
    pub fn set_capabilities(
        &mut self,
        snapshot: impl Into<CapabilitySnapshot>,
    ) -> Result<(), SessionError> {
        let snapshot = snapshot.into();
        // Read from the tag, so that a version the schemas add is refused here, not unmatched.
        let got = crate::versions::tag_version(snapshot.tag()).unwrap_or(0);
        self.accept(got)?;
        self.goals.set_capabilities(&snapshot);
        self.capabilities = Some(snapshot);
        Ok(())
    }

    /// The runner's capability snapshot, as last set.
    pub fn capabilities(&self) -> Option<&CapabilitySnapshot> {
        self.capabilities.as_ref()
    }

    /// Whether the runner's snapshot says `externalProvider: true`; absent, or a v1 or v2
    /// snapshot, means it serves no external provider operations.
    pub fn external_provider(&self) -> bool {
        matches!(
            &self.capabilities,
            Some(FixtureCapabilities::CapabilitiesV3(c)) if c.external_provider == Some(true)
        )
    }

    /// The latest goal capability: from the snapshot, then from `session.capabilities.updated`
    /// events. `None` means goals are unsupported.
    pub fn goal_capability(&self) -> Option<&GoalCapability> {
        self.goals.capability()
    }

    /// The goal projection.
    pub fn goals(&self) -> &GoalProjection {
        &self.goals
    }

    /// Folds one event from the runner into the goal projection; an event whose `schemaVersion`
    /// is above the negotiated version is refused.
    pub fn observe<E: GoalEvent>(&mut self, event: &E) -> Result<Outcome, Issue> {
        self.goals.apply(event)
    }

    /// Whether `command` may go on the wire in this session (see [`crate::goals::gate`]).
    pub fn may_send<'a>(&self, command: impl Into<Outgoing<'a>>) -> Result<(), Refusal> {
        let advertised = Advertised {
            goals: self.goals.capability(),
            external_provider: self.external_provider(),
        };
        gate::check(self.version, advertised, self.goals.goal(), command.into())
    }

    /// The command's JSON bytes, if it [may be sent](Session::may_send); a refused command is
    /// never serialized.
    pub fn serialize<'a>(&self, command: impl Into<Outgoing<'a>>) -> Result<Vec<u8>, Refusal> {
        let command = command.into();
        self.may_send(command)?;
        // `may_send` has validated it.
        let bytes = match command {
            Outgoing::V1(c) => serde_json::to_vec(c),
            Outgoing::V2(c) => serde_json::to_vec(c),
            Outgoing::V3(c) => serde_json::to_vec(c),
        };
        bytes.map_err(|e| {
            Refusal::Invalid(Issue::new(
                crate::Code::Keyword(prp_types::Keyword::Encode),
                "",
                e.to_string(),
            ))
        })
    }

    /// The event to send in place of `event`: itself, or a v1 `runner.diagnostic` placeholder
    /// when its `schemaVersion` is above the negotiated version (see [`outgoing_event`]).
    pub fn outgoing_event(&self, event: FixtureEvent) -> Result<FixtureEvent, Issue> {
        outgoing_event(self.version, event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> VersionRange {
        s.parse().unwrap()
    }

    #[test]
    fn the_negotiation_table() {
        let cases = [
            ("1..1", "1..1", Some(1)),
            ("1..2", "1..1", Some(1)),
            ("1..1", "1..2", Some(1)),
            ("1..2", "1..2", Some(2)),
            ("2..2", "1..2", Some(2)),
            ("1..2", "2..3", Some(2)),
            ("1..2", "3..4", None),
            ("1..3", "3..4", Some(3)),
            ("1..3", "4..5", None),
            ("2..2", "1..1", None),
            ("1..5", "3..3", Some(3)),
        ];
        for (local, peer, want) in cases {
            assert_eq!(
                negotiate(r(local), r(peer)).ok(),
                want,
                "{local} with {peer}"
            );
        }
        let err = negotiate(r("1..2"), r("3..4")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no common protocol version: local 1..2, peer 3..4"
        );
    }

    #[test]
    fn malformed_ranges_are_refused() {
        for bad in ["2..1", "0..2", "-1..2", "1..", "a..b", "", "1..2..3"] {
            assert!(
                matches!(
                    bad.parse::<VersionRange>(),
                    Err(NegotiationError::MalformedRange { .. })
                ),
                "{bad}"
            );
        }
        assert_eq!(r("2"), VersionRange::new(2, 2).unwrap());
        assert_eq!(r(" 1 .. 3 "), SUPPORTED);
    }

    #[test]
    fn a_session_refuses_other_versions() {
        let s = Session::negotiate(r("1..1")).unwrap();
        assert_eq!(s.version(), 1);
        assert_eq!(s.accept(1), Ok(()));
        assert_eq!(
            s.accept(2).unwrap_err().to_string(),
            "a version 2 message in a session negotiated at version 1"
        );
        assert_eq!(Session::negotiate(r("1..2")).unwrap().version(), 2);
        assert_eq!(Session::negotiate(r("2..9")).unwrap().version(), 3);
        assert_eq!(
            Session::negotiate(r("4..9")).unwrap_err().to_string(),
            "no common protocol version: local 1..3, peer 4..9"
        );
    }
}
