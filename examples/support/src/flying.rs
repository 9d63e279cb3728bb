//! The flying set, shared by `benches/fly.rs`, `examples/compare.rs` and
//! `examples/movingai.rs`: voxnav's flier (26 neighbours, no cut edges or corners, costs
//! 1 / sqrt 2 / sqrt 3 at [`voxnav::engine::OCTILE_SCALE`]) against the naive 26-neighbour A*
//! ([`super::baseline::find_flier_path`]) solving the same problem.
//!
//! Two worlds: the Moving AI 3D `Simple` map with its first problems
//! (`tests/data/movingai3d/`), and a synthetic world of random pillars and floating slabs
//! ([`synthetic_world`]) built from a fixed seed, with random free start and goal pairs; and,
//! for `examples/compare.rs`, a large synthetic world with pairs whose searches are as large
//! as those of the benchmark's large maps ([`large_set`]). Each set runs voxnav's flier A*,
//! its jump point search ([`JumpSearch`]) and the naive baseline.

use std::path::Path;
use std::time::{Duration, Instant};

use voxnav::IVec3;
use voxnav::engine::{JumpSearch, Pathfinder};
use voxnav::search::jps3d::JumpTables;
use voxnav::terrain::SplitMix64;
use voxnav::world::{DenseWorld, VoxelScenario, parse_movingai_3dmap, parse_movingai_3dscen};
use voxnav::{Agent, MoveCosts, SearchOptions, SearchResult, SearchStatus, VoxelWorld};

use super::baseline;

/// A number in `0 .. n` (`n > 0`) from `rng`, reduced by modulo as the sets were first
/// built, so that the same seed keeps giving the same worlds and pairs.
fn below(rng: &mut SplitMix64, n: u32) -> i32 {
    (rng.next_u64() % u64::from(n)) as i32
}

/// A world of `size` with random pillars (1 to 6 cells wide, standing on the ground, up to
/// the full height) and floating slabs (8 to 64 cells across, 1 to 3 thick) covering about
/// `density_percent` of the ground area each, from `seed`.
///
/// # Panics
/// When `size` is too large for a [`DenseWorld`]: never for the sizes the sets and
/// `movingai --synthetic` use (`side` x `side / 2` x `side`, `side` up to 2048, see
/// `every_synthetic_side_fits_a_dense_world` below).
pub fn synthetic_world(size: IVec3, density_percent: u32, seed: u64) -> DenseWorld {
    let mut world = DenseWorld::new(size).expect("the synthetic size is small enough");
    let mut rng = SplitMix64::new(seed);
    let area = size.x as u64 * size.z as u64;
    let fill = |world: &mut DenseWorld, low: IVec3, high: IVec3| {
        let (low, high) = (low.max(IVec3::ZERO), high.min(size - IVec3::ONE));
        for x in low.x..=high.x {
            for z in low.z..=high.z {
                for y in low.y..=high.y {
                    world
                        .set_blocked(IVec3::new(x, y, z), true)
                        .expect("clipped to the world");
                }
            }
        }
    };
    // Pillars: mean footprint 12.25 cells.
    let pillars = area * u64::from(density_percent) / 100 / 12;
    for _ in 0..pillars {
        let (w, d) = (1 + below(&mut rng, 6), 1 + below(&mut rng, 6));
        let low = IVec3::new(
            below(&mut rng, size.x as u32),
            0,
            below(&mut rng, size.z as u32),
        );
        let top = size.y / 4 + below(&mut rng, (size.y - size.y / 4) as u32);
        fill(&mut world, low, low + IVec3::new(w - 1, top, d - 1));
    }
    // Slabs: mean footprint about 1300 cells.
    let slabs = area * u64::from(density_percent) / 100 / 1300;
    for _ in 0..slabs {
        let (w, d, t) = (
            8 + below(&mut rng, 57),
            8 + below(&mut rng, 57),
            1 + below(&mut rng, 3),
        );
        let low = IVec3::new(
            below(&mut rng, size.x as u32),
            2 + below(&mut rng, (size.y - 4) as u32),
            below(&mut rng, size.z as u32),
        );
        fill(&mut world, low, low + IVec3::new(w - 1, t - 1, d - 1));
    }
    world
}

/// `world` repeated side by side `tiles.x` x `tiles.y` x `tiles.z` times (the tile at
/// `(i, j, k)` is the world shifted by `(i, j, k) * world.size()`), joined wherever the
/// faces of neighbouring copies are free.
///
/// # Panics
/// When the tiled size is too large for a [`DenseWorld`] (never for `Simple` tiled
/// 3 x 1 x 3, the large tiled set of `benches/jps3d.rs`).
pub fn tiled_world(world: &DenseWorld, tiles: IVec3) -> DenseWorld {
    let size = world.size();
    let mut tiled = DenseWorld::new(size * tiles).expect("the tiled size is small enough");
    for x in 0..size.x {
        for y in 0..size.y {
            for z in 0..size.z {
                let p = IVec3::new(x, y, z);
                if !world.is_blocked(p) {
                    continue;
                }
                for i in 0..tiles.x {
                    for j in 0..tiles.y {
                        for k in 0..tiles.z {
                            tiled
                                .set_blocked(p + size * IVec3::new(i, j, k), true)
                                .expect("inside the tiled world");
                        }
                    }
                }
            }
        }
    }
    tiled
}

/// `count` pairs of free cells, drawn from `seed`, at least `min_distance` apart along some
/// axis.
pub fn random_pairs(
    world: &DenseWorld,
    count: usize,
    min_distance: i32,
    seed: u64,
) -> Vec<(IVec3, IVec3)> {
    let size = world.size();
    let mut rng = SplitMix64::new(seed);
    let mut free = || loop {
        let p = IVec3::new(
            below(&mut rng, size.x as u32),
            below(&mut rng, size.y as u32),
            below(&mut rng, size.z as u32),
        );
        if world.is_passable(p) {
            return p;
        }
    };
    let mut pairs = Vec::with_capacity(count);
    while pairs.len() < count {
        let (a, b) = (free(), free());
        if (a - b).abs().max_element() >= min_distance {
            pairs.push((a, b));
        }
    }
    pairs
}

/// `count` pairs drawn from `seed` among `ends` (cells of one tile) each shifted into a random
/// tile of `tiles` tiles of `tile` cells ([`tiled_world`]), at least `min_distance` apart along
/// some axis.
pub fn tiled_pairs(
    ends: &[IVec3],
    tile: IVec3,
    tiles: IVec3,
    count: usize,
    min_distance: i32,
    seed: u64,
) -> Vec<(IVec3, IVec3)> {
    let mut rng = SplitMix64::new(seed);
    let mut end = || {
        let shift = IVec3::new(
            below(&mut rng, tiles.x as u32),
            below(&mut rng, tiles.y as u32),
            below(&mut rng, tiles.z as u32),
        );
        ends[below(&mut rng, ends.len() as u32) as usize] + tile * shift
    };
    let mut pairs = Vec::with_capacity(count);
    while pairs.len() < count {
        let (a, b) = (end(), end());
        if (a - b).abs().max_element() >= min_distance {
            pairs.push((a, b));
        }
    }
    pairs
}

/// The `Simple` map and its problems from `tests/data/movingai3d/`, at most `limit` of them.
///
/// # Errors
/// A message naming the file that cannot be read or parsed.
pub fn load_simple(limit: usize) -> Result<(DenseWorld, Vec<VoxelScenario>), String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/movingai3d");
    let read =
        |name: &str| std::fs::read_to_string(dir.join(name)).map_err(|e| format!("{name}: {e}"));
    let world = parse_movingai_3dmap(&read("Simple.3dmap")?).map_err(|e| e.to_string())?;
    let mut scenarios = parse_movingai_3dscen(&read("Simple.3dmap.3dscen")?)
        .map_err(|e| e.to_string())?
        .scenarios;
    scenarios.truncate(limit);
    Ok((world, scenarios))
}

/// A flying query set.
pub struct FlyingSet {
    /// Short name for tables and bench ids.
    pub name: &'static str,
    /// One line on what the set holds.
    pub about: String,
    /// The world the queries run on.
    pub world: DenseWorld,
    /// Start and goal cells.
    pub queries: Vec<(IVec3, IVec3)>,
}

/// The two flying sets: `simple` problems of `Simple` and `synthetic` pairs on a synthetic
/// world of `side` x `side / 2` x `side` cells.
///
/// # Errors
/// A message when the `Simple` files cannot be read or parsed.
pub fn build_sets(simple: usize, synthetic: usize, side: i32) -> Result<Vec<FlyingSet>, String> {
    let (world, scenarios) = load_simple(simple)?;
    let simple_set = FlyingSet {
        name: "fly-simple",
        about: format!(
            "the first {} Moving AI 3D problems of Simple",
            scenarios.len()
        ),
        world,
        queries: scenarios.iter().map(|s| (s.start, s.goal)).collect(),
    };
    let size = IVec3::new(side, side / 2, side);
    let world = synthetic_world(size, 20, 7);
    let queries = random_pairs(&world, synthetic, side / 4, 11);
    let synthetic_set = FlyingSet {
        name: "fly-pillars",
        about: format!(
            "{synthetic} random pairs in a {} x {} x {} world of pillars and slabs",
            size.x, size.y, size.z
        ),
        world,
        queries,
    };
    Ok(vec![simple_set, synthetic_set])
}

/// The nodes a search on a map of hundreds of cells a side generates (as the large Warframe
/// maps of the Moving AI 3D benchmark do): [`large_set`] keeps pairs whose search generates
/// this many.
pub const LARGE_SEARCH: std::ops::Range<u64> = 100_000..1_000_000;

/// `count` random pairs in a synthetic world of `side` x `side / 2` x `side` cells whose
/// search by voxnav's flier generates [`LARGE_SEARCH`] nodes, picked in a fixed order from
/// at most 50 candidates per pair (fewer pairs when too few qualify).
///
/// # Errors
/// The search's message when a candidate is invalid (never: candidates are free cells).
pub fn large_set(side: i32, count: usize) -> Result<FlyingSet, String> {
    let size = IVec3::new(side, side / 2, side);
    let world = synthetic_world(size, 20, 7);
    let mut pathfinder = flier();
    let options = SearchOptions::default();
    let mut queries = Vec::with_capacity(count);
    for (start, goal) in random_pairs(&world, count * 50, side / 8, 17) {
        if queries.len() == count {
            break;
        }
        let result = pathfinder
            .find_path(&world, start, goal, &options)
            .map_err(|e| e.to_string())?;
        if LARGE_SEARCH.contains(&result.stats.generated) {
            queries.push((start, goal));
        }
    }
    Ok(FlyingSet {
        name: "fly-large",
        about: format!(
            "{} random pairs in a {} x {} x {} world of pillars and slabs, each search \
             generating {} to {} nodes",
            queries.len(),
            size.x,
            size.y,
            size.z,
            LARGE_SEARCH.start,
            LARGE_SEARCH.end
        ),
        world,
        queries,
    })
}

/// What one engine did on one set.
#[derive(Debug, Clone, Default)]
pub struct FlyingRun {
    /// Per query, the cost of the route found (`None` when none was).
    pub costs: Vec<Option<u64>>,
    /// Nodes expanded over all queries.
    pub expanded: u64,
    /// Nodes generated (pushed on the open set, counting a cheaper route to a known node
    /// again) over all queries.
    pub generated: u64,
    /// Wall-clock time of all queries.
    pub elapsed: Duration,
}

/// Runs `set` with voxnav's flier.
///
/// # Errors
/// The search's message when a query is invalid.
pub fn run_voxnav(set: &FlyingSet, pathfinder: &mut Pathfinder) -> Result<FlyingRun, String> {
    let options = SearchOptions::default();
    run_queries(set, |start, goal| {
        pathfinder.find_path(&set.world, start, goal, &options)
    })
}

/// Runs `set` with voxnav's jump point search for the flier ([`jump_flier`]).
///
/// # Errors
/// The search's message when a query is invalid.
pub fn run_jump(set: &FlyingSet, jump: &mut JumpSearch) -> Result<FlyingRun, String> {
    let options = SearchOptions::default();
    run_queries(set, |start, goal| {
        jump.find_path(&set.world, start, goal, &options)
    })
}

/// Runs `set` with a jump point search whose face and edge jumps read `tables` (built from the
/// set's world).
///
/// # Errors
/// The search's message when a query is invalid or the tables do not fit the search.
pub fn run_jump_tables(
    set: &FlyingSet,
    jump: &mut JumpSearch,
    tables: &JumpTables,
) -> Result<FlyingRun, String> {
    let options = SearchOptions::default();
    run_queries(set, |start, goal| {
        jump.find_path_with_tables(tables, &set.world, start, goal, &options)
    })
}

/// Runs `set` with the naive baseline under the flier's rules.
///
/// # Errors
/// The baseline's message when a query is invalid.
pub fn run_baseline(set: &FlyingSet) -> Result<FlyingRun, String> {
    let costs = MoveCosts::octile();
    run_queries(set, |start, goal| {
        baseline::find_flier_path(&set.world, start, goal, None, &costs)
    })
}

/// Times `search` over every query of `set`, keeping each route's cost.
fn run_queries(
    set: &FlyingSet,
    mut search: impl FnMut(IVec3, IVec3) -> voxnav::Result<SearchResult>,
) -> Result<FlyingRun, String> {
    let mut run = FlyingRun::default();
    let started = Instant::now();
    for &(start, goal) in &set.queries {
        let result = search(start, goal).map_err(|e| e.to_string())?;
        run.expanded += result.stats.expanded;
        run.generated += result.stats.generated;
        run.costs.push(
            (result.status == SearchStatus::Found)
                .then_some(result.cost)
                .flatten(),
        );
    }
    run.elapsed = started.elapsed();
    Ok(run)
}

/// voxnav's flier of height 1 at octile costs.
///
/// # Panics
/// Never: the flier and octile costs are valid settings.
pub fn flier() -> Pathfinder {
    Pathfinder::new(Agent::flier(1), MoveCosts::octile()).expect("valid settings")
}

/// Jump point search for the flier of [`flier`]: height 1 at octile costs.
///
/// # Panics
/// Never: the flier and octile costs are settings jump point search takes.
pub fn jump_flier() -> JumpSearch {
    JumpSearch::new(Agent::flier(1), MoveCosts::octile()).expect("valid settings")
}

/// The queries on which the two runs disagree, as messages.
pub fn mismatches(set: &FlyingSet, voxnav: &FlyingRun, naive: &FlyingRun) -> Vec<String> {
    named_mismatches(set, ("voxnav", voxnav), ("naive", naive))
}

/// The queries on which two named runs disagree, as messages.
fn named_mismatches(
    set: &FlyingSet,
    (first, one): (&str, &FlyingRun),
    (second, other): (&str, &FlyingRun),
) -> Vec<String> {
    set.queries
        .iter()
        .zip(one.costs.iter().zip(&other.costs))
        .filter(|(_, (a, b))| a != b)
        .map(|(&(start, goal), (a, b))| {
            format!(
                "{}: {start} -> {goal}: {first} {a:?}, {second} {b:?}",
                set.name
            )
        })
        .collect()
}

/// Runs the engines (voxnav's flier A*, its jump point search, the same with its face and edge
/// jumps precomputed ([`JumpTables`], built once per set, untimed, where the world is small enough)
/// and the naive baseline) on every set in `rounds` rounds over all the sets (each engine's
/// time on a set is its fastest round), prints one table with each engine's time per query,
/// the speed-ups over the naive A* and over voxnav's A*, and each set's expansions per second
/// against the first set's, and returns the cost mismatches (none expected: all solve the
/// same problem).
///
/// # Errors
/// A message when a query is invalid for an engine.
pub fn print_section(sets: &[FlyingSet], rounds: usize) -> Result<Vec<String>, String> {
    println!();
    println!(
        "Flying: voxnav's flier (height 1) by A* and by jump point search against the naive \
         26-neighbour A* under the same rules (no cut edges or corners, costs 1 / sqrt 2 / \
         sqrt 3 at scale {}); each time is the fastest of {rounds} rounds",
        voxnav::engine::OCTILE_SCALE
    );
    println!(
        "{:<12} {:>7} {:<8} {:>12} {:>11} {:>11} {:>14} {:>9} {:>8} {:>9}",
        "set",
        "queries",
        "engine",
        "expansions",
        "time ms",
        "us/query",
        "expansions/s",
        "vs naive",
        "vs A*",
        "vs first"
    );
    // Round by round over all the sets, so that every set's fastest round is drawn from the
    // whole run: on a shared machine the speed of one stretch of time is not another's.
    let mut pathfinder = flier();
    let mut jump = jump_flier();
    let mut plus = jump_flier();
    // A world over the tables' size cap runs without them (`jps+` is left out).
    let tables: Vec<Option<JumpTables>> = sets
        .iter()
        .map(|set| JumpTables::build(&set.world, Agent::flier(1)).ok())
        .collect();
    let mut best: Vec<[Option<FlyingRun>; 4]> = Vec::with_capacity(sets.len());
    let mut mismatched = Vec::new();
    for round in 0..rounds {
        for (index, (set, tables)) in sets.iter().zip(&tables).enumerate() {
            let with_tables = match tables {
                Some(tables) => Some(run_jump_tables(set, &mut plus, tables)?),
                None => None,
            };
            let (astar, jps, naive) = (
                run_voxnav(set, &mut pathfinder)?,
                run_jump(set, &mut jump)?,
                run_baseline(set)?,
            );
            if round == 0 {
                mismatched.extend(mismatches(set, &astar, &naive));
                mismatched.extend(named_mismatches(
                    set,
                    ("jump search", &jps),
                    ("naive", &naive),
                ));
                if let Some(plus_run) = &with_tables {
                    mismatched.extend(named_mismatches(
                        set,
                        ("jump search with tables", plus_run),
                        ("naive", &naive),
                    ));
                }
            }
            let runs = [Some(astar), Some(jps), with_tables, Some(naive)];
            if round == 0 {
                best.push(runs);
            } else if let Some(kept) = best.get_mut(index) {
                for (kept, run) in kept.iter_mut().zip(&runs) {
                    if let (Some(kept), Some(run)) = (kept, run) {
                        kept.elapsed = kept.elapsed.min(run.elapsed);
                    }
                }
            }
        }
    }
    let mut first_rate = None;
    for (set, runs) in sets.iter().zip(&best) {
        println!("  {}: {}", set.name, set.about);
        let seconds = |run: &FlyingRun| run.elapsed.as_secs_f64().max(1e-9);
        let (Some(astar), Some(naive)) = (&runs[0], &runs[3]) else {
            continue;
        };
        let rate = astar.expanded as f64 / seconds(astar);
        let first = *first_rate.get_or_insert(rate);
        let engines = ["voxnav", "jps", "jps+", "naive26"];
        for (engine, run) in engines.iter().zip(runs) {
            let Some(run) = run else {
                continue;
            };
            let is_naive = std::ptr::eq(run, naive);
            let ratio = |base: &FlyingRun| {
                if is_naive {
                    String::new()
                } else {
                    format!("{:.2}x", seconds(base) / seconds(run))
                }
            };
            println!(
                "{:<12} {:>7} {:<8} {:>12} {:>11.1} {:>11.1} {:>14.0} {:>9} {:>8} {:>9}",
                set.name,
                set.queries.len(),
                engine,
                run.expanded,
                seconds(run) * 1e3,
                seconds(run) * 1e6 / set.queries.len().max(1) as f64,
                run.expanded as f64 / seconds(run),
                ratio(naive),
                ratio(astar),
                if std::ptr::eq(run, astar) {
                    format!("{:.2}", rate / first)
                } else {
                    String::new()
                },
            );
        }
        // How much work an expansion is on this set: open terrain gives each expansion more
        // targets to push, and routes to improve, than Simple's corridors.
        println!(
            "{:<12} voxnav: {:.2} nodes generated per expansion, {:.1} million generated per second",
            set.name,
            astar.generated as f64 / astar.expanded.max(1) as f64,
            astar.generated as f64 / seconds(astar) / 1e6
        );
    }
    Ok(mismatched)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `Simple` files are found from the package's own directory, wherever the module is
    /// compiled from (an example, a bench or a test of the root package).
    #[test]
    fn the_simple_problems_load() {
        let (_, scenarios) = load_simple(3).unwrap();
        assert_eq!(scenarios.len(), 3);
    }

    /// `movingai --synthetic SIDE` accepts sides 16 to 2048 and builds a world of
    /// `side` x `side / 2` x `side`: every one of them fits a [`DenseWorld`], so
    /// [`synthetic_world`] does not panic (issue 26 item 10: sides 1626 to 2048 did, when
    /// the cap counted cells). Checked by size, without allocating the worlds.
    #[test]
    fn every_synthetic_side_fits_a_dense_world() {
        for side in 16..=2048 {
            let size = IVec3::new(side, side / 2, side);
            assert!(DenseWorld::check_size(size).is_ok(), "side {side}");
        }
    }

    /// A small synthetic world is built, with pillars and slabs in it.
    #[test]
    fn a_small_synthetic_world_has_obstacles() {
        let world = synthetic_world(IVec3::new(64, 32, 64), 20, 7);
        let cells = 64 * 32 * 64;
        assert!(world.free_cells() < cells && world.free_cells() > cells / 2);
    }
}
