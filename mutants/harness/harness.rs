//! The checker crate's shared part (prp-mutants writes it beside the mutants' modules): each
//! document through the typed decode, the verdict-only check, `Check` on the decoded value and
//! the encode -> decode round trip, and pairs of decoded values spliced through their builder.

use prp_codegen_runtime as rt;
pub use rt::serde_json::Value;
use rt::serde_json::{self, Map, json};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A type's documents and the splices to try (two documents' indexes and which member comes
/// from which, as bits).
pub struct Case {
    pub uri: String,
    pub docs: Vec<String>,
    pub splices: Vec<(usize, usize, u64)>,
}

impl Case {
    pub fn parse(line: &str) -> Case {
        let v: Value = serde_json::from_str(line).expect("a case line");
        let docs = v["docs"].as_array().unwrap().iter().map(|d| d.as_str().unwrap().to_owned()).collect();
        let splices = v["splices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| (s[0].as_u64().unwrap() as usize, s[1].as_u64().unwrap() as usize, s[2].as_u64().unwrap()))
            .collect();
        Case { uri: v["uri"].as_str().unwrap().to_owned(), docs, splices }
    }
}

/// What a struct's `Splice` gives: the builder-made value, and its members' names.
pub type Splicer<T> = (fn([&T; 2], &dyn Fn(usize) -> usize) -> Result<T, rt::Failure>, &'static [&'static str]);

/// The splicer of `T` when it is a struct, chosen at the call site (autoref specialization).
pub struct Tag<T>(pub std::marker::PhantomData<T>);
impl<T> Clone for Tag<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Tag<T> {}
pub trait ViaSplice<T> {
    fn splicer(self) -> Option<Splicer<T>>;
}
impl<T: rt::splice::Splice> ViaSplice<T> for &Tag<T> {
    fn splicer(self) -> Option<Splicer<T>> {
        Some((T::splice, T::MEMBERS))
    }
}
pub trait NoSplice<T> {
    fn splicer(self) -> Option<Splicer<T>>;
}
impl<T> NoSplice<T> for Tag<T> {
    fn splicer(self) -> Option<Splicer<T>> {
        None
    }
}

pub trait Typed:
    rt::serde::de::DeserializeOwned + rt::serde::Serialize + rt::Verify + rt::Check + PartialEq + std::fmt::Debug
{
}
impl<T> Typed for T where
    T: rt::serde::de::DeserializeOwned + rt::serde::Serialize + rt::Verify + rt::Check + PartialEq + std::fmt::Debug
{
}

/// Every document of `case`, then its splices, as one JSON line.
pub fn check<T: Typed>(case: &Case, splicer: Option<Splicer<T>>) -> Value {
    let mut docs = Vec::new();
    let mut decoded: Vec<Option<T>> = Vec::new();
    for doc in &case.docs {
        match catch_unwind(AssertUnwindSafe(|| one::<T>(doc))) {
            Ok((verdicts, value)) => {
                docs.push(verdicts);
                decoded.push(value);
            }
            Err(p) => {
                docs.push(json!({ "panic": panic_text(p) }));
                decoded.push(None);
            }
        }
    }
    let mut splices = Vec::new();
    for &(a, b, mask) in &case.splices {
        let (Some((f, members)), Some(Some(x)), Some(Some(y))) = (splicer, decoded.get(a), decoded.get(b)) else {
            splices.push(Value::Null);
            continue;
        };
        let (da, db): (Value, Value) = (serde_json::from_str(&case.docs[a]).unwrap(), serde_json::from_str(&case.docs[b]).unwrap());
        let out = catch_unwind(AssertUnwindSafe(|| splice::<T>(f, members, [x, y], [&da, &db], mask)));
        splices.push(out.unwrap_or_else(|p| json!({ "panic": panic_text(p) })));
    }
    json!({ "docs": docs, "splices": splices })
}

fn panic_text(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default()
}

/// One document: whether it decodes and whether its verdict-only check passes, and what went
/// wrong with the value it decoded to (`Check` refusing it, the round trip changing it).
fn one<T: Typed>(doc: &str) -> (Value, Option<T>) {
    let decoded = serde_json::from_str::<T>(doc);
    let verified = {
        let mut reader = rt::reader::Reader::new(doc);
        T::verify(&mut reader).is_ok() && reader.end()
    };
    let mut problems = Vec::new();
    let error = decoded.as_ref().err().map(|e| e.to_string());
    if let Ok(v) = &decoded {
        problems.extend(round_trip(doc, v));
    }
    let verdicts = json!({ "d": decoded.is_ok(), "v": verified, "problems": problems, "error": error });
    (verdicts, decoded.ok())
}

/// What is wrong with a decoded value: `Check` refuses it, or it does not encode back to the
/// input (members in their order, numbers equal), or the encoding decodes to another value.
fn round_trip<T: Typed>(doc: &str, v: &T) -> Vec<String> {
    let mut problems = Vec::new();
    if let Err(f) = rt::Check::check(v) {
        problems.push(format!("Check refuses the decoded value: {f:?}"));
    }
    let text = match serde_json::to_string(v) {
        Ok(t) => t,
        Err(e) => {
            problems.push(format!("encoding fails: {e}"));
            return problems;
        }
    };
    let (a, b): (Value, Value) = (serde_json::from_str(doc).unwrap(), serde_json::from_str(&text).unwrap());
    if !same(&a, &b, true) {
        problems.push(format!("encodes as {text}"));
    }
    match serde_json::from_str::<T>(&text) {
        Ok(again) if again == *v => {}
        Ok(again) => problems.push(format!("the encoding decodes to another value: {again:?}")),
        Err(e) => problems.push(format!("the encoding does not decode: {e}")),
    }
    problems
}

/// JSON equality, numbers equal by value, members held to their order when `ordered`.
fn same(a: &Value, b: &Value, ordered: bool) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) if ordered => {
            x.len() == y.len() && x.iter().zip(y).all(|((k, v), (l, w))| k == l && same(v, w, ordered))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w, ordered)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same(v, w, ordered))
        }
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
            (Some(p), Some(q), _, _) => p == q,
            (_, _, Some(p), Some(q)) => p == q,
            _ => x.as_f64() == y.as_f64(),
        },
        _ => a == b,
    }
}

/// Two decoded values spliced through the builder, beside the JSON the same choice of members
/// makes of their documents: whether the builder made a value, whether it encodes as that JSON,
/// and that JSON's own decode.
fn splice<T: Typed>(
    f: fn([&T; 2], &dyn Fn(usize) -> usize) -> Result<T, rt::Failure>,
    members: &[&str],
    values: [&T; 2],
    docs: [&Value; 2],
    mask: u64,
) -> Value {
    let pick = |i: usize| ((mask >> (i % 64)) & 1) as usize;
    let mut j = Map::new();
    let (Some(a), Some(b)) = (docs[0].as_object(), docs[1].as_object()) else {
        return Value::Null;
    };
    let objects = [a, b];
    for (i, name) in members.iter().enumerate() {
        if let Some(v) = objects[pick(i)].get(*name) {
            j.insert((*name).to_owned(), v.clone());
        }
    }
    for (k, v) in objects[pick(members.len())] {
        if !members.contains(&k.as_str()) {
            j.insert(k.clone(), v.clone());
        }
    }
    let text = Value::Object(j).to_string();
    let built = f(values, &pick);
    let encoded = built.as_ref().ok().map(|v| {
        let e: Value = serde_json::to_value(v).unwrap_or(Value::Null);
        let t: Value = serde_json::from_str(&text).unwrap();
        same(&e, &t, false)
    });
    let (doc, _) = one::<T>(&text);
    json!({ "json": text, "built": built.is_ok(), "error": built.err().map(|e| format!("{e:?}")), "encodes_as_json": encoded, "doc": doc })
}

/// The answer for a schema the module lists no type for.
pub fn unknown() -> Value {
    json!({ "unknown": true })
}

/// Reads the cases file named by the first argument (`MODULE<TAB>CASE` per line), runs each
/// through `run`, and prints one JSON line per case, in order.
pub fn main_loop(run: fn(&str, &Case) -> Value) {
    let path = std::env::args().nth(1).expect("the cases file");
    let input = std::fs::read_to_string(path).expect("readable cases");
    let mut out = String::new();
    for line in input.lines() {
        let (module, case) = line.split_once('\t').expect("MODULE<TAB>CASE");
        let result = run(module, &Case::parse(case));
        out.push_str(&result.to_string());
        out.push('\n');
    }
    print!("{out}");
}
