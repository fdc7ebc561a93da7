//! The keywords, one table: each keyword's name, kind, subschema shape, the JSON type it
//! constrains, and the dialects that have it.

use crate::Dialect;

/// What a keyword does to an instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Names or locates schemas (`$id`, `$anchor`, `$defs`), or says which dialect they are in:
    /// nothing about instances.
    Identifier,
    /// Applies subschemas to the instance or its parts (`properties`, `allOf`, `$ref`).
    Applicator,
    /// Accepts or refuses the instance by itself (`type`, `maxLength`, `required`).
    Assertion,
    /// Says something about the instance without deciding anything (`title`, `default`, an
    /// unasserted `format`).
    Annotation,
}

/// Where a keyword's subschemas are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Its value is not a schema.
    None,
    /// Its value is one schema (`not`, `items`).
    One,
    /// Its value maps names to schemas (`properties`, `$defs`).
    Map,
    /// Its value is an array of schemas (`allOf`, `prefixItems`).
    Array,
}

/// The JSON type a keyword constrains; an instance of another type passes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InstanceType {
    /// Strings (`minLength`, `pattern`).
    String,
    /// Numbers, integers among them (`minimum`, `multipleOf`).
    Number,
    /// Arrays (`items`, `uniqueItems`).
    Array,
    /// Objects (`properties`, `required`).
    Object,
}

macro_rules! keywords {
    ($($variant:ident $name:literal $kind:ident $shape:ident $ty:tt [$($d:ident)*];)*) => {
        /// A JSON Schema keyword.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Keyword {
            $(
                #[doc = concat!("`", $name, "`.")]
                $variant,
            )*
        }

        impl Keyword {
            /// Every keyword, in the table's order.
            pub const ALL: &'static [Keyword] = &[$(Keyword::$variant),*];

            /// The keyword's name as schemas spell it.
            pub fn name(self) -> &'static str {
                match self {
                    $(Keyword::$variant => $name,)*
                }
            }

            /// The keyword a name spells, if the vocabulary has it.
            pub fn from_name(name: &str) -> Option<Keyword> {
                match name {
                    $($name => Some(Keyword::$variant),)*
                    _ => None,
                }
            }

            /// What the keyword does to an instance.
            pub fn kind(self) -> Kind {
                match self {
                    $(Keyword::$variant => Kind::$kind,)*
                }
            }

            /// Where its subschemas are.
            pub fn shape(self) -> Shape {
                match self {
                    $(Keyword::$variant => Shape::$shape,)*
                }
            }

            /// The JSON type it constrains (`None`: every type, or none).
            pub fn instance_type(self) -> Option<InstanceType> {
                match self {
                    $(Keyword::$variant => keywords!(@ty $ty),)*
                }
            }

            /// Whether `dialect` has the keyword.
            pub fn in_dialect(self, dialect: Dialect) -> bool {
                match self {
                    $(Keyword::$variant => [$(Dialect::$d),*].contains(&dialect),)*
                }
            }
        }
    };
    (@ty -) => { None };
    (@ty $t:ident) => { Some(InstanceType::$t) };
}

keywords! {
    // Core: identifiers and references.
    Schema "$schema" Identifier None - [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    Id "$id" Identifier None - [Draft6 Draft7 Draft201909 Draft202012];
    LegacyId "id" Identifier None - [Draft4];
    Anchor "$anchor" Identifier None - [Draft201909 Draft202012];
    DynamicAnchor "$dynamicAnchor" Identifier None - [Draft202012];
    RecursiveAnchor "$recursiveAnchor" Identifier None - [Draft201909];
    Vocabulary "$vocabulary" Identifier None - [Draft201909 Draft202012];
    Defs "$defs" Identifier Map - [Draft201909 Draft202012];
    Definitions "definitions" Identifier Map - [Draft4 Draft6 Draft7];
    Comment "$comment" Annotation None - [Draft7 Draft201909 Draft202012];
    Ref "$ref" Applicator None - [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    DynamicRef "$dynamicRef" Applicator None - [Draft202012];
    RecursiveRef "$recursiveRef" Applicator None - [Draft201909];
    // Applicators.
    AllOf "allOf" Applicator Array - [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    AnyOf "anyOf" Applicator Array - [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    OneOf "oneOf" Applicator Array - [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    Not "not" Applicator One - [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    If "if" Applicator One - [Draft7 Draft201909 Draft202012];
    Then "then" Applicator One - [Draft7 Draft201909 Draft202012];
    Else "else" Applicator One - [Draft7 Draft201909 Draft202012];
    PrefixItems "prefixItems" Applicator Array Array [Draft202012];
    Items "items" Applicator One Array [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    AdditionalItems "additionalItems" Applicator One Array [Draft4 Draft6 Draft7 Draft201909];
    Contains "contains" Applicator One Array [Draft6 Draft7 Draft201909 Draft202012];
    Properties "properties" Applicator Map Object [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    PatternProperties "patternProperties" Applicator Map Object [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    AdditionalProperties "additionalProperties" Applicator One Object [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    PropertyNames "propertyNames" Applicator One Object [Draft6 Draft7 Draft201909 Draft202012];
    DependentSchemas "dependentSchemas" Applicator Map Object [Draft201909 Draft202012];
    Dependencies "dependencies" Applicator Map Object [Draft4 Draft6 Draft7];
    UnevaluatedItems "unevaluatedItems" Applicator One Array [Draft201909 Draft202012];
    UnevaluatedProperties "unevaluatedProperties" Applicator One Object [Draft201909 Draft202012];
    // Assertions.
    Type "type" Assertion None - [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    Enum "enum" Assertion None - [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    Const "const" Assertion None - [Draft6 Draft7 Draft201909 Draft202012];
    MultipleOf "multipleOf" Assertion None Number [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    Maximum "maximum" Assertion None Number [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    ExclusiveMaximum "exclusiveMaximum" Assertion None Number [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    Minimum "minimum" Assertion None Number [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    ExclusiveMinimum "exclusiveMinimum" Assertion None Number [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    MaxLength "maxLength" Assertion None String [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    MinLength "minLength" Assertion None String [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    Pattern "pattern" Assertion None String [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    MaxItems "maxItems" Assertion None Array [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    MinItems "minItems" Assertion None Array [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    UniqueItems "uniqueItems" Assertion None Array [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    MaxContains "maxContains" Assertion None Array [Draft201909 Draft202012];
    MinContains "minContains" Assertion None Array [Draft201909 Draft202012];
    MaxProperties "maxProperties" Assertion None Object [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    MinProperties "minProperties" Assertion None Object [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    Required "required" Assertion None Object [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    DependentRequired "dependentRequired" Assertion None Object [Draft201909 Draft202012];
    // Annotations (`format` asserts only where a reader says it does).
    Format "format" Annotation None String [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    Title "title" Annotation None - [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    Description "description" Annotation None - [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    Default "default" Annotation None - [Draft4 Draft6 Draft7 Draft201909 Draft202012];
    Deprecated "deprecated" Annotation None - [Draft201909 Draft202012];
    ReadOnly "readOnly" Annotation None - [Draft7 Draft201909 Draft202012];
    WriteOnly "writeOnly" Annotation None - [Draft7 Draft201909 Draft202012];
    Examples "examples" Annotation None - [Draft6 Draft7 Draft201909 Draft202012];
    ContentEncoding "contentEncoding" Annotation None String [Draft7 Draft201909 Draft202012];
    ContentMediaType "contentMediaType" Annotation None String [Draft7 Draft201909 Draft202012];
    ContentSchema "contentSchema" Annotation One String [Draft201909 Draft202012];
}

impl Keyword {
    /// Whether the keyword, in a schema of `dialect`, says nothing about whether an instance is
    /// valid: identifiers and annotations (`format` among them unless asserted). `$defs` holds
    /// schemas that matter only where a `$ref` leads.
    pub fn asserts_nothing(self) -> bool {
        matches!(self.kind(), Kind::Identifier | Kind::Annotation)
    }

    /// Whether the keyword's subschemas apply to the very instance its schema applies to
    /// (`allOf`, `not`, `then`, `dependentSchemas`), not to its items, members or names. `$ref`
    /// and its kin apply in place too, but hold a reference, not a subschema.
    pub fn applies_in_place(self) -> bool {
        matches!(
            self,
            Keyword::AllOf
                | Keyword::AnyOf
                | Keyword::OneOf
                | Keyword::Not
                | Keyword::If
                | Keyword::Then
                | Keyword::Else
                | Keyword::DependentSchemas
                | Keyword::Dependencies
        )
    }
}

impl std::fmt::Display for Keyword {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_place_subschemas_are_applicators_that_do_not_move_into_the_instance() {
        for &k in Keyword::ALL.iter().filter(|k| k.applies_in_place()) {
            assert_eq!(k.kind(), Kind::Applicator, "{k}");
            assert_ne!(k.shape(), Shape::None, "{k}");
        }
        for k in [
            Keyword::Properties,
            Keyword::Items,
            Keyword::Contains,
            Keyword::PropertyNames,
        ] {
            assert!(!k.applies_in_place(), "{k}");
        }
    }

    #[test]
    fn names_round_trip_and_are_unique() {
        for &k in Keyword::ALL {
            assert_eq!(Keyword::from_name(k.name()), Some(k));
        }
        let mut names: Vec<&str> = Keyword::ALL.iter().map(|k| k.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Keyword::ALL.len());
        assert_eq!(Keyword::from_name("x-vendor"), None);
    }

    #[test]
    fn draft_2020_12_has_its_vocabularies() {
        let in_2020: Vec<&str> = Keyword::ALL
            .iter()
            .filter(|k| k.in_dialect(Dialect::Draft202012))
            .map(|k| k.name())
            .collect();
        // The specification's core, applicator, unevaluated, validation, meta-data,
        // format-annotation and content vocabularies: 9 + 15 + 2 + 20 + 7 + 1 + 3 = 57 keywords.
        assert_eq!(in_2020.len(), 57, "{in_2020:?}");
        for gone in [
            "definitions",
            "dependencies",
            "additionalItems",
            "$recursiveRef",
        ] {
            assert!(!in_2020.contains(&gone));
        }
        assert_eq!(Keyword::Items.shape(), Shape::One);
        assert_eq!(
            Keyword::Properties.instance_type(),
            Some(InstanceType::Object)
        );
        assert!(Keyword::Examples.asserts_nothing() && !Keyword::Required.asserts_nothing());
    }
}
