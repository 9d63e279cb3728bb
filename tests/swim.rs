//! Rule 8 of `voxnav::moves`: walkers that swim at the surface of water, and the water modes
//! (wade, swim, avoid). Side-view worlds a person can check by eye, then a property test
//! against an exhaustive Dijkstra over the rules written out again below.
//!
//! Side views list the layers top first; each row is one layer `y` of a world one cell deep
//! (z = 0), characters are x: `#` solid, `.` air, `~` water.

mod support;

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};

use support::rng::Rng;
use voxnav::engine::{MoveKind, Pathfinder, move_in_direction, neighbours};
use voxnav::graph::{GraphSearch, NavGraph};
use voxnav::moves::MAX_WATER_DROP;
use voxnav::moves::agent::WaterMode;
use voxnav::world::Bounds;
use voxnav::world::{InvalidFeet, TerrainFlags};
use voxnav::{
    Agent, Block, ChunkedWorld, IVec3, MoveCosts, SearchOptions, SearchStatus, VoxelWorld,
    check_path,
};

const EAST: IVec3 = IVec3::new(1, 0, 0);

/// A world one cell deep from a side view (top layer first).
fn side_view(rows: &[&str]) -> ChunkedWorld {
    let sy = rows.len() as i32;
    let sx = rows[0].len() as i32;
    let mut world = ChunkedWorld::with_size(IVec3::new(sx, sy, 1)).unwrap();
    for (i, row) in rows.iter().enumerate() {
        let y = sy - 1 - i as i32;
        for (x, c) in row.chars().enumerate() {
            let block = match c {
                '#' => Block::Solid,
                '~' => Block::Water,
                '.' => Block::Air,
                other => panic!("unknown side-view character {other:?}"),
            };
            world.set(IVec3::new(x as i32, y, 0), block).unwrap();
        }
    }
    world
}

fn swimmer() -> Agent {
    Agent::default().with_water(WaterMode::Swim)
}

fn route(agent: Agent, world: &ChunkedWorld, start: IVec3, goal: IVec3) -> voxnav::SearchResult {
    let mut pathfinder = Pathfinder::new(agent, MoveCosts::default()).unwrap();
    pathfinder
        .find_path(world, start, goal, &SearchOptions::default())
        .unwrap()
}

/// A pond two deep between two banks whose tops are one block above the water's surface.
const POND: [&str; 6] = [
    "...........", // y = 5: head room for a mob three tall
    "...........", // y = 4
    "...........", // y = 3: feet on the banks
    "##~~~~~~~##", // y = 2: the surface, swimming positions at x = 2 ..= 8
    "#~~~~~~~~~#", // y = 1
    "###########", // y = 0
];

#[test]
fn a_swimmer_crosses_a_pond_and_climbs_out_on_the_far_bank() {
    let world = side_view(&POND);
    let (start, goal) = (IVec3::new(0, 3, 0), IVec3::new(10, 3, 0));
    let found = route(swimmer(), &world, start, goal);
    assert_eq!(found.status, SearchStatus::Found);
    let mut expected = vec![start, IVec3::new(1, 3, 0)];
    expected.extend((2..=8).map(|x| IVec3::new(x, 2, 0)));
    expected.extend([IVec3::new(9, 3, 0), goal]);
    assert_eq!(found.path, expected);
    // Walk 10; drop into the water 10 + 2 + water 10 + swim 10; six strokes of 30; climb out
    // 10 + 10; walk 10.
    assert_eq!(found.cost, Some(10 + 32 + 6 * 30 + 20 + 10));
    let check = check_path(&world, &swimmer(), &MoveCosts::default(), &found.path);
    assert_eq!(check.cost, found.cost);
    // The climb out is the step-up rule, from a position with no floor.
    let out = move_in_direction(
        &world,
        &swimmer(),
        &MoveCosts::default(),
        IVec3::new(8, 2, 0),
        EAST,
    )
    .unwrap();
    assert_eq!(
        (out.feet, out.kind),
        (IVec3::new(9, 3, 0), MoveKind::StepUp(1))
    );

    // The compiled graph holds the swimming positions and gives the same route.
    let graph = NavGraph::compile(&world, &swimmer()).unwrap();
    let mut search = GraphSearch::new(MoveCosts::default()).unwrap();
    let compiled = search
        .find_path(&graph, start, goal, &SearchOptions::default())
        .unwrap();
    assert_eq!((compiled.path, compiled.cost), (found.path, found.cost));
}

#[test]
fn a_wader_may_not_cross_the_pond_nor_start_afloat() {
    let world = side_view(&POND);
    let found = route(
        Agent::default(),
        &world,
        IVec3::new(0, 3, 0),
        IVec3::new(10, 3, 0),
    );
    assert_eq!(found.status, SearchStatus::Unreachable);
    // A swimming position is a valid start for a swimmer only.
    let afloat = IVec3::new(5, 2, 0);
    assert!(swimmer().is_valid_position(&world, afloat));
    assert_eq!(
        Agent::default().check_position(&world, afloat),
        Err(InvalidFeet::NoFloor {
            floor: IVec3::new(5, 1, 0)
        })
    );
    // No diving: the bottom of the pond is a valid feet position (a start placed there may
    // leave) but no move enters it.
    let mut moves = Vec::new();
    neighbours(
        &world,
        &swimmer(),
        &MoveCosts::default(),
        afloat,
        &mut moves,
    );
    assert!(moves.iter().all(|m| m.feet.y == 2), "{moves:?}");
}

/// A cliff whose top is 10 blocks above a pool two deep (x = 1, 2) and 10 blocks above dry
/// ground (x = 3).
const CLIFF: [&str; 14] = [
    "....", // y = 13
    "....", // y = 12: feet on the cliff
    "#...", // y = 11
    "#...", "#...", "#...", "#...", "#...", "#...", "#...", "#...", // y = 10 ..= 3
    "#~~.", // y = 2: the surface
    "#~~#", // y = 1: (3, 2) is dry ground, 10 below the cliff's top
    "####", // y = 0
];

#[test]
fn a_drop_of_ten_into_deep_water_is_a_swimmers_move_and_not_a_waders() {
    let world = side_view(&CLIFF);
    let top = IVec3::new(0, 12, 0);
    let costs = MoveCosts::default();
    let fall = move_in_direction(&world, &swimmer(), &costs, top, EAST).unwrap();
    // 10 + 10 * 2 + water 10 + swim 10.
    assert_eq!(
        (fall.feet, fall.kind, fall.cost),
        (IVec3::new(1, 2, 0), MoveKind::Drop(10), 50)
    );
    assert_eq!(
        move_in_direction(&world, &Agent::default(), &costs, top, EAST),
        None
    );
    assert_eq!(
        move_in_direction(
            &world,
            &Agent::default().with_water(WaterMode::Avoid),
            &costs,
            top,
            EAST
        ),
        None
    );
    // Water breaks the fall, dry ground does not: from the pool a swimmer reaches the dry
    // ground, but from the cliff's top only through the water.
    let found = route(swimmer(), &world, top, IVec3::new(3, 2, 0));
    assert_eq!(found.status, SearchStatus::Found);
    assert_eq!(
        found.path,
        vec![
            top,
            IVec3::new(1, 2, 0),
            IVec3::new(2, 2, 0),
            IVec3::new(3, 2, 0)
        ]
    );
    let dry = side_view(&[
        "..", "..", "#.", "#.", "#.", "#.", "#.", "#.", "#.", "#.", "#.", "#.", "##",
    ]);
    assert_eq!(
        move_in_direction(&dry, &swimmer(), &costs, IVec3::new(0, 11, 0), EAST),
        None
    );
}

#[test]
fn a_fall_into_water_deeper_than_the_limit_is_no_move() {
    let limit = MAX_WATER_DROP as i32;
    let mut world = ChunkedWorld::with_size(IVec3::new(2, limit + 6, 1)).unwrap();
    // Cliff feet at limit + 3, surface at 2: a fall of limit + 1.
    world
        .fill(IVec3::ZERO, IVec3::new(0, limit + 2, 0), Block::Solid)
        .unwrap();
    world.set(IVec3::new(1, 0, 0), Block::Solid).unwrap();
    world
        .fill(IVec3::new(1, 1, 0), IVec3::new(1, 2, 0), Block::Water)
        .unwrap();
    let costs = MoveCosts::default();
    assert_eq!(
        move_in_direction(
            &world,
            &swimmer(),
            &costs,
            IVec3::new(0, limit + 3, 0),
            EAST
        ),
        None
    );
    // One block lower, the fall is exactly the limit.
    world.set(IVec3::new(0, limit + 2, 0), Block::Air).unwrap();
    let fall = move_in_direction(
        &world,
        &swimmer(),
        &costs,
        IVec3::new(0, limit + 2, 0),
        EAST,
    );
    assert_eq!(fall.map(|m| m.kind), Some(MoveKind::Drop(MAX_WATER_DROP)));
}

/// Shallow water one block deep across a path.
const FORD: [&str; 3] = [
    ".....", // y = 2
    "..~..", // y = 1: feet
    "#####", // y = 0
];

#[test]
fn avoiding_water_refuses_shallow_water_too() {
    let world = side_view(&FORD);
    let (start, goal) = (IVec3::new(0, 1, 0), IVec3::new(4, 1, 0));
    let wade = route(Agent::default(), &world, start, goal);
    // Walk 10, wade 10 + water 10, walk 10, walk 10: no swimming term for a wade.
    assert_eq!(wade.cost, Some(50));
    let swim = route(swimmer(), &world, start, goal);
    assert_eq!((swim.path, swim.cost), (wade.path, wade.cost));
    let avoid = route(
        Agent::default().with_water(WaterMode::Avoid),
        &world,
        start,
        goal,
    );
    assert_eq!(avoid.status, SearchStatus::Unreachable);
}

#[test]
fn the_default_agent_wades() {
    assert_eq!(Agent::default().water, WaterMode::Wade);
    assert!(!Agent::default().swims_at_surface());
    assert_eq!(MoveCosts::default().swim, 10);
}

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
// Mob profiles (generated from minecraft-data's entities table).

#[test]
fn mob_profiles_give_rounded_heights_movements_and_abilities() {
    use voxnav::Movement;
    use voxnav::moves::profile::{MobMovement, mob_names, mob_profile};

    let zombie = Agent::mob("zombie").unwrap();
    assert_eq!(
        (
            zombie.height,
            zombie.movement,
            zombie.water,
            zombie.opens_doors
        ),
        (2, Movement::Walk, WaterMode::Swim, false)
    );
    assert_eq!(Agent::mob("minecraft:zombie").unwrap(), zombie);
    let villager = Agent::mob("villager").unwrap();
    assert!(villager.opens_doors && villager.water == WaterMode::Swim);
    let enderman = mob_profile("enderman").unwrap();
    assert_eq!((enderman.hitbox_height, enderman.height), (2.9, 3));
    assert_eq!(Agent::mob("enderman").unwrap().water, WaterMode::Avoid);
    assert_eq!(Agent::mob("chicken").unwrap().height, 1);
    let golem = mob_profile("iron_golem").unwrap();
    assert_eq!(
        (golem.width, golem.height, golem.movement),
        (2, 3, MobMovement::Walk)
    );
    assert_eq!(Agent::mob("iron_golem").unwrap().water, WaterMode::Wade);
    assert_eq!(Agent::mob("bee").unwrap().movement, Movement::Fly);
    assert_eq!(Agent::mob("cod").unwrap().movement, Movement::Swim);
    let names: Vec<_> = mob_names().collect();
    assert_eq!(names.len(), 89);
    assert!(names.windows(2).all(|pair| pair[0] < pair[1]));
    for name in &names {
        match Agent::mob(name) {
            Ok(agent) => assert!(agent.validate().is_ok(), "{name}"),
            // Only the mobs wider than any agent get none.
            Err(error) => {
                assert!(mob_profile(name).unwrap().width > 3, "{name}: {error}");
                assert!(matches!(error, voxnav::Error::InvalidSetting(_)), "{name}");
            }
        }
    }
    let error = Agent::mob("creeper_king").unwrap_err();
    assert!(matches!(&error, voxnav::Error::UnknownMob { name } if name == "creeper_king"));
    assert!(error.to_string().contains("mob_names()"), "{error}");
}

#[test]
fn a_zombie_swims_the_pond_and_an_iron_golem_which_sinks_may_not() {
    let world = side_view(&POND);
    let (start, goal) = (IVec3::new(0, 3, 0), IVec3::new(10, 3, 0));
    let zombie = route(Agent::mob("zombie").unwrap(), &world, start, goal);
    assert_eq!(zombie.status, SearchStatus::Found);
    // The side view is one block deep: the golem's body is taken one block wide here (its
    // width of 2 is routed in tests/widths.rs).
    let golem = Agent::mob("iron_golem").unwrap().with_width(1);
    let golem = route(golem, &world, start, goal);
    assert_eq!(golem.status, SearchStatus::Unreachable);
}

// ---------------------------------------------------------------------------------------
// Ground worth standing on: the pair picker of `voxnav::world::pick`.

#[test]
fn ground_pairs_start_and_end_neither_under_water_nor_on_unloaded_chunks() {
    use voxnav::world::pick::{ground_feet, is_natural_ground, pick_ground_pairs, pick_pairs};

    // 48 x 48 columns: a sea three deep over x < 16, land over 16 <= x < 32, and an
    // "unloaded" band of barriers from the bottom to the top of the world over x >= 32.
    let mut world = ChunkedWorld::with_size(IVec3::new(48, 10, 48)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(31, 0, 47), Block::Solid)
        .unwrap();
    world
        .fill(IVec3::new(0, 1, 0), IVec3::new(15, 3, 47), Block::Water)
        .unwrap();
    world
        .fill(IVec3::new(32, 0, 0), IVec3::new(47, 9, 47), Block::Barrier)
        .unwrap();
    let agent = Agent::mob("zombie").unwrap();
    assert_eq!(ground_feet(&world, &agent, 5, 5), None);
    assert_eq!(ground_feet(&world, &agent, 40, 5), None);
    assert_eq!(
        ground_feet(&world, &agent, 20, 5),
        Some(IVec3::new(20, 1, 5))
    );

    let any = pick_pairs(&world, &agent, 11, 200, 1.0..=40.0);
    assert!(
        any.iter()
            .any(|&(s, g)| !is_natural_ground(&world, s) || !is_natural_ground(&world, g)),
        "the plain picker does start on the sea floor"
    );
    let ground = pick_ground_pairs(&world, &agent, 11, 200, 1.0..=40.0);
    assert_eq!(ground.len(), 200);
    for (start, goal) in ground {
        for feet in [start, goal] {
            assert!((16..32).contains(&feet.x), "{feet}");
            assert!(!water(&world, feet), "{feet}");
            assert!(world.is_standable(feet - IVec3::Y));
        }
    }
}

/// Pairs as `examples/minecraft.rs` picks them (its generator and draws: a start in a random
/// loaded column, a goal at most 64 blocks away in x and z), with the pair picker's ground
/// rule ([`voxnav::world::pick::ground_feet`]); and how many of them `agent` finds with
/// 2 000 000 nodes per search: (found, partial, pairs, expansions).
#[cfg(feature = "anvil")]
fn measure_save(loaded: &voxnav::anvil::LoadedWorld, agent: Agent, wanted: usize) -> [u64; 4] {
    use voxnav::world::pick::ground_feet;

    let chunks = &loaded.loaded_chunks;
    if chunks.is_empty() {
        return [0; 4];
    }
    let mut state = 1u64;
    let mut below = |n: u64| {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    };
    let mut pairs = Vec::new();
    let mut tries = 0;
    while pairs.len() < wanted && tries < wanted * 200 {
        tries += 1;
        let (cx, cz) = chunks[below(chunks.len() as u64) as usize];
        let x = cx * 16 + below(16) as i32;
        let z = cz * 16 + below(16) as i32;
        let Some(start) = ground_feet(&loaded.world, &agent, x, z) else {
            continue;
        };
        let gx = x + below(129) as i32 - 64;
        let gz = z + below(129) as i32 - 64;
        let Some(goal) = ground_feet(&loaded.world, &agent, gx, gz) else {
            continue;
        };
        if goal != start {
            pairs.push((start, goal));
        }
    }
    let mut pathfinder = Pathfinder::new(agent, MoveCosts::default()).unwrap();
    let options = SearchOptions::default().with_max_nodes(2_000_000);
    let mut out = [0, 0, pairs.len() as u64, 0];
    for &(start, goal) in &pairs {
        assert!(!water(&loaded.world, start) && !water(&loaded.world, goal));
        let result = pathfinder
            .find_path(&loaded.world, start, goal, &options)
            .unwrap();
        out[3] += result.stats.expanded;
        match result.status {
            SearchStatus::Found => out[0] += 1,
            SearchStatus::Partial => out[1] += 1,
            SearchStatus::Unreachable => {}
        }
    }
    out
}

/// The measure on a real save, run by hand (it loads region files for a few
/// seconds): `cargo test --release --test swim -- --ignored --nocapture`, with the save in
/// `VOXNAV_SAVE` (default `../shared/data/minecraft/vanilla-1.21.11`). Prints the pairs
/// found, of 100 on the whole save and of 40 on each region file loaded alone.
#[cfg(feature = "anvil")]
#[test]
#[ignore = "measures a real save; run by hand"]
fn mob_pairs_on_the_shipped_save() {
    use voxnav::anvil::load_world;

    let save = std::env::var("VOXNAV_SAVE")
        .unwrap_or_else(|_| "../shared/data/minecraft/vanilla-1.21.11".to_owned());
    let whole = load_world(&save).unwrap();
    let mobs = ["zombie", "iron_golem", "chicken"];
    for mob in mobs {
        let [found, partial, pairs, expanded] = measure_save(&whole, Agent::mob(mob).unwrap(), 100);
        println!(
            "whole save, {mob}: {found} of {pairs} found, {partial} partial; {expanded} expansions"
        );
    }
    let [found, _, pairs, _] = measure_save(&whole, Agent::default(), 100);
    println!("whole save, Agent::default(): {found} of {pairs} found");
    let mut regions: Vec<_> = std::fs::read_dir(format!("{save}/region"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    regions.sort();
    for region in regions {
        let loaded = load_world(&region).unwrap();
        let name = region.file_name().unwrap().to_string_lossy().into_owned();
        let counts: Vec<String> = mobs
            .iter()
            .map(|mob| {
                let [found, _, pairs, _] = measure_save(&loaded, Agent::mob(mob).unwrap(), 40);
                format!("{mob} {found}/{pairs}")
            })
            .collect();
        println!("{name}: {}", counts.join(", "));
    }
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
