//! Long routes on the built-in terrain: plain A* over the compiled walk graph against the
//! exact hierarchy of cells and the inexact HPA*-style abstraction (`voxnav::hier`), same
//! queries, same process (issue 24's benchmark).
//!
//! ```sh
//! cargo run --release --example long                 # 2048 x 128 x 2048, 200 pairs
//! cargo run --release --example long -- --quick      # 512 x 128 x 512, 20 pairs, for CI
//! HIER_ENGINE=graph|hier|hpa cargo run ...           # one engine only (for callgrind);
//!                                                    # a comma list runs several
//! valgrind --tool=callgrind --toggle-collect='*timed_hpa*' target/release/examples/long ...
//!                                                    # the timed queries' instructions
//!                                                    # (`*timed_graph*` for graph A*)
//! ```
//!
//! It prints the graph's compile time and memory, the hierarchy's build time, memory and
//! portals; per engine the mean and p99 time per query, mean expansions, and the cost ratio
//! (over the first exact row's; the hierarchy is exact, so 1.000, and any other answer is
//! counted as a mismatch; the abstraction's ratio is its measured bound, and a worst ratio
//! above 1.05 fails the run); the abstraction's first queries on a fresh search, not sized
//! ahead (what a server's first long route costs); graph A*'s and the abstraction's mean
//! times by fifths of the pairs by distance, when both ran; and the time per block edit to
//! keep the graph, the hierarchy and the abstraction current.
//!
//! Pairs are 500 to 2 000 blocks apart (in smaller worlds 45% to 90% of the side) on the
//! surface and connected (the first engine's answer decides: every engine's "unreachable" is
//! exact). `--world PATH` routes on a Minecraft save instead (pairs 48 to 600 blocks apart on
//! the surface of its loaded chunks; block edits there too).

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

    use clap::parser::ValueSource;
    use clap::{CommandFactory, FromArgMatches, Parser};
    use voxnav::graph::{GraphSearch, NavGraph};
    use voxnav::hier::{AbstractSearch, Abstraction, HierSearch, Hierarchy, Reach};
    use voxnav::search::heuristic::Heuristic;
    use voxnav::terrain::{TerrainConfig, generate_terrain};
    use voxnav::world::pick::pick_pairs;
    use voxnav::{Agent, Block, ChunkedWorld, IVec3, MoveCosts, SearchOptions};

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
        #[arg(long, default_value_t = 1.05, value_parser = parse_weight)]
        weight: f64,
        /// A world of 512, 20 pairs and 50 edits (those given beside it win): a run in CI
        /// time.
        #[arg(long)]
        quick: bool,
        /// Compute the abstraction's landmarks again (untimed) after every edit that drops
        /// them, as a server would off the tick, so that every edit is timed with them.
        #[arg(long)]
        refresh_landmarks: bool,
        /// The pairs' straight-line distance in blocks along x and z, least and most (by
        /// default 45% and 90% of the size, at most 500 and 2 000).
        #[arg(long, num_args = 2, value_names = ["MIN", "MAX"],
              value_parser = clap::value_parser!(u32).range(1..=100_000))]
        distance: Option<Vec<u32>>,
        /// A Minecraft Java save instead of the terrain (a save folder holding `region/`, a
        /// folder of region files, or one region file; needs the `anvil` feature): pairs on
        /// the surface of its loaded chunks, by default 48 to 600 blocks apart.
        #[arg(long, value_name = "PATH")]
        world: Option<String>,
    }

    /// A heuristic weight as [`Heuristic::with_weight`] takes it (finite, at least 1), checked
    /// before anything is built.
    fn parse_weight(text: &str) -> Result<f64, String> {
        let weight: f64 = text.parse().map_err(|e| format!("{e}"))?;
        Heuristic::default()
            .with_weight(weight)
            .map(|_| weight)
            .map_err(|e| e.to_string())
    }

    /// The arguments, `--quick` setting the size, pairs and edits not given beside it.
    pub fn parse() -> Args {
        let matches = Args::command().get_matches();
        let mut args = Args::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
        if args.quick {
            let given = |id: &str| matches.value_source(id) == Some(ValueSource::CommandLine);
            if !given("size") {
                args.size = 512;
            }
            if !given("pairs") {
                args.pairs = 20;
            }
            if !given("edits") {
                args.edits = 50;
            }
        }
        args
    }

    /// Which engines to run: graph A*, the exact hierarchy, the abstraction
    /// (`HIER_ENGINE=graph`, `hier`, `hpa`, or a comma list of them; all by default).
    fn engines() -> (bool, bool, bool) {
        match std::env::var("HIER_ENGINE") {
            Ok(list) => {
                let has = |name: &str| list.split(',').any(|engine| engine.trim() == name);
                (has("graph"), has("hier"), has("hpa"))
            }
            Err(_) => (true, true, true),
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

    /// Prints one structure's build time and memory against the graph's.
    /// What a structure's build cost: time against the compile, memory against the graph,
    /// cells and portals.
    struct Built {
        build: Duration,
        bytes: usize,
        cells: usize,
        portals: usize,
    }

    fn describe_build(name: &str, built: &Built, compile: Duration, graph: usize) {
        println!(
            "{name}: build {:.0} ms ({:.2}x the compile), {} ({:.0}% on top of the graph)",
            built.build.as_secs_f64() * 1e3,
            built.build.as_secs_f64() / compile.as_secs_f64(),
            describe_bytes(built.bytes as u64),
            100.0 * built.bytes as f64 / graph as f64,
        );
        println!(
            "  {} cells, {} portals ({:.1} per cell)",
            built.cells,
            built.portals,
            built.portals as f64 / built.cells.max(1) as f64
        );
    }

    /// The p50 of `times` in microseconds.
    fn p50(times: &mut [Duration]) -> f64 {
        times.sort_unstable();
        times
            .get(times.len() / 2)
            .map_or(0.0, |t| t.as_secs_f64() * 1e6)
    }

    /// One timed query of graph A*: a function of its own so that callgrind can count the
    /// timed queries alone (`--toggle-collect='*timed_graph*'`), without the choice of pairs
    /// or the checks after the edits.
    #[inline(never)]
    fn timed_graph(
        search: &mut GraphSearch,
        graph: &NavGraph,
        (start, goal): (IVec3, IVec3),
        options: &SearchOptions,
    ) -> voxnav::Result<voxnav::SearchResult> {
        search.find_path(graph, start, goal, options)
    }

    /// One timed query of the abstraction (`--toggle-collect='*timed_hpa*'`), as
    /// [`timed_graph`].
    #[inline(never)]
    fn timed_hpa(
        search: &mut AbstractSearch,
        hpa: &Abstraction,
        graph: &NavGraph,
        (start, goal): (IVec3, IVec3),
        options: &SearchOptions,
    ) -> voxnav::Result<voxnav::SearchResult> {
        search.find_path(hpa, graph, start, goal, options)
    }

    /// The speed-up by distance: the pairs in fifths by the horizontal distance between their
    /// ends, each fifth's mean time per query for graph A* and the abstraction (`runs`:
    /// time, expansions and cost per pair, in the order of `pairs`).
    fn by_distance(
        pairs: &[(IVec3, IVec3)],
        graph_runs: &[(Duration, u64, Option<u64>)],
        hpa_runs: &[(Duration, u64, Option<u64>)],
    ) {
        let mut order: Vec<(f64, usize)> = pairs
            .iter()
            .enumerate()
            .map(|(i, (start, goal))| {
                let d = (*goal - *start).as_vec3();
                (d.x.hypot(d.z).into(), i)
            })
            .collect();
        order.sort_by(|a, b| a.0.total_cmp(&b.0));
        let fifth = order.len().div_ceil(5).max(1);
        println!("by distance    pairs  graph A* ms   hpa ms  speed-up  hpa expansions");
        for part in order.chunks(fifth) {
            let mean = |runs: &[(Duration, u64, Option<u64>)]| {
                part.iter()
                    .map(|&(_, i)| runs[i].0.as_secs_f64())
                    .sum::<f64>()
                    * 1e3
                    / part.len() as f64
            };
            let (graph, hpa) = (mean(graph_runs), mean(hpa_runs));
            let expanded =
                part.iter().map(|&(_, i)| hpa_runs[i].1).sum::<u64>() as f64 / part.len() as f64;
            let (near, far) = (part[0].0, part[part.len() - 1].0);
            println!(
                "{near:>5.0}-{far:<5.0} {:>8} {graph:>12.3} {hpa:>8.3} {:>8.1}x {expanded:>15.0}",
                part.len(),
                graph / hpa.max(1e-9)
            );
        }
    }

    /// What a server's first long route costs: each of the first pairs answered by a fresh
    /// abstract search, not sized ahead (a new worker of a `Router`), then again by the same
    /// search. The first pays for the pages of its records (zeroed memory, mapped as the
    /// query reaches them); before, it wrote them all.
    fn first_queries(
        hpa: &Abstraction,
        graph: &NavGraph,
        pairs: &[(IVec3, IVec3)],
        options: &SearchOptions,
    ) -> Result<(), String> {
        let (mut first, mut again) = (Duration::ZERO, Duration::ZERO);
        let count = pairs.len().min(5);
        for &pair in &pairs[..count] {
            let mut fresh = AbstractSearch::new();
            for total in [&mut first, &mut again] {
                let started = Instant::now();
                // Not through `timed_hpa`: callgrind's count of the timed queries leaves these out.
                fresh
                    .find_path(hpa, graph, pair.0, pair.1, options)
                    .map_err(|e| e.to_string())?;
                *total += started.elapsed();
            }
        }
        if count > 0 {
            let ms = |total: Duration| total.as_secs_f64() * 1e3 / count as f64;
            println!(
                "hpa on a fresh search (not sized ahead), {count} pairs: first query {:.3} ms, \
                 the same query again {:.3} ms",
                ms(first),
                ms(again)
            );
        }
        Ok(())
    }

    /// The world to route on, and how to name it: the save `--world` names, or the terrain.
    fn world(args: &Args) -> Result<(ChunkedWorld, String), String> {
        let Some(path) = &args.world else {
            let config = TerrainConfig::default()
                .with_seed(args.seed)
                .with_size(args.size, 128, args.size);
            let world = generate_terrain(&config).map_err(|e| e.to_string())?;
            let about = format!("{0} x 128 x {0} (seed {1})", args.size, args.seed);
            return Ok((world, about));
        };
        #[cfg(feature = "anvil")]
        {
            let loaded = voxnav::anvil::load_world(path).map_err(|e| e.to_string())?;
            let about = format!("{path} ({} chunk columns)", loaded.loaded_chunks.len());
            Ok((loaded.world, about))
        }
        #[cfg(not(feature = "anvil"))]
        Err(format!("--world {path}: needs the `anvil` feature"))
    }

    pub fn run(args: &Args) -> Result<(), String> {
        let (run_graph, run_hier, run_hpa) = engines();
        // Checked before the world is built, which takes seconds.
        let (min_distance, max_distance) = match args.distance.as_deref() {
            Some(&[least, most]) if least <= most => (least as f32, most as f32),
            Some(_) => return Err("--distance: MIN must not exceed MAX".into()),
            None if args.world.is_some() => (48.0, 600.0),
            None => (
                (args.size as f32 * 0.45).min(500.0),
                (args.size as f32 * 0.9).min(2000.0),
            ),
        };
        let agent = Agent::default();
        let costs = MoveCosts::default();
        let (mut world, about) = world(args)?;
        let clock = Stopwatch::start();

        let started = Instant::now();
        let mut graph = NavGraph::compile(&world, &agent).map_err(|e| e.to_string())?;
        let compile = started.elapsed();
        let graph_bytes = graph.memory_bytes();
        println!("world {about}: {} feet positions", graph.node_count());
        println!(
            "graph: compile {:.0} ms, {}",
            compile.as_secs_f64() * 1e3,
            describe_bytes(graph_bytes as u64)
        );
        let mut hier = None;
        if run_hier {
            let started = Instant::now();
            let built = Hierarchy::build(&graph, &costs).map_err(|e| e.to_string())?;
            let cost = Built {
                build: started.elapsed(),
                bytes: built.memory_bytes(),
                cells: built.cell_count(),
                portals: built.portal_count(),
            };
            describe_build("hierarchy", &cost, compile, graph_bytes);
            hier = Some(built);
        }
        let mut hpa = None;
        if run_hpa {
            let started = Instant::now();
            let built = Abstraction::build(&graph, &costs).map_err(|e| e.to_string())?;
            let cost = Built {
                build: started.elapsed(),
                bytes: built.memory_bytes(),
                cells: built.cell_count(),
                portals: built.portal_count(),
            };
            describe_build("abstraction", &cost, compile, graph_bytes);
            hpa = Some(built);
        }

        let options = SearchOptions::default();
        let mut hier_search = HierSearch::new();
        let mut hpa_search = AbstractSearch::new();
        let mut graph_search = GraphSearch::new(costs).map_err(|e| e.to_string())?;
        graph_search.reserve_for(&graph);
        if let Some(hpa) = &hpa {
            hpa_search
                .reserve_for(hpa, &graph)
                .map_err(|e| e.to_string())?;
        }
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
            // The first engine run decides (every engine's "unreachable" is exact), so that a
            // callgrind run of any engine alone counts the same searches.
            let result = if let Some(hier) = &hier {
                hier_search.find_path(hier, &graph, start, goal, &options)
            } else if let (Some(hpa), false) = (&hpa, run_graph) {
                hpa_search.find_path(hpa, &graph, start, goal, &options)
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
        if let Some(hpa) = &hpa {
            first_queries(hpa, &graph, &pairs, &options)?;
        }

        let weighted = SearchOptions::default().with_heuristic(
            Heuristic::default()
                .with_weight(args.weight)
                .map_err(|e| e.to_string())?,
        );
        let mut rows: Vec<Row> = Vec::new();
        for is_weighted in [false, true] {
            if is_weighted && args.weight <= 1.0 {
                continue;
            }
            for (engine, runs) in [
                ("graph A*", run_graph),
                ("hierarchy", run_hier),
                ("hpa", run_hpa),
            ] {
                if runs {
                    rows.push((engine, is_weighted, Vec::new()));
                }
            }
        }
        for &(start, goal) in &pairs {
            for (engine, is_weighted, runs) in &mut rows {
                let options = if *is_weighted { &weighted } else { &options };
                let started = Instant::now();
                let result = match (*engine, &hier, &hpa) {
                    ("hierarchy", Some(hier), _) => {
                        hier_search.find_path(hier, &graph, start, goal, options)
                    }
                    ("hpa", _, Some(hpa)) => {
                        timed_hpa(&mut hpa_search, hpa, &graph, (start, goal), options)
                    }
                    _ => timed_graph(&mut graph_search, &graph, (start, goal), options),
                }
                .map_err(|e| e.to_string())?;
                runs.push((started.elapsed(), result.stats.expanded, result.cost));
            }
        }
        // The optimal costs: the first exact row's (graph A* or the hierarchy).
        let optimal: Vec<Option<u64>> = rows
            .iter()
            .find(|(engine, is_weighted, _)| *engine != "hpa" && !is_weighted)
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
        let mut hpa_worst: f64 = 0.0;
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
            if *engine == "hpa" {
                if !is_weighted {
                    hpa_worst = hpa_worst.max(ratio_worst);
                }
            } else if !is_weighted && runs.iter().zip(&optimal).any(|(run, best)| run.2 != *best) {
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
        let unweighted = |name: &str| {
            rows.iter()
                .find(|(engine, is_weighted, _)| *engine == name && !is_weighted)
                .map(|(_, _, runs)| runs.as_slice())
        };
        if let (Some(graph_runs), Some(hpa_runs)) = (unweighted("graph A*"), unweighted("hpa")) {
            by_distance(&pairs, graph_runs, hpa_runs);
        }

        // Block edits on the surface: a solid block on the feet of a route's start, or the
        // block under it removed, each followed by the graph's update and each structure's.
        world.track_changes(true);
        let (mut graph_edit, mut hier_edit, mut hpa_edit) = (Vec::new(), Vec::new(), Vec::new());
        // The edits after which the abstraction still had its landmarks, from the first on;
        // the abstraction's update times of edits made with landmarks, and the drops.
        let (mut landmarks_kept, mut with_landmarks, mut drops) = (0, Vec::new(), 0);
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
            if let Some(hier) = &mut hier {
                let started = Instant::now();
                hier.update(&graph, &update).map_err(|e| e.to_string())?;
                hier_edit.push(started.elapsed());
            }
            if let Some(hpa) = &mut hpa {
                let had = hpa.landmarks_current();
                let started = Instant::now();
                hpa.update(&graph, &update).map_err(|e| e.to_string())?;
                hpa_edit.push(started.elapsed());
                if had {
                    with_landmarks.push(started.elapsed());
                }
                if hpa.landmarks_current() {
                    if landmarks_kept == i {
                        landmarks_kept = i + 1;
                    }
                } else if had {
                    drops += 1;
                    if args.refresh_landmarks {
                        hpa.refresh_landmarks();
                    }
                }
            }
        }
        for (name, times) in [
            ("graph", &mut graph_edit),
            ("hierarchy", &mut hier_edit),
            ("abstraction", &mut hpa_edit),
        ] {
            if times.is_empty() {
                continue;
            }
            let (_, p99) = mean_p99(times);
            println!(
                "{} block edits: {name} update p50 {:.0} us, p99 {:.0} us",
                times.len(),
                p50(times),
                p99 * 1e3
            );
        }
        if !with_landmarks.is_empty() {
            let (_, p99) = mean_p99(&mut with_landmarks);
            println!(
                "  of them with the landmarks current: {} edits, p50 {:.0} us, p99 {:.0} us; \
                 {drops} dropped them",
                with_landmarks.len(),
                p50(&mut with_landmarks),
                p99 * 1e3
            );
        }
        if let Some(hpa) = &mut hpa {
            // An edit that makes an abstract edge cheaper or new drops the landmark
            // distances: computed again once, after the edits.
            let started = Instant::now();
            hpa.refresh_landmarks();
            if drops == 0 {
                println!("abstraction's landmarks kept through all the edits");
            } else if args.refresh_landmarks {
                println!(
                    "abstraction's landmarks kept through the first {landmarks_kept} edits, \
                     computed again (untimed) after each of the {drops} that dropped them"
                );
            } else {
                println!(
                    "abstraction's landmarks kept through the first {landmarks_kept} edits, \
                     then computed again in {:.1} ms",
                    started.elapsed().as_secs_f64() * 1e3
                );
            }
        }
        if let Some(hier) = &mut hier {
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
                    .reachability(hier, &graph, start, goal)
                    .map_err(|e| e.to_string())?;
                unreachable += usize::from(answer == Reach::Unreachable);
            }
            println!(
                "components relabelled in {:.1} ms; reachability {:.1} us per pair, \
                 {unreachable} of {} connected pairs called unreachable",
                relabel.as_secs_f64() * 1e3,
                started.elapsed().as_secs_f64() * 1e6 / count,
                pairs.len()
            );
            if unreachable > 0 {
                return Err(format!(
                    "{unreachable} connected pairs were called unreachable"
                ));
            }
        }
        // After the edits, a sample of the pairs again: the updated structures still agree
        // with A* on the updated graph (the hierarchy exactly, the abstraction within 5%).
        let mut differ = 0;
        if run_graph {
            for &(start, goal) in pairs.iter().take(10) {
                let plain = graph_search
                    .find_path(&graph, start, goal, &options)
                    .map_err(|e| e.to_string())?;
                if let Some(hier) = &hier {
                    let ours = hier_search
                        .find_path(hier, &graph, start, goal, &options)
                        .map_err(|e| e.to_string())?;
                    differ += usize::from(plain.cost != ours.cost);
                }
                if let Some(hpa) = &hpa {
                    let ours = hpa_search
                        .find_path(hpa, &graph, start, goal, &options)
                        .map_err(|e| e.to_string())?;
                    let within = match (plain.cost, ours.cost) {
                        (Some(best), Some(cost)) => cost as f64 <= best as f64 * 1.05,
                        (best, cost) => best == cost,
                    };
                    differ += usize::from(!within || plain.status != ours.status);
                }
            }
            println!("after the edits, {differ} answers for the first 10 pairs differ from A*");
        }
        if differ > 0 || mismatches > 0 || hpa_worst > 1.05 {
            return Err(format!(
                "answers differ from A*'s: {mismatches} exact rows before the edits, {differ} \
                 answers after; the abstraction's worst cost ratio {hpa_worst:.4} (at most 1.05)"
            ));
        }
        if let Some(note) = clock.busy_note() {
            println!("{note}");
        }
        Ok(())
    }
}
