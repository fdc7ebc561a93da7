// The generator options prp-types is generated with: build.rs and the tests that regenerate the
// types from rewritten schemas include this file, so that both generate the same way.

/// The `date-time` format as the PRP contract asserts it (PROTOCOL §1).
const PRP_DATE_TIME: &str =
    r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{3})?Z$";

/// The options for PRP's schemas.
fn prp_options() -> prp_codegen::Options {
    // The session-goal `$defs` keys (`capability`, `snapshot`) are too generic for crate-level names.
    let goal = "https://paperclip.dev/schemas/prp/v2/session-goal.schema.json#/$defs/";
    prp_codegen::Options::new()
        // PRP grows by adding event types, enum values and versions (PROTOCOL §1.7): a crate
        // matching on a generated enum keeps compiling when it does.
        .non_exhaustive(true)
        .document_union("Document", "schema")
        .name(format!("{goal}capability"), "GoalCapability")
        .name(format!("{goal}snapshot"), "GoalSnapshot")
        // The contract's `date-time` profile: UTC, whole seconds, optional milliseconds.
        .format(
            "date-time",
            prp_codegen::Format::Pattern(PRP_DATE_TIME.to_owned()),
        )
}
