//! One small schema directory per generator feature (tests/features/NAME/*.schema.json) beside the
//! code generated from it (expected.rs). The snapshots are compared byte for byte
//! (`UPDATE_SNAPSHOTS=1 cargo test -p prp-codegen --test features` rewrites them; `date-time` is
//! asserted, as RFC 3339, unless the directory's `options.json` says otherwise), compiled here,
//! and exercised with documents the schema accepts and rejects. The directories prp-mutants
//! writes (a failing mutant shrunk) hold the documents it failed on in `documents.json`.

use prp_codegen::{Options, generate_dir};
use std::path::Path;

use prp_codegen_runtime as rt_support;

/// `schema_verdicts(key, json)` in a feature's module: decoding and the verdict-only check of
/// `json` by the type the module lists for schema `key` (`None` when it lists none).
macro_rules! verdicts_fn {
    ($(($id:literal, $t:ident)),* $(,)?) => {
        #[allow(unreachable_patterns)]
        pub fn schema_verdicts(key: &str, json: &str) -> Option<(bool, bool)> {
            match key {
                $($id => Some((super::decodes::<$t>(json), super::verdict::<$t>(json))),)*
                _ => None,
            }
        }
    };
}

/// A module per feature directory (its `expected.rs`), and `FEATURES`: each directory's name
/// with its module's `verdicts`. A name followed by `(Union)` has a document union of that name,
/// which the key `#document` reads a document through (as `prp validate` chooses its type).
macro_rules! features {
    ($($name:ident $(($doc:ident))?),* $(,)?) => {
        $(
            #[allow(dead_code, clippy::all, non_camel_case_types, non_snake_case, non_upper_case_globals)]
            mod $name {
                include!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/tests/features/",
                    stringify!($name),
                    "/expected.rs"
                ));
                for_each_schema_type!(verdicts_fn);
                pub fn verdicts(key: &str, json: &str) -> Option<(bool, bool)> {
                    $(if key == "#document" {
                        return Some((super::decodes::<$doc>(json), super::verdict::<$doc>(json)));
                    })?
                    schema_verdicts(key, json)
                }
            }
        )*
        const FEATURES: &[(&str, fn(&str, &str) -> Option<(bool, bool)>)] =
            &[$((stringify!($name), $name::verdicts)),*];
    };
}

// The list of feature directories; prp-mutants adds the cases it shrinks to it.
include!("features/list.rs");

/// The generator options of a feature directory: RFC 3339 `date-time` asserted, unless its
/// `options.json` (a kept mutant's) says otherwise: `base_uri`, `document_union` (`[name,
/// member]`), `non_exhaustive`, `formats` (name to regex, `null` for RFC 3339), `names`,
/// `dialect` (of files without `$schema`).
fn options_of(dir: &Path) -> Options {
    let Ok(text) = std::fs::read_to_string(dir.join("options.json")) else {
        return Options::new().format("date-time", prp_codegen::Format::DateTime);
    };
    let o: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut options = Options::new().non_exhaustive(o["non_exhaustive"] == true);
    if let Some(base) = o["base_uri"].as_str() {
        options = options.base_uri(base);
    }
    if let Some(dialect) = o["dialect"].as_str() {
        options = options.default_dialect(dialect.parse().unwrap());
    }
    if let (Some(name), Some(member)) = (
        o["document_union"][0].as_str(),
        o["document_union"][1].as_str(),
    ) {
        options = options.document_union(name, member);
    }
    for (name, check) in o["formats"].as_object().into_iter().flatten() {
        let check = match check.as_str() {
            Some(regex) => prp_codegen::Format::Pattern(regex.to_owned()),
            None => prp_codegen::Format::DateTime,
        };
        options = options.format(name, check);
    }
    for (key, name) in o["names"].as_object().into_iter().flatten() {
        options = options.name(key, name.as_str().unwrap());
    }
    options
}

fn feature_dirs() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/features");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|d| d.is_dir())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn snapshots_match_the_generator() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut stale = Vec::new();
    let dirs = feature_dirs();
    for dir in &dirs {
        // A kept mutant's schemas are in `schemas/`, beside its options and documents.
        let schemas = Some(dir.join("schemas")).filter(|d| d.is_dir());
        let code = generate_dir(schemas.as_deref().unwrap_or(dir), &options_of(dir))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .code;
        let expected = dir.join("expected.rs");
        if std::fs::read_to_string(&expected).ok().as_deref() != Some(code.as_str()) {
            if update {
                std::fs::write(&expected, &code).unwrap();
            } else {
                stale.push(expected.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale snapshots (rerun with UPDATE_SNAPSHOTS=1 and review): {stale:?}"
    );
    let mut listed: Vec<&str> = FEATURES.iter().map(|(name, _)| *name).collect();
    listed.sort_unstable();
    let found: Vec<String> = dirs
        .iter()
        .map(|d| d.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        listed, found,
        "tests/features/list.rs must list every feature directory"
    );
}

/// A kept mutant's `documents.json` holds the documents it once failed on, each with the
/// verdict the oracles gave: decoding and the verdict-only check must give it now.
#[test]
fn kept_mutants_give_the_oracles_verdicts() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for dir in feature_dirs() {
        let Ok(text) = std::fs::read_to_string(dir.join("documents.json")) else {
            continue;
        };
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let verdicts = FEATURES.iter().find(|(n, _)| *n == name).unwrap().1;
        let docs: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
        for d in docs {
            let (key, valid) = (d["schema"].as_str().unwrap(), d["valid"] == true);
            let json = d["document"].to_string();
            let got = verdicts(key, &json);
            if got != Some((valid, valid)) {
                wrong.push(format!(
                    "{name}: {key}: expected {valid}, got {got:?}: {json}"
                ));
            }
            checked += 1;
        }
    }
    eprintln!("{checked} kept documents checked");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Whether `json` decodes as a `T`.
fn decodes<T: serde::de::DeserializeOwned>(json: &str) -> bool {
    serde_json::from_str::<T>(json).is_ok()
}

/// The verdict-only check (`Verify`) of `json` on the verdict reader, which must agree with
/// decoding it (by serde_json).
fn verdict<T: rt_support::Verify>(json: &str) -> bool {
    let mut reader = rt_support::reader::Reader::new(json);
    T::verify(&mut reader).is_ok() && reader.end()
}

fn ok<T: serde::de::DeserializeOwned + serde::Serialize + rt_support::Verify>(json: &str) -> T {
    let value: T =
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{json} was rejected: {e}"));
    assert!(verdict::<T>(json), "{json} decodes, but its verdict is no");
    // Every accepted document encodes back to the same JSON value.
    let again: serde_json::Value = serde_json::to_value(&value).unwrap();
    let input: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(again, input, "{json} did not round-trip");
    value
}

/// The keyword code that rejected `json`.
fn code<T: serde::de::DeserializeOwned + std::fmt::Debug + rt_support::Verify>(
    json: &str,
) -> String {
    assert!(
        !verdict::<T>(json),
        "{json} is refused, but its verdict is yes"
    );
    rt_support::clear_failure();
    let e = serde_json::from_str::<T>(json).expect_err(json).to_string();
    // serde_json reports a wrong JSON type itself, before any visitor runs; prp-types maps those to `type`.
    match rt_support::take_failure(&e) {
        Some(f) => f.code.as_str().to_owned(),
        None if e.starts_with("invalid type") => "type".to_owned(),
        None => e,
    }
}

#[test]
fn constrained_values_are_types_and_builders_check_them() {
    use constraints::*;
    use rt_support::Check as _;
    // A constrained string is its own type: made only through its rule, read as `&str`.
    assert_eq!(Path::try_from("../x").unwrap_err().code.as_str(), "pattern");
    assert_eq!(
        Text0To3::try_from("éééé").unwrap_err().code.as_str(),
        "max_length"
    );
    assert_eq!(
        "2026-01-01".parse::<DateTime>().unwrap_err().code.as_str(),
        "format"
    );
    let p: Path = "a/b".parse().unwrap();
    assert_eq!(p, "a/b");
    assert!(p.ends_with('b'));
    // A closed set of integers is an enum, written as its integer.
    assert_eq!(
        LimitsPriority::try_from(3).unwrap_err().code.as_str(),
        "enum"
    );
    assert_eq!(i64::from(LimitsPriority::V2), 2);
    // The builder leaves optionals absent, reports a refused member at its pointer
    // and runs the whole value's checks.
    let refs = vec![LimitsRef::builder().id("a").build().unwrap()];
    let l = Limits::builder()
        .path("a")
        .name("n")
        .seq(1)
        .when("2026-01-01T00:00:00Z")
        .refs(refs.clone())
        .build()
        .unwrap();
    assert!(l.done.is_none() && l.priority.is_none());
    assert_eq!(l.check(), Ok(()));
    let json = serde_json::to_string(&l).unwrap();
    assert_eq!(
        json,
        r#"{"path":"a","name":"n","seq":1,"when":"2026-01-01T00:00:00Z","refs":[{"id":"a"}]}"#
    );
    // A member the schema declares only to refuse is refused when decoded, and cannot be slipped
    // in among the undeclared members of a value built in code either.
    let mut r = refs[0].clone();
    r.extra.insert("retired".into(), serde_json::json!(1));
    assert_eq!(r.check().unwrap_err().code.as_str(), "duplicate_key");
    let err = Limits::builder().path("/abs").build().unwrap_err();
    assert_eq!((err.code.as_str(), err.rel.as_str()), ("pattern", "/path"));
    let err = Limits::builder().path("a").build().unwrap_err();
    assert_eq!(err.code.as_str(), "required");
    let twice = vec![refs[0].clone(), refs[0].clone()];
    let err = Limits::builder()
        .path("a")
        .name("n")
        .seq(1)
        .when("2026-01-01T00:00:00Z")
        .refs(twice)
        .build()
        .unwrap_err();
    assert_eq!(
        (err.code.as_str(), err.rel.as_str()),
        ("unique_items", "/refs")
    );
}

#[test]
fn tagged_unions_pick_the_variant_by_constant() {
    use tagged::*;
    let s: Shape = ok(r#"{"kind":"circle","radius":1.5,"colour":"red"}"#);
    assert!(matches!(&s, Shape::Circle(c) if c.extra["colour"] == "red"));
    let s: Shape = ok(r#"{"side":2,"kind":"square"}"#);
    assert!(matches!(&s, Shape::Square(q) if q.side == 2));
    assert_eq!(code::<Shape>(r#"{"kind":"triangle"}"#), "one_of");
    assert_eq!(code::<Shape>(r#"{"radius":1}"#), "one_of");
    assert_eq!(
        code::<Shape>(r#"{"kind":"square","side":2,"x":1}"#),
        "additional_properties"
    );
    assert_eq!(code::<Shape>(r#"{"kind":"square","side":0}"#), "minimum");
    // A variant converts into the enum.
    let square: Square = ok(r#"{"kind":"square","side":3}"#);
    assert_eq!(Shape::from(square.clone()), Shape::Square(square));
    // Members read by name through whichever variant the value is.
    use rt_support::{Fields as _, Probe};
    let s: Shape = ok(r#"{"kind":"circle","radius":1.5,"colour":"red"}"#);
    assert!(s.field("kind").equals(&Probe::Str("circle")));
    assert!(s.field("colour").equals(&Probe::Str("red")));
    assert!(s.field("side").is_absent());
    let s: Shape = ok(r#"{"side":2,"kind":"square"}"#);
    assert!(s.field("side").equals(&Probe::Int(2)));
}

#[test]
fn alternatives_sharing_a_tag_are_told_apart_by_a_second_one() {
    use grouped_tagged::*;
    // `schema` picks `note.v1` or the `note.v2` group, `kind` the alternative inside the group,
    // whichever member comes first.
    let m: Message = ok(r#"{"schema":"note.v2","kind":"alert","level":2}"#);
    assert!(matches!(&m, Message::MessageV2(MessageV2::MessageAlertV2(a)) if a.level == 2));
    let m: Message = ok(r#"{"kind":"plain","text":"hi","schema":"note.v2"}"#);
    assert!(
        matches!(&m, Message::MessageV2(MessageV2::MessagePlainV2(p)) if p.text.as_str() == "hi")
    );
    let m: Message = ok(r#"{"schema":"note.v1","kind":"alert","text":""}"#);
    assert!(matches!(m, Message::MessageV1(_)));
    assert_eq!(
        code::<Message>(r#"{"schema":"note.v2","kind":"alert","level":4}"#),
        "maximum"
    );
    assert_eq!(
        code::<Message>(r#"{"schema":"note.v2","kind":"plain","text":""}"#),
        "min_length"
    );
    assert_eq!(
        code::<Message>(r#"{"schema":"note.v2","kind":"loud","text":"x"}"#),
        "one_of"
    );
    assert_eq!(
        code::<Message>(r#"{"schema":"note.v3","kind":"plain","text":"x"}"#),
        "one_of"
    );
    // The document union maps every value of `schema`, the shared one included.
    let d: AnyDocument = ok(r#"{"schema":"note.v2","kind":"plain","text":"hi"}"#);
    assert!(matches!(
        d,
        AnyDocument::MessageV2(MessageV2::MessagePlainV2(_))
    ));
    let d: AnyDocument = ok(r#"{"schema":"note.v1","kind":"plain","text":"hi"}"#);
    assert!(matches!(d, AnyDocument::MessageV1(_)));
}

#[test]
fn a_conditional_on_a_members_members_selects_inside_the_member() {
    use pushed_down::*;
    // `kind` selects `body`'s type; inside it, `mode` selects `args`'.
    let j: Job = ok(r#"{"kind":"run","body":{"mode":"fast","args":{"threads":4}}}"#);
    assert!(
        matches!(&j.body, JobBody::Run(b) if matches!(&b.args, JobBodyRunArgs::Fast(a) if a.threads == 4))
    );
    let j: Job = ok(r#"{"body":{"args":{"delayMs":0},"mode":"slow"},"kind":"run"}"#);
    assert!(matches!(&j.body, JobBody::Run(b) if matches!(&b.args, JobBodyRunArgs::Slow(_))));
    assert_eq!(
        code::<Job>(r#"{"kind":"run","body":{"mode":"fast","args":{"delayMs":1}}}"#),
        "additional_properties"
    );
    assert_eq!(
        code::<Job>(r#"{"kind":"run","body":{"mode":"slow","args":{"delayMs":-1}}}"#),
        "minimum"
    );
    // `note` leaves `body` any object.
    let j: Job = ok(r#"{"kind":"note","body":{"mode":"fast","args":{"delayMs":1}}}"#);
    assert!(matches!(j.body, JobBody::Other(_)));
}

#[test]
fn conditional_members_are_typed_by_their_selector() {
    use select::*;
    let m: Message = ok(r#"{"body":{"text":"hi"},"type":"text"}"#);
    assert!(matches!(&m.body, MessageBody::Text(t) if t.text == "hi"));
    let m: Message = ok(r#"{"type":"image","body":{"url":"https://x","channel":"a"}}"#);
    assert!(matches!(m.body, MessageBody::Image(_)));
    let m: Message = ok(r#"{"type":"ping","body":{"anything":1}}"#);
    assert!(matches!(m.body, MessageBody::Other(_)));
    assert_eq!(
        code::<Message>(r#"{"type":"text","body":{"text":"too long"}}"#),
        "max_length"
    );
    assert_eq!(
        code::<Message>(r#"{"type":"image","body":{"url":"https://x","channel":"c"}}"#),
        "enum"
    );
    assert_eq!(code::<Message>(r#"{"type":"image","body":{}}"#), "required");
}

#[test]
fn nullable_members_keep_null_apart_from_absent() {
    use nullable::*;
    let r: Record = ok(r#"{"a":null,"b":null,"c":null}"#);
    assert_eq!((r.a, r.b, r.c), (None, rt_support::Tri::Null, None));
    let r: Record = ok(r#"{"a":"x","c":{"x":true},"d":"y"}"#);
    assert_eq!(r.b, rt_support::Tri::Absent);
    assert_eq!(code::<Record>(r#"{"a":null}"#), "required");
    assert_eq!(code::<Record>(r#"{"a":null,"c":null,"d":null}"#), "type");
    assert_eq!(code::<Record>(r#"{"a":null,"c":null,"b":0}"#), "minimum");

    // Builders set null apart from absent too: an optional nullable member has its own null
    // setter, and a required nullable one left unset is written as null.
    let built = Record::builder().a("x").a_null().b_null().build().unwrap();
    assert_eq!(
        serde_json::to_string(&built).unwrap(),
        r#"{"a":null,"b":null,"c":null}"#
    );
    let built = Record::builder().b(2).build().unwrap();
    assert_eq!((built.a, built.b), (None, rt_support::Tri::Value(2.into())));
}

#[test]
fn scalar_and_array_constraints_are_enforced() {
    use constraints::*;
    let base = r#""seq":1,"when":"2026-02-28T23:59:59.5+01:00""#;
    ok::<Limits>(&format!(
        r#"{{"path":"a/b..c","name":"ééé",{base},"priority":2,"done":true,"ratio":0.5,"refs":[{{"id":"a"}},{{"id":"b"}}]}}"#
    ));
    let cases = [
        (r#""path":"../x""#, "pattern"),
        (r#""path":"a\rb""#, "pattern"),
        (r#""path":"/abs""#, "pattern"),
        (r#""path":"a","name":"éééé""#, "max_length"),
        (r#""path":"a","priority":3"#, "enum"),
        (r#""path":"a","done":false"#, "const"),
        (r#""path":"a","ratio":-1"#, "minimum"),
        (r#""path":"a","refs":[]"#, "min_items"),
        (
            r#""path":"a","refs":[{"id":"a","z":1},{"z":1,"id":"a"}]"#,
            "unique_items",
        ),
        (
            r#""path":"a","refs":[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"}]"#,
            "max_items",
        ),
        (r#""path":"a","other":1"#, "additional_properties"),
        (
            r#""path":"a","refs":[{"id":"a","retired":1}]"#,
            "false_schema",
        ),
    ];
    for (members, want) in cases {
        let name = if members.contains("\"name\"") {
            ""
        } else {
            r#","name":"n""#
        };
        assert_eq!(
            code::<Limits>(&format!("{{{members}{name},{base}}}")),
            want,
            "{members}"
        );
    }
    let name = r#""path":"a","name":"n""#;
    assert_eq!(
        code::<Limits>(&format!(
            r#"{{{name},"seq":9007199254740992,"when":"2026-01-01T00:00:00Z"}}"#
        )),
        "maximum"
    );
    assert_eq!(
        code::<Limits>(&format!(
            r#"{{{name},"seq":1,"when":"2026-02-30T00:00:00+00:00"}}"#
        )),
        "format",
        "RFC 3339 knows its calendar"
    );
    assert_eq!(
        code::<Limits>(&format!(
            r#"{{{name},"seq":1,"when":"2026-01-01T24:00:00.1Z"}}"#
        )),
        "format"
    );
    // `1.0` is an integer in JSON Schema.
    let l: Limits = serde_json::from_str(&format!(
        r#"{{{name},"seq":1.0,"when":"2026-01-01T00:00:00Z"}}"#
    ))
    .unwrap();
    assert_eq!(l.seq, 1);
    assert_eq!(
        code::<Limits>(&format!(
            r#"{{{name},"seq":1.5,"when":"2026-01-01T00:00:00Z"}}"#
        )),
        "type"
    );
}

#[test]
fn if_then_not_and_exclusive_rules_hold() {
    use conditionals::*;
    ok::<Order>(r#"{"state":"open","mode":"local"}"#);
    ok::<Order>(r#"{"state":"blocked","blocker":"b","mode":"remote","host":"h"}"#);
    ok::<Order>(r#"{"state":"done","items":[],"mode":"local"}"#);
    assert_eq!(
        code::<Order>(r#"{"state":"blocked","mode":"local"}"#),
        "required"
    );
    assert_eq!(
        code::<Order>(r#"{"state":"done","items":["x"],"mode":"local"}"#),
        "max_items"
    );
    assert_eq!(
        code::<Order>(r#"{"state":"done","note":"n","mode":"local"}"#),
        "not"
    );
    assert_eq!(
        code::<Order>(r#"{"state":"open","mode":"local","host":"h"}"#),
        "false_schema"
    );
    assert_eq!(
        code::<Order>(r#"{"state":"open","mode":"remote"}"#),
        "one_of"
    );
    // Without `mode` the first alternative holds vacuously and the second needs `host`: exactly one.
    ok::<Order>(r#"{"state":"open"}"#);
    // An `if` without `required` holds when its member is absent, so `host` is forbidden then too.
    assert_eq!(
        code::<Order>(r#"{"state":"open","host":"h"}"#),
        "false_schema"
    );
}

#[test]
fn narrowing_all_of_checks_the_shared_type() {
    use narrowing::*;
    let e: Envelope = ok(
        r#"{"ref":{"kind":"doc","id":"1"},"more":[{"kind":"task","id":"2"}],"merged":{"kind":"note","id":"3","count":0}}"#,
    );
    assert_eq!(e.ref_.kind, ReferenceKind::Doc);
    assert_eq!(
        code::<Envelope>(r#"{"ref":{"kind":"task","id":"1"}}"#),
        "const"
    );
    assert_eq!(
        code::<Envelope>(r#"{"ref":{"kind":"doc","id":"1"},"more":[{"kind":"note","id":"2"}]}"#),
        "enum"
    );
    assert_eq!(
        code::<Envelope>(r#"{"ref":{"kind":"doc","id":"1"},"merged":{"kind":"doc","id":"3"}}"#),
        "required"
    );
}

#[test]
fn maps_check_keys_and_values() {
    use maps::*;
    let a: Answers = ok(r#"{"answers":{"q1":{"value":"x"},"q2":{"value":"y"}}}"#);
    assert_eq!(a.answers.extra.keys().collect::<Vec<_>>(), ["q1", "q2"]);
    assert_eq!(
        code::<Answers>(r#"{"answers":{"":{"value":"x"}}}"#),
        "min_length"
    );
    assert_eq!(
        code::<Answers>(r#"{"answers":{"q12345":{"value":"x"}}}"#),
        "max_length"
    );
    assert_eq!(
        code::<Answers>(r#"{"answers":{"q":{"value":"x","y":1}}}"#),
        "additional_properties"
    );
}

#[test]
fn unions_by_json_type() {
    use by_type::*;
    let r: Revision = ok(r#"{"current":3}"#);
    assert_eq!(r.current, RevisionCurrent::Integer(3i64.into()));
    // No maximum: integers beyond 64 bits are integers too, kept as parsed.
    ok::<Revision>(r#"{"current":18446744073709551616}"#);
    let r: Revision = ok(r#"{"current":"abc"}"#);
    assert_eq!(
        r.current,
        RevisionCurrent::String("abc".try_into().unwrap())
    );
    assert_eq!(code::<Revision>(r#"{"current":-1}"#), "minimum");
    assert_eq!(code::<Revision>(r#"{"current":"ABC"}"#), "pattern");
    assert!(serde_json::from_str::<Revision>(r#"{"current":true}"#).is_err());
}

#[test]
fn cross_file_references_keep_each_files_constraints() {
    use cross_file::*;
    ok::<A>(r#"{"id":"abc","beta":{"id":"bee","x":1},"betaId":"b1"}"#);
    assert_eq!(
        code::<A>(r#"{"id":"abcd","beta":{"id":"b"}}"#),
        "max_length"
    );
    assert_eq!(code::<A>(r#"{"id":"a","beta":{"id":"x"}}"#), "pattern");
    assert_eq!(
        code::<A>(r#"{"id":"a","beta":{"id":"b"},"betaId":"c"}"#),
        "pattern"
    );
}

#[test]
fn the_built_in_date_time_is_rfc_3339() {
    use rt_support::is_rfc3339_date_time as ok;
    for good in [
        "1963-06-19T08:30:06.283185Z",
        "1963-06-19T08:30:06Z",
        "1963-06-19t08:30:06z",
        "1937-01-01T12:00:27.87+00:20",
        "1990-12-31T15:59:50.123-08:00",
        "1998-12-31T23:59:60Z",
        "1998-12-31T15:59:60.123-08:00",
        "2000-02-29T00:00:00Z",
    ] {
        assert!(ok(good), "{good}");
    }
    for bad in [
        "1998-12-31T23:58:60Z",
        "1998-12-31T22:59:60Z",
        "1990-02-31T15:59:59.123-08:00",
        "1900-02-29T00:00:00Z",
        "1990-12-31T15:59:59-24:00",
        "1990-12-31T15:59:59-23:60",
        "06/19/1963 08:30:06 PST",
        "2013-350T01:01:01",
        "1963-06-19T08:30:06.Z",
        "1963-06-19T08:30:06",
        "1963-06-1৪T00:00:00Z",
        "",
    ] {
        assert!(!ok(bad), "{bad}");
    }
}

#[test]
fn rules_no_type_says_are_checked_on_the_typed_value() {
    use rules::*;
    // The envelope stays a struct with typed members whatever else its schema says.
    let e: Envelope = ok(r#"{"kind":"stop","payload":{"action":"go"},"retries":2}"#);
    assert_eq!((e.kind, e.retries), (EnvelopeKind::Stop, Some(2.into())));
    let e: Envelope = ok(
        r#"{"kind":"note","payload":{},"note":{"text":"hi"},"tags":["primary","x"],"final":false,"retries":0}"#,
    );
    assert!(matches!(e.note, rt_support::Tri::Value(ref n) if n.text.as_deref() == Some("hi")));
    let _: Envelope = ok(r#"{"kind":"note","payload":{},"note":null}"#);
    let _: Envelope = ok(r#"{"kind":"start","payload":{},"retries":1}"#);
    // `if`/`then` with a redundant `type: object`: a typed conditional.
    assert_eq!(
        code::<Envelope>(r#"{"kind":"stop","payload":{}}"#),
        "required"
    );
    // `if` on a nested member, `else`, a `oneOf` as a whole `then`: rules of the program.
    assert_eq!(
        code::<Envelope>(r#"{"kind":"note","payload":{"action":"abort"},"note":{}}"#),
        "required"
    );
    let _: Envelope = ok(r#"{"kind":"note","payload":{"action":"abort","reason":"r"},"note":{}}"#);
    assert_eq!(code::<Envelope>(r#"{"kind":"note","payload":{}}"#), "not");
    assert_eq!(
        code::<Envelope>(r#"{"kind":"stop","payload":{},"retries":1,"note":{}}"#),
        "const"
    );
    assert_eq!(
        code::<Envelope>(r#"{"kind":"start","payload":{}}"#),
        "one_of"
    );
    assert_eq!(
        code::<Envelope>(r#"{"kind":"start","payload":{},"retries":1,"tags":["primary"]}"#),
        "one_of"
    );
    // `dependentRequired`, `const: false`, and the array's `contains`, `maxContains`, `allOf`.
    assert_eq!(
        code::<Envelope>(r#"{"kind":"note","payload":{},"note":{},"final":false}"#),
        "dependent_required"
    );
    assert_eq!(
        code::<Envelope>(r#"{"kind":"stop","payload":{},"retries":1,"final":true}"#),
        "const"
    );
    assert_eq!(
        code::<Envelope>(r#"{"kind":"stop","payload":{},"retries":1,"tags":["x"]}"#),
        "contains"
    );
    assert_eq!(
        code::<Envelope>(
            r#"{"kind":"stop","payload":{},"retries":1,"tags":["primary","primary"]}"#
        ),
        "contains"
    );
    assert_eq!(
        code::<Envelope>(
            r#"{"kind":"stop","payload":{},"retries":1,"tags":["primary","a","b","c","d"]}"#
        ),
        "max_items"
    );
    // Scalars and nullables with rules their type does not read keep their Rust type.
    let base = r#""kind":"stop","payload":{},"retries":1"#;
    let e: Envelope = ok(&format!(
        r#"{{{base},"score":2.5,"ratio":null,"code":"ab","limits":null}}"#
    ));
    assert_eq!((e.score, e.ratio), (Some(2.5), rt_support::Tri::Null));
    assert_eq!(e.code, Some(Some("ab".into())));
    let _: Envelope = ok(&format!(r#"{{{base},"ratio":0.1,"limits":{{"n":1}}}}"#));
    assert_eq!(
        code::<Envelope>(&format!(r#"{{{base},"score":2.25}}"#)),
        "multiple_of"
    );
    assert_eq!(
        code::<Envelope>(&format!(r#"{{{base},"ratio":0}}"#)),
        "exclusive_minimum"
    );
    // `not: {type: null}` applies to null too: the nullable's null is refused.
    assert_eq!(
        code::<Envelope>(&format!(r#"{{{base},"code":null}}"#)),
        "not"
    );
    assert_eq!(
        code::<Envelope>(&format!(r#"{{{base},"code":"a"}}"#)),
        "min_length"
    );
    assert_eq!(
        code::<Envelope>(&format!(r#"{{{base},"limits":{{"n":0}}}}"#)),
        "minimum"
    );
    // The failure is located in the value, as the checked types locate theirs.
    let f = Envelope::builder()
        .kind(EnvelopeKind::Stop)
        .payload(EnvelopePayload::builder().build().unwrap())
        .retries(1)
        .tags(vec!["x".into()])
        .build()
        .unwrap_err();
    assert_eq!((f.code.as_str(), f.rel.as_str()), ("contains", "/tags"));
    let f = Envelope::builder()
        .kind(EnvelopeKind::Note)
        .payload(EnvelopePayload::builder().build().unwrap())
        .build()
        .unwrap_err();
    assert_eq!(f.code.as_str(), "not");
}

#[test]
fn checked_types_hold_what_no_typed_shape_says() {
    use checked::*;
    // A typed struct keeps its typed members; the members no shape says are checked JSON.
    let t: Tree = ok(
        r#"{"label":"a","tags":["x","yz"],"weight":"12","children":[{"label":"b","weight":1.5}]}"#,
    );
    assert_eq!(t.label, "a");
    assert_eq!(
        t.tags.as_ref().unwrap().as_json(),
        &serde_json::json!(["x", "yz"])
    );
    assert_eq!(
        code::<Tree>(r#"{"label":"a","tags":["x","y","z"]}"#),
        "max_items"
    );
    assert_eq!(
        code::<Tree>(r#"{"label":"a","tags":["long"]}"#),
        "max_length"
    );
    assert_eq!(code::<Tree>(r#"{"label":"a","weight":1.25}"#), "any_of");
    // `null` satisfies both alternatives of `note`'s `oneOf`, so it is refused; a number only one.
    assert_eq!(code::<Tree>(r#"{"label":"a","note":null}"#), "one_of");
    let _: Tree = ok(r#"{"label":"a","note":7}"#);
    let _: Tree = ok(r#"{"label":"a","note":"abc"}"#);
    assert_eq!(code::<Tree>(r#"{"label":"a","note":"abcd"}"#), "one_of");
    // Children are trees: the recursive reference is checked at every depth.
    assert_eq!(
        code::<Tree>(r#"{"label":"a","children":[{"label":"b","children":[{"label":""}]}]}"#),
        "min_length"
    );
    assert_eq!(
        code::<Tree>(r#"{"label":"a","children":[{"label":"b","x":1}]}"#),
        "additional_properties"
    );
    // Built in code, checked the same way.
    assert_eq!(
        TreeTags::new(serde_json::json!(["a", "b", "c"]))
            .unwrap_err()
            .code
            .as_str(),
        "max_items"
    );
    assert!(TreeTags::new(serde_json::json!("not an array")).is_ok());

    let _: Settings = ok(r#"{"mode":"fast","threads":4,"name":"n"}"#);
    let _: Settings = ok(r#"{"mode":"off","proxy":"p","port":8080}"#);
    assert_eq!(
        code::<Settings>(r#"{"mode":"slow","threads":4}"#),
        "unevaluated_properties"
    );
    assert_eq!(code::<Settings>(r#"{"port":80}"#), "dependent_required");
    assert_eq!(code::<Settings>(r#"{"proxy":"p"}"#), "required");
    assert_eq!(code::<Settings>(r#"{"Mode":"x"}"#), "pattern");
    assert_eq!(
        code::<Settings>(r#"{"mode":"fast","threads":0}"#),
        "exclusive_minimum"
    );
    assert_eq!(
        code::<Settings>(r#"{"mode":"fast","name":"a","name":"b"}"#),
        "duplicate_key"
    );

    let _: List = ok(r#"["head",1,"x",2]"#);
    assert_eq!(code::<List>(r#"["head","x"]"#), "contains");
    assert_eq!(code::<List>(r#"["head",1,2,3]"#), "contains");
    assert_eq!(code::<List>(r#"["head",1,true]"#), "type");
    assert_eq!(code::<List>(r#"[1]"#), "type");
}

#[test]
fn references_follow_base_uris_anchors_and_urns() {
    use identifiers::*;
    let c: Catalog = ok(r#"{"entries":[{"sku":"ABC-1234","price":3}],"owner":{"name":"Ada"}}"#);
    assert_eq!(c.entries[0].sku, "ABC-1234");
    assert_eq!(c.owner.unwrap().name, "Ada");
    // Members named like the decoder's own locals decode, verify and encode as any other.
    let text = r#"{"entries":[{"sku":"ABC-1234","orderSeen":2,"keys":"k"}]}"#;
    let c: Catalog = ok(text);
    assert_eq!(
        c.entries[0].order_seen,
        Some(rt_support::Integer::from(2i64))
    );
    assert_eq!(c.entries[0].keys.as_deref(), Some("k"));
    assert_eq!(serde_json::to_string(&c).unwrap(), text);
    assert_eq!(code::<Catalog>(r#"{"entries":[{"sku":"abc"}]}"#), "pattern");
    assert_eq!(
        code::<Catalog>(r#"{"entries":[{"sku":"ABC-1234","price":-1}]}"#),
        "minimum"
    );
    assert_eq!(
        code::<Catalog>(r#"{"entries":[],"owner":{"name":""}}"#),
        "min_length"
    );
}

#[test]
fn repeated_unknown_members_are_refused_however_many_there_are() {
    use identifiers::*;
    // Unknown names are remembered in a short list and, past 16, in a hash set: a repeat is
    // refused on either side of that switch, at the top and inside an unknown member's value.
    let members = |n: usize| -> String { (0..n).map(|i| format!(",\"u{i}\":{i}")).collect() };
    let _: Person = ok(&format!(r#"{{"name":"Ada"{}}}"#, members(40)));
    for repeat in ["u3", "u35"] {
        let doc = format!(r#"{{"name":"Ada"{},"{repeat}":0}}"#, members(40));
        assert_eq!(code::<Person>(&doc), "duplicate_key", "{repeat}");
    }
    let inner = &members(30)[1..];
    let _: Person = ok(&format!(r#"{{"name":"Ada","nested":{{{inner}}}}}"#));
    let doc = format!(r#"{{"name":"Ada","nested":{{{inner},"u20":1}}}}"#);
    assert_eq!(code::<Person>(&doc), "duplicate_key");
}

/// A rule may read members no `properties` declares: the builder sets them too, and `build`
/// checks them with the rest (kept mutant 2074, where the builder could only leave them out).
#[test]
fn builders_set_undeclared_members_before_the_rules_run() {
    use found_build_refuses_valid_2074::SemanticTool;
    let mut members = serde_json::Map::new();
    let err = SemanticTool::builder()
        .extra(members.clone())
        .build()
        .unwrap_err();
    assert_eq!(err.code.as_str(), "required");
    members.insert("code".into(), serde_json::json!(1));
    let built = SemanticTool::builder().extra(members).build().unwrap();
    assert_eq!(built.extra["code"], 1);
}

/// Builder methods keep apart however members are called: `crate` (a keyword) sets `crate_`
/// and nulls it with `crate_null`, `a`'s null setter yields to a member `a_null`, and `build`
/// is the field `build_`; `extra` is a member, the undeclared members `extra_`.
#[test]
fn builder_methods_never_collide() {
    use builder_method_names::*;
    let n = Names::builder()
        .crate_null()
        .build_("b")
        .a(1)
        .a_null(true)
        .a_null2()
        .extra("e")
        .build()
        .unwrap();
    assert_eq!(
        (n.crate_, n.build_.as_str(), n.extra.as_deref()),
        (None, "b", Some("e"))
    );
    assert!(n.extra_.is_empty());
    let refused = Names::builder().crate_("c").build().unwrap_err();
    assert_eq!(refused.code.as_str(), "required");
}
