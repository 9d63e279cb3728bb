//! Criterion benches of the flying set: voxnav's flier against the naive 26-neighbour A*
//! solving the same problem (`baseline::find_flier_path`), on the first Moving AI 3D
//! `Simple` problems and on a synthetic world of pillars and floating slabs. The worlds and
//! queries are built once from fixed seeds, outside the timed loops; one iteration runs a whole
//! set. Before timing, the two engines must agree on every cost. `cargo bench --bench fly`;
//! `examples/compare.rs` prints the same comparison as a table.

use std::hint::black_box;
use std::time::Duration;
// A bench without the test harness is checked with `cfg(test)` on but its `#[test]` functions
// left out, so the support module's unit tests import what nothing then uses.
#[cfg_attr(test, allow(unused_imports))]
#[path = "../examples/support/src/mod.rs"]
mod support;
use support::flying;

use criterion::{Criterion, criterion_group, criterion_main};

fn fly(c: &mut Criterion) {
    let sets = flying::build_sets(60, 10, 96).unwrap_or_else(|message| panic!("{message}"));
    for set in &sets {
        let mut pathfinder = flying::flier();
        let ours = flying::run_voxnav(set, &mut pathfinder).unwrap_or_else(|m| panic!("{m}"));
        let naive = flying::run_baseline(set).unwrap_or_else(|m| panic!("{m}"));
        let mismatches = flying::mismatches(set, &ours, &naive);
        assert!(mismatches.is_empty(), "cost mismatches: {mismatches:#?}");
        eprintln!("{}: {}", set.name, set.about);

        let mut group = c.benchmark_group(set.name);
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        group.bench_function("voxnav", |b| {
            b.iter(|| black_box(flying::run_voxnav(black_box(set), &mut pathfinder)));
        });
        group.bench_function("naive26", |b| {
            b.iter(|| black_box(flying::run_baseline(black_box(set))));
        });
        group.finish();
    }
}

criterion_group!(benches, fly);
criterion_main!(benches);
