//! The replanning benchmark shared by `examples/replan_bench.rs` and `replan --bench`, and
//! the helpers the replan demo uses too: the default terrain, its surface, and a long route
//! across it.
//!
//! [`bench()`]: on many routes of 200+ blocks, with the NPC part-way along and 1 to 10 blocks
//! changed near the route ahead, it times a fresh A* over the compiled walk graph (brought up
//! to date with the changes, untimed), a fresh A* on the fly, D* Lite's repair and the
//! [`Replanner`] (both with their graph update included, also timed alone on a fresh copy),
//! checks that all costs are equal on every query, and prints a table. The fresh searches' times are the best of three runs; each
//! repair runs once (it changes its state), so a busy machine's noise counts against the
//! repairs. It also counts the queries whose changes made no move appear and none cheaper
//! (compared move by move on the graphs before and after), the only ones a plain Adaptive A*
//! (Koenig and Likhachev, 2005) could answer exactly, and the Replanner's share of time on
//! them (its bounds stay exact for the others too).

use std::time::{Duration, Instant};

use voxnav::engine::{DStarLite, Pathfinder, ReplanMethod};
use voxnav::graph::{GraphSearch, GraphUpdate, NavGraph};
use voxnav::terrain::{SplitMix64, Terrain, generate_terrain_with_heights};
use voxnav::terrain::{TerrainConfig, surface_feet};
use voxnav::world::is_valid_feet;
use voxnav::{
    Agent, Block, ChunkedWorld, IVec3, MoveCosts, Replanner, SearchOptions, SearchResult,
};

/// The crate's default procedural terrain (512 x 128 x 512) for `seed`.
///
/// # Errors
/// The generator's message (it cannot fail for the default settings).
pub fn make_terrain(seed: u64) -> Result<Terrain, String> {
    generate_terrain_with_heights(&TerrainConfig::default().with_seed(seed))
        .map_err(|e| e.to_string())
}

/// The size of the (bounded) world.
#[must_use]
pub fn size(world: &ChunkedWorld) -> IVec3 {
    world.world_bounds().map_or(IVec3::ONE, |b| b.size())
}

/// The highest valid feet position of column `(x, z)` for the default agent.
#[must_use]
pub fn surface(world: &ChunkedWorld, x: i32, z: i32) -> Option<IVec3> {
    surface_feet(world, &Agent::default(), x, z)
}

/// A start and goal about 200 blocks apart whose optimal route is at least `min_len`
/// positions long, drawn with `rng`.
///
/// # Errors
/// A message when a search fails or 200 tries find no such route.
pub fn pick_route(
    world: &ChunkedWorld,
    astar: &mut Pathfinder,
    rng: &mut SplitMix64,
    min_len: usize,
) -> Result<(IVec3, IVec3, SearchResult), String> {
    let size = size(world);
    for _ in 0..200 {
        let margin = 20;
        let start = (
            margin + rng.below(u64::from((size.x - 2 * margin) as u32)) as i32,
            margin + rng.below(u64::from((size.z - 2 * margin) as u32)) as i32,
        );
        let angle = rng.below(3600) as f32 / 3600.0 * std::f32::consts::TAU;
        let distance = 200.0 + rng.below(40) as f32;
        let goal = (
            start.0 + (angle.cos() * distance) as i32,
            start.1 + (angle.sin() * distance) as i32,
        );
        if !(0..size.x).contains(&goal.0) || !(0..size.z).contains(&goal.1) {
            continue;
        }
        let (Some(s), Some(g)) = (
            surface(world, start.0, start.1),
            surface(world, goal.0, goal.1),
        ) else {
            continue;
        };
        let route = astar
            .find_path(world, s, g, &SearchOptions::default())
            .map_err(|e| e.to_string())?;
        if route.is_found() && route.path.len() >= min_len {
            return Ok((s, g, route));
        }
    }
    Err("found no long enough route in 200 tries; try another --seed".into())
}

/// A duration in milliseconds.
#[must_use]
pub fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Changes 1 to 10 cells near the route ahead of `position_index`; returns false (and
/// undoes its writes, which stay in the world's change log) when the change would leave the
/// NPC or the goal without footing.
/// Bounded worlds only (the generated worlds are).
fn disturb(
    world: &mut ChunkedWorld,
    rng: &mut SplitMix64,
    path: &[IVec3],
    position_index: usize,
) -> bool {
    let goal = *path.last().unwrap_or(&IVec3::ZERO);
    let ahead = (path.len() - position_index).saturating_sub(4).max(1);
    let at = position_index + 2 + rng.below(ahead.min(80) as u64) as usize;
    let center = path[at.min(path.len() - 1)];
    // 1 to 10 cells of the 3x4x3 box around a route position (from the floor to above the
    // head) each get a block different from theirs.
    let count = 1 + rng.below(10) as usize;
    let mut changed: Vec<IVec3> = Vec::with_capacity(count);
    let mut olds = std::collections::HashMap::with_capacity(count);
    for _ in 0..1000 {
        if changed.len() == count {
            break;
        }
        let cell = center
            + IVec3::new(
                rng.below(3) as i32 - 1,
                rng.below(4) as i32 - 1,
                rng.below(3) as i32 - 1,
            );
        if changed.contains(&cell) {
            continue;
        }
        let Some(old) = world.get(cell) else {
            continue;
        };
        // Three times in four the player digs out a block or places one; otherwise lava.
        let block = match (rng.below(4), old) {
            (3, Block::Lava) | (0..=2, Block::Solid | Block::Lava) => Block::Air,
            (3, _) => Block::Lava,
            _ => Block::Solid,
        };
        if world.set(cell, block).is_ok() {
            changed.push(cell);
            olds.insert(cell, old);
        }
    }
    let position = path[position_index];
    if is_valid_feet(world, position, 2) && is_valid_feet(world, goal, 2) {
        return true;
    }
    // Undo, leaving the writes and their undoing in the change log: the caller's graphs
    // follow the world's version through them.
    for &cell in changed.iter().rev() {
        let _ = world.set(cell, olds[&cell]);
    }
    false
}

#[derive(Default)]
struct Timings {
    fresh: Vec<f64>,
    fresh_on_the_fly: Vec<f64>,
    dstar: Vec<f64>,
    chosen: Vec<f64>,
    /// The graph update alone (ms), which the repairs and the Replanner pay inside their
    /// times and the fresh searches do not.
    update: Vec<f64>,
    /// Nanoseconds per expanded node of the fresh A* over the graph and of D* Lite's repair,
    /// one value per query that expanded at least 100 nodes.
    fresh_per_node: Vec<f64>,
    dstar_per_node: Vec<f64>,
    kept_answers: usize,
    /// Queries whose changes made no move appear and none cheaper, and the Replanner's time
    /// on them (ms).
    only_dearer: usize,
    only_dearer_chosen: f64,
}

/// Whether `update` (which turned `before` into `after`) made no move appear and none
/// cheaper: then no route got cheaper, the only case where an incremental method that
/// reuses old costs as lower bounds (Adaptive A*) stays exact. Compared move by move on the
/// graphs, so unlike the replanner's own check it also judges moves no search read. Moves
/// out of added nodes are left aside: a route reaches an added node only through a move into
/// it, which appeared.
fn only_dearer(
    before: &NavGraph,
    after: &NavGraph,
    update: &GraphUpdate,
    costs: &MoveCosts,
) -> bool {
    let (mut old, mut new) = (Vec::new(), Vec::new());
    update
        .changed
        .iter()
        .filter(|id| !update.added.contains(id))
        .all(|&id| {
            before.moves(id, costs, &mut old);
            after.moves(id, costs, &mut new);
            new.iter().all(|step| {
                old.iter()
                    .any(|was| was.node == step.node && was.cost <= step.cost)
            })
        })
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)
}

/// Runs the replanning benchmark on the default terrain of `seed` with `queries` replans and
/// prints its table.
///
/// # Errors
/// A message when a search fails or when the engines' costs differ on a query.
pub fn bench(seed: u64, queries: usize) -> Result<(), String> {
    let mut world = make_terrain(seed)?.into_world();
    world.track_changes(true);
    let (agent, costs) = (Agent::default(), MoveCosts::default());
    let mut astar = Pathfinder::new(agent, costs).map_err(|e| e.to_string())?;
    let mut graph_astar = GraphSearch::new(costs).map_err(|e| e.to_string())?;
    let mut dstar = DStarLite::new(agent, costs).map_err(|e| e.to_string())?;
    let mut replanner = Replanner::new(agent, costs).map_err(|e| e.to_string())?;
    let mut rng = SplitMix64::new(seed ^ 0xBEEF);
    // The walk graph of the unchanged world, compiled once: every query starts from a copy
    // (the world is restored after each query), and the fresh searches run over a copy
    // updated with the query's changes, as a server keeping one graph up to date would.
    let t = Instant::now();
    let mut graph = NavGraph::compile(&world, &agent).map_err(|e| e.to_string())?;
    let mut spares: Vec<NavGraph> = Vec::new();
    println!(
        "walk graph: compiled in {:.0} ms, {} feet positions, {:.1} bytes each",
        millis(t.elapsed()),
        graph.node_count(),
        graph.memory_bytes() as f64 / graph.node_count().max(1) as f64
    );
    let mut timings = Timings::default();
    let (mut route_lengths, mut changed_counts) = (0usize, 0usize);
    let mut plan_times = (0.0, 0.0, 0.0);
    let mut expansions = (0u64, 0u64, 0u64);
    while timings.fresh.len() < queries {
        let (start, goal, route) = pick_route(&world, &mut astar, &mut rng, 200)?;
        let position_index = route.path.len() / 8 + rng.below(route.path.len() as u64 / 3) as usize;
        let position = route.path[position_index];
        // Each planner plans over its own copy of the graph of the unchanged world, taken
        // back and brought up to date after each query (as a server would keep it), so that
        // no repair pays for a copy's first growth.
        let own = dstar
            .take_graph()
            .or_else(|| spares.pop())
            .unwrap_or_else(|| graph.clone());
        let t = Instant::now();
        dstar
            .plan_with_graph(own, start, goal)
            .map_err(|e| e.to_string())?;
        plan_times.1 += millis(t.elapsed());
        plan_times.0 += millis(route.stats.elapsed);
        let own = replanner
            .take_graph()
            .or_else(|| spares.pop())
            .unwrap_or_else(|| graph.clone());
        let t = Instant::now();
        replanner
            .plan_with_graph(own, start, goal)
            .map_err(|e| e.to_string())?;
        plan_times.2 += millis(t.elapsed());
        world.take_changes();
        if !disturb(&mut world, &mut rng, &route.path, position_index) {
            // Nothing changed but the world's version: every graph follows it.
            let undone = world.take_changes();
            graph
                .apply_changes(&world, &undone)
                .map_err(|e| e.to_string())?;
            for own in [dstar.take_graph(), replanner.take_graph()] {
                let Some(mut own) = own else { continue };
                own.apply_changes(&world, &undone)
                    .map_err(|e| e.to_string())?;
                spares.push(own);
            }
            continue;
        }
        let changes = world.take_changes();
        let changed: Vec<IVec3> = changes.positions().collect();

        // The fresh searches' times are the best of three runs; the repairs run once (they
        // change their state), so a busy machine's noise counts against them. The fresh
        // search over the graph is not charged for updating the graph; the repairs are.
        let mut updated = graph.clone();
        let t = Instant::now();
        let update = updated
            .apply_changes(&world, &changes)
            .map_err(|e| e.to_string())?;
        timings.update.push(millis(t.elapsed()));
        let dearer = only_dearer(&graph, &updated, &update, &costs);
        let mut fresh_time = f64::MAX;
        let mut fresh = None;
        for _ in 0..3 {
            let t = Instant::now();
            let result = graph_astar
                .find_path(&updated, position, goal, &SearchOptions::default())
                .map_err(|e| e.to_string())?;
            fresh_time = fresh_time.min(millis(t.elapsed()));
            fresh = Some(result);
        }
        let fresh = fresh.ok_or("no fresh search ran")?;
        let mut on_the_fly_time = f64::MAX;
        for _ in 0..3 {
            let t = Instant::now();
            let result = astar
                .find_path(&world, position, goal, &SearchOptions::default())
                .map_err(|e| e.to_string())?;
            on_the_fly_time = on_the_fly_time.min(millis(t.elapsed()));
            if result.cost != fresh.cost {
                return Err(format!(
                    "query {}: costs differ: A* over the graph {:?}, on the fly {:?}",
                    timings.fresh.len(),
                    fresh.cost,
                    result.cost
                ));
            }
        }
        let t = Instant::now();
        let repaired = dstar
            .replan_changes(&world, position, &changes)
            .map_err(|e| e.to_string())?;
        let dstar_time = millis(t.elapsed());
        let t = Instant::now();
        let chosen = replanner
            .replan_changes(&world, position, &changes)
            .map_err(|e| e.to_string())?;
        let chosen_time = millis(t.elapsed());
        expansions.0 += fresh.stats.expanded;
        expansions.1 += repaired.stats.expanded;
        expansions.2 += chosen.result.stats.expanded;
        for (per_node, time, expanded) in [
            (
                &mut timings.fresh_per_node,
                fresh_time,
                fresh.stats.expanded,
            ),
            (
                &mut timings.dstar_per_node,
                dstar_time,
                repaired.stats.expanded,
            ),
        ] {
            if expanded >= 100 {
                per_node.push(time * 1e6 / expanded as f64);
            }
        }
        if repaired.cost != fresh.cost || chosen.result.cost != fresh.cost {
            return Err(format!(
                "query {}: costs differ: fresh A* {:?}, D* Lite {:?}, replanner {:?}",
                timings.fresh.len(),
                fresh.cost,
                repaired.cost,
                chosen.result.cost
            ));
        }
        timings.fresh.push(fresh_time);
        timings.fresh_on_the_fly.push(on_the_fly_time);
        timings.dstar.push(dstar_time);
        timings.chosen.push(chosen_time);
        if dearer {
            timings.only_dearer += 1;
            timings.only_dearer_chosen += chosen_time;
        }
        if chosen.method == ReplanMethod::Kept {
            timings.kept_answers += 1;
        }
        route_lengths += route.path.len();
        changed_counts += changed.len();
        for change in changes.cells.iter().rev() {
            world
                .set(change.pos, change.old)
                .map_err(|e| e.to_string())?;
        }
        let restored = world.take_changes();
        // The unchanged world's graph follows the version (its moves come out as they were).
        for step in [&changes, &restored] {
            graph
                .apply_changes(&world, step)
                .map_err(|e| e.to_string())?;
        }
        for own in [dstar.take_graph(), replanner.take_graph()] {
            let Some(mut own) = own else { continue };
            own.apply_changes(&world, &restored)
                .map_err(|e| e.to_string())?;
            spares.push(own);
        }
    }
    let n = timings.fresh.len() as f64;
    println!(
        "{queries} replans, seed {seed}: routes of {:.0} positions on average, {:.1} changed cells per query, equal costs on every query",
        route_lengths as f64 / n,
        changed_counts as f64 / n
    );
    println!(
        "first plans: A* on the fly {:.2} ms, D* Lite over a copy of the graph {:.2} ms, Replanner (backward A*) over a copy of the graph {:.2} ms (mean)",
        plan_times.0 / n,
        plan_times.1 / n,
        plan_times.2 / n
    );
    println!(
        "nodes expanded per replan (mean): fresh A* over the graph {:.0}, D* Lite repair {:.0}, Replanner {:.0}",
        expansions.0 as f64 / n,
        expansions.1 as f64 / n,
        expansions.2 as f64 / n
    );
    // Medians of per-query figures: a busy machine's pauses, which inflate means, mostly miss
    // the median query.
    println!(
        "ns per expanded node (median over queries of 100+ expansions): fresh A* over the graph {:.0}, D* Lite repair {:.0} (graph update included)",
        median(&timings.fresh_per_node),
        median(&timings.dstar_per_node)
    );
    println!("| replan | mean ms | median ms | speed-up vs fresh A* over the graph (mean) |");
    println!("|---|---|---|---|");
    let fresh_mean = mean(&timings.fresh);
    for (name, values) in [
        ("fresh A* over the graph", &timings.fresh),
        ("fresh A* on the fly", &timings.fresh_on_the_fly),
        ("D* Lite repair", &timings.dstar),
        ("Replanner", &timings.chosen),
        ("(graph update alone, on a fresh copy)", &timings.update),
    ] {
        println!(
            "| {name} | {:.3} | {:.3} | {:.1}x |",
            mean(values),
            median(values),
            fresh_mean / mean(values)
        );
    }
    println!(
        "Replanner answered {} of {queries} by keeping the rest of its planned route (its moves intact and its cost equal to the learned lower bound; only when the NPC stands on that route, which here is a fresh A*'s and may differ from the replanner's among equal-cost routes), the rest with an A* guided by the learned bounds",
        timings.kept_answers
    );
    println!(
        "{} of {queries} replans made no move appear and none cheaper (where Adaptive A* would be exact); the Replanner spent {:.1}% of its time on them",
        timings.only_dearer,
        100.0 * timings.only_dearer_chosen
            / timings.chosen.iter().sum::<f64>().max(f64::MIN_POSITIVE)
    );
    Ok(())
}
