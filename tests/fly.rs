//! Fliers and swimmers: A* against an exhaustive Dijkstra over an independent statement of
//! the box rule on random small worlds, and the mode working with goals, budgets, errors, the
//! batch router, route checks and the naive baseline.

mod support;

use std::collections::{BinaryHeap, HashMap};

use support::rng::Rng;
use support::worlds::Priced;
#[allow(dead_code, reason = "each test uses part of the baseline")]
#[path = "../examples/support/src/baseline.rs"]
mod baseline;
use voxnav::engine::Pathfinder;
use voxnav::engine::{Heuristic, HeuristicKind};
use voxnav::{
    Agent, Block, ChunkedWorld, IVec3, MoveCosts, Movement, SearchOptions, SearchResult,
    SearchStatus, VoxelWorld, check_path,
};

/// The rule, restated: a cell may hold part of the body when it is passable and, for a
/// swimmer, water.
fn cell_ok(world: &ChunkedWorld, movement: Movement, p: IVec3) -> bool {
    match world.get(p) {
        Some(Block::Water) => true,
        Some(Block::Air | Block::Ladder) => movement == Movement::Fly,
        _ => false,
    }
}

fn body_ok(world: &ChunkedWorld, agent: &Agent, p: IVec3) -> bool {
    (0..agent.height as i32).all(|dy| cell_ok(world, agent.movement, p + IVec3::new(0, dy, 0)))
}

/// A step from `from` to `to` is legal when they are neighbours and every cell of the box
/// holding both bodies is allowed; its cost is by the number of axes that change.
fn step_cost(
    world: &ChunkedWorld,
    agent: &Agent,
    costs: &MoveCosts,
    from: IVec3,
    to: IVec3,
) -> Option<u64> {
    let d = to - from;
    if d == IVec3::ZERO || d.abs().max_element() != 1 {
        return None;
    }
    let top = agent.height as i32 - 1;
    for x in from.x.min(to.x)..=from.x.max(to.x) {
        for z in from.z.min(to.z)..=from.z.max(to.z) {
            for y in from.y.min(to.y)..=from.y.max(to.y) + top {
                if !cell_ok(world, agent.movement, IVec3::new(x, y, z)) {
                    return None;
                }
            }
        }
    }
    Some(u64::from(
        match d.abs().to_array().iter().filter(|&&c| c != 0).count() {
            1 => costs.straight,
            2 => costs.diagonal,
            _ => costs.corner,
        },
    ))
}

fn oracle(
    world: &ChunkedWorld,
    agent: &Agent,
    costs: &MoveCosts,
    start: IVec3,
    goal: IVec3,
) -> Option<u64> {
    weighted_oracle(world, &|_| 0, agent, costs, start, goal)
}

/// Dijkstra over every legal step, each step also paying `extra` of its target.
fn weighted_oracle(
    world: &ChunkedWorld,
    extra: &dyn Fn(IVec3) -> u64,
    agent: &Agent,
    costs: &MoveCosts,
    start: IVec3,
    goal: IVec3,
) -> Option<u64> {
    let mut best: HashMap<IVec3, u64> = HashMap::new();
    let mut open = BinaryHeap::new();
    best.insert(start, 0);
    open.push(std::cmp::Reverse((0u64, start.to_array())));
    while let Some(std::cmp::Reverse((g, p))) = open.pop() {
        let p = IVec3::from_array(p);
        if best.get(&p).is_some_and(|&b| b < g) {
            continue;
        }
        if p == goal {
            return Some(g);
        }
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let q = p + IVec3::new(dx, dy, dz);
                    if let Some(c) = step_cost(world, agent, costs, p, q) {
                        let next = g + c + extra(q);
                        if best.get(&q).is_none_or(|&b| next < b) {
                            best.insert(q, next);
                            open.push(std::cmp::Reverse((next, q.to_array())));
                        }
                    }
                }
            }
        }
    }
    None
}

fn random_world(rng: &mut Rng, size: IVec3, solid: u64, water: u64) -> ChunkedWorld {
    let mut world = ChunkedWorld::with_size(size).unwrap();
    for x in 0..size.x {
        for y in 0..size.y {
            for z in 0..size.z {
                let r = rng.below(100);
                let block = if r < solid {
                    Block::Solid
                } else if r < solid + water {
                    Block::Water
                } else {
                    Block::Air
                };
                world.set(IVec3::new(x, y, z), block).unwrap();
            }
        }
    }
    world
}

/// A world that claims far larger bounds than it has cells: the search finds its pages of
/// nodes through a hash map rather than through an array with an entry per page of the world
/// (which it uses for bounded worlds of modest size), so routing through it checks the one
/// directory against the other.
struct Wide<'a>(&'a ChunkedWorld);

impl VoxelWorld for Wide<'_> {
    fn is_passable(&self, p: IVec3) -> bool {
        self.0.is_passable(p)
    }
    fn is_standable(&self, p: IVec3) -> bool {
        self.0.is_standable(p)
    }
    fn terrain(&self, feet: IVec3) -> voxnav::world::TerrainFlags {
        self.0.terrain(feet)
    }
    fn bounds(&self) -> Option<voxnav::world::Bounds> {
        // Inside the key range, so that only its size sends the search to pages.
        Some(voxnav::world::Bounds::new(
            IVec3::new(-4_000, -1_000, -4_000),
            IVec3::new(4_000, 1_000, 4_000),
        ))
    }
}

/// How far [`Shifted`] moves a world: the small random worlds then straddle the faces of the
/// search's 16-cell pages of nodes, along every axis, on both sides of 0.
const SHIFT: IVec3 = IVec3::new(13, -3, -18);

/// A world moved by [`SHIFT`].
struct Shifted<'a>(&'a ChunkedWorld);

impl VoxelWorld for Shifted<'_> {
    fn is_passable(&self, p: IVec3) -> bool {
        self.0.is_passable(p - SHIFT)
    }
    fn is_standable(&self, p: IVec3) -> bool {
        self.0.is_standable(p - SHIFT)
    }
    fn terrain(&self, feet: IVec3) -> voxnav::world::TerrainFlags {
        self.0.terrain(feet - SHIFT)
    }
    fn bounds(&self) -> Option<voxnav::world::Bounds> {
        let bounds = self.0.bounds()?;
        Some(voxnav::world::Bounds::new(
            bounds.min + SHIFT,
            bounds.max + SHIFT,
        ))
    }
}

fn positions(world: &ChunkedWorld, agent: &Agent, size: IVec3) -> Vec<IVec3> {
    let mut out = Vec::new();
    for x in 0..size.x {
        for y in 0..size.y {
            for z in 0..size.z {
                let p = IVec3::new(x, y, z);
                if body_ok(world, agent, p) {
                    out.push(p);
                }
            }
        }
    }
    out
}

#[test]
fn fliers_and_swimmers_match_exhaustive_dijkstra_on_random_worlds() {
    let mut rng = Rng::new(0xF1E5_0013);
    let (mut found, mut unreachable) = (0, 0);
    for world_index in 0..400 {
        let size = IVec3::new(
            3 + rng.below(5) as i32,
            3 + rng.below(6) as i32,
            3 + rng.below(5) as i32,
        );
        let movement = if rng.chance(50) {
            Movement::Fly
        } else {
            Movement::Swim
        };
        let (solid, water) = match movement {
            Movement::Swim => (10 + rng.below(20), 40 + rng.below(30)),
            _ => (15 + rng.below(35), rng.below(10)),
        };
        let world = random_world(&mut rng, size, solid, water);
        // Heights beyond 5 take the cell-by-cell path of the generator.
        let height = [1, 1, 1, 2, 3, 6][rng.below(6) as usize];
        let agent = Agent::flier(height).with_movement(movement);
        let costs = if rng.chance(50) {
            MoveCosts::octile()
        } else {
            MoveCosts::default()
                .with_straight(1 + rng.below(20) as u32)
                .with_diagonal(1 + rng.below(30) as u32)
                .with_corner(1 + rng.below(40) as u32)
        };
        let cells = positions(&world, &agent, size);
        if cells.len() < 2 {
            continue;
        }
        let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
        for _ in 0..4 {
            let start = cells[rng.below(cells.len() as u64) as usize];
            let goal = cells[rng.below(cells.len() as u64) as usize];
            let context = format!("world {world_index}, {agent:?}, {costs:?}, {start} -> {goal}");
            let expected = oracle(&world, &agent, &costs, start, goal);
            let result = route(&mut pathfinder, &world, start, goal).unwrap();
            let paged = route(&mut pathfinder, &Wide(&world), start, goal).unwrap();
            assert_eq!(
                (paged.status, paged.cost),
                (result.status, result.cost),
                "{context}: pages found through the hash map"
            );
            let shifted = route(
                &mut pathfinder,
                &Shifted(&world),
                start + SHIFT,
                goal + SHIFT,
            );
            let shifted = shifted.unwrap();
            assert_eq!(
                (shifted.status, shifted.cost),
                (result.status, result.cost),
                "{context}: across page faces"
            );
            if shifted.status == SearchStatus::Found {
                let ends = (shifted.path.first(), shifted.path.last());
                assert_eq!(
                    ends,
                    (Some(&(start + SHIFT)), Some(&(goal + SHIFT))),
                    "{context}"
                );
                let replayed: Option<u64> = shifted
                    .path
                    .windows(2)
                    .map(|w| step_cost(&world, &agent, &costs, w[0] - SHIFT, w[1] - SHIFT))
                    .sum();
                assert_eq!(replayed, shifted.cost, "{context}: across page faces");
            }
            match expected {
                Some(cost) => {
                    found += 1;
                    assert_eq!(result.status, SearchStatus::Found, "{context}");
                    assert_eq!(result.cost, Some(cost), "{context}");
                    assert_eq!(result.path.first(), Some(&start), "{context}");
                    assert_eq!(result.path.last(), Some(&goal), "{context}");
                    let replayed: Option<u64> = result
                        .path
                        .windows(2)
                        .map(|w| step_cost(&world, &agent, &costs, w[0], w[1]))
                        .sum();
                    assert_eq!(
                        replayed,
                        Some(cost),
                        "{context}: a step breaks the box rule"
                    );
                    assert_eq!(
                        check_path(&world, &agent, &costs, &result.path).cost,
                        Some(cost)
                    );
                }
                None => {
                    unreachable += 1;
                    assert_eq!(result.status, SearchStatus::Unreachable, "{context}");
                    assert!(result.path.is_empty(), "{context}");
                }
            }
        }
    }
    assert!(
        found > 300 && unreachable > 50,
        "found {found}, unreachable {unreachable}"
    );
}

#[test]
fn the_naive_baseline_solves_the_same_flying_problem() {
    let mut rng = Rng::new(0xBA5E_0013);
    for _ in 0..60 {
        let size = IVec3::new(6, 6, 6);
        let solid = 25 + rng.below(20);
        let world = random_world(&mut rng, size, solid, 0);
        let agent = Agent::flier(1);
        let costs = MoveCosts::octile();
        let cells = positions(&world, &agent, size);
        if cells.len() < 2 {
            continue;
        }
        let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
        for _ in 0..5 {
            let start = cells[rng.below(cells.len() as u64) as usize];
            let goal = cells[rng.below(cells.len() as u64) as usize];
            let naive = baseline::find_flier_path(&world, start, goal, None, &costs).unwrap();
            let ours = route(&mut pathfinder, &world, start, goal).unwrap();
            assert_eq!(naive.status, ours.status, "{start} -> {goal}");
            assert_eq!(naive.cost, ours.cost, "{start} -> {goal}");
            assert_eq!(naive.cost, oracle(&world, &agent, &costs, start, goal));
        }
    }
}

/// The extra cost of entering `p` in a world of [`weighted`] cells: on about one cell in
/// three, a fixed pseudo-random amount below `scale` (none when `scale` is 0).
fn weight(scale: u64, seed: u64, p: IVec3) -> u64 {
    let mut h = seed
        ^ (p.x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (p.y as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ (p.z as u64).wrapping_mul(0x1656_67B1_9E37_79F9);
    h ^= h >> 29;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 32;
    if scale == 0 || !h.is_multiple_of(3) {
        0
    } else {
        h / 3 % scale
    }
}

/// `world` with the extra costs of [`weight`], counting how often a search asks for one.
fn weighted(
    world: ChunkedWorld,
    scale: u64,
    seed: u64,
) -> Priced<impl Fn(&ChunkedWorld, IVec3) -> u32> {
    Priced::new(world, move |_: &ChunkedWorld, p| {
        weight(scale, seed, p) as u32
    })
}

/// The search skips the moves from a position whose target its parent already reached at
/// no higher cost; among dense obstacles, with extra costs on the cells, with costs for
/// which a corner step may cost more than two steps round it, for tall bodies and for
/// swimmers, the costs stay those of Dijkstra over every legal step.
#[test]
fn skipped_moves_keep_costs_exact_among_dense_obstacles_and_extra_costs() {
    let mut rng = Rng::new(0xD0E5_0013);
    let (mut found, mut unreachable) = (0, 0);
    for world_index in 0..300 {
        let size = IVec3::new(
            4 + rng.below(5) as i32,
            4 + rng.below(5) as i32,
            4 + rng.below(5) as i32,
        );
        let movement = if rng.chance(60) {
            Movement::Fly
        } else {
            Movement::Swim
        };
        let (solid, water) = match movement {
            Movement::Swim => (5 + rng.below(30), 40 + rng.below(40)),
            _ => (30 + rng.below(30), rng.below(10)),
        };
        let height = [1, 1, 1, 2, 3, 5, 6][rng.below(7) as usize];
        let agent = Agent::flier(height).with_movement(movement);
        let costs = match rng.below(3) {
            0 => MoveCosts::octile(),
            1 => MoveCosts::default()
                .with_straight(1 + rng.below(20) as u32)
                .with_diagonal(1 + rng.below(30) as u32)
                .with_corner(1 + rng.below(40) as u32),
            // A corner step dearer than a face and an edge step together.
            _ => MoveCosts::default()
                .with_straight(2)
                .with_diagonal(3)
                .with_corner(6 + rng.below(4) as u32),
        };
        // The last scale takes the costs of routes past u32::MAX, which the search's 8-byte
        // records do not hold: it runs again with 16-byte ones.
        let scale = [0, 5, u64::from(costs.straight) * 3, 1 << 31][rng.below(4) as usize];
        let cells = random_world(&mut rng, size, solid, water);
        let seed = rng.next_u64();
        let world = weighted(cells, scale, seed);
        let cells = positions(&world.world, &agent, size);
        if cells.len() < 2 {
            continue;
        }
        let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
        for _ in 0..4 {
            let start = cells[rng.below(cells.len() as u64) as usize];
            let goal = cells[rng.below(cells.len() as u64) as usize];
            let context = format!("world {world_index}, {agent:?}, {costs:?}, {start} -> {goal}");
            let extra = |p: IVec3| weight(scale, seed, p);
            let expected = weighted_oracle(&world.world, &extra, &agent, &costs, start, goal);
            let result = route(&mut pathfinder, &world, start, goal).unwrap();
            assert_eq!(result.cost, expected, "{context}");
            // Dijkstra's order, and weighted A*, which reopens closed nodes: the parent of a
            // reopened node is its new one.
            let zero = SearchOptions::default().with_heuristic(Heuristic::new(HeuristicKind::Zero));
            let dijkstra = pathfinder.find_path(&world, start, goal, &zero).unwrap();
            assert_eq!(dijkstra.cost, expected, "{context}, zero heuristic");
            let weighted = SearchOptions::default().with_heuristic(
                Heuristic::new(HeuristicKind::Octile)
                    .with_weight(3.0)
                    .unwrap(),
            );
            let greedy = pathfinder
                .find_path(&world, start, goal, &weighted)
                .unwrap();
            if let (Some(cost), Some(best)) = (greedy.cost, expected) {
                assert!(
                    best <= cost && cost <= 3 * best,
                    "{context}, weighted: {cost}"
                );
                let replayed: Option<u64> = greedy
                    .path
                    .windows(2)
                    .map(|w| {
                        step_cost(&world.world, &agent, &costs, w[0], w[1])
                            .map(|c| c + weight(scale, seed, w[1]))
                    })
                    .sum();
                assert_eq!(
                    replayed,
                    Some(cost),
                    "{context}, weighted: {:?}",
                    greedy.path
                );
            } else {
                assert_eq!(greedy.cost, expected, "{context}, weighted");
            }
            if expected.is_some() {
                found += 1;
                let replayed: Option<u64> = result
                    .path
                    .windows(2)
                    .map(|w| {
                        step_cost(&world.world, &agent, &costs, w[0], w[1]).map(|c| c + extra(w[1]))
                    })
                    .sum();
                assert_eq!(replayed, expected, "{context}: {:?}", result.path);
            } else {
                unreachable += 1;
                assert_eq!(result.status, SearchStatus::Unreachable, "{context}");
            }
        }
    }
    assert!(
        found > 300 && unreachable > 50,
        "found {found}, unreachable {unreachable}"
    );
}

/// In open air a flier's position has 26 legal moves, but the search relaxes only those its
/// parent could not reach as cheaply: 9 after a face step, 15 after an edge step and 19
/// after a corner step. An exhaustive search of a 24-cell cube (its goal sealed away)
/// relaxes about 11 moves per expansion on average (without the skipping, 26 at every
/// position away from the walls).
#[test]
fn a_flier_in_open_air_relaxes_few_moves_per_expansion() {
    let side = 24;
    let goal = IVec3::new(side - 2, side - 2, side - 2);
    let sealed = boxes(
        IVec3::splat(side),
        &[
            (goal - IVec3::ONE, goal + IVec3::ONE, Block::Solid),
            (goal, goal, Block::Air),
        ],
    );
    let world = weighted(sealed, 0, 0);
    for costs in [MoveCosts::octile(), MoveCosts::default()] {
        world.asked.set(0);
        let mut flier = Pathfinder::new(Agent::flier(1), costs).unwrap();
        let result = route(&mut flier, &world, IVec3::new(1, 2, 3), goal).unwrap();
        assert_eq!(result.status, SearchStatus::Unreachable);
        let expanded = result.stats.expanded;
        assert_eq!(expanded, (side as u64).pow(3) - 27);
        let per_expansion = world.asked.get() as f64 / expanded as f64;
        assert!(
            per_expansion < 14.0,
            "{per_expansion:.2} moves per expansion"
        );
    }
}

fn route<W: VoxelWorld>(
    pathfinder: &mut Pathfinder,
    world: &W,
    start: IVec3,
    goal: IVec3,
) -> voxnav::Result<SearchResult> {
    pathfinder.find_path(world, start, goal, &SearchOptions::default())
}

/// A bounded world of `size` cells of air with each box `(low, high, block)` (corners
/// inclusive) filled in turn.
fn boxes(size: IVec3, fills: &[(IVec3, IVec3, Block)]) -> ChunkedWorld {
    let mut world = ChunkedWorld::with_size(size).unwrap();
    for &(low, high, block) in fills {
        world.fill(low, high, block).unwrap();
    }
    world
}
