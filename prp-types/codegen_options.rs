// The generator options prp-types is generated with: build.rs and the tests that regenerate the
// types from rewritten schemas include this file, so that both generate the same way.

/// The `date-time` format as the PRP contract asserts it (PROTOCOL §1).
const PRP_DATE_TIME: &str = include!("date_time_pattern.rs");

/// The session-goal `$defs` keys (`capability`, `snapshot`) are too generic for crate-level
/// names: the definitions PRP names itself, and their names.
const PRP_NAMES: &[(&str, &str)] = &[
    (
        "https://paperclip.dev/schemas/prp/v2/session-goal.schema.json#/$defs/capability",
        "GoalCapability",
    ),
    (
        "https://paperclip.dev/schemas/prp/v2/session-goal.schema.json#/$defs/snapshot",
        "GoalSnapshot",
    ),
];

/// The options for PRP's schemas.
#[allow(dead_code)]
fn prp_options() -> prp_codegen::Options {
    prp_options_naming(|_| true)
}

/// The options for PRP's schemas, naming only the definitions `present` says the directory has
/// (a naming key that matches nothing is an error, and a subset of PRP's files may lack them).
fn prp_options_naming(present: impl Fn(&str) -> bool) -> prp_codegen::Options {
    let mut options = prp_codegen::Options::new()
        // PRP grows by adding event types, enum values and versions (PROTOCOL §1.7): a crate
        // matching on a generated enum keeps compiling when it does.
        .non_exhaustive(true)
        .document_union("Document", "schema")
        // The contract's `date-time` profile: UTC, whole seconds, optional milliseconds.
        .format(
            "date-time",
            prp_codegen::Format::Pattern(PRP_DATE_TIME.to_owned()),
        );
    for (key, name) in PRP_NAMES {
        if present(key) {
            options = options.name(*key, *name);
        }
    }
    options
}
