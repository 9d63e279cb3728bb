//! The query sets and the engine drivers shared by `benches/search.rs` and
//! `examples/compare.rs`, so that both measure the same worlds, the same queries and the same
//! way of running each engine.
//!
//! One 3D world serves every 3D set: the default procedural terrain (seed 1337, 512 x 128 x
//! 512) into which sealed pits, moated islands and an underground cave maze are carved. The
//! Moving AI set runs on the [`FlatWorld`] of `arena2.map`.
//!
//! voxnav runs three ways: `voxnav` is what a user answering many queries on one world
//! runs, as [`Navigator`](voxnav::engine::Navigator) does: the reachability index ([`ReachIndex`])
//! first, which proves goals on islands and in sealed pits unreachable with no search, then
//! A* over the compiled walk graph ([`NavGraph`]) for every other query; `voxnav-graph` is the
//! graph A* alone, on every query, budgets included; and `voxnav-otf` is the on-the-fly
//! [`Pathfinder`], which derives the walking rules per expansion (the engine for unbounded and
//! streamed worlds). On the Moving AI set two more run: `voxnav-jps` and `voxnav-jps+`, the
//! flat world's `GridPlanner` with online jump point search and with its jump table. The
//! graphs and indexes are built once per world before any timing, and their build times are
//! reported on their own.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use voxnav::engine::{OCTILE_SCALE, Pathfinder};
use voxnav::graph::NavGraph;
use voxnav::reach::ReachIndex;
use voxnav::terrain::{SplitMix64, TerrainConfig, generate_terrain, pick_pairs, surface_feet};
use voxnav::world::{FlatWorld, parse_movingai_map, parse_movingai_scen};
use voxnav::{Agent, ChunkedWorld, IVec3, MoveCosts, SearchOptions, VoxelWorld};

mod carve;
mod engines;

use super::movingai::lengths_match;
use carve::{ISLAND_HALF, MOAT, carve_island, carve_maze, carve_pit, maze_queries};

pub use engines::{Engine, Outcome, Runner};

/// The seed of every random choice made while building the sets.
const SET_SEED: u64 = 0x5eed_0005;
/// The node budget of the naive baseline wherever a set has none of its own: it flies
/// through the open sky, so without one a hard query could expand most of the world.
const NAIVE_BUDGET: u64 = 4_000_000;
/// The node budget for searches towards an island no walker can reach.
const ISLAND_BUDGET: u64 = 200_000;
/// The node budget of the voxnav search that keeps only reachable pairs in the route sets.
const FILTER_BUDGET: u64 = 2_000_000;
/// The side of the square slots on the terrain that pits and islands are carved into.
const SLOT: i32 = 64;
/// The maze: `MAZE_CELLS` x `MAZE_CELLS` rooms, each a 2 x 2 corridor square with walls of
/// one block, from x = z = `MAZE_ORIGIN`, between the bedrock at y = 0 and a roof at y = 4.
const MAZE_CELLS: i32 = 64;
const MAZE_ORIGIN: i32 = 8;
const MAZE_SIZE: i32 = MAZE_CELLS * 3 + 1;
/// The Moving AI map of the 2D set and its scenarios.
const MOVINGAI_MAP: &str = "arena2.map";

/// How many queries each set holds.
#[derive(Debug, Clone, Copy)]
pub struct Sizes {
    /// Routes of 16 to 48 blocks.
    pub short: usize,
    /// Routes of 100 to 200 blocks.
    pub medium: usize,
    /// Routes of 300 to 500 blocks.
    pub long: usize,
    /// Starts sealed in pits, goals outside.
    pub pit: usize,
    /// Goals on islands no walker can reach.
    pub island: usize,
    /// Routes through the cave maze.
    pub maze: usize,
    /// Moving AI scenarios.
    pub movingai: usize,
}

impl Sizes {
    /// The small sets of the criterion benches, where every set runs many times (and of
    /// `compare --quick`).
    pub const BENCH: Sizes = Sizes {
        short: 30,
        medium: 6,
        long: 2,
        pit: 6,
        island: 1,
        maze: 3,
        movingai: 30,
    };
}

/// One query: feet positions (cells, for the naive baseline) and, for Moving AI scenarios,
/// the published optimal length.
#[derive(Debug, Clone, Copy)]
pub struct Query {
    /// Where the search starts.
    pub start: IVec3,
    /// Where it should end.
    pub goal: IVec3,
    /// The Moving AI optimal length (a diagonal step is sqrt 2 long), if known.
    pub reference: Option<f64>,
}

/// Which world a set runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorldId {
    /// The carved procedural terrain.
    Terrain,
    /// The flat world of the Moving AI map.
    Flat,
}

/// A named list of queries on one world, with the agent, costs and budget to run them with.
#[derive(Debug, Clone)]
pub struct QuerySet {
    /// Short name for tables and bench ids.
    pub name: &'static str,
    /// One line on what the set holds.
    pub about: &'static str,
    /// The world the queries run on.
    pub world: WorldId,
    /// The walking agent.
    pub agent: Agent,
    /// voxnav's move costs (the baseline always uses its own 10 / 14 / 17).
    pub costs: MoveCosts,
    /// The queries.
    pub queries: Vec<Query>,
    /// The node budget of voxnav and the baseline, if the set has one.
    pub budget: Option<u64>,
    /// Whether the `pathfinding` crate, which has no budget, runs on this set.
    pub crate_runs: bool,
}

/// One graph compile, timed.
#[derive(Debug, Clone, Copy)]
pub struct Compile {
    /// The world's name.
    pub world: &'static str,
    /// The wall-clock time of [`NavGraph::compile`].
    pub elapsed: Duration,
    /// Feet positions (nodes) in the graph.
    pub nodes: usize,
    /// Columns of the world.
    pub columns: u64,
    /// The graph's memory.
    pub bytes: usize,
}

impl Compile {
    /// Times `NavGraph::compile` of `world` for `agent`.
    ///
    /// # Errors
    /// A message when the graph cannot be compiled.
    pub fn run<W: VoxelWorld + ?Sized>(
        name: &'static str,
        world: &W,
        agent: &Agent,
    ) -> Result<(NavGraph, Compile), String> {
        let started = Instant::now();
        let graph = NavGraph::compile(world, agent).map_err(|e| format!("{name}: {e}"))?;
        let elapsed = started.elapsed();
        let columns = world.bounds().map_or(0, |b| {
            let size = b.size();
            size.x as u64 * size.z as u64
        });
        let compile = Compile {
            world: name,
            elapsed,
            nodes: graph.node_count(),
            columns,
            bytes: graph.memory_bytes(),
        };
        Ok((graph, compile))
    }

    /// Bytes per feet position.
    pub fn bytes_per_node(&self) -> f64 {
        self.bytes as f64 / self.nodes.max(1) as f64
    }
}

/// Every world and query set.
pub struct Bench {
    /// The procedural terrain with pits, islands and the cave maze carved in.
    pub terrain: ChunkedWorld,
    /// The terrain's walk graph for the default agent.
    pub terrain_graph: NavGraph,
    /// The terrain's reachability index for the default agent.
    pub terrain_index: ReachIndex,
    /// The Moving AI map as a flat world, if its file was found.
    pub flat: Option<FlatWorld>,
    /// The flat world's walk graph for the default agent.
    pub flat_graph: Option<NavGraph>,
    /// The flat world's reachability index for the default agent.
    pub flat_index: Option<ReachIndex>,
    /// The graph compiles, timed.
    pub compiles: Vec<Compile>,
    /// The sets, in table order.
    pub sets: Vec<QuerySet>,
    /// Notes for the reader, such as a set that was left out.
    pub notes: Vec<String>,
}

impl Bench {
    /// The walk graph of `set`'s world.
    pub fn graph_for(&self, set: &QuerySet) -> &NavGraph {
        match (set.world, &self.flat_graph) {
            (WorldId::Flat, Some(graph)) => graph,
            _ => &self.terrain_graph,
        }
    }

    /// Runs every query of `set` with `engine`, `repeat` times over, through `runner`.
    ///
    /// # Errors
    /// A message when the engine rejects a query.
    pub fn run_set(
        &self,
        set: &QuerySet,
        runner: &mut Runner,
        engine: Engine,
        repeat: u32,
    ) -> Result<Vec<Outcome>, String> {
        if let (Some(grid_engine), Some(flat)) = (engine.grid_engine(), &self.flat) {
            return runner.run_grid_queries(grid_engine, flat, set, repeat);
        }
        match (set.world, &self.flat, &self.flat_graph, &self.flat_index) {
            (WorldId::Flat, Some(flat), Some(graph), Some(index)) => {
                runner.run_queries(engine, flat, (graph, index), &set.queries, repeat)
            }
            _ => runner.run_queries(
                engine,
                &self.terrain,
                (&self.terrain_graph, &self.terrain_index),
                &set.queries,
                repeat,
            ),
        }
    }
}

/// Where the Moving AI files are: `$VOXNAV_MOVINGAI_DIR`, or `../shared/data/movingai` next
/// to voxnav's directory.
pub fn movingai_dir() -> PathBuf {
    std::env::var_os("VOXNAV_MOVINGAI_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/movingai"),
        PathBuf::from,
    )
}

/// The names of the sets [`build`] makes, in table order: a program can check a name the
/// user gave before it spends seconds building the worlds.
pub const SET_NAMES: [&str; 7] = [
    "short", "medium", "long", "pit", "island", "maze", "movingai",
];

/// Builds the worlds and every set of `sizes`.
///
/// # Errors
/// A message when the terrain cannot be generated or carved, or a Moving AI file that exists
/// cannot be read.
pub fn build(sizes: &Sizes) -> Result<Bench, String> {
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let mut terrain = generate_terrain(&TerrainConfig::default()).map_err(|e| e.to_string())?;
    let mut rng = SplitMix64::new(SET_SEED);
    carve_maze(&mut terrain, &mut rng).map_err(|e| e.to_string())?;

    // Pits and islands go into slots outside the maze's footprint, in a shuffled order.
    let size = terrain
        .world_bounds()
        .map_or(IVec3::splat(512), |b| b.size());
    let mut slots: Vec<IVec3> = (0..size.x / SLOT)
        .flat_map(|i| (0..size.z / SLOT).map(move |j| (i, j)))
        .map(|(i, j)| IVec3::new(i * SLOT + SLOT / 2, 0, j * SLOT + SLOT / 2))
        .filter(|c| {
            c.x - SLOT / 2 >= MAZE_ORIGIN + MAZE_SIZE || c.z - SLOT / 2 >= MAZE_ORIGIN + MAZE_SIZE
        })
        .collect();
    for i in (1..slots.len()).rev() {
        slots.swap(i, rng.below(i as u64 + 1) as usize);
    }
    if slots.len() < sizes.pit + sizes.island {
        return Err(format!(
            "the terrain has room for {} pits and islands, {} asked for",
            slots.len(),
            sizes.pit + sizes.island
        ));
    }
    let (pit_slots, rest) = slots.split_at(sizes.pit);
    let island_slots = &rest[..sizes.island];
    let islands: Vec<(IVec3, IVec3)> = island_slots
        .iter()
        .map(|&centre| carve_island(&mut terrain, centre).map(|goal| (centre, goal)))
        .collect::<voxnav::Result<_>>()
        .map_err(|e| e.to_string())?;
    let on_island = |p: IVec3| {
        islands.iter().any(|&(centre, _)| {
            (p.x - centre.x).abs() <= ISLAND_HALF + MOAT
                && (p.z - centre.z).abs() <= ISLAND_HALF + MOAT
        })
    };
    let pit_starts: Vec<IVec3> = pit_slots
        .iter()
        .filter_map(|&centre| carve_pit(&mut terrain, &agent, centre, &mut rng).transpose())
        .collect::<voxnav::Result<_>>()
        .map_err(|e| e.to_string())?;

    let mut sets = Vec::new();
    let mut filter = Pathfinder::new(agent, costs).map_err(|e| e.to_string())?;
    for (name, about, count, distance, seed) in [
        (
            "short",
            "routes of 16-48 blocks on the terrain",
            sizes.short,
            16.0..=48.0,
            1,
        ),
        (
            "medium",
            "routes of 100-200 blocks",
            sizes.medium,
            100.0..=200.0,
            2,
        ),
        (
            "long",
            "routes of 300-500 blocks",
            sizes.long,
            300.0..=500.0,
            3,
        ),
    ] {
        let queries = reachable_pairs(&terrain, &mut filter, seed, count, distance)?;
        sets.push(QuerySet {
            name,
            about,
            world: WorldId::Terrain,
            agent,
            costs,
            queries,
            budget: None,
            crate_runs: true,
        });
    }

    let pit_queries = pit_starts
        .iter()
        .filter_map(|&start| {
            let goal = surface_near(&terrain, &agent, start, 60.0..=120.0, &mut rng)?;
            (!on_island(goal)).then_some(Query {
                start,
                goal,
                reference: None,
            })
        })
        .collect();
    sets.push(QuerySet {
        name: "pit",
        about: "start sealed in a small pit, goal outside: unreachable",
        world: WorldId::Terrain,
        agent,
        costs,
        queries: pit_queries,
        budget: None,
        crate_runs: true,
    });

    let island_queries = islands
        .iter()
        .filter_map(|&(centre, goal)| {
            let start = surface_near(&terrain, &agent, centre, 40.0..=100.0, &mut rng)?;
            (!on_island(start)).then_some(Query {
                start,
                goal,
                reference: None,
            })
        })
        .collect();
    sets.push(QuerySet {
        name: "island",
        about: "goal on a moated island: unreachable, ends on the node budget",
        world: WorldId::Terrain,
        agent,
        costs,
        queries: island_queries,
        budget: Some(ISLAND_BUDGET),
        crate_runs: false,
    });

    sets.push(QuerySet {
        name: "maze",
        about: "routes through the underground cave maze",
        world: WorldId::Terrain,
        agent,
        costs,
        queries: maze_queries(&terrain, &agent, sizes.maze, &mut rng),
        budget: None,
        crate_runs: true,
    });

    let mut notes = Vec::new();
    let dir = movingai_dir();
    let flat = if dir.join(MOVINGAI_MAP).is_file() {
        let (flat, queries) = movingai(&dir, &agent, sizes.movingai)?;
        sets.push(QuerySet {
            name: "movingai",
            about: "arena2.map scenarios on a flat world (2D, octile costs)",
            world: WorldId::Flat,
            agent,
            costs: MoveCosts::octile(),
            queries,
            budget: None,
            crate_runs: true,
        });
        Some(flat)
    } else {
        notes.push(format!(
            "Moving AI set left out: {} not found (set VOXNAV_MOVINGAI_DIR)",
            dir.join(MOVINGAI_MAP).display()
        ));
        None
    };
    let (terrain_graph, terrain_compile) = Compile::run("terrain", &terrain, &agent)?;
    let terrain_index = ReachIndex::build(&terrain, &agent).map_err(|e| e.to_string())?;
    let mut compiles = vec![terrain_compile];
    let (flat_graph, flat_index) = match &flat {
        Some(flat) => {
            let (graph, compile) = Compile::run("movingai", flat, &agent)?;
            compiles.push(compile);
            let index = ReachIndex::build(flat, &agent).map_err(|e| e.to_string())?;
            (Some(graph), Some(index))
        }
        None => (None, None),
    };
    Ok(Bench {
        terrain,
        terrain_graph,
        terrain_index,
        flat,
        flat_graph,
        flat_index,
        compiles,
        sets,
        notes,
    })
}

/// The first `count` pairs of `pick_pairs` that voxnav connects: route sets hold routes, the
/// unreachable sets are separate.
fn reachable_pairs(
    world: &ChunkedWorld,
    pathfinder: &mut Pathfinder,
    seed: u64,
    count: usize,
    distance: std::ops::RangeInclusive<f32>,
) -> Result<Vec<Query>, String> {
    let agent = *pathfinder.agent();
    let options = SearchOptions::default().with_max_nodes(FILTER_BUDGET);
    let mut queries = Vec::with_capacity(count);
    for (start, goal) in pick_pairs(world, &agent, SET_SEED ^ seed, count * 3, distance) {
        if queries.len() == count {
            break;
        }
        let result = pathfinder
            .find_path(world, start, goal, &options)
            .map_err(|e| e.to_string())?;
        if result.is_found() {
            queries.push(Query {
                start,
                goal,
                reference: None,
            });
        }
    }
    Ok(queries)
}

/// A surface feet position at a horizontal distance in `distance` from `from`, if one of a
/// few random tries finds one.
fn surface_near(
    world: &ChunkedWorld,
    agent: &Agent,
    from: IVec3,
    distance: std::ops::RangeInclusive<f32>,
    rng: &mut SplitMix64,
) -> Option<IVec3> {
    (0..64).find_map(|_| {
        let angle = rng.next_f32() * std::f32::consts::TAU;
        let length = distance.start() + rng.next_f32() * (distance.end() - distance.start());
        let x = from.x + (angle.cos() * length).round() as i32;
        let z = from.z + (angle.sin() * length).round() as i32;
        surface_feet(world, agent, x, z)
    })
}

/// The Moving AI map as a flat world and `count` of its scenarios, spread evenly over the
/// file.
fn movingai(dir: &Path, agent: &Agent, count: usize) -> Result<(FlatWorld, Vec<Query>), String> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let in_file = |name: &str, e: voxnav::Error| format!("{name}: {e}");
    let grid = parse_movingai_map(&read(MOVINGAI_MAP)?).map_err(|e| in_file(MOVINGAI_MAP, e))?;
    let scen_name = format!("{MOVINGAI_MAP}.scen");
    let scenarios = parse_movingai_scen(&read(&scen_name)?).map_err(|e| in_file(&scen_name, e))?;
    let world = FlatWorld::new(grid, agent.height).map_err(|e| e.to_string())?;
    let count = count.min(scenarios.len());
    let queries = (0..count)
        .map(|i| &scenarios[i * scenarios.len() / count])
        .map(|scenario| Query {
            start: FlatWorld::feet(scenario.start),
            goal: FlatWorld::feet(scenario.goal),
            reference: Some(scenario.optimal_length),
        })
        .collect();
    Ok((world, queries))
}

/// The queries of `set` on which voxnav's costs disagree with the `pathfinding` crate's
/// (`generic`, when it ran) or with a Moving AI optimal length, one line each.
pub fn mismatches(set: &QuerySet, voxnav: &[Outcome], generic: Option<&[Outcome]>) -> Vec<String> {
    let mut found = Vec::new();
    let queries = set.queries.iter().cycle();
    for (i, (query, mine)) in queries.zip(voxnav).enumerate() {
        if let Some(theirs) = generic.and_then(|outcomes| outcomes.get(i))
            && theirs.cost != mine.cost
        {
            found.push(format!(
                "{} query {i} ({} -> {}): voxnav {:?} ({}), pathfinding crate {:?}",
                set.name, query.start, query.goal, mine.cost, mine.status, theirs.cost
            ));
        }
        if let Some(length) = query.reference
            && !matches_reference(mine.cost, length)
        {
            found.push(format!(
                "{} query {i} ({} -> {}): voxnav {:?}, Moving AI optimal length {length}",
                set.name, query.start, query.goal, mine.cost
            ));
        }
    }
    found
}

/// Whether `cost` (octile costs) matches a Moving AI optimal `length` within the rounding of
/// the file and of voxnav's integer diagonal.
fn matches_reference(cost: Option<u64>, length: f64) -> bool {
    cost.is_some_and(|cost| lengths_match(cost as f64 / f64::from(OCTILE_SCALE), length))
}
