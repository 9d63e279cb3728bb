//! Long routes on the built-in terrain: plain A* over the compiled walk graph against the
//! hierarchy of cells (`voxnav::hier`), same queries, same process (issue 24's benchmark).
//!
//! ```sh
//! cargo run --release --example long                 # 2048 x 128 x 2048, 200 pairs
//! cargo run --release --example long -- --quick      # 512 x 128 x 512, 20 pairs, for CI
//! HIER_ENGINE=graph|hier cargo run ...               # one engine only (for callgrind)
//! ```
//!
//! It prints the graph's compile time and memory, the hierarchy's build time, memory and
//! portals; per engine the mean and p99 time per query, mean expansions, and the cost ratio
//! (hierarchy over A*; the hierarchy is exact, so 1.000, and any other answer is counted as a
//! mismatch); and the time per block edit to keep the graph and the hierarchy current.
//!
//! Pairs are 500 to 2 000 blocks apart (in smaller worlds 45% to 90% of the side) on the
//! surface and connected (the hierarchy's answer decides: it is exact).

#[cfg(feature = "terrain")]
#[path = "support/src/mod.rs"]
mod support;

#[cfg(not(feature = "terrain"))]
fn main() {
    eprintln!("long: needs the `terrain` feature (on by default)");
}

#[cfg(feature = "terrain")]
fn main() -> std::process::ExitCode {
    support::args::finish("long", bench::run(&bench::parse()))
}

#[cfg(feature = "terrain")]
mod bench {
    use std::time::{Duration, Instant};

    use clap::Parser;
    use voxnav::graph::{GraphSearch, NavGraph};
    use voxnav::hier::{HierSearch, Hierarchy, Reach};
    use voxnav::search::heuristic::Heuristic;
    use voxnav::terrain::{TerrainConfig, generate_terrain};
    use voxnav::world::pick::pick_pairs;
    use voxnav::{Agent, Block, IVec3, MoveCosts, SearchOptions, SearchStatus};

    use super::support::args::describe_bytes;
    use super::support::timing::Stopwatch;

    /// Long routes: graph A* against the hierarchy.
    #[derive(Parser)]
    #[command(name = "long")]
    pub struct Args {
        /// The world's width and depth in blocks (64 to 4096; it is 128 tall).
        #[arg(long, default_value_t = 2048, value_parser = clap::value_parser!(i32).range(64..=4096))]
        size: i32,
        /// Start/goal pairs to route (1 to 5000).
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=5000))]
        pairs: u32,
        /// Block edits to time (0 to 100000).
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(0..=100_000))]
        edits: u32,
        /// The world's seed.
        #[arg(long, default_value_t = TerrainConfig::default().seed)]
        seed: u64,
        /// The weight of the weighted rows (the hierarchy and A* with the heuristic times
        /// this; their costs are at most this times the optimal); 1 for none.
        #[arg(long, default_value_t = 1.05)]
        weight: f64,
        /// A world of 512 and 20 pairs and 50 edits: a run in CI time.
        #[arg(long)]
        quick: bool,
    }

    pub fn parse() -> Args {
        let mut args = Args::parse();
        if args.quick {
            args.size = 512;
            args.pairs = 20;
            args.edits = 50;
        }
        args
    }

    /// Which engines to run (`HIER_ENGINE=graph` or `hier` runs one, for callgrind).
    fn engines() -> (bool, bool) {
        match std::env::var("HIER_ENGINE").as_deref() {
            Ok("graph") => (true, false),
            Ok("hier") => (false, true),
            _ => (true, true),
        }
    }

    /// An engine, whether its heuristic is weighted, and per pair its time, expansions and
    /// cost.
    type Row = (&'static str, bool, Vec<(Duration, u64, Option<u64>)>);

    /// Mean and 99th percentile of `times`, in milliseconds.
    fn mean_p99(times: &mut [Duration]) -> (f64, f64) {
        if times.is_empty() {
            return (0.0, 0.0);
        }
        times.sort_unstable();
        let mean = times.iter().map(Duration::as_secs_f64).sum::<f64>() / times.len() as f64;
        let p99 = times[((times.len() * 99).div_ceil(100)).saturating_sub(1)].as_secs_f64();
        (mean * 1e3, p99 * 1e3)
    }

    pub fn run(args: &Args) -> Result<(), String> {
        let (run_graph, run_hier) = engines();
        let agent = Agent::default();
        let costs = MoveCosts::default();
        let config = TerrainConfig::default()
            .with_seed(args.seed)
            .with_size(args.size, 128, args.size);
        let mut world = generate_terrain(&config).map_err(|e| e.to_string())?;
        let clock = Stopwatch::start();

        let started = Instant::now();
        let mut graph = NavGraph::compile(&world, &agent).map_err(|e| e.to_string())?;
        let compile = started.elapsed();
        let started = Instant::now();
        let mut hier = Hierarchy::build(&graph, &costs).map_err(|e| e.to_string())?;
        let build = started.elapsed();
        let graph_bytes = graph.memory_bytes();
        let hier_bytes = hier.memory_bytes();
        println!(
            "world {0} x 128 x {0} (seed {1}): {2} feet positions",
            args.size,
            args.seed,
            graph.node_count()
        );
        println!(
            "graph: compile {:.0} ms, {}",
            compile.as_secs_f64() * 1e3,
            describe_bytes(graph_bytes as u64)
        );
        println!(
            "hierarchy: build {:.0} ms ({:.2}x the compile), {} ({:.0}% on top of the graph), \
             {} cells, {} portals ({:.1} per cell)",
            build.as_secs_f64() * 1e3,
            build.as_secs_f64() / compile.as_secs_f64(),
            describe_bytes(hier_bytes as u64),
            100.0 * hier_bytes as f64 / graph_bytes as f64,
            hier.cell_count(),
            hier.portal_count(),
            hier.portal_count() as f64 / hier.cell_count().max(1) as f64
        );

        let max_distance = (args.size as f32 * 0.9).min(2000.0);
        let min_distance = (args.size as f32 * 0.45).min(500.0);
        let options = SearchOptions::default();
        let mut hier_search = HierSearch::new();
        let mut graph_search = GraphSearch::new(costs).map_err(|e| e.to_string())?;
        graph_search.reserve_for(&graph);
        let mut pairs = Vec::new();
        for (start, goal) in pick_pairs(
            &world,
            &agent,
            args.seed,
            args.pairs as usize * 3,
            min_distance..=max_distance,
        ) {
            if pairs.len() == args.pairs as usize {
                break;
            }
            // The hierarchy decides (it is exact), or the graph's A* when it runs alone, so
            // that a callgrind run of either engine counts the same searches.
            let result = if run_hier {
                hier_search.find_path(&hier, &graph, start, goal, &options)
            } else {
                graph_search.find_path(&graph, start, goal, &options)
            };
            let found = result.map_err(|e| e.to_string())?.is_found();
            if found {
                pairs.push((start, goal));
            }
        }
        println!(
            "{} connected pairs {min_distance:.0} to {max_distance:.0} blocks apart",
            pairs.len()
        );

        let weighted = SearchOptions::default().with_heuristic(
            Heuristic::default()
                .with_weight(args.weight)
                .map_err(|e| e.to_string())?,
        );
        let mut rows: Vec<Row> = Vec::new();
        if run_graph {
            rows.push(("graph A*", false, Vec::new()));
        }
        if run_hier {
            rows.push(("hierarchy", false, Vec::new()));
        }
        if args.weight > 1.0 {
            if run_graph {
                rows.push(("graph A*", true, Vec::new()));
            }
            if run_hier {
                rows.push(("hierarchy", true, Vec::new()));
            }
        }
        for &(start, goal) in &pairs {
            for (engine, is_weighted, runs) in &mut rows {
                let options = if *is_weighted { &weighted } else { &options };
                let started = Instant::now();
                let result = if *engine == "graph A*" {
                    graph_search.find_path(&graph, start, goal, options)
                } else {
                    hier_search.find_path(&hier, &graph, start, goal, options)
                }
                .map_err(|e| e.to_string())?;
                runs.push((started.elapsed(), result.stats.expanded, result.cost));
            }
        }
        // The optimal costs: the first exact row's.
        let optimal: Vec<Option<u64>> = rows
            .first()
            .map(|(_, _, runs)| runs.iter().map(|run| run.2).collect())
            .unwrap_or_default();
        let count = pairs.len().max(1) as f64;
        let baseline = rows
            .iter()
            .find(|(engine, is_weighted, _)| *engine == "graph A*" && !is_weighted)
            .map(|(_, _, runs)| {
                let mut times: Vec<Duration> = runs.iter().map(|run| run.0).collect();
                mean_p99(&mut times).0
            });
        println!(
            "engine     weight   mean ms    p99 ms   expansions  speed-up  cost ratio mean / worst"
        );
        let mut mismatches = 0;
        for (engine, is_weighted, runs) in &rows {
            let mut times: Vec<Duration> = runs.iter().map(|run| run.0).collect();
            let (mean, p99) = mean_p99(&mut times);
            let expanded = runs.iter().map(|run| run.1).sum::<u64>() as f64 / count;
            let ratios: Vec<f64> = runs
                .iter()
                .zip(&optimal)
                .filter_map(|(run, best)| Some(run.2? as f64 / (*best)?.max(1) as f64))
                .collect();
            let ratio_mean = ratios.iter().sum::<f64>() / ratios.len().max(1) as f64;
            let ratio_worst = ratios.iter().copied().fold(0.0, f64::max);
            if !is_weighted && runs.iter().zip(&optimal).any(|(run, best)| run.2 != *best) {
                mismatches += 1;
            }
            let weight = if *is_weighted { args.weight } else { 1.0 };
            let speed_up = baseline.map_or(String::from("-"), |base| {
                format!("{:.1}x", base / mean.max(1e-9))
            });
            println!(
                "{engine:<10} {weight:>6.2} {mean:>9.3} {p99:>9.3} {expanded:>12.0} {speed_up:>9}  \
                 {ratio_mean:.4} / {ratio_worst:.4}"
            );
        }

        // Block edits on the surface: a solid block on the feet of a route's start, or the
        // block under it removed, each followed by the graph's and the hierarchy's update.
        world.track_changes(true);
        let (mut graph_edit, mut hier_edit) = (Vec::new(), Vec::new());
        let edit_points = pick_pairs(
            &world,
            &agent,
            args.seed ^ 0xed17,
            args.edits as usize,
            16.0..=64.0,
        );
        for (i, &(feet, _)) in edit_points.iter().enumerate() {
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
            graph_edit.push(started.elapsed());
            let started = Instant::now();
            hier.update(&graph, &update).map_err(|e| e.to_string())?;
            hier_edit.push(started.elapsed());
        }
        let p50 = |times: &mut Vec<Duration>| {
            times.sort_unstable();
            times
                .get(times.len() / 2)
                .map_or(0.0, |t| t.as_secs_f64() * 1e6)
        };
        let (_, graph_edit_p99) = mean_p99(&mut graph_edit);
        let (_, hier_edit_p99) = mean_p99(&mut hier_edit);
        println!(
            "{} block edits: graph update p50 {:.0} us, p99 {:.0} us; hierarchy update p50 {:.0} \
             us, p99 {:.0} us",
            graph_edit.len(),
            p50(&mut graph_edit),
            graph_edit_p99 * 1e3,
            p50(&mut hier_edit),
            hier_edit_p99 * 1e3
        );
        // The components' labels, stale after the edits, relabelled once over the whole
        // overlay; then the reachability answer for every pair (all connected, so never
        // "unreachable").
        let started = Instant::now();
        hier.refresh_components(&graph);
        let relabel = started.elapsed();
        let started = Instant::now();
        let mut unreachable = 0;
        for &(start, goal) in &pairs {
            let answer = hier_search
                .reachability(&hier, &graph, start, goal)
                .map_err(|e| e.to_string())?;
            unreachable += usize::from(answer == Reach::Unreachable);
        }
        println!(
            "components relabelled in {:.1} ms; reachability {:.1} us per pair, {unreachable} \
             of {} connected pairs called unreachable",
            relabel.as_secs_f64() * 1e3,
            started.elapsed().as_secs_f64() * 1e6 / count,
            pairs.len()
        );
        if unreachable > 0 {
            return Err(format!(
                "{unreachable} connected pairs were called unreachable"
            ));
        }
        // After the edits, a sample of the pairs again: the updated hierarchy still agrees
        // with A* on the updated graph.
        if run_graph && run_hier {
            let mut differ = 0;
            for &(start, goal) in pairs.iter().take(10) {
                let (Ok(plain), Ok(ours)) = (
                    graph_search.find_path(&graph, start, goal, &options),
                    hier_search.find_path(&hier, &graph, start, goal, &options),
                ) else {
                    continue;
                };
                if plain.cost != ours.cost
                    || (plain.status == SearchStatus::Found) != ours.is_found()
                {
                    differ += 1;
                }
            }
            println!("after the edits, {differ} of the first 10 pairs differ from A*");
            if differ > 0 || mismatches > 0 {
                return Err(format!(
                    "the hierarchy's exact answers differ from A*'s ({mismatches} rows before \
                     the edits, {differ} pairs after)"
                ));
            }
        }
        if let Some(note) = clock.busy_note() {
            println!("{note}");
        }
        Ok(())
    }
}
