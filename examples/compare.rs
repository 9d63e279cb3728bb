//! voxnav against the naive 26-neighbour A* and the `pathfinding` crate, side by side, in one
//! run: the same worlds, the same queries, one table.
//!
//! ```sh
//! cargo run --release --example compare            # the full sets (about a minute)
//! cargo run --release --example compare -- --quick # the small sets of the benches
//! cargo run --release --example compare -- --set long --engine voxnav --repeat 5
//! ```
//!
//! `--set NAME` and `--engine NAME` (each may be repeated) keep only those sets and engines,
//! and `--repeat N` runs every set N times, which makes the searches dominate a profile;
//! `--help` lists the options and the names they accept.
//!
//! Every set is timed in `--rounds N` rounds (3 by default), the engines taking turns in each
//! round, each round starting with the next engine, and each engine's figure on a set is its
//! fastest round: on a shared machine a neighbour's burst slows one engine's pass and not
//! another's, and an engine's speed depends on what ran just before it (what the caches
//! hold); the fastest round is the one least disturbed. The summary line is then repeated for each round, so the spread shows.
//!
//! The sets are built by `support::sets` (`examples/support/src/sets.rs`), shared with
//! `benches/search.rs`. `voxnav` is the crate as a user answering many queries on one world
//! runs it (what `Navigator` does): the reachability index first, then A* over the compiled
//! walk graph; `voxnav-graph` is that A* alone on every query, so the node budget of the
//! island set is spent there; `voxnav-otf` is the on-the-fly `Pathfinder`; on the Moving AI
//! set, `voxnav-jps` and `voxnav-jps+` are `GridPlanner`'s jump point searches (online, and
//! with the jump table built untimed), checked against the crate and the optimal lengths too. While it runs it checks that voxnav and the `pathfinding` crate, which search the same graph, give
//! the same cost on every query, and that voxnav matches the published optimal lengths of
//! the Moving AI scenarios; any mismatch is printed and the example exits with code 1.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use clap::builder::PossibleValuesParser;
use voxnav::reach::{IndexedRouter, Navigator};
use voxnav::{SearchOptions, SearchStatus};
#[path = "support/src/mod.rs"]
mod support;
use support::flying;
use support::sets::{self as common, Bench, Engine, Outcome, QuerySet, Runner, Sizes, WorldId};
use support::timing::Stopwatch;

/// The full sets: the whole run stays under a minute on two cores.
const COMPARE: Sizes = Sizes {
    short: 300,
    medium: 30,
    long: 8,
    pit: 24,
    island: 3,
    maze: 12,
    movingai: 120,
};

/// Everything one engine did on one set.
struct Run {
    set: usize,
    engine: Engine,
    /// The first round's outcomes (every round searches the same queries the same way).
    outcomes: Vec<Outcome>,
    /// The time of each round.
    rounds: Vec<Duration>,
}

impl Run {
    /// The time of round `round`, or the fastest round's.
    fn time(&self, round: Option<usize>) -> Duration {
        match round {
            Some(round) => self.rounds.get(round).copied().unwrap_or_default(),
            None => self.rounds.iter().copied().min().unwrap_or_default(),
        }
    }

    fn expanded(&self) -> u64 {
        self.outcomes.iter().map(|o| o.expanded).sum()
    }

    fn count(&self, status: SearchStatus) -> usize {
        self.outcomes.iter().filter(|o| o.status == status).count()
    }
}

/// voxnav against the naive 26-neighbour A* and the `pathfinding` crate on the same worlds
/// and queries, in one table; exits with code 1 on any cost mismatch.
#[derive(Parser)]
#[command(name = "compare")]
struct Cli {
    /// The small sets of the criterion benches instead of the full ones.
    #[arg(long)]
    quick: bool,
    /// Keep only this set (repeat the option for several).
    #[arg(long = "set", value_name = "NAME",
          value_parser = PossibleValuesParser::new(common::SET_NAMES))]
    sets: Vec<String>,
    /// Keep only this engine (repeat the option for several).
    #[arg(long = "engine", value_name = "NAME",
          value_parser = PossibleValuesParser::new(Engine::ALL.map(Engine::name)))]
    engines: Vec<String>,
    /// Run every set this many times (1 to 1000), so that the searches dominate a profile.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    repeat: u32,
    /// Time every set this many times (1 to 20), the engines taking turns in each round;
    /// each engine's figure is its fastest round, and the summary is also given per round.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20))]
    rounds: u32,
}

/// The command line.
struct Args {
    sizes: Sizes,
    sets: Vec<String>,
    engines: Vec<String>,
    repeat: u32,
    rounds: u32,
}

/// Parses the command line; `--help` and argument errors (naming the argument and the
/// allowed values, before any world is built) end the program here.
#[expect(
    clippy::unnecessary_wraps,
    reason = "main handles parse errors the same way whatever reports them"
)]
fn parse_args() -> Result<Args, String> {
    let cli = Cli::parse();
    Ok(Args {
        sizes: if cli.quick { Sizes::BENCH } else { COMPARE },
        sets: cli.sets,
        engines: cli.engines,
        repeat: cli.repeat,
        rounds: cli.rounds,
    })
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("compare: {message}");
            return ExitCode::from(2);
        }
    };
    let sizes = args.sizes;

    let building = Instant::now();
    let mut bench = match common::build(&sizes) {
        Ok(bench) => bench,
        Err(message) => {
            eprintln!("compare: cannot build the query sets: {message}");
            return ExitCode::from(2);
        }
    };
    if let Some(unknown) = args
        .sets
        .iter()
        .find(|name| !bench.sets.iter().any(|set| set.name == name.as_str()))
    {
        eprintln!("compare: unknown set `{unknown}`");
        return ExitCode::from(2);
    }
    bench
        .sets
        .retain(|set| args.sets.is_empty() || args.sets.iter().any(|name| name == set.name));
    println!(
        "Worlds and query sets built in {:.1} s (not timed below).",
        building.elapsed().as_secs_f64()
    );
    for set in &bench.sets {
        let crate_note = if set.crate_runs {
            ""
        } else {
            " [pathfinding crate skipped: it has no node budget]"
        };
        println!(
            "  {:<9} {:>4} queries: {}{crate_note}",
            set.name,
            set.queries.len(),
            set.about
        );
    }
    for note in &bench.notes {
        println!("  note: {note}");
    }
    println!(
        "engines: voxnav = reachability index, then A* over the compiled walk graph (as Navigator \
         runs them: goals the index proves unreachable cost no search); voxnav-graph = the graph \
         A* alone on every query; voxnav-otf = the on-the-fly Pathfinder; voxnav-jps and \
         voxnav-jps+ = GridPlanner's jump point searches, online and with its jump table \
         (Moving AI set only); the voxnav engines \
         keep their search state across queries, warmed by each set's first query, untimed"
    );
    for (name, index) in std::iter::once(("terrain", &bench.terrain_index))
        .chain(bench.flat_index.as_ref().map(|index| ("movingai", index)))
    {
        println!(
            "reachability index: {name} in {:.0} ms, {:.1} MiB, {} regions",
            index.build_time().as_secs_f64() * 1e3,
            index.memory_bytes() as f64 / (1024.0 * 1024.0),
            index.region_count()
        );
    }
    for compile in &bench.compiles {
        println!(
            "graph compile: {} in {:.0} ms, {} feet positions over {} columns, {:.1} MiB, {:.1} bytes per feet position",
            compile.world,
            compile.elapsed.as_secs_f64() * 1e3,
            compile.nodes,
            compile.columns,
            compile.bytes as f64 / (1024.0 * 1024.0),
            compile.bytes_per_node()
        );
    }

    let timing = Stopwatch::start();
    let mut runs: Vec<Run> = Vec::new();
    let mut mismatches = Vec::new();
    for (index, set) in bench.sets.iter().enumerate() {
        let mut runner = match Runner::new(set) {
            Ok(runner) => runner,
            Err(message) => {
                eprintln!("compare: set {}: {message}", set.name);
                return ExitCode::from(1);
            }
        };
        runner.reserve_for(bench.graph_for(set));
        // A server keeps one search state per thread for all its queries: the engines that
        // reuse theirs (voxnav's) answer the set's first query once, untimed, so that the
        // first engine timed does not pay alone for growing the state the others then reuse.
        let mut first = set.clone();
        first.queries.truncate(1);
        for engine in [
            Engine::VoxnavGraph,
            Engine::VoxnavOnTheFly,
            Engine::VoxnavJps,
            Engine::VoxnavJpsPlus,
        ] {
            if !engine.runs_on(set) {
                continue;
            }
            if let Err(message) = bench.run_set(&first, &mut runner, engine, 1) {
                eprintln!("compare: set {}: {message}", set.name);
                return ExitCode::from(1);
            }
        }
        let first_run = runs.len();
        for round in 0..args.rounds as usize {
            // Each round starts with another engine, so that no engine always runs right
            // after the same one (what ran before changes what the caches hold).
            let mut order = Engine::ALL;
            order.rotate_left(round % Engine::ALL.len());
            for engine in order {
                let chosen =
                    args.engines.is_empty() || args.engines.iter().any(|e| e == engine.name());
                if !chosen || !engine.runs_on(set) {
                    continue;
                }
                let started = Instant::now();
                let outcomes = match bench.run_set(set, &mut runner, engine, args.repeat) {
                    Ok(outcomes) => outcomes,
                    Err(message) => {
                        eprintln!("compare: set {}: {message}", set.name);
                        return ExitCode::from(1);
                    }
                };
                let elapsed = started.elapsed();
                match runs[first_run..]
                    .iter_mut()
                    .find(|run| run.engine == engine)
                {
                    Some(run) => run.rounds.push(elapsed),
                    None => runs.push(Run {
                        set: index,
                        engine,
                        outcomes,
                        rounds: vec![elapsed],
                    }),
                }
            }
        }
        // The table lists the engines in their usual order.
        runs[first_run..].sort_by_key(|run| Engine::ALL.iter().position(|&e| e == run.engine));
        check(set, &runs, index, &mut mismatches);
    }

    if let Some(note) = timing.busy_note() {
        println!("{note}");
    }
    if (args.engines.is_empty() || args.engines.iter().any(|e| e == "voxnav"))
        && let Err(message) = print_index_section(&bench)
    {
        eprintln!("compare: reachability index: {message}");
        return ExitCode::from(1);
    }
    print_table(&bench.sets, &runs);
    if args.sets.is_empty() && args.engines.is_empty() {
        // The flying set (issue 13): first Simple problems, a synthetic world of pillars, and
        // searches of the benchmark's large maps' size in a 512 x 256 x 512 one.
        match flying::build_sets(sizes.movingai * 2, 20, 128)
            .and_then(|mut sets| {
                sets.push(flying::large_set(512, 6)?);
                Ok(sets)
            })
            .and_then(|sets| flying::print_section(&sets, args.rounds.max(1) as usize))
        {
            Ok(flying) => mismatches.extend(flying),
            Err(message) => {
                eprintln!("compare: flying set: {message}");
                return ExitCode::from(1);
            }
        }
    }
    if mismatches.is_empty() {
        ExitCode::SUCCESS
    } else {
        for mismatch in mismatches.iter().take(20) {
            eprintln!("mismatch: {mismatch}");
        }
        eprintln!(
            "compare: {} cost mismatches (voxnav against the pathfinding crate or Moving AI)",
            mismatches.len()
        );
        ExitCode::from(1)
    }
}

/// `Navigator` (the public router) on the terrain sets, with its reachability index and walk
/// graph built once, outside the timing: the index proves goals on islands and in sealed pits
/// unreachable with no search, the graph answers the rest. Routes and costs are the plain
/// search's; only unreachable goals change.
fn print_index_section(bench: &Bench) -> Result<(), String> {
    let Some(first) = bench.sets.iter().find(|set| set.world == WorldId::Terrain) else {
        return Ok(());
    };
    let index = &bench.terrain_index;
    if index.agent() != &first.agent {
        return Err("the terrain sets' agent is not the index's".into());
    }
    println!(
        "Navigator with its reachability index (built once in {:.0} ms, {:.1} MiB, {} regions) and walk graph:",
        index.build_time().as_secs_f64() * 1e3,
        index.memory_bytes() as f64 / (1024.0 * 1024.0),
        index.region_count()
    );
    println!(
        "{:<12} {:<12} {:>7} {:>6} {:>7} {:>7} {:>12} {:>10}",
        "set", "engine", "queries", "found", "partial", "unreach", "expanded", "total ms"
    );
    for set in bench
        .sets
        .iter()
        .filter(|set| set.world == WorldId::Terrain)
    {
        let mut navigator = Navigator::new(set.agent, set.costs)
            .and_then(|n| n.with_index(index.clone()))
            .map_err(|e| e.to_string())?
            .with_lazy_rebuild(false);
        // As a user answering many queries sets it up: the graph compiled once, untimed.
        navigator
            .build_graph(&bench.terrain)
            .map_err(|e| e.to_string())?;
        let options = set.budget.map_or_else(SearchOptions::default, |budget| {
            SearchOptions::default().with_max_nodes(budget)
        });
        let (mut counts, mut expanded) = ([0usize; 3], 0u64);
        let started = Instant::now();
        for query in &set.queries {
            let result = navigator
                .find_path(&bench.terrain, query.start, query.goal, &options)
                .map_err(|e| e.to_string())?;
            counts[result.status as usize] += 1;
            expanded += result.stats.expanded;
        }
        let elapsed = started.elapsed();
        println!(
            "{:<12} {:<12} {:>7} {:>6} {:>7} {:>7} {:>12} {:>10.1}",
            set.name,
            "Navigator",
            set.queries.len(),
            counts[SearchStatus::Found as usize],
            counts[SearchStatus::Partial as usize],
            counts[SearchStatus::Unreachable as usize],
            expanded,
            elapsed.as_secs_f64() * 1e3
        );
    }
    println!();
    Ok(())
}

/// Checks voxnav's costs on set `index` against the `pathfinding` crate and the Moving AI
/// references.
fn check(set: &QuerySet, runs: &[Run], index: usize, mismatches: &mut Vec<String>) {
    let of = |engine| {
        runs.iter()
            .find(|run| run.set == index && run.engine == engine)
            .map(|run| run.outcomes.as_slice())
    };
    for engine in [
        Engine::Voxnav,
        Engine::VoxnavGraph,
        Engine::VoxnavJps,
        Engine::VoxnavJpsPlus,
    ] {
        if let Some(voxnav) = of(engine) {
            mismatches.extend(common::mismatches(
                set,
                voxnav,
                of(Engine::PathfindingCrate),
            ));
        }
    }
}

/// Totals of one engine over several sets.
#[derive(Default, Clone, Copy)]
struct Total {
    queries: usize,
    found: usize,
    partial: usize,
    unreachable: usize,
    expanded: u64,
    elapsed: Duration,
}

impl Total {
    /// Adds `run`, timed by its round `round` (its fastest round when `None`).
    fn add(&mut self, run: &Run, round: Option<usize>) {
        self.queries += run.outcomes.len();
        self.found += run.count(SearchStatus::Found);
        self.partial += run.count(SearchStatus::Partial);
        self.unreachable += run.count(SearchStatus::Unreachable);
        self.expanded += run.expanded();
        self.elapsed += run.time(round);
    }

    fn per_second(&self) -> f64 {
        self.expanded as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

fn row(label: &str, engine: Engine, total: &Total, speed_up: Option<f64>) {
    println!(
        "{label:<12} {:<12} {:>7} {:>6} {:>7} {:>7} {:>12} {:>10.1} {:>12.0} {:>9}",
        engine.name(),
        total.queries,
        total.found,
        total.partial,
        total.unreachable,
        total.expanded,
        total.elapsed.as_secs_f64() * 1e3,
        total.per_second(),
        speed_up.map_or_else(|| "-".to_string(), |s| format!("{s:.2}x")),
    );
}

fn ratio(slow: Duration, fast: Duration) -> f64 {
    slow.as_secs_f64() / fast.as_secs_f64().max(1e-9)
}

fn print_table(sets: &[QuerySet], runs: &[Run]) {
    println!();
    println!(
        "{:<12} {:<12} {:>7} {:>6} {:>7} {:>7} {:>12} {:>10} {:>12} {:>9}",
        "set",
        "engine",
        "queries",
        "found",
        "partial",
        "unreach",
        "expanded",
        "total ms",
        "expansions/s",
        "voxnav x"
    );
    for (index, set) in sets.iter().enumerate() {
        let set_runs: Vec<&Run> = runs.iter().filter(|run| run.set == index).collect();
        let voxnav = set_runs.iter().find(|run| run.engine == Engine::Voxnav);
        for run in &set_runs {
            let mut total = Total::default();
            total.add(run, None);
            let speed_up = voxnav
                .filter(|_| run.engine != Engine::Voxnav)
                .map(|voxnav| ratio(run.time(None), voxnav.time(None)));
            row(set.name, run.engine, &total, speed_up);
        }
    }

    let terrain = TerrainTotals::new(sets, runs, None);
    let names: Vec<&str> = sets
        .iter()
        .filter(|set| set.world == WorldId::Terrain)
        .map(|set| set.name)
        .collect();
    println!();
    println!(
        "All terrain sets together ({}); the pathfinding crate's ratio is over the sets it ran on:",
        names.join(", ")
    );
    let [voxnav, naive, generic, graph_alone, on_the_fly, ..] = terrain.totals;
    let (vs_naive, vs_crate) = terrain.ratios();
    row("terrain", Engine::Voxnav, &voxnav, None);
    row("terrain", Engine::Naive26, &naive, Some(vs_naive));
    row(
        "terrain",
        Engine::PathfindingCrate,
        &generic,
        Some(vs_crate),
    );
    for (engine, total) in [
        (Engine::VoxnavGraph, &graph_alone),
        (Engine::VoxnavOnTheFly, &on_the_fly),
    ] {
        if total.queries > 0 {
            row(
                "terrain",
                engine,
                total,
                Some(ratio(total.elapsed, voxnav.elapsed)),
            );
        }
    }
    println!();
    let rounds = runs.iter().map(|run| run.rounds.len()).max().unwrap_or(0);
    if rounds > 1 {
        println!(
            "Each engine's time on a set is its fastest of {rounds} rounds, the engines taking \
             turns in each round, each round starting with the next engine; the same summary \
             per round follows."
        );
    }
    println!(
        "voxnav vs naive26: {vs_naive:.2}x, vs pathfinding crate: {vs_crate:.2}x, expansions/s: {:.0}",
        voxnav.per_second()
    );
    if graph_alone.queries > 0 {
        let (graph_vs_naive, graph_vs_crate) = terrain.graph_ratios();
        println!(
            "the graph A* alone (no index; the island set's budget spent): vs naive26: {graph_vs_naive:.2}x, vs pathfinding crate: {graph_vs_crate:.2}x, expansions/s: {:.0}",
            graph_alone.per_second()
        );
    }
    if rounds > 1 {
        for round in 0..rounds {
            let terrain = TerrainTotals::new(sets, runs, Some(round));
            let (vs_naive, vs_crate) = terrain.ratios();
            println!(
                "  round {}: voxnav vs naive26: {vs_naive:.2}x, vs pathfinding crate: {vs_crate:.2}x, expansions/s: {:.0}",
                round + 1,
                terrain.totals[0].per_second()
            );
        }
    }
}

/// Every engine's totals over the terrain sets, and voxnav's over the sets the `pathfinding`
/// crate ran on, for its ratio.
struct TerrainTotals {
    /// One per engine, in the order of [`Engine::ALL`].
    totals: [Total; Engine::ALL.len()],
    voxnav_where_crate_ran: Total,
    graph_where_crate_ran: Total,
}

impl TerrainTotals {
    /// The totals, timed by round `round` (each run's fastest round when `None`).
    fn new(sets: &[QuerySet], runs: &[Run], round: Option<usize>) -> Self {
        let mut totals = Self {
            totals: [Total::default(); Engine::ALL.len()],
            voxnav_where_crate_ran: Total::default(),
            graph_where_crate_ran: Total::default(),
        };
        for run in runs
            .iter()
            .filter(|run| sets[run.set].world == WorldId::Terrain)
        {
            let slot = Engine::ALL
                .iter()
                .position(|&e| e == run.engine)
                .unwrap_or(0);
            totals.totals[slot].add(run, round);
            if run.engine == Engine::Voxnav && sets[run.set].crate_runs {
                totals.voxnav_where_crate_ran.add(run, round);
            }
            if run.engine == Engine::VoxnavGraph && sets[run.set].crate_runs {
                totals.graph_where_crate_ran.add(run, round);
            }
        }
        totals
    }

    /// voxnav against naive26 and against the `pathfinding` crate.
    fn ratios(&self) -> (f64, f64) {
        let [voxnav, naive, generic, ..] = self.totals;
        (
            ratio(naive.elapsed, voxnav.elapsed),
            ratio(generic.elapsed, self.voxnav_where_crate_ran.elapsed),
        )
    }

    /// The graph A* alone against naive26 and against the `pathfinding` crate.
    fn graph_ratios(&self) -> (f64, f64) {
        let [_, naive, generic, graph_alone, ..] = self.totals;
        (
            ratio(naive.elapsed, graph_alone.elapsed),
            ratio(generic.elapsed, self.graph_where_crate_ran.elapsed),
        )
    }
}
