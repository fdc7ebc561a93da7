// The record of which schemas the shipped module was generated from: one `<sha256>  <path>` line
// per `*.json` file under the schema directory (paths relative to it, `/`-separated, sorted), the
// format `sha256sum -c` reads. build.rs and the freshness test include this file, so both compute
// it the same way.

/// Where the shipped module and its record live, relative to the package root.
#[allow(dead_code)]
const SHIPPED_MODULE: &str = "prp-types/src/generated/prp_types.rs";
#[allow(dead_code)]
const SHIPPED_INPUTS: &str = "prp-types/src/generated/schemas.sha256";
/// How to make the shipped module and its record what the schemas generate now.
#[allow(dead_code)]
const REFRESH: &str = "UPDATE_GENERATED=1 cargo test -p prp-types --test generated";

/// The record of the `*.json` files under `dir`.
#[allow(dead_code)]
fn schema_inputs(dir: &std::path::Path) -> std::io::Result<String> {
    use sha2::Digest as _;
    let mut files = Vec::new();
    collect_json(dir, "", &mut files)?;
    files.sort();
    let mut out = String::new();
    for rel in files {
        let digest = sha2::Sha256::digest(std::fs::read(dir.join(&rel))?);
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        out.push_str(&format!("{hex}  {rel}\n"));
    }
    Ok(out)
}

#[allow(dead_code)]
fn collect_json(dir: &std::path::Path, prefix: &str, out: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = format!("{prefix}{name}");
        if entry.file_type()?.is_dir() {
            collect_json(&entry.path(), &format!("{rel}/"), out)?;
        } else if name.ends_with(".json") {
            out.push(rel);
        }
    }
    Ok(())
}
