//! The checker's program, two ways in. As text: whatever `Program::parse` accepts, checking any
//! value from any node never panics (a number that names nothing is refused when read, not met
//! while checking). As a schema: what the generator compiles reads back from its text as itself,
//! and checks every value without panicking either.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prp_codegen::{Options, SchemaSet};
use prp_codegen_runtime::eval::Program;
use serde_json::{Value, json};

/// Values of every type, nested, for each program to check.
fn values() -> [Value; 8] {
    [
        json!(null),
        json!(true),
        json!(0),
        json!(-2.5),
        json!("ab"),
        json!([1, "a", [null], {"b": 2}]),
        json!({"a": 1, "b": [true], "c": {"d": "e"}}),
        json!(18446744073709551615u64),
    ]
}

/// Checks every value from every node: the verdicts do not matter here, only that none panics.
fn check_all(program: &Program) {
    let values = values();
    for n in 0..program.nodes.len() {
        for v in &values {
            let _ = program.check(n, v);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(program) = Program::parse(text) {
        check_all(&program);
        return;
    }
    let Ok(file) = SchemaSet::parse("s.json".into(), text) else { return };
    let Ok(set) = SchemaSet::from_files(vec![file]) else { return };
    let Ok(compiled) = prp_codegen::compile_checker(&set, "file:///s.json", &Options::new()) else {
        return;
    };
    let read = Program::parse(&compiled.text).expect("a compiled program reads back");
    assert_eq!(read, compiled.program, "the program read back differs");
    check_all(&read);
});
