//! Arbitrary JSON as a schema of every dialect: reading it into 2020-12's spelling never panics,
//! reading the result again as 2020-12 changes nothing, every place of the result maps back to a
//! place the original has, and the generator either generates the schema or refuses it with a
//! located error (it never panics).
#![no_main]

use libfuzzer_sys::fuzz_target;
use prp_codegen::{Dialect, Options, SchemaSet};
use serde_json::Value;

/// Every pointer of `v`'s objects and arrays, `""` first.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                pointers(x, prp_vocabulary::pointer::child(&at, k), out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                pointers(x, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(schema) = serde_json::from_slice::<Value>(data) else { return };
    for dialect in Dialect::ALL {
        let Ok(read) = prp_vocabulary::dialect::read(&schema, dialect) else { continue };
        let again = prp_vocabulary::dialect::read(&read.schema, Dialect::Draft202012)
            .expect("a document in 2020-12's spelling reads as 2020-12");
        assert_eq!(again.schema, read.schema, "{dialect}: reading is not idempotent");
        let mut places = Vec::new();
        pointers(&read.schema, String::new(), &mut places);
        for p in places {
            let original = read.spelling.to_original(&p);
            // A member `read` added (an `$anchor` split from an `id`, `dependentRequired`) maps
            // back to the member it came from, which the original has.
            let parent_or_self = |q: &str| {
                schema.pointer(q).is_some()
                    || q.rsplit_once('/').is_some_and(|(up, _)| schema.pointer(up).is_some())
            };
            assert!(parent_or_self(&original), "{dialect}: {p} maps back to {original}");
        }
        if data.len() <= 4096 {
            let options = Options::new().default_dialect(dialect);
            if let Ok(file) = SchemaSet::parse_with("s.json".into(), &schema.to_string(), &options)
                && let Ok(set) = SchemaSet::from_files(vec![file])
            {
                let _ = prp_codegen::generate(set, &options);
            }
        }
    }
});
