//! What a wider body costs the on-the-fly search: routes of 20-60 blocks on the default
//! procedural terrain (the compare terrain without its maze) for a walker `--width` blocks
//! wide, with the nodes expanded and the time per expansion.
//!
//! ```text
//! cargo run --release --example widths -- --width 2 --queries 300
//! ```
//!
//! Timings on a shared machine are noise; instruction counts are not. The cost per expansion
//! is measured with callgrind as the difference between a run that searches and one that only
//! builds the world and picks the same pairs (`--no-search`), divided by the expansions:
//!
//! ```text
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/widths --width 2
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/widths --width 2 --no-search
//! ```
//!
//! Measured so with `--queries 40 --size 128` (instructions per expansion): width 1: 3 596,
//! width 2: 4 755 (1.32x), width 3: 6 359 (1.77x). Before the wide rules read the world's
//! (w + 2) x (w + 2) columns in one bulk read ([`VoxelWorld::columns_square`]), asked
//! whether the terrain around an expansion is all plain in one more
//! ([`VoxelWorld::is_plain_region`]) and combined the columns before lifting them where no
//! fence is near, instead of two 3 x 3 reads, two single columns and a terrain look-up per
//! cell: 8 050 and 12 360; before the view remembered terrain per expansion and skipped the
//! ladder check: 9 469 and 16 101.
//!
//! A search on a compiled graph (`--graph`) does the same work per expansion at every width,
//! the width being in the graph: 570, 556 and 555 instructions per expansion for widths 1, 2
//! and 3 (callgrind's inclusive count of `GraphSearch::find_path` over the expansions it
//! prints). Compiling the graph is what a width costs there: 117 M, 267 M and 461 M
//! instructions at `--size 128` (`NavGraph::compile`), where they were 119 M, 1 952 M and
//! 2 561 M when a body wider than a block was checked position by position instead of read
//! from the column bits of its view.
//!
//! [`VoxelWorld::columns_square`]: voxnav::VoxelWorld::columns_square
//! [`VoxelWorld::is_plain_region`]: voxnav::VoxelWorld::is_plain_region
//!
//! Bad input prints one line on stderr and exits with code 2.

use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use voxnav::engine::Pathfinder;
use voxnav::graph::{GraphSearch, NavGraph};
use voxnav::{Agent, ChunkedWorld, IVec3, MoveCosts, SearchOptions, SearchStatus};

/// Routes walkers of one width across the default terrain and counts their expansions.
#[derive(Parser)]
#[command(name = "widths")]
struct Args {
    /// The walker's width in blocks (1 to 3).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=3))]
    width: u32,
    /// How many start/goal pairs to draw (1 to 10000); pairs with no standing room for the
    /// body at either end are skipped.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    queries: u32,
    /// The terrain's width and depth in blocks (64 to 512).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(i32).range(64..=512))]
    size: i32,
    /// Build the world and pick the pairs, but search nothing: the baseline that a callgrind
    /// count of the searching run is taken from.
    #[arg(long)]
    no_search: bool,
    /// Also compile the walk graph for this width, and route the pairs on it: its nodes,
    /// memory and compile time (one graph per width; see the report in the module docs).
    #[arg(long)]
    graph: bool,
}

/// A small deterministic generator (xorshift64*), the same draws for every width.
struct Draws(u64);

impl Draws {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }
}

/// The highest valid position of `agent` in the column `x`, `z`, if any.
fn top_position(world: &ChunkedWorld, agent: &Agent, x: i32, z: i32) -> Option<IVec3> {
    (1..128)
        .rev()
        .map(|y| IVec3::new(x, y, z))
        .find(|&p| agent.is_valid_position(world, p))
}

#[cfg(feature = "terrain")]
fn run(args: &Args) -> Result<(), String> {
    use voxnav::terrain::{TerrainConfig, generate_terrain};

    let config = TerrainConfig::default().with_size(args.size, 128, args.size);
    let world = generate_terrain(&config).map_err(|e| e.to_string())?;
    let agent = Agent::default().with_width(args.width);
    let mut draws = Draws(0x9E37_79B9_7F4A_7C15);
    let mut pairs = Vec::new();
    let margin = 8;
    for _ in 0..args.queries {
        let span = (args.size - 2 * margin - 60) as u64;
        let (x, z) = (
            margin + draws.below(span) as i32,
            margin + draws.below(span) as i32,
        );
        let (dx, dz) = (20 + draws.below(41) as i32, draws.below(41) as i32 - 20);
        if let (Some(start), Some(goal)) = (
            top_position(&world, &agent, x, z),
            top_position(&world, &agent, x + dx, z + dz),
        ) {
            pairs.push((start, goal));
        }
    }
    println!(
        "width {}: {} of {} pairs have standing room at both ends",
        args.width,
        pairs.len(),
        args.queries
    );
    if args.no_search {
        return Ok(());
    }
    let mut pathfinder = Pathfinder::new(agent, MoveCosts::default()).map_err(|e| e.to_string())?;
    let options = SearchOptions::default().with_max_nodes(200_000);
    let (mut expanded, mut found) = (0u64, 0usize);
    let clock = Instant::now();
    for &(start, goal) in &pairs {
        let result = pathfinder
            .find_path(&world, start, goal, &options)
            .map_err(|e| e.to_string())?;
        expanded += result.stats.expanded;
        found += usize::from(result.status == SearchStatus::Found);
    }
    let elapsed = clock.elapsed();
    println!(
        "found {found} of {} routes, {expanded} nodes expanded, {:.1} ns per expansion \
         (wall clock: trust the callgrind count instead on a busy machine)",
        pairs.len(),
        elapsed.as_secs_f64() * 1e9 / expanded.max(1) as f64
    );
    if args.graph {
        let clock = Instant::now();
        let graph = NavGraph::compile(&world, &agent).map_err(|e| e.to_string())?;
        let compiled = clock.elapsed();
        let mut search = GraphSearch::new(MoveCosts::default()).map_err(|e| e.to_string())?;
        let (mut same, mut graph_expanded) = (0, 0u64);
        for &(start, goal) in &pairs {
            let on_graph = search
                .find_path(&graph, start, goal, &options)
                .map_err(|e| e.to_string())?;
            graph_expanded += on_graph.stats.expanded;
            let on_the_fly = pathfinder
                .find_path(&world, start, goal, &options)
                .map_err(|e| e.to_string())?;
            same += usize::from(on_graph.cost == on_the_fly.cost);
        }
        println!(
            "graph: {} nodes, {:.1} MiB, compiled in {:.0} ms; {graph_expanded} nodes expanded \
             on it; {same} of {} costs equal the on-the-fly search's",
            graph.node_count(),
            graph.memory_bytes() as f64 / f64::from(1 << 20),
            compiled.as_secs_f64() * 1e3,
            pairs.len()
        );
    }
    Ok(())
}

#[cfg(not(feature = "terrain"))]
fn run(_: &Args) -> Result<(), String> {
    Err("this example needs the `terrain` feature".into())
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("widths: {message}");
            ExitCode::from(2)
        }
    }
}
