//! prp-codegen: a JSON Schema (draft 2020-12) directory in, one Rust module out.
//!
//! The pipeline is `load` (parse, check the dialect, `$id` or the base URI, `title` or the file
//! name) -> `index` (every resource, anchor and base URI; `$ref`s resolve through it) ->
//! `normalize` (const as enum, tagged `oneOf`, `if`/`then` tables, narrowing `allOf`) -> `emit`
//! (quote) -> prettyplease. Loud or right: a subschema no typed shape says exactly becomes a
//! checked type, its JSON checked by the `program` the generator compiles (run by the runtime's
//! `eval`); a schema the generator cannot read is a located error. Nothing is dropped.
//!
//! The generated module needs one dependency, its runtime crate `prp-codegen-runtime`, which
//! carries what every generated type calls and re-exports the crates the generated code names.

#![deny(missing_docs)]

pub mod emit;
pub mod error;
pub mod index;
pub mod load;
pub mod model;
pub mod names;
pub mod normalize;
pub mod program;
pub mod shapes;
pub mod uri;

pub use error::{Error, Result};
pub use load::{SchemaFile, SchemaSet};

use std::path::Path;

/// Where generated code finds its runtime unless [`Options::runtime_path`] says otherwise.
pub const DEFAULT_RUNTIME_PATH: &str = "::prp_codegen_runtime";

/// Generator settings.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Also emit an enum over every root document that carries this string constant member
    /// (`Some(("Document", "schema"))`): decoding reads the member and picks the type.
    pub document_union: Option<(String, String)>,
    /// The path generated code reaches its runtime crate by (default
    /// [`DEFAULT_RUNTIME_PATH`], the `prp-codegen-runtime` crate as a dependency of the crate that
    /// includes the output). A crate that re-exports the runtime can name its own path.
    pub runtime_path: Option<String>,
    /// Type names chosen by the caller, keyed by `$id#pointer` of a root (`…json#`) or of a `$defs`
    /// entry (`…json#/$defs/snapshot`). A generic key such as `snapshot` makes a poor type name in a
    /// crate with many schemas; a key that matches no root or `$defs` entry is an error.
    pub names: std::collections::BTreeMap<String, String>,
    /// The `format`s to assert, and how. In draft 2020-12 `format` is an annotation: a format not
    /// named here is accepted whatever the string says, as the specification's default is.
    pub formats: std::collections::BTreeMap<String, Format>,
    /// The base URI of files without `$id`: such a file is known as this joined with its path
    /// inside the directory (default `file:///`). With `http://localhost:1234/`, a `$ref` to
    /// `http://localhost:1234/nested/a.json` finds `nested/a.json` of the directory.
    pub base_uri: Option<String>,
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
    let base = options.base_uri.as_deref().unwrap_or("file:///");
    if !uri::is_absolute(base) {
        return Err(Error::new(
            "invalid_option",
            "",
            "",
            format!("the base URI `{base}` is not an absolute URI"),
        ));
    }
    let set = SchemaSet::load_with_base(dir, base)?;
    generate(set, options)
}

/// Runs the generator over an already loaded schema set.
pub fn generate(set: SchemaSet, options: &Options) -> Result<Output> {
    let mut model = normalize::Normalizer::new(&set, options)?.run()?;
    shapes::merge(&mut model);
    if let Some((name, tag)) = &options.document_union {
        document_union(&mut model, name, tag);
    }
    let path = options
        .runtime_path
        .as_deref()
        .unwrap_or(DEFAULT_RUNTIME_PATH);
    let path: syn::Path = syn::parse_str(path).map_err(|e| {
        Error::new(
            "invalid_option",
            "",
            "",
            format!("runtime path `{path}`: {e}"),
        )
    })?;
    let support = quote::quote! {
        /// The generator's runtime, under the name the generated code uses.
        #[doc(hidden)]
        pub use #path as rt;
        #[allow(unused_imports)]
        use rt::{indexmap, serde, serde_json};
    };
    let tokens = emit::Emitter::new(&model).emit(&set, support);
    let file: syn::File = syn::parse2(tokens).map_err(|e| {
        Error::new(
            "internal",
            "",
            "",
            format!("the generated tokens do not parse: {e}"),
        )
    })?;
    // A carriage return is escaped in string literals but not in the `///` comments prettyplease
    // renders doc attributes as, where rustc refuses it; member names and descriptions may hold one.
    let body = prettyplease::unparse(&file).replace('\r', "\\r");
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

/// Adds an enum over every root document with a string constant member `tag`, flattening roots that
/// are themselves unions on the same member.
fn document_union(model: &mut model::Model, name: &str, tag: &str) {
    use model::{Item, Tagged, Ty};
    let mut variants: Vec<(String, String, Ty)> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for root in &model.roots {
        let Ty::Named(id) = root.ty else { continue };
        match &model.items[id] {
            Item::Struct(s) => {
                let Some(f) = s.fields.iter().find(|f| f.json == tag && f.required) else {
                    continue;
                };
                let Ty::Named(e) = f.ty else { continue };
                if let Item::Enum(en) = &model.items[e]
                    && en.values.len() == 1
                    && seen.insert(en.values[0].0.clone())
                {
                    variants.push((en.values[0].0.clone(), s.name.clone(), root.ty.clone()));
                }
            }
            Item::Tagged(t) if t.tag == tag => {
                for v in &t.variants {
                    if seen.insert(v.0.clone()) {
                        variants.push(v.clone());
                    }
                }
            }
            _ => {}
        }
    }
    let mut taken = std::collections::BTreeSet::new();
    for v in &mut variants {
        v.1 = names::unique(v.1.clone(), &mut taken);
    }
    model.items.push(Item::Tagged(Tagged {
        name: name.to_owned(),
        doc: Some(format!(
            "Any document that names its schema in its `{tag}` member."
        )),
        tag: tag.to_owned(),
        variants,
    }));
}
