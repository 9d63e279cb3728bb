//! Criterion benches of a live world (issue 21): the figures `examples/server.rs` prints, per
//! operation, everything updated. A world of chunk columns holds 7 x 7 columns of the default
//! terrain (seed 1337, 128 blocks tall) with its walk graph; the benches time
//!
//! - a block edit and the graph's update (a surface block placed and broken in turn);
//! - a chunk column load (the sections read beforehand: decode excluded) and the graph's
//!   update, and an unload and its update, each timed apart from the other;
//! - a snapshot of the world, for searches on a worker thread.
//!
//! The graph is compiled from the world before any column loads and grows with the loads.
//! `cargo bench --bench live`. Before timing, the graph is checked against a fresh compile,
//! move for move.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use voxnav::graph::NavGraph;
use voxnav::terrain::{TerrainConfig, generate_terrain};
use voxnav::world::is_valid_feet;
use voxnav::{Agent, Block, ChunkedWorld, IVec3};

const HEIGHT: i32 = 128;
/// The columns loaded: chunk coordinates 0..7 along x and z.
const SIDE: i32 = 7;

type Sections = Vec<(Vec<Block>, Vec<u16>)>;

/// Column `(cx, cz)` of `source` as sections: what decoding a chunk gives.
fn read_column(source: &ChunkedWorld, cx: i32, cz: i32) -> Sections {
    (0..HEIGHT / 16)
        .map(|s| {
            let mut palette: Vec<Block> = Vec::new();
            let indices = (0..4096)
                .map(|i| {
                    let p = IVec3::new(
                        cx * 16 + (i & 15),
                        s * 16 + (i >> 8),
                        cz * 16 + ((i >> 4) & 15),
                    );
                    let block = source.get(p).unwrap_or(Block::Barrier);
                    match palette.iter().position(|&b| b == block) {
                        Some(k) => k as u16,
                        None => {
                            palette.push(block);
                            (palette.len() - 1) as u16
                        }
                    }
                })
                .collect();
            (palette, indices)
        })
        .collect()
}

fn load(world: &mut ChunkedWorld, graph: &mut NavGraph, (cx, cz): (i32, i32), sections: &Sections) {
    world
        .insert_column(
            cx,
            cz,
            sections.iter().map(|(p, i)| (p.as_slice(), i.as_slice())),
        )
        .expect("a column of the terrain");
    let changes = world.take_changes();
    graph
        .apply_changes(&*world, &changes)
        .expect("a local update");
}

fn unload(world: &mut ChunkedWorld, graph: &mut NavGraph, (cx, cz): (i32, i32)) {
    world.remove_column(cx, cz);
    let changes = world.take_changes();
    graph
        .apply_changes(&*world, &changes)
        .expect("a local update");
}

fn live(c: &mut Criterion) {
    let config = TerrainConfig {
        size_x: SIDE * 16,
        size_y: HEIGHT,
        size_z: SIDE * 16,
        ..TerrainConfig::default()
    };
    let source = generate_terrain(&config).expect("the terrain");
    let columns: Vec<Sections> = (0..SIDE * SIDE)
        .map(|i| read_column(&source, i % SIDE, i / SIDE))
        .collect();
    // The graph starts empty and grows as the columns load: no bounds chosen up front.
    let mut world = ChunkedWorld::with_height(0, HEIGHT).expect("a height");
    let agent = Agent::default();
    let mut graph = NavGraph::compile(&world, &agent).expect("a graph");
    world.track_changes(true);
    for (i, sections) in columns.iter().enumerate() {
        let i = i as i32;
        load(&mut world, &mut graph, (i % SIDE, i / SIDE), sections);
    }
    let middle = (SIDE / 2, SIDE / 2);
    let sections = &columns[(middle.1 * SIDE + middle.0) as usize];
    unload(&mut world, &mut graph, middle);
    load(&mut world, &mut graph, middle, sections);
    let fresh = NavGraph::compile(&world, &agent).expect("a graph");
    assert_eq!(
        fresh.node_count(),
        graph.node_count(),
        "the live graph equals a fresh compile"
    );
    let costs = voxnav::MoveCosts::default();
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for id in fresh.nodes() {
        let live = graph
            .node(fresh.feet(id))
            .expect("every feet position in the live graph");
        fresh.moves(id, &costs, &mut theirs);
        graph.moves(live, &costs, &mut ours);
        let key = |m: &voxnav::graph::GraphMove| (m.feet.to_array(), m.cost);
        let mut a: Vec<_> = ours.iter().map(key).collect();
        let mut b: Vec<_> = theirs.iter().map(key).collect();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(
            a,
            b,
            "the moves out of {} equal a fresh compile's",
            fresh.feet(id)
        );
    }
    eprintln!(
        "live: {} columns, {} feet positions, graph {} bytes ({:.1} per feet position)",
        world.loaded_column_count(),
        graph.node_count(),
        graph.memory_bytes(),
        graph.memory_bytes() as f64 / graph.node_count() as f64
    );

    let mut group = c.benchmark_group("live");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    // A surface cell in the middle column: its floor is broken and placed back in turn.
    let (x, z) = (middle.0 * 16 + 8, middle.1 * 16 + 8);
    let feet = (1..HEIGHT - 2)
        .rev()
        .map(|y| IVec3::new(x, y, z))
        .find(|&f| is_valid_feet(&world, f, agent.height))
        .expect("a surface");
    let floor = feet - IVec3::Y;
    let mut broken = false;
    group.bench_function("block edit + graph", |b| {
        b.iter(|| {
            broken = !broken;
            let block = if broken { Block::Air } else { Block::Solid };
            world.set(black_box(floor), block).expect("a loaded cell");
            let changes = world.take_changes();
            black_box(
                graph
                    .apply_changes(&world, &changes)
                    .expect("a local update"),
            );
        });
    });
    if broken {
        world.set(floor, Block::Solid).expect("a loaded cell");
        let changes = world.take_changes();
        graph
            .apply_changes(&world, &changes)
            .expect("a local update");
    }
    group.bench_function("chunk load + graph", |b| {
        b.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for _ in 0..iters {
                unload(&mut world, &mut graph, middle);
                let at = Instant::now();
                load(&mut world, &mut graph, middle, black_box(sections));
                spent += at.elapsed();
            }
            spent
        });
    });
    group.bench_function("chunk unload + graph", |b| {
        b.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for _ in 0..iters {
                let at = Instant::now();
                unload(&mut world, &mut graph, black_box(middle));
                spent += at.elapsed();
                load(&mut world, &mut graph, middle, sections);
            }
            spent
        });
    });
    group.bench_function("snapshot", |b| b.iter(|| black_box(world.snapshot())));
    group.finish();
}

criterion_group!(benches, live);
criterion_main!(benches);
