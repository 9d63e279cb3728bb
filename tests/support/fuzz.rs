//! The bodies of the fuzz targets: each takes the fuzzer's bytes and panics only when voxnav
//! breaks a promise. The cargo-fuzz targets in `fuzz/` and the replay test
//! `tests/fuzz_replay.rs` both call these, so a corpus file replayed by `cargo test` runs
//! exactly the checks the fuzzer ran.
//!
//! Parsers must turn any text into a value or a typed error, never a panic; what they accept
//! must mean what it says (a text world written back and read again is the same world; a
//! grid's routes are the ones an independent search finds). The differential target builds a
//! small world from the bytes and checks A*, the reachability index, D* Lite after block
//! changes and `check_path` against THE oracle of [`super::oracle`].

use voxnav::engine::{DStarLite, Pathfinder, Reach, ReachIndex};
use voxnav::flat::{GridPlanner, IVec2};
use voxnav::graph::{GraphSearch, NavGraph};
use voxnav::world::{
    Bounds, parse_movingai_3dmap, parse_movingai_3dscen, parse_movingai_map, parse_movingai_scen,
    parse_robot_grid, parse_text_world, to_text_world,
};
use voxnav::{
    Agent, Block, ChunkedWorld, IVec3, MoveCosts, SearchOptions, SearchStatus, VoxelWorld,
    check_path,
};

use super::grid_oracle::{bfs, octile_dijkstra};
use super::oracle::{CellWorld, all_feet, dijkstra_cost, route_cost, valid};

/// Worlds and grids up to this many cells are checked in depth (round trips, routes); larger
/// ones only for the absence of panics, so that one input stays fast.
const DEEP_CHECK_CELLS: i64 = 1 << 14;

/// Reads the fuzzer's bytes as a stream of small choices; an exhausted stream reads zeros,
/// so every input, the empty one included, describes a case.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self { data }
    }

    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&first, rest)) => {
                self.data = rest;
                first
            }
            None => 0,
        }
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u32) -> u32 {
        let wide = u32::from(self.byte()) << 8 | u32::from(self.byte());
        wide % n
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

/// Text world parser: no panic; an accepted world written back and parsed again is the same
/// world, cell by cell.
pub fn text_world(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(world) = parse_text_world(&text) else {
        return;
    };
    let bounds = world
        .world_bounds()
        .expect("a parsed text world is bounded");
    assert_eq!(bounds.min, IVec3::ZERO, "a text world starts at the origin");
    let size = bounds.size();
    if i64::from(size.x) * i64::from(size.y) * i64::from(size.z) > DEEP_CHECK_CELLS {
        return;
    }
    let written = to_text_world(&world).expect("a bounded world can be written");
    let again = parse_text_world(&written).expect("a written world parses");
    assert_eq!(again.world_bounds(), world.world_bounds());
    for y in 0..size.y {
        for z in 0..size.z {
            for x in 0..size.x {
                let p = IVec3::new(x, y, z);
                assert_eq!(again.get(p), world.get(p), "{p} after a round trip");
            }
        }
    }
}

/// A free cell of `grid` chosen by `pick`, if any cell is free.
fn free_cell(grid: &voxnav::world::Grid2d, pick: u32) -> Option<IVec2> {
    let cells = grid.width() * grid.height();
    (0..cells)
        .map(|i| (pick.wrapping_add(i)) % cells)
        .map(|i| IVec2::new((i % grid.width()) as i32, (i / grid.width()) as i32))
        .find(|&c| grid.is_free(c))
}

/// Two free cells of `grid` chosen from the last bytes of `data`.
fn free_pair(grid: &voxnav::world::Grid2d, data: &[u8]) -> Option<(IVec2, IVec2)> {
    let tail = |k: usize| {
        data.iter()
            .rev()
            .skip(k)
            .take(2)
            .fold(0u32, |n, &b| n << 8 | u32::from(b))
    };
    Some((free_cell(grid, tail(0))?, free_cell(grid, tail(2))?))
}

fn small_grid(grid: &voxnav::world::Grid2d) -> bool {
    i64::from(grid.width()) * i64::from(grid.height()) <= DEEP_CHECK_CELLS
}

/// Robot grid parser: no panic; on an accepted small grid, the 4-connected planner takes as
/// few actions as breadth-first search.
pub fn robot_grid(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(grid) = parse_robot_grid(&text) else {
        return;
    };
    if !small_grid(&grid) {
        return;
    }
    let Some((start, goal)) = free_pair(&grid, data) else {
        return;
    };
    let expected = bfs(&grid, start)[(goal.y * grid.width() as i32 + goal.x) as usize];
    let mut planner = GridPlanner::robot(grid, false).expect("a parsed grid makes a planner");
    let route = planner.plan(start, goal).expect("free cells are valid");
    match expected {
        Some(actions) => {
            assert_eq!(route.status, SearchStatus::Found, "{start} -> {goal}");
            assert_eq!(route.actions.len(), actions, "{start} -> {goal}");
        }
        None => assert_eq!(route.status, SearchStatus::Unreachable, "{start} -> {goal}"),
    }
}

/// Moving AI map parser: no panic; on an accepted small map, the octile planner's route is as
/// long as octile Dijkstra's.
pub fn movingai_map(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(grid) = parse_movingai_map(&text) else {
        return;
    };
    if !small_grid(&grid) {
        return;
    }
    let Some((start, goal)) = free_pair(&grid, data) else {
        return;
    };
    let expected = octile_dijkstra(&grid, start)[(goal.y * grid.width() as i32 + goal.x) as usize];
    let mut planner = GridPlanner::octile(grid).expect("a parsed grid makes a planner");
    let route = planner.plan(start, goal).expect("free cells are valid");
    match expected {
        Some(length) => {
            assert_eq!(route.status, SearchStatus::Found, "{start} -> {goal}");
            assert!(
                (route.octile_length() - length).abs() < 1e-6,
                "{start} -> {goal}: {} instead of {length}",
                route.octile_length()
            );
        }
        None => assert_eq!(route.status, SearchStatus::Unreachable, "{start} -> {goal}"),
    }
}

/// Moving AI scenario parser: no panic; every accepted scenario holds what the parser's
/// docs promise (cells inside the grid size limit, a finite non-negative length, rising line
/// numbers).
pub fn movingai_scen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(scenarios) = parse_movingai_scen(&text) else {
        return;
    };
    let mut last_line = 1;
    for scenario in &scenarios {
        assert!(scenario.line > last_line, "{scenario:?}");
        last_line = scenario.line;
        assert!(
            scenario.optimal_length.is_finite() && scenario.optimal_length >= 0.0,
            "{scenario:?}"
        );
        for cell in [scenario.start, scenario.goal] {
            assert!(cell.x >= 0 && cell.y >= 0, "{scenario:?}");
        }
    }
}

/// Moving AI 3D map parser: no panic; an accepted small map counts as free exactly the cells
/// it answers as passable.
pub fn movingai_3dmap(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(world) = parse_movingai_3dmap(&text) else {
        return;
    };
    let size = world.size();
    assert!(size.min_element() > 0, "an accepted map has a size");
    if i64::from(size.x) * i64::from(size.y) * i64::from(size.z) > DEEP_CHECK_CELLS {
        return;
    }
    let mut free = 0;
    for y in 0..size.y {
        for z in 0..size.z {
            for x in 0..size.x {
                free += u64::from(world.is_passable(IVec3::new(x, y, z)));
            }
        }
    }
    assert_eq!(free, world.free_cells());
    assert!(!world.is_passable(IVec3::new(-1, 0, 0)) && !world.is_passable(size));
}

/// Moving AI 3D scenario parser: no panic; accepted problems have finite non-negative
/// lengths and rising line numbers.
pub fn movingai_3dscen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(list) = parse_movingai_3dscen(&text) else {
        return;
    };
    let mut last_line = 0;
    for scenario in &list.scenarios {
        assert!(scenario.line > last_line, "{scenario:?}");
        last_line = scenario.line;
        assert!(
            scenario.optimal.is_finite() && scenario.optimal >= 0.0,
            "{scenario:?}"
        );
        assert!(scenario.ratio.is_finite(), "{scenario:?}");
    }
}

/// Anvil region reading (region header, chunk decompression, NBT, palettes): any bytes give
/// a world or a typed error, never a panic; every stored chunk is loaded or counted as
/// skipped; what loads is bounded or empty and readable.
#[cfg(feature = "anvil")]
pub fn anvil_region(data: &[u8]) {
    let Ok(loaded) = voxnav::anvil::load_region(data, 0, 0) else {
        return;
    };
    let report = &loaded.report;
    assert_eq!(
        report.chunks_loaded + report.skipped_total(),
        report.chunks_stored,
        "{report}"
    );
    let world = &loaded.world;
    if let Some(bounds) = world.world_bounds() {
        // Reading any cell, inside or just outside, answers.
        for p in [bounds.min, bounds.max - IVec3::ONE, bounds.max] {
            let _ = (world.get(p), world.is_passable(p), world.terrain(p));
        }
    }
}

/// The block kinds the differential target places, air the most common.
pub fn block(bytes: &mut Bytes) -> Block {
    match bytes.byte() % 32 {
        0..=13 => Block::Air,
        14..=21 => Block::Solid,
        22 => Block::Water,
        23 => Block::Lava,
        24 => Block::SlowFloor,
        25 | 26 => Block::Ladder,
        27 => Block::Floor(1 + bytes.byte() % 15),
        28 => Block::Fence,
        29 => Block::Door,
        30 => Block::Hazard,
        _ => Block::Cobweb,
    }
}

/// The cell `index` of a world of `size` whose lowest corner is `min`, x fastest.
pub fn cell_at(min: IVec3, size: IVec3, index: u32) -> IVec3 {
    let i = index as i32;
    min + IVec3::new(
        i % size.x,
        (i / size.x) % size.y,
        i / (size.x * size.y) % size.z,
    )
}

/// The lowest coordinate of a world `extent` cells long along one axis, from two bytes: a
/// chunk border from -64 to 48 and how far below it the world starts, so that most worlds
/// straddle a chunk border (negative coordinates included).
pub fn origin(bytes: &mut Bytes, extent: i32) -> i32 {
    let border = i32::from(bytes.byte() as i8 >> 5) * 16;
    border - bytes.below(extent as u32 + 1) as i32
}

/// Differential target: on a small world described by the bytes (anywhere, negative
/// coordinates included, most of them straddling chunk borders in all three axes), A* costs
/// what exhaustive Dijkstra over the independent rules costs on the same blocks read one by
/// one ([`CellWorld`], so the storage's shortcuts are checked too), its routes are legal by
/// the oracle and by `check_path`, the reachability index never denies a route that exists,
/// and after random block changes D* Lite and A* over the updated walk graph cost what a
/// fresh Dijkstra costs. Costs of 0 are drawn too.
pub fn differential(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let size = IVec3::new(
        2 + i32::from(bytes.byte() % 9),
        2 + i32::from(bytes.byte() % 18),
        2 + i32::from(bytes.byte() % 9),
    );
    let min = IVec3::new(
        origin(&mut bytes, size.x),
        origin(&mut bytes, size.y),
        origin(&mut bytes, size.z),
    );
    let agent = Agent::default()
        .with_height(1 + u32::from(bytes.byte() % 3))
        .with_max_step_up(1 + u32::from(bytes.byte() % 2))
        .with_max_drop(1 + u32::from(bytes.byte() % 3))
        .with_diagonals(!bytes.byte().is_multiple_of(4));
    let costs = MoveCosts::default()
        .with_straight(1 + u32::from(bytes.byte() % 20))
        .with_diagonal(1 + u32::from(bytes.byte() % 30))
        .with_ascend(u32::from(bytes.byte() % 16))
        .with_descend(u32::from(bytes.byte() % 16))
        .with_water(u32::from(bytes.byte() % 24))
        .with_slow_floor(u32::from(bytes.byte() % 24))
        .with_danger(u32::from(bytes.byte() % 48))
        .with_climb(u32::from(bytes.byte() % 16));
    let Ok(mut pathfinder) = Pathfinder::new(agent, costs) else {
        return;
    };
    let mut world = ChunkedWorld::with_bounds(Bounds::new(min, min + size)).expect("a small world");
    // A mostly solid ground, then one block per cell above it while the bytes last.
    let floor_gaps = bytes.byte();
    for z in 0..size.z {
        for x in 0..size.x {
            if (x + z * size.x) as u8 % 8 >= floor_gaps % 4 {
                world
                    .set(min + IVec3::new(x, 0, z), Block::Solid)
                    .expect("inside");
            }
        }
    }
    let cells = (size.x * size.y * size.z) as u32;
    for i in u32::try_from(size.x * size.z).unwrap_or(0)..cells {
        if bytes.is_empty() {
            break;
        }
        let b = block(&mut bytes);
        world.set(cell_at(min, size, i), b).expect("inside");
    }
    let feet = all_feet(&CellWorld(&world), &agent);
    if feet.is_empty() {
        return;
    }
    let pick = |bytes: &mut Bytes| feet[bytes.below(feet.len() as u32) as usize];
    let (start, goal) = (pick(&mut bytes), pick(&mut bytes));

    // A* against the oracle, its route checked twice.
    let expected = dijkstra_cost(&CellWorld(&world), &agent, &costs, start, goal);
    let found = pathfinder
        .find_path(&world, start, goal, &SearchOptions::default())
        .expect("valid feet positions");
    let context = format!("{min} + {size} world, {agent:?}, {costs:?}, {start} -> {goal}");
    assert_eq!(found.cost, expected, "A*: {context}");
    if let Some(cost) = expected {
        assert_eq!(found.status, SearchStatus::Found, "{context}");
        assert_eq!(found.path.first(), Some(&start), "{context}");
        assert_eq!(found.path.last(), Some(&goal), "{context}");
        assert_eq!(
            route_cost(&CellWorld(&world), &agent, &costs, &found.path),
            cost,
            "{context}"
        );
        let check = check_path(&world, &agent, &costs, &found.path);
        assert!(check.is_legal(), "check_path: {context}");
        assert_eq!(check.cost, Some(cost), "check_path: {context}");
    } else {
        assert_eq!(found.status, SearchStatus::Unreachable, "{context}");
    }

    // The index proves "no route" only where none exists.
    let index = ReachIndex::build(&world, &agent).expect("a small bounded world");
    match index.reach(&world, &agent, start, goal) {
        Reach::Separate | Reach::OneWay => {
            assert_eq!(expected, None, "the index denies a route: {context}");
        }
        Reach::Unknown => panic!("a fresh index knows every valid feet position: {context}"),
        Reach::SameRegion => {}
    }

    // D* Lite and the walk graph: plan, change blocks, replan; always the fresh optimum.
    let mut dstar = DStarLite::new(agent, costs).expect("settings A* accepted");
    let planned = dstar
        .plan(&world, start, goal)
        .expect("valid feet positions");
    assert_eq!(planned.cost, expected, "D* Lite plan: {context}");
    let mut graph = NavGraph::compile(&world, &agent).expect("a small bounded world");
    let mut graph_search = GraphSearch::new(costs).expect("settings A* accepted");
    world.track_changes(true);
    for round in 0..3 {
        let mut written = Vec::new();
        for _ in 0..=bytes.byte() % 4 {
            let cell = cell_at(min, size, bytes.below(cells));
            let b = block(&mut bytes);
            written.push((cell, world.set(cell, b).expect("inside")));
        }
        if !valid(&world, start, agent.height) || !valid(&world, goal, agent.height) {
            // The agent and its goal keep standing: undo this round.
            for &(cell, old) in written.iter().rev() {
                world.set(cell, old).expect("inside");
            }
        }
        let changes = world.take_changes();
        let expected = dijkstra_cost(&CellWorld(&world), &agent, &costs, start, goal);
        let fresh = pathfinder
            .find_path(&world, start, goal, &SearchOptions::default())
            .expect("valid feet positions");
        assert_eq!(fresh.cost, expected, "A* after round {round}: {context}");
        let replanned = dstar
            .replan_changes(&world, start, &changes)
            .expect("valid feet positions");
        assert_eq!(
            replanned.cost, expected,
            "D* Lite after round {round} of changes {:?}: {context}",
            changes.cells
        );
        if let Some(cost) = expected {
            assert_eq!(
                route_cost(&CellWorld(&world), &agent, &costs, &replanned.path),
                cost,
                "D* Lite route: {context}"
            );
        }
        graph
            .apply_changes(&world, &changes)
            .expect("a small bounded world");
        let over_graph = graph_search
            .find_path(&graph, start, goal, &SearchOptions::default())
            .expect("valid feet positions");
        assert_eq!(
            over_graph.cost, expected,
            "A* over the updated graph after round {round}: {context}"
        );
    }
}
