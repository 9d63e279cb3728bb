//! Criterion benches of the hierarchy of cells (`voxnav::hier`) on the default terrain at
//! 512 x 128 x 512 (seed 1337): the same 20 routes of 230 to 460 blocks through plain A* over
//! the walk graph, through the exact hierarchy (costs asserted equal before timing) and
//! through the inexact abstraction (costs asserted within 5% of A*'s); each structure's
//! build; one block edit with the graph and each structure kept current.
//!
//! `cargo bench --bench hier`; `examples/long.rs` prints the same comparison as one table,
//! at 2048 x 128 x 2048 by default.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use voxnav::graph::{GraphSearch, NavGraph};
use voxnav::hier::{AbstractSearch, Abstraction, HierSearch, Hierarchy};
use voxnav::terrain::{TerrainConfig, generate_terrain};
use voxnav::world::pick::pick_pairs;
use voxnav::{Agent, Block, IVec3, MoveCosts, SearchOptions};

/// Pairs routed per iteration.
const PAIRS: usize = 20;

fn hier(c: &mut Criterion) {
    let (agent, costs) = (Agent::default(), MoveCosts::default());
    let config = TerrainConfig::default().with_size(512, 128, 512);
    let mut world = generate_terrain(&config).expect("the default terrain generates");
    let mut graph = NavGraph::compile(&world, &agent).expect("the terrain compiles");
    let mut hierarchy = Hierarchy::build(&graph, &costs).expect("the hierarchy builds");
    let mut abstraction = Abstraction::build(&graph, &costs).expect("the abstraction builds");
    let mut abstract_search = AbstractSearch::new();
    let options = SearchOptions::default();
    let mut plain = GraphSearch::new(costs).expect("default costs");
    let mut search = HierSearch::new();
    let pairs: Vec<(IVec3, IVec3)> = pick_pairs(&world, &agent, 1337, PAIRS * 3, 230.0..=460.0)
        .into_iter()
        .filter(|&(start, goal)| {
            plain
                .find_path(&graph, start, goal, &options)
                .is_ok_and(|result| result.is_found())
        })
        .take(PAIRS)
        .collect();
    for &(start, goal) in &pairs {
        let ours = search.find_path(&hierarchy, &graph, start, goal, &options);
        let theirs = plain.find_path(&graph, start, goal, &options);
        let near = abstract_search.find_path(&abstraction, &graph, start, goal, &options);
        let best = theirs.as_ref().ok().and_then(|result| result.cost);
        assert_eq!(
            ours.map(|result| result.cost).ok(),
            theirs.map(|result| result.cost).ok(),
            "{start} -> {goal}"
        );
        let near = near.ok().and_then(|result| result.cost);
        assert!(
            matches!((near, best), (Some(cost), Some(best)) if cost as f64 <= best as f64 * 1.05),
            "{start} -> {goal}: {near:?} against {best:?}"
        );
    }
    eprintln!(
        "{} pairs; graph {} bytes, hierarchy {} bytes, {} portals",
        pairs.len(),
        graph.memory_bytes(),
        hierarchy.memory_bytes(),
        hierarchy.portal_count()
    );

    let mut group = c.benchmark_group("hier");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("graph A*", |b| {
        b.iter(|| {
            for &(start, goal) in &pairs {
                black_box(plain.find_path(&graph, start, goal, &options).ok());
            }
        });
    });
    group.bench_function("hierarchy", |b| {
        b.iter(|| {
            for &(start, goal) in &pairs {
                black_box(
                    search
                        .find_path(&hierarchy, &graph, start, goal, &options)
                        .ok(),
                );
            }
        });
    });
    group.bench_function("abstraction", |b| {
        b.iter(|| {
            for &(start, goal) in &pairs {
                black_box(
                    abstract_search
                        .find_path(&abstraction, &graph, start, goal, &options)
                        .ok(),
                );
            }
        });
    });
    group.bench_function("build", |b| {
        b.iter(|| black_box(Hierarchy::build(&graph, &costs).ok()));
    });
    group.bench_function("abstraction build", |b| {
        b.iter(|| black_box(Abstraction::build(&graph, &costs).ok()));
    });
    // One edit: a block on a route's start, then taken away again, each with both updates.
    world.track_changes(true);
    let spot = pairs
        .first()
        .map_or(IVec3::new(256, 64, 256), |pair| pair.0);
    let mut solid = true;
    group.bench_function("block edit", |b| {
        b.iter(|| {
            let block = if solid { Block::Solid } else { Block::Air };
            solid = !solid;
            world.set(spot, block).expect("inside the terrain");
            let changes = world.take_changes();
            let update = graph
                .apply_changes(&world, &changes)
                .expect("the graph follows");
            hierarchy
                .update(&graph, &update)
                .expect("the hierarchy follows");
            abstraction
                .update(&graph, &update)
                .expect("the abstraction follows");
        });
    });
    group.finish();
}

criterion_group!(benches, hier);
criterion_main!(benches);
