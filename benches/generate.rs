//! The generator's time on the project's schemas/ (load, resolve, normalize, emit, prettyplease).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    let options = prp_codegen::Options::new().document_union("Document", "schema");
    let mut group = c.benchmark_group("generate");
    group.sample_size(10);
    group.bench_function("schemas_dir", |b| {
        b.iter(|| {
            black_box(
                prp_codegen::generate_dir(&dir, &options)
                    .unwrap()
                    .code
                    .len(),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
