//! typify 0.8 on the draft 2020-12 JSON-Schema-Test-Suite, measured as prp-codegen's suite test
//! measures itself: every group generated on its own (its root titled `Root`, as typify names
//! types by title), the ones that generate compiled into one checker crate (a group whose code
//! does not compile counts as not generated), each test's instance decoded with `Root`.
//!
//! Outside the workspace, never built by CI (typify and schemars 0.8 are heavy):
//! `cargo run --release --manifest-path benches/typify-suite/Cargo.toml -- ../shared/json-schema-test-suite /tmp/typify-suite`
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn main() {
    let suite = Path::new(&std::env::args().nth(1).expect("suite dir")).to_path_buf();
    let work = Path::new(&std::env::args().nth(2).expect("work dir")).to_path_buf();
    let _ = std::fs::remove_dir_all(work.join("checker/src"));
    std::fs::create_dir_all(work.join("checker/src")).unwrap();
    let mut files: Vec<_> = std::fs::read_dir(suite.join("tests/draft2020-12"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut groups = Vec::new(); // (file, tests, generated index)
    let mut main = String::new();
    let mut arms = String::new();
    let mut n = 0;
    std::panic::set_hook(Box::new(|_| {}));
    for path in &files {
        let file = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let doc: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        for group in doc.as_array().unwrap() {
            let mut schema = group["schema"].clone();
            let tests: Vec<(String, bool)> = group["tests"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| (t["data"].to_string(), t["valid"].as_bool().unwrap()))
                .collect();
            let code = schema.as_object_mut().and_then(|o| {
                o.insert("title".into(), "Root".into());
                let root: schemars::schema::RootSchema =
                    serde_json::from_value(Value::Object(o.clone())).ok()?;
                std::panic::catch_unwind(move || {
                    let mut space = typify::TypeSpace::new(&typify::TypeSpaceSettings::default());
                    space.add_root_schema(root).ok()?;
                    let file: syn::File = syn::parse2(space.to_stream()).ok()?;
                    Some(prettyplease::unparse(&file))
                })
                .ok()
                .flatten()
            });
            let generated = match code {
                Some(code)
                    if code.contains("struct Root")
                        || code.contains("enum Root")
                        || code.contains("type Root") =>
                {
                    std::fs::write(work.join(format!("checker/src/g{n}.rs")), &code).unwrap();
                    main.push_str(&format!(
                        "#[allow(warnings, clippy::all)]\nmod g{n} {{ include!(\"g{n}.rs\"); }}\n"
                    ));
                    arms.push_str(&format!(
                        "        {n} => serde_json::from_str::<g{n}::Root>(data).is_ok(),\n"
                    ));
                    n += 1;
                    Some(n - 1)
                }
                _ => None,
            };
            groups.push((file.clone(), tests, generated));
        }
    }
    // A group whose code does not compile counts as not generated: rebuild without it until the
    // checker compiles.
    std::fs::write(work.join("checker/Cargo.toml"), "[package]\nname = \"typify-checker\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[workspace]\n\n[dependencies]\nserde = { version = \"1\", features = [\"derive\"] }\nserde_json = \"1\"\nregress = \"0.10\"\nchrono = { version = \"0.4\", features = [\"serde\"] }\nuuid = { version = \"1\", features = [\"serde\"] }\n").unwrap();
    let mut broken = std::collections::BTreeSet::new();
    loop {
        let mut text = String::new();
        let mut arms = String::new();
        for g in 0..n {
            if !broken.contains(&g) {
                text.push_str(&format!(
                    "#[allow(warnings, clippy::all)]\nmod g{g} {{ include!(\"g{g}.rs\"); }}\n"
                ));
                arms.push_str(&format!(
                    "        {g} => serde_json::from_str::<g{g}::Root>(data).is_ok(),\n"
                ));
            }
        }
        text.push_str(&format!("fn check(g: usize, data: &str) -> bool {{\n    match g {{\n{arms}        _ => unreachable!(),\n    }}\n}}\n"));
        text.push_str("fn main() {\n    let cases: Vec<(usize, String)> = serde_json::from_slice(&std::fs::read(std::env::args().nth(1).unwrap()).unwrap()).unwrap();\n    for (g, d) in cases {\n        let v = match std::panic::catch_unwind(|| check(g, &d)) { Ok(true) => \"valid\", Ok(false) => \"invalid\", Err(_) => \"panic\" };\n        println!(\"{v}\");\n    }\n}\n");
        std::fs::write(work.join("checker/src/main.rs"), text).unwrap();
        let build = Command::new("cargo")
            .args(["build", "-q", "--manifest-path"])
            .arg(work.join("checker/Cargo.toml"))
            .output()
            .unwrap();
        if build.status.success() {
            break;
        }
        let before = broken.len();
        for line in String::from_utf8_lossy(&build.stderr).lines() {
            if let Some(rest) = line.trim().strip_prefix("--> src/g") {
                if let Some(g) = rest.split('.').next().and_then(|g| g.parse::<usize>().ok()) {
                    broken.insert(g);
                }
            }
        }
        assert!(
            broken.len() > before,
            "{}",
            String::from_utf8_lossy(&build.stderr)
        );
    }
    let _ = main;
    let _ = arms;
    eprintln!(
        "{} groups generated code that does not compile",
        broken.len()
    );
    for g in groups.iter_mut() {
        if g.2.is_some_and(|i| broken.contains(&i)) {
            g.2 = None;
        }
    }
    let mut cases = Vec::new();
    for (_, tests, g) in &groups {
        if let Some(g) = g {
            for (d, _) in tests {
                cases.push((*g, d.clone()));
            }
        }
    }
    std::fs::write(work.join("cases.json"), serde_json::to_vec(&cases).unwrap()).unwrap();
    let out = Command::new(work.join("checker/target/debug/typify-checker"))
        .arg(work.join("cases.json"))
        .output()
        .unwrap();
    let mut verdicts = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect::<Vec<_>>()
        .into_iter();
    let (mut total, mut generated, mut tests, mut right, mut wrong, mut panics) =
        (0, 0, 0, 0, 0, 0);
    for (_, ts, g) in &groups {
        total += 1;
        tests += ts.len();
        if g.is_some() {
            generated += 1;
            for (_, valid) in ts {
                let v = verdicts.next().unwrap();
                if v == "panic" {
                    panics += 1;
                }
                if (v == "valid") == *valid && v != "panic" {
                    right += 1
                } else {
                    wrong += 1
                }
            }
        }
    }
    println!("groups {total}, generated {generated}, tests {tests}, right {right}, wrong {wrong}, decoder panics {panics}");
}
