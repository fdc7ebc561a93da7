//! prp-codegen: a JSON Schema (draft 2020-12) directory in, one Rust module out.
//!
//! Five stages, each reading only what the earlier ones produced:
//!
//! ```text
//! load       schema files   -> SchemaFile per file (dialect, `$id` or base URI + path, title)
//! index      SchemaFiles    -> SchemaSet: every resource, anchor and base URI; `$ref`s resolve
//! normalize  SchemaSet      -> Model: typed items, and checked types with their checker program
//! plan       Model          -> Model: one item per shape, the caller's document union added
//! emit       Model          -> tokens, printed (`print`) as the module's source
//! ```
//!
//! `load` reads and parses the files; `index` builds the [`SchemaSet`]; `normalize` turns each
//! subschema into an item of the `model` (const as enum, tagged `oneOf`, `if`/`then` tables,
//! narrowing `allOf`), compiling through `program` the checker of every subschema no typed shape
//! says exactly; `plan` makes whole-model decisions; `emit` writes the items with `quote`, and
//! `print` lays them out (prettyplease, and one entry per line in the runtime's member tables).
//! `names` and `error` serve every stage; what JSON Schema's keywords, pointers and URIs mean is
//! the `prp-vocabulary` crate's.
//!
//! Loud or right: a subschema no typed shape says exactly becomes a checked type, its JSON checked
//! by the program the generator compiles (run by the runtime's `eval`); a schema the generator
//! cannot read is a located [`Error`]. Nothing is dropped. The generated module needs one
//! dependency, its runtime crate `prp-codegen-runtime`, which carries what every generated type
//! calls and re-exports the crates the generated code names.
//!
//! ```no_run
//! use prp_codegen::{Format, Options};
//!
//! let goal = "https://paperclip.dev/schemas/prp/v2/session-goal.schema.json";
//! let options = Options::new()
//!     .document_union("Document", "schema")
//!     .name(format!("{goal}#/$defs/snapshot"), "GoalSnapshot")
//!     .format("date-time", Format::DateTime);
//! let output = prp_codegen::generate_dir("schemas".as_ref(), &options)?;
//! std::fs::write("prp_types.rs", output.code)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod emit;
mod error;
mod index;
mod load;
mod loops;
mod model;
mod names;
mod normalize;
mod plan;
mod print;
mod program;
mod set;

pub use error::{Code, Error, Result};
pub use load::SchemaFile;
pub use prp_vocabulary::Dialect;
pub use set::SchemaSet;

use prp_vocabulary::Keyword;
use std::collections::BTreeMap;
use std::path::Path;

/// Where generated code finds its runtime unless [`Options::runtime_path()`] says otherwise.
pub const DEFAULT_RUNTIME_PATH: &str = "::prp_codegen_runtime";

/// Generator settings, built from [`Options::new`] by chaining the methods below.
///
/// The stages read the fields directly; the methods document what each one means.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// See [`Options::document_union()`].
    pub(crate) document_union: Option<(String, String)>,
    /// See [`Options::runtime_path()`].
    pub(crate) runtime_path: Option<String>,
    /// See [`Options::name`].
    pub(crate) names: BTreeMap<String, String>,
    /// See [`Options::format`].
    pub(crate) formats: BTreeMap<String, Format>,
    /// See [`Options::base_uri()`].
    pub(crate) base_uri: Option<String>,
    /// See [`Options::non_exhaustive()`].
    pub(crate) non_exhaustive: bool,
    /// See [`Options::default_dialect()`].
    pub(crate) default_dialect: Dialect,
}

impl Options {
    /// The defaults: no document union, no chosen names, no asserted format, the runtime at
    /// [`DEFAULT_RUNTIME_PATH`] and files without `$id` known under `file:///`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Marks every generated enum (string and integer enums, unions, selected types)
    /// `#[non_exhaustive]`, so that a crate matching on one keeps compiling when the schema
    /// grows: a new enum value, a new alternative, a new version joining a union. For schemas
    /// that grow by policy (a protocol's); a closed schema set is better served by exhaustive
    /// matches, the default.
    #[must_use]
    pub fn non_exhaustive(mut self, yes: bool) -> Self {
        self.non_exhaustive = yes;
        self
    }

    /// Also emits an enum `name` over every root document that carries the string constant
    /// `member` (`("Document", "schema")`): decoding reads the member and picks the type.
    #[must_use]
    pub fn document_union(mut self, name: impl Into<String>, member: impl Into<String>) -> Self {
        self.document_union = Some((name.into(), member.into()));
        self
    }

    /// The path generated code reaches its runtime crate by (default [`DEFAULT_RUNTIME_PATH`], the
    /// `prp-codegen-runtime` crate as a dependency of the crate that includes the output). A crate
    /// that re-exports the runtime can name its own path.
    #[must_use]
    pub fn runtime_path(mut self, path: impl Into<String>) -> Self {
        self.runtime_path = Some(path.into());
        self
    }

    /// Names the type of a root (key `…json#`) or of a `$defs` entry (`…json#/$defs/snapshot`),
    /// keyed by `$id#pointer`. A generic key such as `snapshot` makes a poor type name in a crate
    /// with many schemas; a key that matches no root or `$defs` entry is an error. Repeatable.
    #[must_use]
    pub fn name(mut self, key: impl Into<String>, type_name: impl Into<String>) -> Self {
        self.names.insert(key.into(), type_name.into());
        self
    }

    /// Asserts the `format` `name`, checked as `check` says. In draft 2020-12 `format` is an
    /// annotation: a format not named here is accepted whatever the string says, as the
    /// specification's default is. Repeatable; a later call for one name replaces the earlier.
    #[must_use]
    pub fn format(mut self, name: impl Into<String>, check: Format) -> Self {
        self.formats.insert(name.into(), check);
        self
    }

    /// Whether the `format` `name` is asserted (see [`Options::format`]).
    pub fn asserts_format(&self, name: &str) -> bool {
        self.formats.contains_key(name)
    }

    /// The dialect of a schema file whose root names none with `$schema` (default draft 2020-12,
    /// as the specification says). A file or embedded resource that names one with `$schema` is
    /// read in that one: draft-04, draft-06, draft-07, 2019-09 or 2020-12, each with its own
    /// meaning (a `$ref`'s siblings ignored before 2019-09, `definitions`, array-form `items`
    /// with `additionalItems`, `dependencies`, draft-04's boolean `exclusiveMaximum` and `id`,
    /// 2019-09's `$recursiveRef`). Another `$schema` (draft-03, a custom metaschema) is refused.
    #[must_use]
    pub fn default_dialect(mut self, dialect: Dialect) -> Self {
        self.default_dialect = dialect;
        self
    }

    /// The base URI of files without `$id`, `file:///` unless [`Options::base_uri`] says.
    pub(crate) fn base(&self) -> &str {
        self.base_uri.as_deref().unwrap_or("file:///")
    }

    /// The base URI of files without `$id`: such a file is known as this joined with its path
    /// inside the directory (default `file:///`). With `http://localhost:1234/`, a `$ref` to
    /// `http://localhost:1234/nested/a.json` finds `nested/a.json` of the directory.
    #[must_use]
    pub fn base_uri(mut self, uri: impl Into<String>) -> Self {
        self.base_uri = Some(uri.into());
        self
    }
}

/// How an asserted `format` is checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Format {
    /// RFC 3339 `date-time`: a full date, `T`, a time with optional fraction, and `Z` or an
    /// offset; calendar days, and leap seconds only at 23:59:60 UTC.
    DateTime,
    /// An ECMA-262 regular expression the string must match (anchor it to match the whole).
    Pattern(String),
}

/// What a run produced.
#[derive(Debug)]
pub struct Output {
    /// The formatted Rust source.
    pub code: String,
    /// The schema files it was generated from.
    pub schemas: SchemaSet,
}

/// Runs the generator over every `*.json` schema under `dir`.
pub fn generate_dir(dir: &Path, options: &Options) -> Result<Output> {
    let base = options.base();
    if !prp_vocabulary::uri::is_absolute(base) {
        return Err(Error::new(
            Code::InvalidOption,
            "",
            "",
            format!("the base URI `{base}` is not an absolute URI"),
        ));
    }
    let set = SchemaSet::load_with(dir, options)?;
    generate(set, options)
}

/// Runs the generator over an already loaded schema set.
pub fn generate(set: SchemaSet, options: &Options) -> Result<Output> {
    if let Some((name, _)) = &options.document_union
        && !names::is_type_name(name)
    {
        return Err(Error::new(
            Code::InvalidOption,
            "",
            "",
            format!(
                "the document union's name `{name}` is not a usable type name: expected PascalCase ASCII letters and digits, not a prelude name"
            ),
        ));
    }
    check_keywords(&set, options)?;
    let mut set = set;
    normalize::push_down::run(&mut set);
    let mut model = normalize::Normalizer::new(&set, options)?.run()?;
    plan::run(&mut model, &set, options);
    let tokens =
        emit::Emitter::new(&model, options.non_exhaustive).emit(&set, runtime_support(options)?);
    let file: syn::File = syn::parse2(tokens).map_err(|e| {
        Error::new(
            Code::Internal,
            "",
            "",
            format!("the generated tokens do not parse: {e}"),
        )
    })?;
    // A carriage return is escaped in string literals but not in the `///` comments prettyplease
    // renders doc attributes as, where rustc refuses it; member names and descriptions may hold one.
    let body = print::unparse(file).replace('\r', "\\r");
    let header = format!(
        "// @generated by prp-codegen {} from {} schema files (inputs sha256 {}).\n// Do not edit: change the schemas and rebuild.\n\n",
        env!("CARGO_PKG_VERSION"),
        set.files.len(),
        set.digest()
    );
    Ok(Output {
        code: header + &body,
        schemas: set,
    })
}

/// Refuses a set in which a keyword's value is not what the keyword takes (`"allOf": null`, a
/// `minLength` of `-1`, ...): the checker compiler reads every keyword of every schema and
/// definition, so the types are generated only from schemas it would check with, and a schema the
/// typed model reads past is never silently taken for a different one.
fn check_keywords(set: &SchemaSet, options: &Options) -> Result<()> {
    let mut program = program::Program::new(options.formats.clone());
    for (file, f) in set.files.iter().enumerate() {
        let root = load::Loc {
            file,
            pointer: String::new(),
        };
        let defs = f.root.get("$defs").and_then(serde_json::Value::as_object);
        let entries = defs.into_iter().flatten();
        let locs = entries.map(|(name, _)| root.at(Keyword::Defs).child(name));
        for loc in std::iter::once(root.clone()).chain(locs) {
            program.entry(set, &loc)?;
        }
    }
    Ok(())
}

/// The output's first items: the runtime under the name `rt` the generated code uses.
fn runtime_support(options: &Options) -> Result<proc_macro2::TokenStream> {
    let path = options
        .runtime_path
        .as_deref()
        .unwrap_or(DEFAULT_RUNTIME_PATH);
    let path: syn::Path = syn::parse_str(path).map_err(|e| {
        Error::new(
            Code::InvalidOption,
            "",
            "",
            format!("runtime path `{path}`: {e}"),
        )
    })?;
    Ok(quote::quote! {
        /// What generated code calls in its runtime, under the name the generated code uses.
        #[doc(hidden)]
        pub use #path::__private as rt;
        #[allow(unused_imports)]
        use rt::{indexmap, serde, serde_json};
    })
}

/// One schema compiled to the program the runtime's checker runs: what a generated checked type
/// carries, here for checking any JSON value against any schema of a set at run time.
#[derive(Debug, Clone)]
pub struct CheckerProgram {
    /// The program as the runtime's evaluator takes it.
    pub program: prp_codegen_runtime::eval::Program,
    /// The program as JSON text (`Program::encode`), for a tool that keeps it apart from code;
    /// `prp_codegen_runtime::eval::Program::parse` reads it back.
    pub text: String,
    /// The node that checks the schema itself: the first argument of the runtime's
    /// `Program::check`.
    pub entry: usize,
}

/// Compiles the checker program of the schema `uri` names in `set`: a resource's `$id` (or a
/// file's location) with an optional fragment, a JSON pointer in the file's own spelling
/// (`#/$defs/item`, `#/definitions/item` in a draft-07 file) or an anchor. The
/// program asserts the formats [`Options::format`] asserts; the other options play no part.
///
/// ```
/// use prp_codegen::{Options, SchemaSet};
/// use prp_codegen_runtime::eval::Program;
///
/// let file = SchemaSet::parse("item.json".into(), r#"{"type": "integer", "multipleOf": 3}"#)?;
/// let set = SchemaSet::from_files(vec![file])?;
/// let checker = prp_codegen::compile_checker(&set, "file:///item.json", &Options::new())?;
/// let program = Program::parse(&checker.text)?;
/// assert!(program.check(checker.entry, &serde_json::json!(9)).is_ok());
/// assert!(program.check(checker.entry, &serde_json::json!(10)).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn compile_checker(set: &SchemaSet, uri: &str, options: &Options) -> Result<CheckerProgram> {
    let loc = set
        .index
        .lookup(uri, Some(&set.files), |l| set.node(l).is_some())
        .ok_or_else(|| {
            Error::new(
                Code::UnknownSchema,
                "",
                "",
                format!("`{uri}` names no schema, anchor or node of the set"),
            )
        })?;
    let mut program = program::Program::new(options.formats.clone());
    let (entry, _) = program.entry(set, &loc)?;
    let program = program.program();
    Ok(CheckerProgram {
        text: program.encode(),
        program,
        entry: entry.0,
    })
}

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
