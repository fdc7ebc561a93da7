//! Which schemas this build's types were generated from: one `<sha256>  <path>` line per schema
//! file, sorted by path (the format of `sha256sum`, and of the record the package ships beside
//! its generated module). `cargo run -p prp-types --example schemas`.

fn main() {
    let mut lines: Vec<(&str, &str)> = prp_types::SCHEMAS
        .iter()
        .map(|s| (s.path, s.sha256))
        .collect();
    lines.sort();
    for (path, sha256) in lines {
        println!("{sha256}  {path}");
    }
}
