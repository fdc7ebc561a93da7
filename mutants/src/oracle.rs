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
            if let Ok(c) = prp_codegen::compile_checker(set, uri, options)
                && let Ok(p) = Program::parse(&c.text)
            {
                programs.insert(uri.clone(), (p, c.entry));
            }
        }
        let validators = independent(source, files, uris).unwrap_or_default();
        Oracle {
            programs,
            validators,
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
        let independent = self.validators.get(uri).and_then(|v| {
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
    let base = source.base_uri();
    let resources: Vec<(String, Resource)> = files
        .iter()
        .map(|f| {
            let uri = match f.value.get("$id").and_then(Value::as_str) {
                Some(id) => id.trim_end_matches('#').to_owned(),
                None => format!("{base}{}", f.path),
            };
            (uri, Resource::from_contents(f.value.clone()))
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
                .with_draft(Draft::Draft202012)
                .with_registry(&registry)
                .offline()
                .with_keyword("pattern", ecma_pattern);
            if setup == Setup::Prp {
                options = options
                    .should_validate_formats(true)
                    .with_format("date-time", is_prp_date_time);
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
