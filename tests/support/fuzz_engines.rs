//! The bodies of the engine fuzz targets (the flat planner's in [`super::fuzz_flat`]), beside the parser and walker targets of
//! [`super::fuzz`] (same byte reader, same rules: panic only when voxnav breaks a promise).
//!
//! - [`fly_jump`]: jump point search for fliers and swimmers (stepped, scanned, with
//!   precomputed tables kept current through block changes, and through the [`Router`])
//!   against an exhaustive Dijkstra over the box rule restated here, on small worlds that
//!   straddle chunk borders in all three axes, bodies 1 to 3 tall and 1 or 2 wide.
//! - [`walk_long`]: the walk graph's exact hierarchy and its inexact abstraction (built,
//!   updated through block changes, and through the [`Router`]'s long routes) against
//!   exhaustive Dijkstra over the oracle's walking rules, and against fresh builds;
//!   [`walk_columns`] the same as chunk columns load and unload.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use voxnav::engine::{JumpSearch, Pathfinder};
use voxnav::graph::{GraphSearch, NavGraph};
use voxnav::hier::{AbstractSearch, Abstraction, HierSearch, Hierarchy};
use voxnav::search::jps3d::JumpTables;
use voxnav::world::Bounds;
use voxnav::{
    Agent, Block, Changes, ChunkedWorld, Engine, IVec3, MoveCosts, Router, SearchOptions,
    SearchResult, SearchStatus, check_path,
};

use super::fuzz::{Bytes, block, cell_at, origin};
use super::hier_worlds::random_world_at;
use super::oracle::{all_feet, dijkstra_cost, route_cost};
use super::pictures::assert_same_graph;
use super::rng::Rng;
use super::worlds::random_block;

/// One cell of a flying world from one byte: open (air, or water in a wet world) most often,
/// then solid, then water; in a mixed world, any kind the differential target places.
fn fly_block(bytes: &mut Bytes, mixed: bool, wet: bool) -> Block {
    let open = if wet { Block::Water } else { Block::Air };
    match bytes.byte() % 8 {
        0..=3 => open,
        4 | 5 => Block::Solid,
        6 => Block::Water,
        _ if mixed => block(bytes),
        _ => open,
    }
}

/// The box rule, restated cell by cell for worlds of air, water and solid blocks: a body
/// `width x height x width` (feet at its lowest x, y and z) may be where every cell it takes
/// lies inside `bounds` and is water, or air for a flier; a move is legal when the box spanned
/// by the body at both ends is.
struct BoxRule<'a> {
    world: &'a ChunkedWorld,
    bounds: Bounds,
    agent: Agent,
    swim: bool,
}

impl BoxRule<'_> {
    fn allowed(&self, p: IVec3) -> bool {
        let inside = p.cmpge(self.bounds.min).all() && p.cmplt(self.bounds.max).all();
        inside
            && match self.world.get(p) {
                Some(Block::Water) => true,
                Some(Block::Air) => !self.swim,
                _ => false,
            }
    }

    /// Every cell of the body at `from` and at `to` and between is allowed.
    fn box_allowed(&self, from: IVec3, to: IVec3) -> bool {
        let (w, h) = (self.agent.width as i32, self.agent.height as i32);
        let (lo, hi) = (from.min(to), from.max(to) + IVec3::new(w - 1, h - 1, w - 1));
        (lo.x..=hi.x).all(|x| {
            (lo.y..=hi.y).all(|y| (lo.z..=hi.z).all(|z| self.allowed(IVec3::new(x, y, z))))
        })
    }

    /// The positions where the body fits, in index order.
    fn positions(&self) -> Vec<IVec3> {
        let (min, size) = (self.bounds.min, self.bounds.size());
        (0..(size.x * size.y * size.z) as u32)
            .map(|i| cell_at(min, size, i))
            .filter(|&p| self.box_allowed(p, p))
            .collect()
    }

    /// The cheapest cost from `start` to `goal` over all 26 moves, `None` when none reaches.
    fn dijkstra(&self, costs: &MoveCosts, start: IVec3, goal: IVec3) -> Option<u64> {
        let mut best: HashMap<IVec3, u64> = HashMap::from([(start, 0)]);
        let mut heap = BinaryHeap::from([Reverse((0u64, start.to_array()))]);
        while let Some(Reverse((d, p))) = heap.pop() {
            let p = IVec3::from_array(p);
            if best.get(&p).is_some_and(|&known| d > known) {
                continue;
            }
            if p == goal {
                return Some(d);
            }
            for step in (0..27).map(|i| IVec3::new(i % 3 - 1, i / 3 % 3 - 1, i / 9 - 1)) {
                let axes = step.abs().element_sum();
                if axes == 0 || !self.box_allowed(p, p + step) {
                    continue;
                }
                let cost = [costs.straight, costs.diagonal, costs.corner][axes as usize - 1];
                let (q, e) = (p + step, d + u64::from(cost));
                if best.get(&q).is_none_or(|&known| e < known) {
                    best.insert(q, e);
                    heap.push(Reverse((e, q.to_array())));
                }
            }
        }
        None
    }
}

/// `result` answers `start -> goal` at the cost `expected`: found with a legal route (by
/// `check_path`) of that cost from `start` to `goal`, or unreachable.
fn check_exact(
    world: &ChunkedWorld,
    (agent, costs): (&Agent, &MoveCosts),
    (start, goal): (IVec3, IVec3),
    expected: Option<u64>,
    result: &SearchResult,
    what: &str,
) {
    assert_eq!(result.cost, expected, "{what}");
    if expected.is_none() {
        assert_eq!(result.status, SearchStatus::Unreachable, "{what}");
        return;
    }
    assert_eq!(result.status, SearchStatus::Found, "{what}");
    assert_eq!(result.path.first(), Some(&start), "{what}");
    assert_eq!(result.path.last(), Some(&goal), "{what}");
    let check = check_path(world, agent, costs, &result.path);
    assert!(check.is_legal(), "{what}: {check:?} for {:?}", result.path);
    assert_eq!(check.cost, expected, "{what}");
}

/// Fly target: on a small world of air, water and solid blocks (or, one time in eight, every
/// kind, where extra costs send the jump search to the flier A*), with a flier or swimmer
/// 1 to 3 tall and 1 or 2 wide and face, edge and corner costs the search takes: the stepped
/// search, the scanned one and the one with tables cost what the box-rule Dijkstra costs
/// (what the flier A* costs in a mixed world), their routes legal by `check_path`; after
/// random block changes, the tables brought up to date answer as before, and as a fresh
/// build; the router picks jump points and answers the same.
pub fn fly_jump(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let size = IVec3::new(
        2 + i32::from(bytes.byte() % 11),
        2 + i32::from(bytes.byte() % 11),
        2 + i32::from(bytes.byte() % 11),
    );
    let min = IVec3::new(
        origin(&mut bytes, size.x),
        origin(&mut bytes, size.y),
        origin(&mut bytes, size.z),
    );
    let shape = bytes.byte();
    let (swim, mixed, wet) = (
        shape & 1 != 0,
        shape & 0b1110 == 0b1110,
        shape & 0b1_0000 != 0,
    );
    let (height, width) = (1 + u32::from(shape >> 5) % 3, 1 + u32::from(shape >> 7));
    let agent = if swim {
        Agent::swimmer(height)
    } else {
        Agent::flier(height)
    }
    .with_width(width);
    let costs = match bytes.byte() {
        0..=191 => MoveCosts::octile(),
        _ => MoveCosts {
            straight: 1 + u32::from(bytes.byte() % 16),
            diagonal: 1 + u32::from(bytes.byte() % 24),
            corner: 1 + u32::from(bytes.byte() % 32),
            ..MoveCosts::octile()
        },
    };
    // Costs under which canonical steps may cost more are refused with a typed error.
    let Ok(mut stepped) = JumpSearch::new(agent, costs) else {
        return;
    };
    let limits = (u32::from(bytes.byte() % 4), u32::from(bytes.byte() % 3));
    let scans = bytes.byte().is_multiple_of(2);
    // The queries and block changes come from a seed, the world's cells from the rest.
    let mut rng = Rng::new((0..4).fold(0u64, |seed, _| seed << 8 | u64::from(bytes.byte())));
    let mut scanned = JumpSearch::new(agent, costs)
        .expect("accepted above")
        .with_straight_scans(scans)
        .with_diagonal_limits(limits.0, limits.1);
    let mut tabled = JumpSearch::new(agent, costs)
        .expect("accepted above")
        .with_diagonal_limits(limits.1, limits.0);
    let mut astar = Pathfinder::new(agent, costs).expect("accepted by the jump search");

    let bounds = Bounds::new(min, min + size);
    let mut world = ChunkedWorld::with_bounds(bounds).expect("a small world");
    if wet {
        world
            .fill(min, min + size - IVec3::ONE, Block::Water)
            .expect("inside");
    }
    let cells = (size.x * size.y * size.z) as u32;
    for i in 0..cells {
        if bytes.is_empty() {
            break;
        }
        let b = fly_block(&mut bytes, mixed, wet);
        world.set(cell_at(min, size, i), b).expect("inside");
    }
    world.track_changes(true);
    let mut tables = JumpTables::build(&world, agent).expect("a small bounded world");
    let mut router = Router::new(agent, costs).expect("accepted by the jump search");
    assert!(router.prepare(&world).expect("a small bounded world"));
    assert_eq!(
        router.engine(&world),
        Engine::JumpPoints,
        "{agent:?}, {costs:?}"
    );

    let options = SearchOptions::default();
    for round in 0..3 {
        let rule = BoxRule {
            world: &world,
            bounds,
            agent,
            swim,
        };
        let valid = rule.positions();
        if valid.is_empty() {
            return;
        }
        for _ in 0..2 {
            let (start, goal) = (rng.pick(&valid), rng.pick(&valid));
            let what = format!(
                "round {round}: {start} -> {goal} in {min} + {size}, {agent:?}, {costs:?}, \
                 limits {limits:?}, scans {scans}"
            );
            // In a mixed world a position of open cells may still be refused (a fence below
            // reaches into it): then every engine refuses it too.
            let expected = if mixed {
                astar
                    .find_path(&world, start, goal, &options)
                    .map(|r| r.cost)
            } else {
                Ok(rule.dijkstra(&costs, start, goal))
            };
            let fresh = JumpTables::build(&world, agent).expect("a small bounded world");
            assert!(tables == fresh, "tables after the changes, round {round}");
            let answers = [
                ("stepped", stepped.find_path(&world, start, goal, &options)),
                ("scanned", scanned.find_path(&world, start, goal, &options)),
                (
                    "tables",
                    tabled.find_path_with_tables(&tables, &world, start, goal, &options),
                ),
                (
                    "fresh tables",
                    tabled.find_path_with_tables(&fresh, &world, start, goal, &options),
                ),
                ("router", router.route(&world, start, goal)),
            ];
            for (engine, answer) in answers {
                let what = format!("{engine}, {what}");
                match (&expected, answer) {
                    (Ok(expected), Ok(answer)) => {
                        let settings = (&agent, &costs);
                        check_exact(&world, settings, (start, goal), *expected, &answer, &what);
                    }
                    (Err(refused), Err(error)) => {
                        assert_eq!(format!("{error:?}"), format!("{refused:?}"), "{what}");
                    }
                    (expected, answer) => panic!("{answer:?} against {expected:?}: {what}"),
                }
            }
        }
        // Some blocks change; the tables and the router follow the changes.
        for _ in 0..=rng.below(4) {
            let cell = cell_at(min, size, rng.below(u64::from(cells)) as u32);
            let choice = rng.next_u64().to_le_bytes();
            let b = fly_block(&mut Bytes::new(&choice), mixed, wet);
            world.set(cell, b).expect("inside");
        }
        let changes = world.take_changes();
        tables
            .apply_changes(&world, &changes)
            .expect("the changes since the build");
        router
            .apply_changes(&world, &changes)
            .expect("the changes since the build");
    }
}

/// `result` answers `start -> goal` as the abstraction promises: found exactly when a route
/// exists (`best`), with a legal route by both path checks that costs what it reports, no
/// less than the optimum.
pub fn check_near(
    world: &ChunkedWorld,
    (agent, costs): (&Agent, &MoveCosts),
    (start, goal): (IVec3, IVec3),
    best: Option<u64>,
    result: &SearchResult,
    what: &str,
) {
    assert_eq!(
        result.is_found(),
        best.is_some(),
        "{what}: {:?}",
        result.status
    );
    let Some(best) = best else {
        assert_eq!(result.status, SearchStatus::Unreachable, "{what}");
        return;
    };
    let cost = result.cost.expect("a found route has a cost");
    assert_eq!(result.path.first(), Some(&start), "{what}");
    assert_eq!(result.path.last(), Some(&goal), "{what}");
    let check = check_path(world, agent, costs, &result.path);
    assert!(check.is_legal(), "{what}: {check:?}");
    assert_eq!(check.cost, Some(cost), "{what}");
    assert_eq!(
        route_cost(world, agent, costs, &result.path),
        cost,
        "{what}"
    );
    assert!(cost >= best, "{what}: {cost} below the optimum {best}");
}

/// `updated` and `fresh` (sorted lists) are the same; else the entries only one of them has.
fn assert_same<T: PartialEq + std::fmt::Debug>(updated: &[T], fresh: &[T], what: &str) {
    if updated != fresh {
        let only = |a: &[T], b: &[T]| -> Vec<String> {
            let mut out: Vec<String> = a
                .iter()
                .filter(|e| !b.contains(e))
                .map(|e| format!("{e:?}"))
                .collect();
            out.truncate(12);
            out
        };
        panic!(
            "{what}: {} entries after the update, {} in a fresh build; only after the update \
             {:?}, only in the fresh build {:?}",
            updated.len(),
            fresh.len(),
            only(updated, fresh),
            only(fresh, updated)
        );
    }
}

/// The hierarchy's in-cell edges, sorted: a picture independent of node ids.
pub fn hier_edges(hier: &Hierarchy, graph: &NavGraph) -> Vec<([i32; 3], [i32; 3], u32)> {
    let mut out: Vec<_> = hier
        .cell_edges(graph)
        .map(|(from, to, cost)| (from.to_array(), to.to_array(), cost))
        .collect();
    out.sort_unstable();
    out
}

/// What the long-route targets keep current: the walk graph, the exact hierarchy, the
/// abstraction and a router with long routes, for one walker at one set of costs.
struct LongRoutes {
    /// Change reports taken but not followed yet (see [`LongRoutes::defer`]).
    pending: Vec<Changes>,
    agent: Agent,
    costs: MoveCosts,
    graph: NavGraph,
    hier: Hierarchy,
    hpa: Abstraction,
    router: Router,
    graph_search: GraphSearch,
    exact: HierSearch,
    near: AbstractSearch,
}

impl LongRoutes {
    fn new(world: &ChunkedWorld, agent: Agent, costs: MoveCosts) -> Self {
        let graph = NavGraph::compile(world, &agent).expect("a small world");
        let mut router = Router::new(agent, costs).expect("valid settings");
        assert!(router.prepare(world).expect("a small world"));
        assert_eq!(router.engine(world), Engine::Graph);
        Self {
            hier: Hierarchy::build(&graph, &costs).expect("a small graph"),
            hpa: Abstraction::build(&graph, &costs).expect("a small graph"),
            graph,
            router,
            graph_search: GraphSearch::new(costs).expect("valid costs"),
            exact: HierSearch::new(),
            // Every query that leaves its start's cell goes through the abstraction.
            near: AbstractSearch::new().with_direct_cells(0),
            pending: Vec::new(),
            agent,
            costs,
        }
    }

    /// Takes the changes so far as one report, followed with the next [`LongRoutes::follow`]:
    /// a server that hands reports on later, so the graph trails the world until the last.
    fn defer(&mut self, world: &mut ChunkedWorld) {
        self.pending.push(world.take_changes());
    }

    /// Graph A* and the exact hierarchy cost what exhaustive Dijkstra costs from `ends.0` to
    /// `ends.1`; the abstraction and the router answer as [`check_near`] asks.
    fn check_query(&mut self, world: &ChunkedWorld, ends: (IVec3, IVec3), what: &str) {
        let (start, goal) = ends;
        let what = format!("{start} -> {goal}, {what}");
        let best = dijkstra_cost(world, &self.agent, &self.costs, start, goal);
        let (settings, options) = ((&self.agent, &self.costs), SearchOptions::default());
        let answers = [
            self.graph_search
                .find_path(&self.graph, start, goal, &options),
            self.exact
                .find_path(&self.hier, &self.graph, start, goal, &options),
        ];
        for (engine, answer) in ["graph A*", "hierarchy"].into_iter().zip(answers) {
            let answer = answer.expect("valid feet");
            let what = format!("{engine}, {what}");
            check_exact(world, settings, ends, best, &answer, &what);
        }
        let answers = [
            self.near
                .find_path(&self.hpa, &self.graph, start, goal, &options),
            self.router.route(world, start, goal),
        ];
        for (engine, answer) in ["abstraction", "router"].into_iter().zip(answers) {
            let answer = answer.expect("valid feet");
            check_near(
                world,
                settings,
                ends,
                best,
                &answer,
                &format!("{engine}, {what}"),
            );
        }
    }

    /// Follows the changes `world` reports, the landmarks computed again when `refresh`;
    /// then the graph equals a fresh compile, and the hierarchy and the abstraction list the
    /// edges and portals of fresh builds.
    fn follow(&mut self, world: &mut ChunkedWorld, refresh: bool, what: &str) {
        let mut reports = std::mem::take(&mut self.pending);
        reports.push(world.take_changes());
        for changes in &reports {
            let update = self.graph.apply_changes(world, changes).expect("updates");
            self.hier.update(&self.graph, &update).expect("updates");
            self.hpa.update(&self.graph, &update).expect("updates");
            self.router.apply_changes(world, changes).expect("updates");
        }
        let changes = &reports;
        if refresh {
            self.hpa.refresh_landmarks();
            self.router.refresh_long_routes();
        }
        let (graph, costs) = (&self.graph, &self.costs);
        let what = format!("{what}, {:?}, {costs:?}, {changes:?}", self.agent);
        let compiled = NavGraph::compile(world, &self.agent).expect("a small world");
        assert_same_graph(graph, &compiled, costs, &what);
        let fresh = Hierarchy::build(graph, costs).expect("a small graph");
        let edges = (hier_edges(&self.hier, graph), hier_edges(&fresh, graph));
        assert_same(&edges.0, &edges.1, &format!("hierarchy, {what}"));
        assert_eq!(self.hier.portal_count(), fresh.portal_count(), "{what}");
        let fresh = Abstraction::build(graph, costs).expect("a small graph");
        let edges = (self.hpa.edges(graph), fresh.edges(graph));
        assert_same(&edges.0, &edges.1, &format!("abstraction, {what}"));
        assert_eq!(self.hpa.portal_count(), fresh.portal_count(), "{what}");
    }
}

/// Long-route target: on a world 17 to 48 blocks across x and z (two or three chunk columns
/// each way, chunk borders anywhere) and 5 to 8 up, hills and walls from a seed in the bytes
/// (which also draws the queries and the block changes) and blocks of every kind placed by
/// them, with a walker and costs from the bytes: the graph's
/// A* and the exact hierarchy cost what exhaustive Dijkstra costs, the abstraction and the
/// router's long routes find a legal route exactly when one exists, at no less than the
/// optimum; after each round of random block changes, the updated hierarchy and abstraction
/// list the edges and portals of fresh builds and answer again.
pub fn walk_long(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let size = IVec3::new(
        17 + bytes.below(32) as i32,
        5 + i32::from(bytes.byte() % 4),
        17 + bytes.below(32) as i32,
    );
    let min = IVec3::new(
        origin(&mut bytes, size.x),
        origin(&mut bytes, size.y),
        origin(&mut bytes, size.z),
    );
    let seed = (0..8).fold(0u64, |seed, _| seed << 8 | u64::from(bytes.byte()));
    let mut rng = Rng::new(seed);
    let mut world = random_world_at(&mut rng, min, size);
    let agent = Agent::default()
        .with_height(1 + u32::from(bytes.byte() % 3))
        .with_max_step_up(1 + u32::from(bytes.byte() % 2))
        .with_max_drop(1 + u32::from(bytes.byte() % 3))
        .with_diagonals(!bytes.byte().is_multiple_of(4));
    let costs = match bytes.byte() {
        0..=127 => MoveCosts::default(),
        _ => MoveCosts {
            straight: 5 + u32::from(bytes.byte() % 20),
            diagonal: 10 + u32::from(bytes.byte() % 30),
            ascend: u32::from(bytes.byte() % 30),
            descend: u32::from(bytes.byte() % 10),
            ..MoveCosts::default()
        },
    };
    let cells = (size.x * size.y * size.z) as u32;
    for _ in 0..bytes.byte() % 32 {
        let cell = cell_at(min, size, bytes.below(cells));
        let b = block(&mut bytes);
        world.set(cell, b).expect("inside");
    }
    let mut long = LongRoutes::new(&world, agent, costs);
    world.track_changes(true);
    // Which reports are handed on late: a stream of its own, so the others draw as before.
    let mut defer = Rng::new(seed ^ 0xdefe);
    for round in 0..3 {
        let feet = all_feet(&world, &agent);
        if feet.len() < 2 {
            return;
        }
        let what = format!("round {round} in {min} + {size}");
        for _ in 0..2 {
            long.check_query(&world, (rng.pick(&feet), rng.pick(&feet)), &what);
        }
        for _ in 0..=rng.below(4) {
            let cell = cell_at(min, size, rng.below(u64::from(cells)) as u32);
            world.set(cell, random_block(&mut rng)).expect("inside");
            if defer.chance(30) {
                long.defer(&mut world);
            }
        }
        let refresh = rng.chance(50);
        long.follow(&mut world, refresh, &what);
    }
}

/// Chunk column `(cx, cz)` of a world 16 high from y -16, from `rng`: a floor 1 to 6 blocks
/// high with a few holes, posts, and a step every `steps` columns.
fn load_column(world: &mut ChunkedWorld, rng: &mut Rng, (cx, cz): (i32, i32)) {
    let palette = [Block::Air, Block::Solid, Block::Water];
    let (level, holes, posts) = (
        1 + rng.below(6) as usize,
        7 + rng.below(30),
        5 + rng.below(40),
    );
    let steps = 2 + rng.below(9) as usize;
    let cells: Vec<u16> = (0..4096)
        .map(|i| {
            let (y, column) = (i / 256, i % 256);
            let height = level + usize::from(column % 16 % steps == 0);
            let floor = y < height && column as u64 % holes != 3;
            let post = y < height + 2 && column as u64 % posts == 1;
            let pool = y == height && column as u64 % holes == 5;
            u16::from(floor || post) + 2 * u16::from(pool && !post)
        })
        .collect();
    world
        .insert_column(cx, cz, [(&palette[..], &cells[..])])
        .expect("a valid column");
}

/// Streaming target: chunk columns of a world 16 high (a 4 x 3 patch of them anywhere,
/// negative coordinates too) load, unload and load again with other blocks, and blocks change
/// in loaded columns (on their border columns half the time), in an order the bytes give;
/// after each step the walk graph, the exact hierarchy, the abstraction and the router follow
/// the changes: the hierarchy and abstraction list the edges and portals of fresh builds, and
/// a query costs what exhaustive Dijkstra costs (the exact hierarchy) or finds a legal route
/// exactly when one exists, no cheaper than the optimum (the abstraction, the router).
pub fn walk_columns(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let base = (
        i32::from(bytes.byte() as i8) * 4,
        i32::from(bytes.byte() as i8) * 4,
    );
    let seed = (0..4).fold(0u64, |seed, _| seed << 8 | u64::from(bytes.byte()));
    let mut rng = Rng::new(seed);
    let agent = Agent::default()
        .with_height(1 + u32::from(bytes.byte() % 3))
        .with_max_step_up(1 + u32::from(bytes.byte() % 2))
        .with_max_drop(1 + u32::from(bytes.byte() % 3))
        .with_diagonals(!bytes.byte().is_multiple_of(4));
    let costs = MoveCosts::default();
    let columns: Vec<(i32, i32)> = (0..12).map(|i| (base.0 + i % 4, base.1 + i / 4)).collect();
    let mut world = ChunkedWorld::with_height(-16, 16).expect("a valid height");
    let mut loaded = Vec::new();
    for &column in &columns {
        if !bytes.byte().is_multiple_of(3) {
            load_column(&mut world, &mut rng, column);
            loaded.push(column);
        }
    }
    let mut long = LongRoutes::new(&world, agent, costs);
    world.track_changes(true);
    // Which reports are handed on late: a stream of its own, so the others draw as before.
    let mut defer = Rng::new(seed ^ 0xdefe);
    for step in 0..6 {
        let op = bytes.byte();
        let column = columns[usize::from(op >> 2) % columns.len()];
        match op % 4 {
            0 if loaded.contains(&column) => {
                world.remove_column(column.0, column.1);
                loaded.retain(|&c| c != column);
            }
            0 | 1 => {
                load_column(&mut world, &mut rng, column);
                if !loaded.contains(&column) {
                    loaded.push(column);
                }
            }
            _ if !loaded.is_empty() => {
                let (cx, cz) = loaded[rng.index(loaded.len())];
                let mut local = || {
                    if rng.chance(50) {
                        15 * rng.below(2) as i32
                    } else {
                        rng.coord(16)
                    }
                };
                let (x, z) = (cx * 16 + local(), cz * 16 + local());
                let p = IVec3::new(x, -16 + rng.coord(9), z);
                world
                    .set(p, random_block(&mut rng))
                    .expect("a loaded column");
            }
            _ => {}
        }
        if step < 5 && defer.chance(30) {
            // Followed with the next step's changes; this step's query waits for them.
            long.defer(&mut world);
            continue;
        }
        let what = format!("step {step} of columns from {base:?}");
        let refresh = rng.chance(50);
        long.follow(&mut world, refresh, &what);
        let feet = all_feet(&world, &agent);
        if feet.len() >= 2 {
            long.check_query(&world, (rng.pick(&feet), rng.pick(&feet)), &what);
        }
    }
}
