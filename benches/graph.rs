//! The compiled walk graph on the default terrain (seed 1337, 512 x 128 x 512), timed in one
//! run: compile time and memory, A* over the graph against the on-the-fly `Pathfinder` on the
//! same queries, and local updates after block changes (time per changed block).
//!
//! ```sh
//! cargo bench --bench graph                 # prints one table
//! cargo bench --bench graph -- --queries 50 # fewer queries
//! cargo bench --bench graph -- --search-only # no updates (for profiling the searches)
//! cargo bench --bench graph -- --movingai ../shared/data/movingai # arena2's scenarios only
//! ```
//!
//! Not a criterion bench: a compile and a few thousand block changes are one-off events whose
//! times are printed as measured, next to the searches' ratio from the same run.

use std::hint::black_box;
use std::time::{Duration, Instant};

use voxnav::engine::{OCTILE_SCALE, Pathfinder};
use voxnav::graph::{GraphSearch, NavGraph};
use voxnav::terrain::{SplitMix64, TerrainConfig, generate_terrain, pick_pairs, surface_feet};
use voxnav::world::{FlatWorld, parse_movingai_map, parse_movingai_scen};
use voxnav::{Agent, Block, IVec3, MoveCosts, SearchOptions};

/// Block changes timed one by one.
const SINGLE_CHANGES: usize = 2000;
/// Explosions timed: a 5 x 5 x 5 cube of air each.
const EXPLOSIONS: usize = 100;

fn main() -> Result<(), String> {
    let mut queries = 120;
    let mut search_only = false;
    let mut movingai = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--queries" {
            queries = args
                .next()
                .and_then(|n| n.parse().ok())
                .ok_or("--queries wants a number")?;
        } else if arg == "--search-only" {
            search_only = true;
        } else if arg == "--movingai" {
            movingai = Some(args.next().ok_or("--movingai wants a directory")?);
        } else if arg == "--help" {
            println!(
                "usage: graph [--queries N] [--search-only]\n  \
                 --queries N    terrain queries of 100-300 blocks (default 120)\n  \
                 --search-only  stop after the searches (no local updates): for profiling, e.g.\n                 \
                 valgrind --tool=callgrind <this binary> --search-only --queries 40\n                 \
                 and divide GraphSearch::find_path's inclusive count by the expansions\n                 \
                 printed (the warm-up query's included)\n  \
                 --movingai DIR only the graph A* on N (default 120) scenarios of DIR/arena2.map\n                 \
                 through FlatWorld, at octile costs, for the same kind of profile"
            );
            return Ok(());
        } else {
            return Err(format!("unknown argument {arg}; try --help"));
        }
    }
    if let Some(dir) = movingai {
        return moving_ai(std::path::Path::new(&dir), queries);
    }
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let mut world = generate_terrain(&TerrainConfig::default()).map_err(|e| e.to_string())?;

    let started = Instant::now();
    let mut graph = NavGraph::compile(&world, &agent).map_err(|e| e.to_string())?;
    let compile = started.elapsed();
    let columns = 512 * 512;
    println!(
        "graph compile: {:.0} ms, {} feet positions over {columns} columns, {:.1} MiB, {:.1} bytes per feet position",
        compile.as_secs_f64() * 1e3,
        graph.node_count(),
        graph.memory_bytes() as f64 / (1024.0 * 1024.0),
        graph.memory_bytes() as f64 / graph.node_count() as f64
    );

    let pairs = pick_pairs(&world, &agent, 0x6ea9, queries, 100.0..=300.0);
    let options = SearchOptions::default();
    let mut search = GraphSearch::new(costs).map_err(|e| e.to_string())?;
    search.reserve_for(&graph);
    let mut pathfinder = Pathfinder::new(agent, costs).map_err(|e| e.to_string())?;
    // Warm both up on the first query, untimed.
    let mut warm_up = 0;
    if let Some(&(start, goal)) = pairs.first() {
        let result = search
            .find_path(&graph, start, goal, &options)
            .map_err(|e| e.to_string())?;
        warm_up = result.stats.expanded;
        black_box(pathfinder.find_path(&world, start, goal, &options).ok());
    }
    let (mut graph_time, mut otf_time, mut expanded) = (Duration::ZERO, Duration::ZERO, 0u64);
    let mut graph_cpu = Some(Duration::ZERO);
    for &(start, goal) in &pairs {
        let cpu_before = thread_cpu_time();
        let started = Instant::now();
        let mine = search
            .find_path(&graph, start, goal, &options)
            .map_err(|e| e.to_string())?;
        graph_time += started.elapsed();
        graph_cpu = graph_cpu
            .zip(cpu_before.zip(thread_cpu_time()))
            .map(|(sum, (before, after))| sum + after.saturating_sub(before));
        let started = Instant::now();
        let theirs = pathfinder
            .find_path(&world, start, goal, &options)
            .map_err(|e| e.to_string())?;
        otf_time += started.elapsed();
        if mine.cost != theirs.cost {
            return Err(format!(
                "cost mismatch {start} -> {goal}: graph {:?}, pathfinder {:?}",
                mine.cost, theirs.cost
            ));
        }
        expanded += mine.stats.expanded;
    }
    println!(
        "{} queries of 100-300 blocks, {expanded} expansions (and {warm_up} in the untimed warm-up): graph A* {:.1} ms ({:.2} M expansions/s), on-the-fly Pathfinder {:.1} ms: {:.2}x",
        pairs.len(),
        graph_time.as_secs_f64() * 1e3,
        expanded as f64 / graph_time.as_secs_f64().max(1e-9) / 1e6,
        otf_time.as_secs_f64() * 1e3,
        otf_time.as_secs_f64() / graph_time.as_secs_f64().max(1e-9)
    );
    if let Some(cpu) = graph_cpu {
        println!(
            "graph A* on-CPU time: {:.1} ms ({:.2} M expansions/s): the figure to compare on a busy machine",
            cpu.as_secs_f64() * 1e3,
            expanded as f64 / cpu.as_secs_f64().max(1e-9) / 1e6
        );
    }

    if search_only {
        return Ok(());
    }
    // Local updates: single blocks placed or dug on the surface, then explosions.
    world.track_changes(true);
    let mut rng = SplitMix64::new(0x0b10_c4a5);
    let mut spent = Duration::ZERO;
    let mut changed_nodes = 0usize;
    for i in 0..SINGLE_CHANGES {
        let (x, z) = (rng.below(512) as i32, rng.below(512) as i32);
        let Some(feet) = surface_feet(&world, &agent, x, z) else {
            continue;
        };
        let (cell, block) = if i % 2 == 0 {
            (feet, Block::Solid)
        } else {
            (feet - IVec3::Y, Block::Air)
        };
        world.set(cell, block).map_err(|e| e.to_string())?;
        let changes = world.take_changes();
        let started = Instant::now();
        let update = graph
            .apply_changes(&world, &changes)
            .map_err(|e| e.to_string())?;
        spent += started.elapsed();
        changed_nodes += update.changed.len() + update.removed.len();
    }
    println!(
        "local update, one block at a time: {:.1} us per changed block ({SINGLE_CHANGES} blocks, {:.1} nodes touched each)",
        spent.as_secs_f64() * 1e6 / SINGLE_CHANGES as f64,
        changed_nodes as f64 / SINGLE_CHANGES as f64
    );
    let (mut spent, mut blocks) = (Duration::ZERO, 0usize);
    for _ in 0..EXPLOSIONS {
        let (x, z) = (2 + rng.below(508) as i32, 2 + rng.below(508) as i32);
        let Some(feet) = surface_feet(&world, &agent, x, z) else {
            continue;
        };
        world
            .fill(feet - IVec3::splat(2), feet + IVec3::splat(2), Block::Air)
            .map_err(|e| e.to_string())?;
        let changes = world.take_changes();
        blocks += changes.cells.len();
        let started = Instant::now();
        graph
            .apply_changes(&world, &changes)
            .map_err(|e| e.to_string())?;
        spent += started.elapsed();
    }
    println!(
        "local update, 5x5x5 explosions: {:.1} us per explosion, {:.2} us per changed block ({blocks} blocks)",
        spent.as_secs_f64() * 1e6 / EXPLOSIONS as f64,
        spent.as_secs_f64() * 1e6 / blocks.max(1) as f64
    );
    let started = Instant::now();
    let fresh = NavGraph::compile(&world, &agent).map_err(|e| e.to_string())?;
    println!(
        "a fresh compile of the changed world: {:.0} ms ({} feet positions; the updated graph has {})",
        started.elapsed().as_secs_f64() * 1e3,
        fresh.node_count(),
        graph.node_count()
    );
    if fresh.node_count() != graph.node_count() {
        return Err("the updated graph and a fresh compile differ".into());
    }
    Ok(())
}

/// The graph A* alone on `count` scenarios of `dir/arena2.map`, spread evenly over the file
/// (as `examples/compare.rs` picks them), each checked against its published optimal length.
fn moving_ai(dir: &std::path::Path, count: usize) -> Result<(), String> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let grid = parse_movingai_map(&read("arena2.map")?).map_err(|e| e.to_string())?;
    let scenarios = parse_movingai_scen(&read("arena2.map.scen")?).map_err(|e| e.to_string())?;
    let agent = Agent::default();
    let world = FlatWorld::new(grid, agent.height).map_err(|e| e.to_string())?;
    let graph = NavGraph::compile(&world, &agent).map_err(|e| e.to_string())?;
    let count = count.min(scenarios.len());
    let mut search = GraphSearch::new(MoveCosts::octile()).map_err(|e| e.to_string())?;
    search.reserve_for(&graph);
    let options = SearchOptions::default();
    let (mut time, mut expanded) = (Duration::ZERO, 0u64);
    for i in 0..count {
        let scenario = &scenarios[i * scenarios.len() / count];
        let (start, goal) = (
            FlatWorld::feet(scenario.start),
            FlatWorld::feet(scenario.goal),
        );
        let started = Instant::now();
        let result = search
            .find_path(&graph, start, goal, &options)
            .map_err(|e| e.to_string())?;
        time += started.elapsed();
        expanded += result.stats.expanded;
        let length = result.cost.map(|c| c as f64 / f64::from(OCTILE_SCALE));
        if length.is_none_or(|l| (l - scenario.optimal_length).abs() > 1e-3 * l.max(1.0)) {
            return Err(format!(
                "scenario {i}: length {length:?}, published {}",
                scenario.optimal_length
            ));
        }
    }
    println!(
        "{count} arena2 scenarios, {expanded} expansions: graph A* {:.1} ms ({:.2} M expansions/s)",
        time.as_secs_f64() * 1e3,
        expanded as f64 / time.as_secs_f64().max(1e-9) / 1e6
    );
    Ok(())
}

/// The time this thread has spent on a CPU (Linux's `/proc/thread-self/schedstat`), which a
/// busy machine inflates far less than the wall clock; `None` where it cannot be read.
fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}
