//! Rule 8 of `voxnav::moves`: walkers that swim at the surface of water, and the water modes
//! (wade, swim, avoid), by property tests against an exhaustive Dijkstra over the rules
//! written out again below (the side views a person can check by eye are in
//! `tests/swim_views.rs`).

mod support;

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};

use support::rng::Rng;
use voxnav::engine::{Pathfinder, neighbours};
use voxnav::graph::{GraphSearch, NavGraph};
use voxnav::moves::MAX_WATER_DROP;
use voxnav::moves::agent::WaterMode;
use voxnav::world::Bounds;
use voxnav::world::TerrainFlags;
use voxnav::{
    Agent, Block, ChunkedWorld, IVec3, MoveCosts, SearchOptions, SearchStatus, VoxelWorld,
    check_path,
};

// ---------------------------------------------------------------------------------------
// The rules again, for worlds of air, solid and water only (every floor a full block, no
// ladders, lava or partial blocks), written from the `voxnav::moves` docs (rules 1-3, 5, 7
// and 8) and deciding each candidate move by itself.

fn water<W: VoxelWorld + ?Sized>(world: &W, p: IVec3) -> bool {
    world.terrain(p).contains(TerrainFlags::IN_WATER)
}

fn fits<W: VoxelWorld + ?Sized>(world: &W, feet: IVec3, height: u32) -> bool {
    (0..height as i32).all(|i| world.is_passable(feet + IVec3::Y * i))
}

/// Water at the feet, no water above, no floor below.
fn afloat<W: VoxelWorld + ?Sized>(world: &W, feet: IVec3) -> bool {
    water(world, feet) && !water(world, feet + IVec3::Y) && !world.is_standable(feet - IVec3::Y)
}

/// A valid position of a walker that swims (`swims`) or not.
fn valid<W: VoxelWorld + ?Sized>(world: &W, agent: &Agent, swims: bool, feet: IVec3) -> bool {
    fits(world, feet, agent.height)
        && (world.is_standable(feet - IVec3::Y) || (swims && afloat(world, feet)))
}

/// The cost of the move from `from` to `to` if the rules allow it.
fn oracle_move<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    from: IVec3,
    to: IVec3,
) -> Option<u64> {
    let swims = agent.water == WaterMode::Swim;
    let (dx, dz) = (to.x - from.x, to.z - from.z);
    if dx.abs() > 1 || dz.abs() > 1 || (dx == 0 && dz == 0) {
        return None;
    }
    if dx != 0 && dz != 0 && !agent.diagonals {
        return None;
    }
    let h = agent.height as i32;
    let level = IVec3::new(to.x, from.y, to.z);
    let body_fits_level = fits(world, level, agent.height);
    let rise = to.y - from.y;
    let vertical = match rise.cmp(&0) {
        std::cmp::Ordering::Equal => {
            // Rule 1 (level) / rule 8 (a swimming position counts as a floor).
            if !body_fits_level || !valid(world, agent, swims, to) {
                return None;
            }
            0
        }
        std::cmp::Ordering::Less => {
            let depth = -rise;
            // Rule 1's drop: the body fits level, no landing before `to`, falling through
            // passable cells only; water breaks a fall of any depth (rule 8).
            if !body_fits_level || !valid(world, agent, swims, to) {
                return None;
            }
            let landing_above = (0..depth).any(|k| {
                let p = level - IVec3::Y * k;
                !world.is_passable(p) || valid(world, agent, swims, p)
            });
            let limit = if swims && water(world, to) {
                agent.max_drop.max(MAX_WATER_DROP)
            } else {
                agent.max_drop
            };
            if landing_above || depth as u32 > limit {
                return None;
            }
            u64::from(costs.descend) * depth as u64
        }
        std::cmp::Ordering::Greater => {
            // Rule 2: only when the body does not fit level; head room over the agent's own
            // head, and the smallest height wins.
            if body_fits_level || rise as u32 > agent.max_step_up {
                return None;
            }
            let room = (0..rise).all(|k| world.is_passable(from + IVec3::Y * (h + k)));
            let lower = (1..rise).any(|k| {
                valid(world, agent, swims, level + IVec3::Y * k)
                    && (0..k).all(|j| world.is_passable(from + IVec3::Y * (h + j)))
            });
            if !room || lower || !valid(world, agent, swims, to) {
                return None;
            }
            u64::from(costs.ascend) * rise as u64
        }
    };
    // Rule 3: no corner cutting.
    if dx != 0 && dz != 0 {
        let top = from.y.max(to.y) + h - 1;
        for side in [
            IVec3::new(from.x + dx, 0, from.z),
            IVec3::new(from.x, 0, from.z + dz),
        ] {
            if !(from.y..=top).all(|y| world.is_passable(IVec3::new(side.x, y, side.z))) {
                return None;
            }
        }
    }
    // Rule 7: never both feet and the cell above in water; the avoid mode: never in water.
    if water(world, to) && water(world, to + IVec3::Y) {
        return None;
    }
    if agent.water == WaterMode::Avoid && water(world, to) {
        return None;
    }
    let step = if dx != 0 && dz != 0 {
        costs.diagonal
    } else {
        costs.straight
    };
    let mut cost = u64::from(step) + vertical;
    if water(world, to) {
        cost += u64::from(costs.water);
    }
    if afloat(world, to) {
        cost += u64::from(costs.swim);
    }
    Some(cost)
}

/// Every move from `from`, by trying every cell of the 8 neighbouring columns.
fn oracle_moves<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    from: IVec3,
) -> Vec<(IVec3, u64)> {
    let bounds = world.bounds().unwrap();
    let mut out = Vec::new();
    for dz in -1..=1 {
        for dx in -1..=1 {
            for y in bounds.min.y..bounds.max.y {
                let to = IVec3::new(from.x + dx, y, from.z + dz);
                if let Some(cost) = oracle_move(world, agent, costs, from, to) {
                    out.push((to, cost));
                }
            }
        }
    }
    out
}

/// Exhaustive Dijkstra from `start`: the cost of every position reached.
fn oracle_costs<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    start: IVec3,
) -> HashMap<IVec3, u64> {
    let mut best = HashMap::from([(start, 0)]);
    let mut open = BinaryHeap::from([Reverse((0u64, start.to_array()))]);
    while let Some(Reverse((cost, at))) = open.pop() {
        let at = IVec3::from_array(at);
        if best.get(&at).is_some_and(|&b| b < cost) {
            continue;
        }
        for (to, step) in oracle_moves(world, agent, costs, at) {
            let next = cost + step;
            if best.get(&to).is_none_or(|&b| next < b) {
                best.insert(to, next);
                open.push(Reverse((next, to.to_array())));
            }
        }
    }
    best
}

/// A small world of air, solid and water whose corner lies at a random offset near a chunk
/// corner, so that it spans chunk borders: a floor, random hills, pools filled to a random
/// level (deep and shallow), a few overhangs, drops of water hanging in the air, and
/// barriers (neither passable nor standable: water over one has no floor, and a step up
/// may end afloat over one).
fn random_water_world(rng: &mut Rng) -> ChunkedWorld {
    let size = IVec3::new(
        5 + rng.below(5) as i32,
        8 + rng.below(8) as i32,
        5 + rng.below(5) as i32,
    );
    let min = IVec3::new(
        16 * (rng.below(3) as i32 - 1) - rng.below(6) as i32,
        16 * (rng.below(2) as i32) - rng.below(6) as i32,
        16 * (rng.below(3) as i32 - 1) - rng.below(6) as i32,
    );
    let mut world = ChunkedWorld::with_bounds(Bounds {
        min,
        max: min + size,
    })
    .unwrap();
    let mut ground = BTreeMap::new();
    for x in 0..size.x {
        for z in 0..size.z {
            let top = rng.pick(&[0, 0, 1, 1, 2, 3, 5, size.y - 4]);
            ground.insert((x, z), top);
            world
                .fill(
                    min + IVec3::new(x, 0, z),
                    min + IVec3::new(x, top, z),
                    Block::Solid,
                )
                .unwrap();
        }
    }
    for _ in 0..=rng.below(3) {
        let (x0, z0) = (rng.coord(size.x), rng.coord(size.z));
        let (x1, z1) = (
            (x0 + rng.below(5) as i32).min(size.x - 1),
            (z0 + rng.below(5) as i32).min(size.z - 1),
        );
        let level = 1 + rng.below(4) as i32;
        for x in x0..=x1 {
            for z in z0..=z1 {
                for y in ground[&(x, z)] + 1..=level {
                    world.set(min + IVec3::new(x, y, z), Block::Water).unwrap();
                }
            }
        }
    }
    for _ in 0..rng.below(12) {
        let p = min
            + IVec3::new(
                rng.coord(size.x),
                1 + rng.coord(size.y - 1),
                rng.coord(size.z),
            );
        let block = rng.pick(&[
            Block::Solid,
            Block::Water,
            Block::Air,
            Block::Barrier,
            Block::Barrier,
        ]);
        world.set(p, block).unwrap();
    }
    world
}

fn random_costs(rng: &mut Rng) -> MoveCosts {
    if rng.chance(50) {
        MoveCosts::default()
    } else {
        MoveCosts::default()
            .with_ascend(rng.below(30) as u32)
            .with_descend(rng.below(30) as u32)
            .with_water(rng.below(30) as u32)
            .with_swim(rng.below(30) as u32)
    }
}

/// Every valid position of `agent` in the world.
fn positions(world: &ChunkedWorld, agent: &Agent) -> Vec<IVec3> {
    let bounds = world.bounds().unwrap();
    let mut out = Vec::new();
    for y in bounds.min.y..bounds.max.y {
        for z in bounds.min.z..bounds.max.z {
            for x in bounds.min.x..bounds.max.x {
                let p = IVec3::new(x, y, z);
                if agent.is_valid_position(world, p) {
                    out.push(p);
                }
            }
        }
    }
    out
}

#[test]
fn swimming_agents_search_and_compile_to_exhaustive_dijkstras_costs() {
    let mut rng = Rng::new(0x5_1_1_1);
    let mut afloat_routes = 0;
    let mut found = 0;
    let mut unreachable = 0;
    for round in 0..120 {
        let world = random_water_world(&mut rng);
        let agent = Agent::default()
            .with_water(rng.pick(&[WaterMode::Swim, WaterMode::Swim, WaterMode::Avoid]))
            .with_height(1 + rng.below(3) as u32)
            .with_max_step_up(1 + rng.below(2) as u32)
            .with_max_drop(1 + rng.below(3) as u32)
            .with_diagonals(rng.below(4) != 0);
        let costs = random_costs(&mut rng);
        let swims = agent.water == WaterMode::Swim;
        let all = positions(&world, &agent);
        // The crate's and the oracle's valid positions agree.
        let bounds = world.bounds().unwrap();
        for y in bounds.min.y..bounds.max.y {
            for z in bounds.min.z..bounds.max.z {
                for x in bounds.min.x..bounds.max.x {
                    let p = IVec3::new(x, y, z);
                    assert_eq!(
                        agent.is_valid_position(&world, p),
                        valid(&world, &agent, swims, p),
                        "round {round}: validity of {p}"
                    );
                }
            }
        }
        if all.is_empty() {
            continue;
        }
        // The generator's moves are the oracle's, move for move.
        let mut moves = Vec::new();
        for &from in &all {
            neighbours(&world, &agent, &costs, from, &mut moves);
            let mut mine: Vec<_> = moves
                .iter()
                .map(|m| (m.feet.to_array(), u64::from(m.cost)))
                .collect();
            let mut theirs: Vec<_> = oracle_moves(&world, &agent, &costs, from)
                .into_iter()
                .map(|(p, c)| (p.to_array(), c))
                .collect();
            mine.sort_unstable();
            theirs.sort_unstable();
            assert_eq!(mine, theirs, "round {round}: moves from {from}, {agent:?}");
        }
        let graph = NavGraph::compile(&world, &agent).unwrap();
        assert_eq!(graph.node_count(), all.len(), "round {round}: graph nodes");
        let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
        let mut search = GraphSearch::new(costs).unwrap();
        for _ in 0..4 {
            let start = all[rng.index(all.len())];
            let goal = all[rng.index(all.len())];
            let truth = oracle_costs(&world, &agent, &costs, start);
            let options = SearchOptions::default();
            let on_the_fly = pathfinder.find_path(&world, start, goal, &options).unwrap();
            let compiled = search.find_path(&graph, start, goal, &options).unwrap();
            let expected = truth.get(&goal).copied();
            for (engine, result) in [("pathfinder", &on_the_fly), ("graph", &compiled)] {
                assert_eq!(
                    result.cost, expected,
                    "round {round}: {engine} {start} -> {goal}"
                );
                if result.status == SearchStatus::Found {
                    assert_eq!(result.path.first(), Some(&start));
                    assert_eq!(result.path.last(), Some(&goal));
                    // Step by step: each move is one the oracle allows, and they add up.
                    let mut total = 0;
                    for pair in result.path.windows(2) {
                        total += oracle_move(&world, &agent, &costs, pair[0], pair[1])
                            .unwrap_or_else(|| {
                                panic!(
                                    "round {round}: {engine} {} -> {} is no move",
                                    pair[0], pair[1]
                                )
                            });
                    }
                    assert_eq!(Some(total), result.cost);
                    let check = check_path(&world, &agent, &costs, &result.path);
                    assert_eq!(
                        check.cost, result.cost,
                        "round {round}: {engine} check_path"
                    );
                } else {
                    assert_eq!(result.status, SearchStatus::Unreachable);
                }
            }
            match expected {
                Some(_) => found += 1,
                None => unreachable += 1,
            }
            if on_the_fly.path.iter().any(|&p| afloat(&world, p)) {
                afloat_routes += 1;
            }
        }
    }
    assert!(
        found > 50 && unreachable > 10,
        "found {found}, unreachable {unreachable}"
    );
    assert!(afloat_routes > 20, "only {afloat_routes} routes swam");
}

#[test]
fn a_swimmers_graph_updated_after_block_changes_equals_a_fresh_compile() {
    let mut rng = Rng::new(0xF100D);
    for round in 0..30 {
        let mut world = random_water_world(&mut rng);
        let agent = swimmer()
            .with_height(1 + rng.below(3) as u32)
            .with_max_drop(1 + rng.below(3) as u32);
        let costs = MoveCosts::default();
        let mut graph = NavGraph::compile(&world, &agent).unwrap();
        let bounds = world.bounds().unwrap();
        let size = bounds.size();
        for _ in 0..10 {
            let p =
                bounds.min + IVec3::new(rng.coord(size.x), rng.coord(size.y), rng.coord(size.z));
            let block = rng.pick(&[Block::Solid, Block::Water, Block::Air]);
            world.set(p, block).unwrap();
            graph.update(&world, [p]).unwrap();
            let fresh = NavGraph::compile(&world, &agent).unwrap();
            let picture = |g: &NavGraph| {
                let mut out = BTreeMap::new();
                let mut moves = Vec::new();
                for id in g.nodes() {
                    g.moves(id, &costs, &mut moves);
                    let mut list: Vec<_> =
                        moves.iter().map(|m| (m.feet.to_array(), m.cost)).collect();
                    list.sort_unstable();
                    out.insert(g.feet(id).to_array(), list);
                }
                out
            };
            assert_eq!(
                picture(&graph),
                picture(&fresh),
                "round {round}: after {p} = {block:?}"
            );
        }
    }
}

#[test]
fn every_graph_engine_answers_for_a_swimmer_as_the_pathfinder_does() {
    use voxnav::Replanner;
    use voxnav::engine::{DStarLite, Navigator, Reach, ReachIndex};

    let mut rng = Rng::new(0xD1CE);
    let (mut afloat_ends, mut proved) = (0, 0);
    for round in 0..40 {
        let world = random_water_world(&mut rng);
        let agent = swimmer()
            .with_height(1 + rng.below(2) as u32)
            .with_max_drop(1 + rng.below(3) as u32);
        let costs = MoveCosts::default();
        let all = positions(&world, &agent);
        if all.is_empty() {
            continue;
        }
        let index = ReachIndex::build(&world, &agent).unwrap();
        let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
        let mut navigator = Navigator::new(agent, costs).unwrap();
        for _ in 0..4 {
            let start = all[rng.index(all.len())];
            let goal = all[rng.index(all.len())];
            if afloat(&world, start) || afloat(&world, goal) {
                afloat_ends += 1;
            }
            let options = SearchOptions::default();
            let truth = pathfinder.find_path(&world, start, goal, &options).unwrap();
            let what = format!("round {round}: {start} -> {goal}");
            let mut dstar = DStarLite::new(agent, costs).unwrap();
            assert_eq!(
                dstar.plan(&world, start, goal).unwrap().cost,
                truth.cost,
                "D* {what}"
            );
            let mut replanner = Replanner::new(agent, costs).unwrap();
            assert_eq!(
                replanner.plan(&world, start, goal).unwrap().cost,
                truth.cost,
                "Replanner {what}"
            );
            assert_eq!(
                navigator
                    .find_path(&world, start, goal, &options)
                    .unwrap()
                    .cost,
                truth.cost,
                "Navigator {what}"
            );
            // The index proves unreachability or says nothing; it must never be wrong.
            let reach = index.reach(&world, &agent, start, goal);
            assert_ne!(reach, Reach::Unknown, "index {what}");
            if reach.proves_unreachable() {
                assert_eq!(truth.cost, None, "index {what}");
                proved += 1;
            }
        }
    }
    assert!(
        afloat_ends > 20,
        "only {afloat_ends} queries started or ended afloat"
    );
    assert!(
        proved > 10,
        "the index proved only {proved} pairs unreachable"
    );
}

// ---------------------------------------------------------------------------------------
// Wide bodies that swim: the oracle above read through the box restatement of
// tests/support/oracle.rs (`Footprints`), against every position, move and route.

#[test]
fn wide_swimmers_match_exhaustive_dijkstra_over_the_box_rules() {
    use support::oracle::Footprints;

    let mut rng = Rng::new(0x3_71DE);
    let (mut found, mut afloat_routes, mut afloat_positions) = (0, 0, 0);
    for round in 0..100 {
        let mut world = random_water_world(&mut rng);
        // A pool wide enough for the box to float: a rectangle of water three deep or more,
        // from just over the bottom layer up to a random surface.
        let b = world.bounds().unwrap();
        let size = b.size();
        let (x0, z0) = (rng.coord(size.x - 3), rng.coord(size.z - 3));
        let (x1, z1) = (
            x0 + 3 + rng.coord(size.x - x0 - 3),
            z0 + 3 + rng.coord(size.z - z0 - 3),
        );
        let surface = 3 + rng.coord(size.y - 5);
        world
            .fill(
                b.min + IVec3::new(x0, 1, z0),
                b.min + IVec3::new(x1 - 1, surface, z1 - 1),
                Block::Water,
            )
            .unwrap();
        let agent = swimmer()
            .with_width(2 + rng.below(2) as u32)
            .with_height(1 + rng.below(4) as u32)
            .with_max_drop(1 + rng.below(3) as u32)
            .with_diagonals(rng.below(4) != 0);
        let narrow = agent.with_width(1);
        let boxes = Footprints::new(&world, agent.width);
        let costs = MoveCosts::default();
        let all = positions(&world, &agent);
        let bounds = world.bounds().unwrap();
        for y in bounds.min.y..bounds.max.y {
            for z in bounds.min.z..bounds.max.z {
                for x in bounds.min.x..bounds.max.x {
                    let p = IVec3::new(x, y, z);
                    let inside = boxes.bounds().unwrap().contains(p);
                    assert_eq!(
                        agent.is_valid_position(&world, p),
                        inside && valid(&boxes, &narrow, true, p),
                        "round {round}, {agent:?}: validity of {p}"
                    );
                }
            }
        }
        let mut moves = Vec::new();
        for &from in &all {
            neighbours(&world, &agent, &costs, from, &mut moves);
            let mut mine: Vec<_> = moves
                .iter()
                .map(|m| (m.feet.to_array(), u64::from(m.cost)))
                .collect();
            let mut theirs: Vec<_> = oracle_moves(&boxes, &narrow, &costs, from)
                .into_iter()
                .map(|(p, c)| (p.to_array(), c))
                .collect();
            mine.sort_unstable();
            theirs.sort_unstable();
            assert_eq!(mine, theirs, "round {round}, {agent:?}: moves from {from}");
        }
        if all.is_empty() {
            continue;
        }
        let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
        // Start afloat where the world allows it, so that routes swim.
        let afloat_starts: Vec<IVec3> =
            all.iter().copied().filter(|&p| afloat(&boxes, p)).collect();
        afloat_positions += afloat_starts.len();
        let start = if afloat_starts.is_empty() {
            all[rng.index(all.len())]
        } else {
            afloat_starts[rng.index(afloat_starts.len())]
        };
        let truth = oracle_costs(&boxes, &narrow, &costs, start);
        for _ in 0..4 {
            let goal = all[rng.index(all.len())];
            let result = pathfinder
                .find_path(&world, start, goal, &SearchOptions::default())
                .unwrap();
            let what = format!("round {round}, {agent:?}: {start} -> {goal}");
            assert_eq!(result.cost, truth.get(&goal).copied(), "{what}");
            if result.status != SearchStatus::Found {
                continue;
            }
            found += 1;
            let total: u64 = result
                .path
                .windows(2)
                .map(|pair| {
                    oracle_move(&boxes, &narrow, &costs, pair[0], pair[1])
                        .unwrap_or_else(|| panic!("{what}: {} -> {} is no move", pair[0], pair[1]))
                })
                .sum();
            assert_eq!(Some(total), result.cost, "{what}");
            if result.path.iter().any(|&p| afloat(&boxes, p)) {
                afloat_routes += 1;
            }
        }
    }
    // Every afloat position's moves were compared above, whether or not a route used it.
    assert!(found > 40, "found {found}");
    assert!(
        afloat_positions > 100 && afloat_routes > 2,
        "{afloat_positions} positions afloat, {afloat_routes} routes swam"
    );
}

/// A walker that swims.
fn swimmer() -> Agent {
    Agent::default().with_water(WaterMode::Swim)
}
