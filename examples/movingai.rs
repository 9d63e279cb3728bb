//! Runs a Moving AI benchmark scenario file through voxnav's A* and checks the lengths.
//!
//! ```sh
//! cargo run --release --example movingai -- tests/data/arena.map.scen
//! cargo run --release --example movingai -- tests/data/den312d.map.scen --map tests/data/den312d.map
//! cargo run --release --example movingai -- FILE.3dmap.3dscen --map FILE.3dmap [--limit N]
//! cargo run --release --example movingai -- --synthetic 512 [--queries N] [--verify K]
//! ```
//!
//! The map is looked for beside the scenario file (`x.map.scen` -> `x.map`) unless `--map`
//! names it; `--limit N` runs only the first N scenarios. Every 2D scenario is planned with
//! 8-connected moves without corner cutting at octile costs by each engine of `GridPlanner`
//! (A* over the walk graph, jump point search `JPS`, and `JPS+` with its jump table) and by
//! the `pathfinding` crate's `astar` on the grid itself; the route's length, its cost over
//! the octile scale (straight 1, diagonal sqrt 2), is compared with the scenario's optimal
//! length within 1e-4 relative. The table gives, per engine, the mean time per query (the
//! whole run timed at once, routes included; the fastest of `--rounds N` rounds, default 3, the
//! engines taking turns, each timed run right after an untimed run of the same engine over
//! the scenarios in reverse order, the crate's too), expansions per query, the pass count and the speed-ups over the
//! crate and over A*. The summary ends with `N passed, M failed` (the worst engine's counts).
//! Exit status: 0 whatever the comparison, 2 on bad input; `--help` lists the options.
//!
//! A `.3dscen` file (the Moving AI 3D voxel benchmark) is routed with a flier of height 1
//! (26 neighbours, no cut edges or corners, [`MoveCosts::octile`] face, edge and corner
//! costs) by the flier's A*, by its jump point search (`JPS`,
//! [`voxnav::engine::JumpSearch`]) and by the same with its face and edge jumps precomputed
//! (`JPS+`, [`voxnav::search::jps3d::JumpTables`], built once: its time and size are printed);
//! each route's length, summed from its steps (1, sqrt 2,
//! sqrt 3), must be within 0.01 of the optimal cost, and a table gives per engine the mean
//! search time per query, expansions per query, the pass count and the speed-up over A*. `--synthetic SIDE` builds a SIDE x SIDE/2 x SIDE world of random
//! pillars and floating slabs instead (fixed seeds, `support::flying`), routes
//! `--queries` random pairs (default 200) and checks the first `--verify` of them (default 5)
//! against the naive 26-neighbour A* under the same rules; it also prints the memory the
//! searches took per generated node (growth of the peak resident size, Linux only).
//!
//! On the public Moving AI maps `arena`, `den312d` (both in `tests/data/`) and `arena2`
//! (Dragon Age: Origins), every engine passes every scenario. Each engine's run is timed as a
//! whole (the clock read once before the first query and once after the last), and the
//! runner's work per query is the same light work for every engine: the length is the
//! answer's cost over the octile scale, compared with the optimal one (the routes are checked
//! move by move by `tests/grid2d.rs` and `tests/jps.rs`, not here), and the scenarios are
//! checked against the map before the run. Every timed run comes right after an untimed run
//! of the same engine over the scenarios in reverse order, the crate's too: a run of the 160
//! `arena` queries lasts 30 us with JPS+, and started cold (caches and branch tables the
//! previous engine's) it cost 0.05 to 0.1 us more per query, a fifth of a JPS+ query and a
//! hundredth of the crate's. A warm-up in the timed order took 0.02 us more off JPS+ (0.18
//! rather than 0.20 to 0.21, loaded machine) and nothing off the crate: the branch predictor
//! learns a 30 us sequence, not a 1 ms one, so it is not used. The clock is still read once
//! before and once after each timed run, for every engine alike.
//! Instructions are counted by callgrind over each engine's runs, the runner's work per query
//! included, which no neighbour's load disturbs (`valgrind --tool=callgrind
//! --toggle-collect='*time_scenarios*' --toggle-collect='*time_crate_scenarios*'
//! target/release/examples/movingai MAP.scen --rounds 1 --engine E`, which counts the untimed
//! and the timed run: the table gives half; 27 November 2026, the load average too high for
//! times; the crate's count from the run with `--engine JPS+ --engine pathfinding`):
//!
//! | map | scenarios | engine | expansions per query | instructions | crate / engine |
//! |---|---|---|---|---|---|
//! | arena, 49 x 49 | 160 | A* | 31.6 | 4.98 M | 2.6 |
//! | | | JPS | 0.3 | 0.342 M | 37.5 |
//! | | | JPS+ | 0.4 | 0.189 M | 67.9 |
//! | | | pathfinding | 31.1 | 12.81 M | 1 |
//! | den312d, 65 x 81 | 320 | A* | 574.8 | 119.9 M | 2.7 |
//! | | | JPS | 31.5 | 12.27 M | 26.1 |
//! | | | JPS+ | 31.8 | 5.14 M | 62.3 |
//! | | | pathfinding | 572.1 | 320.2 M | 1 |
//! | arena2, 281 x 209 | 929 | A* | 5 601.1 | 3 492 M | 2.6 |
//! | | | JPS | 96.2 | 161.1 M | 56.8 |
//! | | | JPS+ | 97.9 | 53.6 M | 171 |
//! | | | pathfinding | 5 590.9 | 9 148 M | 1 |
//!
//! The crate's count moves with the build though neither its code nor its runner's does (the
//! `astar` instance is compiled in this example, and how it is split and inlined follows
//! hashes that change with the library and the example): one run of `arena` took 12.84 M
//! built at commit 59c201b, 11.65 M with the library above and 59c201b's runner, 12.69 M
//! with both as at commit db0c7c2 (12.81 M in this round's build); of `den312d` 320.4 M,
//! 279.0 M and 321.3 M (320.2 M). Compare engines within one
//! build: in the 59c201b build JPS+ took 0.290 M on `arena` (44.3x) and 6.18 M on `den312d`
//! (51.8x).
//!
//! (`arena2`'s row is of the last round, with the clock read around every query and the
//! length recomputed from the route's moves, about 500 instructions a query more for every
//! engine: it is not shipped with the crate.)
//!
//! What limits the speed-up on `arena` is the work every query does whatever its length: its
//! routes are 32 cells long on average, and 135 of its 160 problems have a free *direct*
//! route (one diagonal run and one straight run), which costs the octile distance and so is
//! returned without a search; such a query's cost is checking the route and writing its 32
//! cells and actions. A search ends as soon as it pops a jump point whose direct route to the
//! goal is free: 0.4 expansions a query over the 160 rather than 1.2. The longer
//! the route, the more the jumps save: 62x on `den312d`, 171x on `arena2`. JPS+, instructions
//! a run: the search ending at a direct route, `arena` 258.0 k to 205.6 k (`den312d`, whose
//! direct routes are rare, 5.55 M to 5.78 M: see `DIRECT_TRIES` in `src/flat/jps.rs`); a
//! run's action read from a table by its step and repeated by an exact-length iterator, not
//! `resize`'s `memset`, 205.6 k to 197.9 k; a jump point's successor tries inlined, `den312d`
//! 5.75 M to 5.11 M; 8 failed checks allowed per search rather than 4, and the goal's reach
//! asked first, 188.6 k and 5.14 M. Before: both runs of a direct route checked before a cell
//! is written, a run's cells written four to a loop round, a jump point's successors in a
//! fixed array (`arena` 289.6 k to 258.5 k, `den312d` 6.18 M to 5.54 M). Tried and dropped:
//! reading `Action::between` from a table instead of its match (1.9 k more); search nodes
//! numbered `y << 16 | x` so that no expansion divides by the width (0.3 k more, and no faster
//! by the clock); successors carrying their `(dx, dy)` rather than a direction's index
//! (`den312d` 0.8 % more); a direct route's straight run check as an inlined function rather
//! than a closure (0.9 k more); direct route checks at every popped point (`den312d` 6.50 M,
//! 5.72 M with the goal's reach).
//!
//! The 3D runs (three runs each of the same binary on the same shared machine, which varies
//! by a third from one process to the next; 23 November 2026):
//!
//! | map | problems | result | expansions | per second (wall) |
//! |---|---|---|---|---|
//! | Simple, 105 x 132 x 105 | 10 000 | 10000 passed, 0 failed | 5 901 353 | 4.6 to 5.2 million |
//! | `--synthetic 512 --queries 40` | 40 | 2 of 2 checked against the baseline | 6 518 271 | 3.2 to 3.4 million |
//!
//! Jump point search (`JumpSearch`) on the 300 `Simple` problems of `tests/data/movingai3d/`
//! expands 759 nodes per query against the A*'s 726 (A* over the canonical moves: see
//! `JUMP_LIMITS`) and runs 197 M instructions against 318 M (1.61x); with its face and edge
//! jumps precomputed (`JumpTables`, built once) it expands 43 and runs 28.5 M against 314.9 M
//! (11.05x, both engines warm). Callgrind on `cargo bench --bench jps3d`, which also has the
//! synthetic worlds; see `src/search/jps3d/mod.rs`.
//!
//! The synthetic run's searches by size (nodes generated), in million expansions per second:
//! 10 000 to 100 000 nodes 3.6 to 5.2, 100 000 to 1 million 3.9 to 4.8, over 1 million 3.1 to
//! 3.2 (the largest generates 6.9 million nodes, 1.5 million of them distinct). An expansion
//! there generates 4.4 nodes (cheaper routes to known nodes counted), one on `Simple` 3.0: open
//! terrain gives each expansion more to do. `compare` times both in one process: per expansion
//! a large search on the 512-cell map runs at 0.7 to 0.8 of `Simple`'s rate, like the same
//! terrain in a 128-cell world, and per generated node at the same rate.
//!
//! Callgrind counts 1 455 instructions per expansion on the first 1 000 `Simple` problems
//! (`valgrind --tool=callgrind`, whole run with `--limit 1000`: 931 M instructions for
//! 640 143 expansions), and 1 622 in the synthetic run's searches (`--toggle-collect` on the
//! search, `--synthetic 512 --queries 10`: 3 710 M for 2 287 435). Before: 1 555 and 1 983
//! with node records in a list found through per-cell slots, and a 27-bit neighbourhood read
//! column by column; 2 080 before a flier got a flat slot table, 32-bit branch-free move tests
//! and move tables without bounds checks; 2 605 before the search skipped the moves a
//! position's parent dominates (15.1 moves relaxed per expansion instead of 24.4; see
//! `voxnav::moves::fly`); 3 715 before the node records shrank, the flier's moves went
//! straight from their bitmask into the node table, its 3D octile estimate was inlined and the
//! open set moved to 8-byte entries. The largest synthetic search grew the peak resident size
//! by 144 MiB, 21.8 bytes per generated node: node records of 8 bytes in 655 pages of 16^3
//! cells (21 MiB) and the open set's buckets (8 bytes per generated node, the rest their
//! spare room).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use clap::builder::PossibleValuesParser;
use voxnav::engine::OCTILE_SCALE;
use voxnav::flat::GridEngine;
use voxnav::flat::GridPlanner;
use voxnav::search::jps3d::JumpTables;
use voxnav::world::formats::movingai3d::voxel_route_length;
use voxnav::world::{
    DenseWorld, Grid2d, Scenario, parse_movingai_3dmap, parse_movingai_3dscen, parse_movingai_map,
    parse_movingai_scen,
};
use voxnav::{Agent, IVec3, MoveCosts, SearchOptions, SearchStatus, VoxelWorld};
#[path = "support/src/mod.rs"]
mod support;
use support::args::{MAX_INPUT_BYTES, describe_bytes, finish, read_text};
use support::baseline;
use support::flying;
use support::movingai::{BenchmarkSummary, LENGTH_TOLERANCE, run_crate_scenarios, run_scenarios};

/// Runs a Moving AI scenario file (2D `.map.scen` or 3D `.3dmap.3dscen`) through voxnav and
/// checks every route's length against the optimal one; or, with --synthetic, routes random
/// pairs through a generated 3D world.
#[derive(Parser)]
#[command(name = "movingai", after_help = format!(
    "Input files larger than {} are refused. Exit status: 0 whatever the comparison, 2 on \
     bad input.",
    describe_bytes(MAX_INPUT_BYTES)
))]
struct Args {
    /// The scenario file: `x.map.scen` (2D) or `x.3dmap.3dscen` (3D).
    #[arg(required_unless_present = "synthetic", conflicts_with = "synthetic")]
    scenarios: Option<PathBuf>,
    /// The map file. Defaults to the scenario file's name without `.scen` (or `.3dscen`).
    #[arg(long, value_name = "FILE")]
    map: Option<PathBuf>,
    /// Run only the first N scenarios (at least 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    limit: Option<u32>,
    /// 2D: time every engine this many times (1 to 100), the engines taking turns, each
    /// timed run after an untimed one of the same engine (scenarios in reverse order); each
    /// engine's time is its fastest round.
    #[arg(long, value_name = "N", default_value_t = 3,
          value_parser = clap::value_parser!(u32).range(1..=100))]
    rounds: u32,
    /// Run only this engine (repeat the option for several), for a profile of one; a 3D
    /// file runs `A*` (the flier's), `JPS` (its jump point search) and `JPS+` (the same with
    /// its face and edge jumps precomputed).
    #[arg(long = "engine", value_name = "NAME",
          value_parser = PossibleValuesParser::new(FLAT_ENGINES))]
    engines: Vec<String>,
    /// Instead of a file: a SIDE x SIDE/2 x SIDE world of random pillars and floating slabs
    /// (SIDE from 16 to 2048).
    #[arg(long, value_name = "SIDE", value_parser = clap::value_parser!(i32).range(16..=2048))]
    synthetic: Option<i32>,
    /// With --synthetic: how many random pairs to route (1 to 1000000).
    #[arg(long, value_name = "N", default_value_t = 200, requires = "synthetic",
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    queries: u32,
    /// With --synthetic: how many of them to check against the naive 26-neighbour A*
    /// (0 to 1000000).
    #[arg(long, value_name = "K", default_value_t = 5, requires = "synthetic",
          value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    verify: u32,
}

/// The names `--engine` accepts: the planner's engines, then the crate.
const FLAT_ENGINES: [&str; 4] = ["A*", "JPS", "JPS+", "pathfinding"];

/// The largest difference accepted between a 3D route's length and the optimal cost.
const TOLERANCE_3D: f64 = 0.01;

fn main() -> ExitCode {
    finish("movingai", run(&Args::parse()))
}

fn read(path: &Path) -> Result<String, String> {
    read_text(path, MAX_INPUT_BYTES)
}

fn run(args: &Args) -> Result<(), String> {
    let limit = args.limit.map_or(usize::MAX, |n| n as usize);
    if let Some(side) = args.synthetic {
        return run_synthetic(side, args.queries as usize, args.verify as usize);
    }
    let scen_path = args
        .scenarios
        .clone()
        .ok_or("give a scenario file, or --synthetic SIDE")?;
    let voxel = scen_path.extension().is_some_and(|e| e == "3dscen");
    let suffix = if voxel { ".3dscen" } else { ".scen" };
    // The scenario file is read first: it is the file the user named.
    let scen_text = read(&scen_path)?;
    let derived = args.map.is_none();
    let map_path = match args.map.clone() {
        Some(path) => path,
        None => scen_path
            .to_str()
            .and_then(|s| s.strip_suffix(suffix))
            .map(PathBuf::from)
            .ok_or_else(|| {
                format!(
                    "{} does not end in {suffix}, so the map cannot be found beside it: give --map",
                    scen_path.display()
                )
            })?,
    };

    let map_text = read(&map_path).map_err(|e| {
        if derived {
            format!("{e} (the map named after the scenario file; give --map)")
        } else {
            e
        }
    })?;
    if voxel {
        return run_voxel(
            (&scen_path, &scen_text),
            (&map_path, &map_text),
            limit,
            &args.engines,
        );
    }
    let grid = parse_movingai_map(&map_text).map_err(|e| format!("{}: {e}", map_path.display()))?;
    let mut scenarios =
        parse_movingai_scen(&scen_text).map_err(|e| format!("{}: {e}", scen_path.display()))?;
    scenarios.truncate(limit);
    run_flat(&map_path, &grid, &scenarios, args)
        .map_err(|e| format!("{}: {e}", scen_path.display()))
}

/// One flat-world engine's run over the scenarios: voxnav's planner with one engine, or the
/// `pathfinding` crate.
struct FlatRun {
    name: &'static str,
    planner: Option<GridPlanner>,
    /// The first round's summary (every round plans the same routes).
    summary: BenchmarkSummary,
    /// The fastest round's search time.
    best: Option<Duration>,
}

fn run_flat(
    map_path: &Path,
    grid: &Grid2d,
    scenarios: &[Scenario],
    args: &Args,
) -> voxnav::Result<()> {
    let rounds = args.rounds as usize;
    let wanted = |name: &str| args.engines.is_empty() || args.engines.iter().any(|e| e == name);
    let (width, height, free) = (grid.width(), grid.height(), grid.free_cells());
    println!(
        "map {}: {width} x {height}, {free} free cells",
        map_path.display()
    );
    println!("scenarios run: {}", scenarios.len());
    let mut runs = Vec::new();
    for engine in GridEngine::ALL.into_iter().filter(|e| wanted(e.name())) {
        let started = Instant::now();
        let planner = GridPlanner::octile(grid.clone())?.with_engine(engine)?;
        if engine == GridEngine::JpsPlus {
            println!(
                "JPS+ jump table built in {:.3} ms (planner and walk graph included)",
                started.elapsed().as_secs_f64() * 1e3
            );
        }
        runs.push(FlatRun {
            name: engine.name(),
            planner: Some(planner),
            summary: BenchmarkSummary::default(),
            best: None,
        });
    }
    if wanted("pathfinding") {
        runs.push(FlatRun {
            name: "pathfinding",
            planner: None,
            summary: BenchmarkSummary::default(),
            best: None,
        });
    }
    // The engines take turns, each round starting with the next one, and each keeps its
    // fastest round: on a shared machine a neighbour's burst slows one pass, not all.
    let engines = runs.len();
    let reversed: Vec<Scenario> = scenarios.iter().rev().cloned().collect();
    for round in 0..rounds {
        for turn in 0..engines {
            let run = &mut runs[(round + turn) % engines];
            // Every engine, the crate's included, runs the scenarios once untimed right
            // before its timed run: the timed run then starts with its own data and branch
            // tables warm rather than the previous engine's, a cost per run and not per query
            // that weighed 0.05 to 0.1 us per query on `arena` whatever the engine (a fifth of
            // a JPS+ query, a hundredth of the crate's). In reverse order: a warm-up in the
            // timed order let the branch predictor learn the short run's exact sequence, 0.02
            // us per query more off JPS+ and nothing off the crate, whose run is too long to
            // learn.
            let mut run_once = |list: &[Scenario]| match &mut run.planner {
                Some(planner) => run_scenarios(planner, list),
                None => run_crate_scenarios(grid, list),
            };
            run_once(&reversed)?;
            let summary = run_once(scenarios)?;
            if round == 0 {
                run.summary = summary;
            }
            run.best = Some(
                run.best
                    .map_or(summary.search_time, |t| t.min(summary.search_time)),
            );
        }
    }
    let micros = |run: &FlatRun| {
        run.best.unwrap_or_default().as_secs_f64() * 1e6 / scenarios.len().max(1) as f64
    };
    let micros_of = |name: &str| runs.iter().find(|r| r.name == name).map_or(0.0, micros);
    let (crate_micros, astar_micros) = (micros_of("pathfinding"), micros_of("A*"));
    println!(
        "fastest of {rounds} rounds, each timed run right after an untimed one of the same engine in reverse order; passed: length within {LENGTH_TOLERANCE:e} relative of the optimal one"
    );
    println!(
        "| engine | us per query | expansions per query | passed | failed | worst relative | crate / engine | A* / engine |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for run in &runs {
        let us = micros(run);
        let ratio = |other: f64| if us > 0.0 { other / us } else { 0.0 };
        println!(
            "| {} | {us:.2} | {:.1} | {} | {} | {:.1e} | {:.1} | {:.1} |",
            run.name,
            run.summary.expansions_per_query(),
            run.summary.passed,
            run.summary.failed,
            run.summary.worst_relative,
            ratio(crate_micros),
            ratio(astar_micros),
        );
    }
    let passed = runs.iter().map(|r| r.summary.passed).min().unwrap_or(0);
    let failed = runs.iter().map(|r| r.summary.failed).max().unwrap_or(0);
    println!("{passed} passed, {failed} failed");
    Ok(())
}

/// Totals of a run of 3D queries.
#[derive(Default)]
struct Totals {
    queries: usize,
    passed: usize,
    failed: usize,
    search_time: Duration,
    expanded: u64,
    generated: u64,
    most_generated: u64,
}

impl Totals {
    fn print(&self) {
        let seconds = self.search_time.as_secs_f64();
        println!("total search time: {:.3} ms", seconds * 1e3);
        println!(
            "mean per query: {:.1} us",
            if self.queries == 0 {
                0.0
            } else {
                seconds * 1e6 / self.queries as f64
            }
        );
        println!(
            "node expansions: {} ({:.2} million per second)",
            self.expanded,
            if seconds > 0.0 {
                self.expanded as f64 / seconds / 1e6
            } else {
                0.0
            }
        );
        println!(
            "nodes generated: {} (at most {} in one search)",
            self.generated, self.most_generated
        );
    }
}

/// The 3D engines `--engine` picks from: the flier's A*, its jump point search, and the same
/// with its face and edge jumps precomputed (`JumpTables`, built once before the queries).
const VOXEL_ENGINES: [&str; 3] = ["A*", "JPS", "JPS+"];

fn run_voxel(
    (scen_path, scen_text): (&Path, &str),
    (map_path, map_text): (&Path, &str),
    limit: usize,
    engines: &[String],
) -> Result<(), String> {
    let world =
        parse_movingai_3dmap(map_text).map_err(|e| format!("{}: {e}", map_path.display()))?;
    let mut file =
        parse_movingai_3dscen(scen_text).map_err(|e| format!("{}: {e}", scen_path.display()))?;
    file.scenarios.truncate(limit);
    let size = world.size();
    println!(
        "map {}: {} x {} x {}, {} free voxels",
        map_path.display(),
        size.x,
        size.y,
        size.z,
        world.free_cells()
    );
    println!(
        "scenarios run: {} (flier of height 1, 26 neighbours, costs 1 / sqrt 2 / sqrt 3 at scale {OCTILE_SCALE})",
        file.scenarios.len()
    );
    let mut pathfinder = flying::flier();
    let mut jump = flying::jump_flier();
    let options = SearchOptions::default();
    if let Some(other) = engines
        .iter()
        .find(|e| !VOXEL_ENGINES.contains(&e.as_str()))
    {
        return Err(format!(
            "--engine {other} runs on 2D maps only; a 3D file runs {} and {}",
            VOXEL_ENGINES[..VOXEL_ENGINES.len() - 1].join(", "),
            VOXEL_ENGINES[VOXEL_ENGINES.len() - 1]
        ));
    }
    let wanted = |name: &str| engines.is_empty() || engines.iter().any(|e| e == name);
    // A map too large for jump tables still runs the other engines, unless JPS+ alone was
    // asked for.
    let tables = if wanted("JPS+") {
        let started = Instant::now();
        match JumpTables::build(&world, Agent::flier(1)) {
            Ok(tables) => {
                println!(
                    "JPS+ jump tables built in {:.1} ms, {:.1} MB",
                    started.elapsed().as_secs_f64() * 1e3,
                    tables.bytes() as f64 / 1e6
                );
                Some(tables)
            }
            Err(e) if engines.is_empty() => {
                println!("JPS+ left out: {e}");
                None
            }
            Err(e) => return Err(format!("{}: jump tables: {e}", map_path.display())),
        }
    } else {
        None
    };
    let mut runs = Vec::new();
    let runnable = |name: &&&str| wanted(name) && (**name != "JPS+" || tables.is_some());
    for name in VOXEL_ENGINES.iter().filter(runnable) {
        println!("engine {name}:");
        let mut totals = Totals::default();
        let (mut worst, mut worst_line) = (0.0f64, None);
        for scenario in &file.scenarios {
            let (start, goal) = (scenario.start, scenario.goal);
            let result = match (*name, &tables) {
                ("A*", _) => pathfinder.find_path(&world, start, goal, &options),
                ("JPS+", Some(tables)) => {
                    jump.find_path_with_tables(tables, &world, start, goal, &options)
                }
                // JPS (JPS+ runs only with its tables, above).
                _ => jump.find_path(&world, start, goal, &options),
            }
            .map_err(|e| format!("{}: line {}: {e}", scen_path.display(), scenario.line))?;
            let length = if result.status == SearchStatus::Found {
                voxel_route_length(&result.path).unwrap_or(f64::INFINITY)
            } else {
                f64::INFINITY
            };
            let difference = (length - scenario.optimal).abs();
            if difference <= TOLERANCE_3D {
                totals.passed += 1;
            } else {
                totals.failed += 1;
                if totals.failed <= 10 {
                    println!(
                        "line {}: {start} -> {goal}: {} with length {length:.6}, optimal {:.6}",
                        scenario.line, result.status, scenario.optimal
                    );
                }
            }
            if worst_line.is_none() || difference > worst {
                (worst, worst_line) = (difference, Some(scenario.line));
            }
            totals.add(&result.stats);
        }
        match worst_line {
            Some(line) => println!("worst difference: {worst:.6} (scenario on line {line})"),
            None => println!("worst difference: none (no scenarios)"),
        }
        totals.print();
        runs.push((*name, totals));
    }
    let micros =
        |totals: &Totals| totals.search_time.as_secs_f64() * 1e6 / totals.queries.max(1) as f64;
    let astar_micros = runs
        .iter()
        .find(|(name, _)| *name == "A*")
        .map(|(_, totals)| micros(totals));
    println!("| engine | us per query | expansions per query | passed | failed | A* / engine |");
    println!("|---|---|---|---|---|---|");
    for (name, totals) in &runs {
        let us = micros(totals);
        println!(
            "| {name} | {us:.1} | {:.1} | {} | {} | {} |",
            totals.expanded as f64 / totals.queries.max(1) as f64,
            totals.passed,
            totals.failed,
            astar_micros.map_or(String::new(), |a| format!("{:.2}", a / us.max(1e-9)))
        );
    }
    let passed = runs.iter().map(|(_, t)| t.passed).min().unwrap_or(0);
    let failed = runs.iter().map(|(_, t)| t.failed).max().unwrap_or(0);
    println!("{passed} passed, {failed} failed");
    Ok(())
}

impl Totals {
    fn add(&mut self, stats: &voxnav::engine::SearchStats) {
        self.queries += 1;
        self.search_time += stats.elapsed;
        self.expanded += stats.expanded;
        self.generated += stats.generated;
        self.most_generated = self.most_generated.max(stats.generated);
    }
}

/// The peak resident set size of this process in bytes (Linux), if known.
fn peak_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Expansions per second of the searches of `results`, grouped by the nodes they generated:
/// whether a search slows down as it grows past the caches.
fn print_by_size(results: &[voxnav::SearchResult]) {
    const SIZES: [(u64, u64, &str); 4] = [
        (0, 10_000, "under 10 000"),
        (10_000, 100_000, "10 000 to 100 000"),
        (100_000, 1_000_000, "100 000 to 1 million"),
        (1_000_000, u64::MAX, "over 1 million"),
    ];
    println!("| nodes generated per search | searches | expansions | million per second |");
    println!("|---|---|---|---|");
    for (low, high, label) in SIZES {
        let group: Vec<_> = results
            .iter()
            .filter(|r| (low..high).contains(&r.stats.generated))
            .collect();
        let expanded: u64 = group.iter().map(|r| r.stats.expanded).sum();
        let seconds: f64 = group.iter().map(|r| r.stats.elapsed.as_secs_f64()).sum();
        if group.is_empty() || seconds <= 0.0 {
            continue;
        }
        println!(
            "| {label} | {} | {expanded} | {:.2} |",
            group.len(),
            expanded as f64 / seconds / 1e6
        );
    }
}

fn run_synthetic(side: i32, queries: usize, verify: usize) -> Result<(), String> {
    let size = IVec3::new(side, side / 2, side);
    let world: DenseWorld = flying::synthetic_world(size, 20, 7);
    let pairs = flying::random_pairs(&world, queries, side / 4, 11);
    println!(
        "synthetic world: {} x {} x {}, {} free voxels, pillars and slabs (seed 7)",
        size.x,
        size.y,
        size.z,
        world.free_cells()
    );
    println!(
        "queries run: {} (flier of height 1, costs 1 / sqrt 2 / sqrt 3 at scale {OCTILE_SCALE})",
        pairs.len()
    );
    let mut pathfinder = flying::flier();
    let options = SearchOptions::default();
    let before = peak_resident_bytes();
    let mut totals = Totals::default();
    let mut found = Vec::with_capacity(pairs.len());
    for &(start, goal) in &pairs {
        let result = pathfinder
            .find_path(&world, start, goal, &options)
            .map_err(|e| e.to_string())?;
        totals.add(&result.stats);
        found.push(result);
    }
    let after = peak_resident_bytes();
    let unreachable = found
        .iter()
        .filter(|r| r.status == SearchStatus::Unreachable)
        .count();
    println!(
        "found: {}, unreachable: {unreachable}",
        pairs.len() - unreachable
    );
    totals.print();
    print_by_size(&found);
    if let (Some(before), Some(after)) = (before, after)
        && totals.most_generated > 0
    {
        println!(
            "peak memory growth: {:.1} MiB, {:.1} bytes per node of the largest search",
            (after - before) as f64 / 1_048_576.0,
            (after - before) as f64 / totals.most_generated as f64
        );
    }
    let costs = MoveCosts::octile();
    let mut failed = 0;
    for (&(start, goal), result) in pairs.iter().zip(&found).take(verify) {
        let naive = baseline::find_flier_path(&world, start, goal, None, &costs)
            .map_err(|e| e.to_string())?;
        let legal = result.path.windows(2).all(|w| {
            voxnav::engine::move_between(&world, pathfinder.agent(), &costs, w[0], w[1]).is_some()
        }) && result.path.iter().all(|&p| world.is_passable(p));
        if naive.cost != result.cost || !legal {
            failed += 1;
            println!(
                "{start} -> {goal}: voxnav {:?} (legal {legal}), naive {:?}",
                result.cost, naive.cost
            );
        }
    }
    let verified = verify.min(pairs.len());
    println!("costs of the first {verified} routes checked against the naive 26-neighbour A*");
    println!("{} passed, {failed} failed", verified - failed);
    Ok(())
}
