//! The fake harness's script (`paperclip.fake_harness.script.v1`, PROTOCOL §6.1): a name and the
//! steps the harness plays after its fixed preamble. Step members are snake_case and tagged by
//! `kind`; an unknown kind or member is an error, located by a JSON pointer, before anything plays.

use serde::Deserialize;
use serde_json::{Map, Value};

use prp_types::issue::{Code, Issue};

/// The only script schema.
pub const SCRIPT_SCHEMA: &str = "paperclip.fake_harness.script.v1";

/// A decoded script.
#[derive(Debug, Clone, PartialEq)]
pub struct Script {
    /// Always [`SCRIPT_SCHEMA`].
    pub schema: String,
    /// The script's name, sent in the harness's `ready` message.
    pub name: String,
    /// What to play, in order; never empty.
    pub steps: Vec<Step>,
}

/// Where a message goes: the harness's stdout or stderr log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stream {
    /// `stdout`.
    Stdout,
    /// `stderr`.
    Stderr,
}

/// One step. On the wire the variant is the `kind` member beside the fields; decoding moves it
/// out (`{"kind": "delay", ...}` is read as `{"delay": {...}}`) so that errors keep their place.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Step {
    /// Sleep (the harness's `--delay-ms` overrides every delay).
    Delay {
        /// How long.
        milliseconds: u64,
    },
    /// Send a `log` message.
    Log {
        /// Which log.
        stream: Stream,
        /// The line.
        text: String,
    },
    /// Send an `event` message.
    Event {
        /// The PRP event type.
        event_type: String,
        /// The turn; the active turn when absent.
        #[serde(default)]
        turn_id: Option<String>,
        /// The item.
        #[serde(default)]
        item_id: Option<String>,
        /// The event's payload.
        payload: Map<String, Value>,
    },
    /// Send a `request` message (a runtime request document).
    Request {
        /// The runtime request.
        request: Map<String, Value>,
    },
    /// Wait for `request.resolve` of this request, then emit `runtime_request.resolved`.
    AwaitResolution {
        /// The request's id.
        request_id: String,
    },
    /// Wait for `turn.interrupt`, then emit `turn.interrupted`.
    AwaitInterrupt {},
    /// Send a `result` message (a structured run result).
    Result {
        /// The result.
        payload: Map<String, Value>,
    },
    /// Send a `terminal` message: the harness's proposal of how the run ended.
    Terminal {
        /// The terminal document.
        payload: Map<String, Value>,
    },
    /// Start `sh -c "sleep 60"` in the harness's process group, to test cleanup.
    SpawnWorker {},
    /// Exit with this status.
    Exit {
        /// The exit status.
        code: i32,
    },
}

/// The script before its steps are read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    schema: String,
    name: String,
    steps: Vec<Value>,
}

fn located(e: serde_path_to_error::Error<serde_json::Error>, under: &str, skip: usize) -> Issue {
    let segments: Vec<String> = e.path().iter().skip(skip).map(|s| s.to_string()).collect();
    let mut pointer = under.to_owned();
    for s in segments {
        prp_vocabulary::pointer::push(&mut pointer, &s);
    }
    let inner = e.into_inner();
    let code = if inner.is_data() {
        Code::InvalidScript
    } else {
        Code::InvalidJson
    };
    Issue::new(
        code,
        pointer,
        prp_codegen_runtime::strip_position(&inner.to_string()),
    )
}

impl Script {
    /// Decodes a script, checking its schema constant, that it has a name and steps, and every
    /// step's kind and members.
    pub fn decode(bytes: &[u8]) -> Result<Script, Issue> {
        let de = &mut serde_json::Deserializer::from_slice(bytes);
        let raw: Raw = serde_path_to_error::deserialize(de).map_err(|e| located(e, "", 0))?;
        let invalid =
            |pointer: String, message: String| Issue::new(Code::InvalidScript, pointer, message);
        if raw.schema != SCRIPT_SCHEMA {
            return Err(invalid(
                "/schema".into(),
                format!("the schema must be {SCRIPT_SCHEMA}"),
            ));
        }
        if raw.name.is_empty() {
            return Err(invalid("/name".into(), "the name must not be empty".into()));
        }
        if raw.steps.is_empty() {
            return Err(invalid(
                "/steps".into(),
                "a script needs at least one step".into(),
            ));
        }
        let mut steps = Vec::with_capacity(raw.steps.len());
        for (i, step) in raw.steps.into_iter().enumerate() {
            let at = format!("/steps/{i}");
            let Value::Object(mut fields) = step else {
                return Err(invalid(at, "a step is an object".into()));
            };
            let Some(Value::String(kind)) = fields.remove("kind") else {
                return Err(invalid(
                    format!("{at}/kind"),
                    "a step needs a string `kind`".into(),
                ));
            };
            let mut tagged = Map::new();
            tagged.insert(kind, Value::Object(fields));
            let step = serde_path_to_error::deserialize(Value::Object(tagged)).map_err(|e| {
                // An unknown kind fails at the variant itself; anything else below it.
                if e.path().iter().count() == 0 {
                    let message =
                        prp_codegen_runtime::strip_position(&e.inner().to_string()).to_owned();
                    invalid(format!("{at}/kind"), message)
                } else {
                    located(e, &at, 1)
                }
            })?;
            steps.push(step);
        }
        Ok(Script {
            schema: raw.schema,
            name: raw.name,
            steps,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_scripts_are_located() {
        let cases = [
            (
                r#"{"schema":"x","name":"n","steps":[{"kind":"exit","code":0}]}"#,
                "/schema",
            ),
            (
                r#"{"schema":"paperclip.fake_harness.script.v1","name":"","steps":[{"kind":"exit","code":0}]}"#,
                "/name",
            ),
            (
                r#"{"schema":"paperclip.fake_harness.script.v1","name":"n","steps":[]}"#,
                "/steps",
            ),
            (
                r#"{"schema":"paperclip.fake_harness.script.v1","name":"n","steps":[{"kind":"exit","code":0},{"kind":"jump"}]}"#,
                "/steps/1/kind",
            ),
            (
                r#"{"schema":"paperclip.fake_harness.script.v1","name":"n","steps":[{"kind":"delay","milliseconds":-1}]}"#,
                "/steps/0/milliseconds",
            ),
            (
                r#"{"schema":"paperclip.fake_harness.script.v1","name":"n","steps":[{"kind":"log","stream":"stdin","text":"x"}]}"#,
                "/steps/0/stream",
            ),
        ];
        for (doc, pointer) in cases {
            let e = Script::decode(doc.as_bytes()).unwrap_err();
            assert_eq!(
                (e.code, e.pointer.as_str()),
                (Code::InvalidScript, pointer),
                "{doc}: {e}"
            );
        }
        let e = Script::decode(b"{").unwrap_err();
        assert_eq!(e.code, Code::InvalidJson);
    }
}
