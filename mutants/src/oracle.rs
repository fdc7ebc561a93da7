//! The two validators every verdict is checked against: the schema program prp-codegen compiles
//! (from the schema's JSON, not from the types) run by the runtime's evaluator, and the
//! `jsonschema` crate. `jsonschema` matches `pattern` with its own regex engine, whose dialect is
//! not ECMA-262's (`.` matches `\r`, `\d` is Unicode); here `pattern` is checked with `regress`
//! in ECMA-262's Unicode mode instead, as the specification asks. `patternProperties` keeps the
//! crate's engine, so a split between the two oracles on such a schema names the dialect.

use crate::source::{File, Setup, Source};
use jsonschema::paths::Location;
use jsonschema::{Draft, Keyword, Registry, Resource, ValidationError, Validator};
use prp_codegen::{Options, SchemaSet};
use prp_codegen_runtime::eval::Program;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// Both validators' verdict on one document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdicts {
    /// The compiled schema program's.
    pub program: bool,
    /// The `jsonschema` crate's, where it could compile the schema.
    pub independent: Option<bool>,
}

/// The validators of a mutant's schemas.
pub struct Oracle {
    programs: BTreeMap<String, (Program, usize)>,
    validators: BTreeMap<String, Validator>,
    /// Whether the source is draft-04, where the crate (as python jsonschema) takes `1.0` for no
    /// integer, as draft-04's core says ("without a fraction or exponent part"), while the
    /// generator reads `integer` as every later draft does and as the suite allows (draft-04's
    /// test of it is optional), and as Ajv, which SchemaStore checks with, cannot tell apart.
    draft4: bool,
}

impl Oracle {
    /// The validators of the schemas `uris` of `files`. A schema the program compiler refuses
    /// is left out (its verdicts are `None`); one `jsonschema` refuses has no independent verdict.
    pub fn new(
        source: &Source,
        set: &SchemaSet,
        files: &[File],
        options: &Options,
        uris: &[String],
    ) -> Oracle {
        let mut programs = BTreeMap::new();
        for uri in uris {
            if let Ok(c) = prp_codegen::compile_checker(set, uri, options) {
                programs.insert(uri.clone(), (c.program, c.entry));
            }
        }
        let validators = independent(source, files, uris).unwrap_or_default();
        Oracle {
            programs,
            validators,
            draft4: source.setup == Setup::Suite(prp_codegen::Dialect::Draft4),
        }
    }

    /// Whether the program compiler took the schema `uri`.
    pub fn knows(&self, uri: &str) -> bool {
        self.programs.contains_key(uri)
    }

    /// The verdicts on `doc` of the schema `uri`, if the program compiler took it.
    pub fn verdicts(&self, uri: &str, doc: &Value) -> Option<Verdicts> {
        let (program, entry) = self.programs.get(uri)?;
        let program = program.check(*entry, doc).is_ok();
        let validator = self.validators.get(uri);
        // Where the two readings of draft-04's `integer` part, there is no independent verdict.
        let validator = validator.filter(|_| !(self.draft4 && has_whole_float(doc)));
        let independent = validator.and_then(|v| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| v.is_valid(doc))).ok()
        });
        Some(Verdicts {
            program,
            independent,
        })
    }
}

/// `jsonschema` validators of `uris` over a registry of every file, or `None` where the crate
/// cannot take the schemas (or panics on them).
fn independent(
    source: &Source,
    files: &[File],
    uris: &[String],
) -> Option<BTreeMap<String, Validator>> {
    // The crate (0.61.2) resolves a 2019-09 `$recursiveRef` statically where an object schema
    // has `properties` beside `additionalProperties`: `{"foo": 1}` is refused by the suite's
    // recursiveRef group 2 with an optional member added, which the specification (and python
    // jsonschema 4.26) accepts. Such a directory has no independent verdict.
    if files
        .iter()
        .any(|f| f.value.to_string().contains("\"$recursiveRef\""))
    {
        return None;
    }
    let base = source.base_uri();
    let resources: Vec<(String, Resource)> = files
        .iter()
        .map(|f| {
            let id = f.value.get("$id").or_else(|| f.value.get("id"));
            let uri = match id.and_then(Value::as_str).filter(|i| !i.starts_with('#')) {
                Some(id) => id.trim_end_matches('#').to_owned(),
                None => format!("{base}{}", f.path),
            };
            let draft = draft(source.setup).detect(&f.value);
            (uri, draft.create_resource(f.value.clone()))
        })
        .collect();
    let setup = source.setup;
    std::panic::catch_unwind(move || {
        let registry = Registry::new()
            .extend(resources.iter().map(|(u, r)| (u.as_str(), r.clone())))
            .ok()?
            .prepare()
            .ok()?;
        let mut out = BTreeMap::new();
        for uri in uris {
            let mut options = jsonschema::options()
                .with_draft(draft(setup))
                .with_registry(&registry)
                .offline()
                .with_keyword("pattern", ecma_pattern);
            // `format` is an annotation unless asserted, in every dialect (the crate asserts it
            // by default before 2019-09).
            options = options.should_validate_formats(setup == Setup::Prp);
            if setup == Setup::Prp {
                options = options.with_format("date-time", is_prp_date_time);
            }
            if let Ok(v) = options.build(&serde_json::json!({ "$ref": uri })) {
                out.insert(uri.clone(), v);
            }
        }
        Some(out)
    })
    .ok()
    .flatten()
}

/// Whether `v` holds a number written with a fraction or exponent whose value is whole (`1.0`).
fn has_whole_float(v: &Value) -> bool {
    match v {
        Value::Number(n) => {
            n.as_f64().is_some_and(|f| f.fract() == 0.0) && !(n.is_i64() || n.is_u64())
        }
        Value::Array(a) => a.iter().any(has_whole_float),
        Value::Object(o) => o.values().any(has_whole_float),
        _ => false,
    }
}

/// The `jsonschema` draft of a source's files that name none.
fn draft(setup: Setup) -> Draft {
    match setup {
        Setup::Prp | Setup::Suite(prp_codegen::Dialect::Draft202012) => Draft::Draft202012,
        Setup::Suite(prp_codegen::Dialect::Draft201909) => Draft::Draft201909,
        Setup::Suite(prp_codegen::Dialect::Draft7) => Draft::Draft7,
        Setup::Suite(prp_codegen::Dialect::Draft6) => Draft::Draft6,
        Setup::Suite(prp_codegen::Dialect::Draft4) => Draft::Draft4,
    }
}

/// PRP's `date-time` profile, as prp-types asserts it.
fn is_prp_date_time(s: &str) -> bool {
    static PROFILE: LazyLock<regress::Regex> = LazyLock::new(|| {
        regress::Regex::new(crate::source::PRP_DATE_TIME_PATTERN).expect("a valid regex")
    });
    PROFILE.find(s).is_some()
}

/// `pattern` with ECMA-262 semantics (`regress`, Unicode mode): found anywhere unless anchored.
struct EcmaPattern(regress::Regex);

impl<'i> Keyword<'i> for EcmaPattern {
    fn validate(&self, instance: &'i Value) -> Result<(), ValidationError<'i>> {
        if self.is_valid(instance) {
            Ok(())
        } else {
            Err(ValidationError::custom(format!(
                "{instance} does not match the pattern"
            )))
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        instance.as_str().is_none_or(|s| self.0.find(s).is_some())
    }
}

fn ecma_pattern<'a>(
    _parent: &'a Map<String, Value>,
    value: &'a Value,
    _path: Location,
) -> Result<Box<dyn for<'i> Keyword<'i>>, ValidationError<'a>> {
    let source = value
        .as_str()
        .ok_or_else(|| ValidationError::schema("`pattern` must be a string"))?;
    let regex = regress::Regex::with_flags(source, "u")
        .map_err(|e| ValidationError::schema(format!("`pattern` {source:?}: {e}")))?;
    Ok(Box::new(EcmaPattern(regex)))
}
