//! The fixture contract pipeline: parse, version checks, schema, binding checks (PROTOCOL §1.7).
