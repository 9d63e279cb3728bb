//! Criterion benches: for every query set of `support::sets` (terrain routes of three lengths, pits,
//! islands, the cave maze, a Moving AI map), voxnav's A* against the naive 26-neighbour
//! baseline and the `pathfinding` crate's `astar` over voxnav's own neighbour generator.
//!
//! The worlds and queries are built once, outside the timed loops, from fixed seeds. One
//! iteration runs a whole set. `cargo bench --bench search` runs them all; add a filter such
//! as `cargo bench --bench search -- long/` for one set. `examples/compare.rs` runs the same
//! sets once and prints one table.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
// A bench without the test harness is checked with `cfg(test)` on but its `#[test]` functions
// left out, so the support module's unit tests import what nothing then uses.
#[cfg_attr(test, allow(unused_imports))]
#[path = "../examples/support/src/mod.rs"]
mod support;
use support::sets::{self, Bench, Engine, Outcome, QuerySet, Runner, Sizes};

fn search(c: &mut Criterion) {
    let bench = match sets::build(&Sizes::BENCH) {
        Ok(bench) => bench,
        Err(message) => panic!("cannot build the query sets: {message}"),
    };
    for note in &bench.notes {
        eprintln!("note: {note}");
    }
    for compile in &bench.compiles {
        eprintln!(
            "graph compile: {} in {:.0} ms, {} feet positions over {} columns, {:.1} bytes per feet position",
            compile.world,
            compile.elapsed.as_secs_f64() * 1e3,
            compile.nodes,
            compile.columns,
            compile.bytes_per_node()
        );
    }
    for set in &bench.sets {
        let mut group = c.benchmark_group(set.name);
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        let crate_note = if set.crate_runs {
            ""
        } else {
            " (no pathfinding crate: no budget)"
        };
        eprintln!(
            "{}: {} queries, {}{crate_note}",
            set.name,
            set.queries.len(),
            set.about
        );
        check(&bench, set);
        for engine in Engine::ALL {
            if !engine.runs_on(set) {
                continue;
            }
            let mut runner = match Runner::new(set) {
                Ok(runner) => runner,
                Err(message) => panic!("set {}: {message}", set.name),
            };
            runner.reserve_for(bench.graph_for(set));
            group.bench_function(engine.name(), |b| {
                b.iter(
                    || match bench.run_set(black_box(set), &mut runner, engine, 1) {
                        Ok(outcomes) => black_box(outcomes),
                        Err(message) => panic!("set {}: {message}", set.name),
                    },
                );
            });
        }
        group.finish();
    }
}

/// Runs `set` once, untimed, with voxnav and the `pathfinding` crate, and stops the bench if
/// their costs differ (or voxnav misses a Moving AI optimal length): a fast wrong answer
/// is not worth timing.
fn check(bench: &Bench, set: &QuerySet) {
    let run = |engine: Engine| -> Vec<Outcome> {
        let mut runner = Runner::new(set).unwrap_or_else(|message| panic!("{message}"));
        bench
            .run_set(set, &mut runner, engine, 1)
            .unwrap_or_else(|message| panic!("set {}: {message}", set.name))
    };
    let voxnav = run(Engine::Voxnav);
    let generic = Engine::PathfindingCrate
        .runs_on(set)
        .then(|| run(Engine::PathfindingCrate));
    let mismatches = sets::mismatches(set, &voxnav, generic.as_deref());
    assert!(mismatches.is_empty(), "cost mismatches: {mismatches:#?}");
}

criterion_group!(benches, search);
criterion_main!(benches);
