//! Jump point search for fliers and swimmers ([`JumpSearch`]) against the flier A* on every
//! problem of the Moving AI 3D `Simple` map, and against an exhaustive Dijkstra over the box
//! rule (restated here cell by cell) on random small worlds that cross chunk borders, for
//! bodies one to three cells tall. Every route is checked move by move with `check_path`.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::Path;

use voxnav::engine::{JumpSearch, Pathfinder};
use voxnav::search::jps3d::JumpTables;
use voxnav::world::{Bounds, parse_movingai_3dmap, parse_movingai_3dscen};
use voxnav::{
    Agent, Block, ChunkedWorld, Error, IVec3, MoveCosts, SearchOptions, SearchResult, SearchStatus,
    VoxelWorld, check_path,
};

fn data(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/movingai3d")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A small deterministic generator (xorshift64).
fn rng(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// Checks that `result` is a legal route from `start` to `goal` for `agent` whose cost,
/// recomputed move by move, is the one reported.
fn assert_legal<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    result: &SearchResult,
    start: IVec3,
    goal: IVec3,
    what: &str,
) {
    assert_eq!(result.path.first(), Some(&start), "{what}");
    assert_eq!(result.path.last(), Some(&goal), "{what}");
    let check = check_path(world, agent, costs, &result.path);
    assert_eq!(check.first_broken, None, "{what}: {:?}", result.path);
    assert_eq!(check.cost, result.cost, "{what}");
}

#[test]
fn every_simple_problem_costs_what_the_flier_astar_finds() {
    let world = parse_movingai_3dmap(&data("Simple.3dmap")).unwrap();
    let file = parse_movingai_3dscen(&data("Simple.3dmap.3dscen")).unwrap();
    assert_eq!(file.scenarios.len(), 300);
    let (agent, costs) = (Agent::flier(1), MoveCosts::octile());
    let mut astar = Pathfinder::new(agent, costs).unwrap();
    let mut jps = JumpSearch::new(agent, costs).unwrap();
    let mut scanning = JumpSearch::new(agent, costs)
        .unwrap()
        .with_straight_scans(true);
    let options = SearchOptions::default();
    let tables = JumpTables::build(&world, agent).unwrap();
    // The default limits, and edge and corner jumps run to their stops (JPS-3D's recursion).
    let mut with_tables = [
        JumpSearch::new(agent, costs).unwrap(),
        JumpSearch::new(agent, costs)
            .unwrap()
            .with_diagonal_limits(u32::MAX, 2),
    ];
    let mut tables_expanded = [0u64; 2];
    let (mut astar_expanded, mut jps_expanded, mut scans_expanded) = (0u64, 0u64, 0u64);
    for scenario in &file.scenarios {
        let (start, goal) = (scenario.start, scenario.goal);
        let expected = astar.find_path(&world, start, goal, &options).unwrap();
        astar_expanded += expected.stats.expanded;
        for (engine, expanded) in [
            (&mut jps, &mut jps_expanded),
            (&mut scanning, &mut scans_expanded),
        ] {
            let found = engine.find_path(&world, start, goal, &options).unwrap();
            let what = format!("line {}", scenario.line);
            assert_eq!(found.status, SearchStatus::Found, "{what}");
            assert_eq!(found.cost, expected.cost, "{what}");
            assert_legal(&world, &agent, &costs, &found, start, goal, &what);
            *expanded += found.stats.expanded;
        }
        for (engine, expanded) in with_tables.iter_mut().zip(&mut tables_expanded) {
            let found = engine
                .find_path_with_tables(&tables, &world, start, goal, &options)
                .unwrap();
            let what = format!("line {} with tables", scenario.line);
            assert_eq!(found.status, SearchStatus::Found, "{what}");
            assert_eq!(found.cost, expected.cost, "{what}");
            assert_legal(&world, &agent, &costs, &found, start, goal, &what);
            *expanded += found.stats.expanded;
        }
    }
    // Scanned or precomputed straight jumps make far fewer positions explicit, and diagonal
    // jumps run further fewer still.
    assert!(
        scans_expanded * 3 < jps_expanded,
        "{scans_expanded} {jps_expanded}"
    );
    assert!(tables_expanded[0] * 3 < jps_expanded, "{tables_expanded:?}");
    assert!(
        tables_expanded[1] < tables_expanded[0],
        "{tables_expanded:?}"
    );
    println!(
        "Simple, 300 problems: flier A* {} expansions per query, jump search {}, scanned {}, \
         with tables {:?}",
        astar_expanded / 300,
        jps_expanded / 300,
        scans_expanded / 300,
        tables_expanded.map(|e| e / 300)
    );
}

/// The cells of a random world: `true` where a flier's body may be (air or water), and where
/// a swimmer's may be (water).
struct Cells {
    min: IVec3,
    size: IVec3,
    open: Vec<bool>,
    water: Vec<bool>,
}

impl Cells {
    fn index(&self, p: IVec3) -> Option<usize> {
        let r = p - self.min;
        (r.cmpge(IVec3::ZERO).all() && r.cmplt(self.size).all())
            .then(|| ((r.x * self.size.y + r.y) * self.size.z + r.z) as usize)
    }

    fn allowed(&self, p: IVec3, swim: bool) -> bool {
        self.index(p)
            .is_some_and(|i| if swim { self.water[i] } else { self.open[i] })
    }

    /// The box rule, cell by cell: every cell of the box spanned by a body `height` tall at
    /// `from` and at `to` is allowed.
    fn box_allowed(&self, from: IVec3, to: IVec3, height: i32, swim: bool) -> bool {
        let (lo, hi) = (from.min(to), from.max(to));
        (lo.x..=hi.x).all(|x| {
            (lo.z..=hi.z)
                .all(|z| (lo.y..hi.y + height).all(|y| self.allowed(IVec3::new(x, y, z), swim)))
        })
    }

    /// The cheapest cost from `start` to every position, by Dijkstra over all 26 offsets.
    fn dijkstra(&self, start: IVec3, height: i32, swim: bool, costs: &MoveCosts) -> Vec<u64> {
        let mut dist = vec![u64::MAX; self.open.len()];
        let mut heap = BinaryHeap::new();
        dist[self.index(start).unwrap()] = 0;
        heap.push(Reverse((0u64, start.to_array())));
        while let Some(Reverse((d, key))) = heap.pop() {
            let p = IVec3::from_array(key);
            if d > dist[self.index(p).unwrap()] {
                continue;
            }
            for dx in -1..=1 {
                for dy in -1..=1 {
                    for dz in -1..=1 {
                        let step = IVec3::new(dx, dy, dz);
                        let axes = [dx, dy, dz].iter().filter(|&&c| c != 0).count();
                        if axes == 0 || !self.box_allowed(p, p + step, height, swim) {
                            continue;
                        }
                        let cost = match axes {
                            1 => costs.straight,
                            2 => costs.diagonal,
                            _ => costs.corner,
                        };
                        let q = p + step;
                        let i = self.index(q).unwrap();
                        if d + u64::from(cost) < dist[i] {
                            dist[i] = d + u64::from(cost);
                            heap.push(Reverse((dist[i], q.to_array())));
                        }
                    }
                }
            }
        }
        dist
    }
}

/// A random world of `Cells` written into a `ChunkedWorld` with the same bounds.
fn random_world(next: &mut impl FnMut() -> u64) -> (Cells, ChunkedWorld) {
    // Offsets around chunk borders (multiples of 16) so that worlds span several chunks.
    let min = IVec3::new(
        (next() % 40) as i32 - 28,
        (next() % 40) as i32 - 28,
        (next() % 40) as i32 - 28,
    );
    let size = IVec3::new(
        6 + (next() % 9) as i32,
        6 + (next() % 9) as i32,
        6 + (next() % 9) as i32,
    );
    let mut world = ChunkedWorld::with_bounds(Bounds::new(min, min + size)).unwrap();
    let (solid, water) = (next() % 45, 30 + next() % 60);
    let count = (size.x * size.y * size.z) as usize;
    let mut cells = Cells {
        min,
        size,
        open: vec![false; count],
        water: vec![false; count],
    };
    for x in 0..size.x {
        for y in 0..size.y {
            for z in 0..size.z {
                let p = min + IVec3::new(x, y, z);
                let i = cells.index(p).unwrap();
                if next() % 100 < solid {
                    world.set(p, Block::Solid).unwrap();
                } else {
                    cells.open[i] = true;
                    if next() % 100 < water {
                        world.set(p, Block::Water).unwrap();
                        cells.water[i] = true;
                    }
                }
            }
        }
    }
    (cells, world)
}

#[test]
fn random_worlds_cost_what_an_exhaustive_dijkstra_finds() {
    let mut next = rng(0x9E37_79B9_7F4A_7C15);
    let costs = MoveCosts::octile();
    let options = SearchOptions::default();
    let (mut found, mut unreachable, mut wide_rounds) = (0, 0, 0);
    for round in 0..360i32 {
        let (cells, world) = random_world(&mut next);
        let height = 1 + round % 3;
        let swim = round % 4 == 3;
        let agent = if swim {
            Agent::swimmer(height as u32)
        } else {
            Agent::flier(height as u32)
        };
        // Every other round scans straight jumps by word.
        let mut jps = JumpSearch::new(agent, costs)
            .unwrap()
            .with_straight_scans(round % 2 == 1);
        let mut astar = Pathfinder::new(agent, costs).unwrap();
        // With precomputed face jumps, under the default diagonal limits and others.
        let tables = JumpTables::build(&world, agent).unwrap();
        let [edge, corner] =
            [[0, 0], [u32::MAX, 0], [2, 1], [u32::MAX, u32::MAX]][(round % 4) as usize];
        let mut plus = JumpSearch::new(agent, costs)
            .unwrap()
            .with_diagonal_limits(edge, corner);
        let valid: Vec<IVec3> = (0..cells.open.len())
            .map(|i| {
                let i = i as i32;
                let (s, z) = (cells.size, i % cells.size.z);
                cells.min + IVec3::new(i / (s.y * s.z), i / s.z % s.y, z)
            })
            .filter(|&p| cells.box_allowed(p, p, height, swim))
            .collect();
        if valid.len() < 2 {
            continue;
        }
        if round % 6 == 0 {
            wide_rounds += wide_tables_meet_the_astar(&world, &valid, &mut next);
        }
        for _ in 0..4 {
            let start = valid[(next() % valid.len() as u64) as usize];
            let dist = cells.dijkstra(start, height, swim, &costs);
            for _ in 0..4 {
                let goal = valid[(next() % valid.len() as u64) as usize];
                let what =
                    format!("round {round}, {start} -> {goal}, height {height}, swim {swim}");
                let result = jps.find_path(&world, start, goal, &options).unwrap();
                let with_tables = plus
                    .find_path_with_tables(&tables, &world, start, goal, &options)
                    .unwrap();
                let best = dist[cells.index(goal).unwrap()];
                if best == u64::MAX {
                    assert_eq!(result.status, SearchStatus::Unreachable, "{what}");
                    assert_eq!(with_tables.status, SearchStatus::Unreachable, "{what}");
                    unreachable += 1;
                    continue;
                }
                for result in [&result, &with_tables] {
                    assert_eq!(result.status, SearchStatus::Found, "{what}");
                    assert_eq!(result.cost, Some(best), "{what}");
                    assert_legal(&world, &agent, &costs, result, start, goal, &what);
                }
                let expected = astar.find_path(&world, start, goal, &options).unwrap();
                assert_eq!(expected.cost, Some(best), "{what}");
                found += 1;
            }
        }
    }
    assert!(
        found > 2000 && unreachable > 200 && wide_rounds > 100,
        "{found} found, {unreachable} unreachable, {wide_rounds} wide queries"
    );
}

/// A body two cells wide searched with tables (built in the world as the wide body sees it)
/// costs what the flier A* finds, between random valid positions of `valid`; returns how
/// many queries it compared.
fn wide_tables_meet_the_astar(
    world: &ChunkedWorld,
    valid: &[IVec3],
    next: &mut impl FnMut() -> u64,
) -> usize {
    let (agent, costs, options) = (
        Agent::flier(1).with_width(2),
        MoveCosts::octile(),
        SearchOptions::default(),
    );
    let tables = JumpTables::build(world, agent).unwrap();
    let mut plus = JumpSearch::new(agent, costs)
        .unwrap()
        .with_diagonal_limits(u32::MAX, 1);
    let mut astar = Pathfinder::new(agent, costs).unwrap();
    let mut compared = 0;
    for _ in 0..12 {
        let start = valid[(next() % valid.len() as u64) as usize];
        let goal = valid[(next() % valid.len() as u64) as usize];
        let Ok(expected) = astar.find_path(world, start, goal, &options) else {
            // The wide body does not fit there.
            continue;
        };
        let found = plus
            .find_path_with_tables(&tables, world, start, goal, &options)
            .unwrap();
        assert_eq!(found.cost, expected.cost, "wide {start} -> {goal}");
        if found.is_found() {
            assert_legal(world, &agent, &costs, &found, start, goal, "wide");
        }
        compared += 1;
    }
    compared
}

/// A world with an extra cost on some cells, which jump point search cannot price.
struct Costly {
    inner: ChunkedWorld,
    every: i32,
}

impl VoxelWorld for Costly {
    fn is_passable(&self, p: IVec3) -> bool {
        self.inner.is_passable(p)
    }
    fn extra_cost(&self, feet: IVec3) -> u32 {
        if (feet.x + 2 * feet.y + 3 * feet.z).rem_euclid(self.every) == 0 {
            700
        } else {
            0
        }
    }
    fn bounds(&self) -> Option<Bounds> {
        self.inner.bounds()
    }
}

#[test]
fn extra_costs_get_the_flier_astar_answer() {
    let mut next = rng(0x2545_F491_4F6C_DD1D);
    let costs = MoveCosts::octile();
    let options = SearchOptions::default();
    let mut differs = 0;
    for round in 0..60 {
        let (cells, inner) = random_world(&mut next);
        let world = Costly {
            inner,
            every: 3 + round % 5,
        };
        let agent = Agent::flier(1);
        // Every other round scans straight jumps by word.
        let mut jps = JumpSearch::new(agent, costs)
            .unwrap()
            .with_straight_scans(round % 2 == 1);
        let mut astar = Pathfinder::new(agent, costs).unwrap();
        let valid: Vec<IVec3> = (0..cells.open.len())
            .filter(|&i| cells.open[i])
            .map(|i| {
                let (i, s) = (i as i32, cells.size);
                cells.min + IVec3::new(i / (s.y * s.z), i / s.z % s.y, i % s.z)
            })
            .collect();
        if valid.len() < 2 {
            continue;
        }
        for _ in 0..8 {
            let start = valid[(next() % valid.len() as u64) as usize];
            let goal = valid[(next() % valid.len() as u64) as usize];
            let expected = astar.find_path(&world, start, goal, &options).unwrap();
            let result = jps.find_path(&world, start, goal, &options).unwrap();
            assert_eq!(result.status, expected.status);
            assert_eq!(result.cost, expected.cost, "{start} -> {goal}");
            if expected.is_found() {
                assert_legal(&world, &agent, &costs, &result, start, goal, "costly");
                // The uniform-cost optimum is cheaper whenever the route pays an extra cost.
                let plain = jps.find_path(&world.inner, start, goal, &options).unwrap();
                differs += usize::from(plain.cost != result.cost);
            }
        }
    }
    assert!(differs > 50, "{differs}");
}

#[test]
fn settings_it_cannot_honour_are_typed_errors() {
    let octile = MoveCosts::octile();
    // A corner step dearer than a face and an edge step: the canonical steps could cost more.
    let lopsided = octile.with_straight(10).with_diagonal(10).with_corner(30);
    for (agent, costs) in [
        (Agent::flier(1), lopsided),
        (Agent::flier(4), octile),
        (Agent::default(), octile),
        (Agent::flier(1), octile.with_straight(0)),
    ] {
        match JumpSearch::new(agent, costs) {
            Err(Error::InvalidSetting(message)) => assert!(!message.is_empty()),
            other => panic!("{agent:?} {costs:?}: {other:?}"),
        }
    }
    let world = ChunkedWorld::with_size(IVec3::splat(8)).unwrap();
    let mut jps = JumpSearch::new(Agent::flier(2), octile).unwrap();
    let options = SearchOptions::default();
    let error = jps
        .find_path(&world, IVec3::new(0, 7, 0), IVec3::ZERO, &options)
        .unwrap_err();
    assert!(matches!(error, Error::InvalidStart { .. }), "{error}");
    let error = jps
        .find_path(&world, IVec3::ZERO, IVec3::splat(9), &options)
        .unwrap_err();
    assert!(matches!(error, Error::InvalidGoal { .. }), "{error}");
    let unbounded = ChunkedWorld::new();
    let error = jps
        .find_path(&unbounded, IVec3::ZERO, IVec3::splat(5), &options)
        .unwrap_err();
    assert!(matches!(error, Error::Unbounded), "{error}");
    // Tables: bounded worlds of limited size, fliers and swimmers only, the search's agent
    // and world only.
    let error = JumpTables::build(&unbounded, Agent::flier(1)).unwrap_err();
    assert!(matches!(error, Error::NeedsBounds(_)), "{error}");
    let huge =
        ChunkedWorld::with_bounds(Bounds::new(IVec3::ZERO, IVec3::new(4096, 256, 4096))).unwrap();
    let error = JumpTables::build(&huge, Agent::flier(1)).unwrap_err();
    assert!(
        matches!(&error, Error::InvalidSetting(m) if m.contains("cells")),
        "{error}"
    );
    for agent in [Agent::default(), Agent::flier(4)] {
        let error = JumpTables::build(&world, agent).unwrap_err();
        assert!(matches!(error, Error::InvalidSetting(_)), "{error}");
    }
    let tables = JumpTables::build(&world, Agent::flier(1)).unwrap();
    let other = ChunkedWorld::with_size(IVec3::splat(9)).unwrap();
    let error = jps
        .find_path_with_tables(&tables, &world, IVec3::ZERO, IVec3::splat(5), &options)
        .unwrap_err();
    assert!(
        matches!(&error, Error::InvalidSetting(m) if m.contains("jump tables")),
        "{error}"
    );
    let mut one_tall = JumpSearch::new(Agent::flier(1), octile).unwrap();
    for jps in [&mut jps, &mut one_tall] {
        let error = jps
            .find_path_with_tables(&tables, &other, IVec3::ZERO, IVec3::splat(5), &options)
            .unwrap_err();
        assert!(
            matches!(
                error,
                Error::OtherWorld {
                    what: "jump tables",
                    ..
                }
            ),
            "{error}"
        );
    }
    let found = one_tall
        .find_path_with_tables(&tables, &world, IVec3::ZERO, IVec3::splat(5), &options)
        .unwrap();
    assert_eq!(found.cost, astar_cost(&world, IVec3::splat(5)));
    // A change to the world after the build: the tables are refused, not read stale.
    let mut changed = world.clone();
    let tables = JumpTables::build(&changed, Agent::flier(1)).unwrap();
    changed.set(IVec3::new(2, 2, 2), Block::Solid).unwrap();
    let error = one_tall
        .find_path_with_tables(&tables, &changed, IVec3::ZERO, IVec3::splat(5), &options)
        .unwrap_err();
    assert!(matches!(error, Error::StaleJumpTables { .. }), "{error}");
    assert!(error.to_string().contains("build them again"), "{error}");
}

/// The flier A*'s cost from the origin to `goal` for a body one cell tall.
fn astar_cost(world: &ChunkedWorld, goal: IVec3) -> Option<u64> {
    let mut astar = Pathfinder::new(Agent::flier(1), MoveCosts::octile()).unwrap();
    astar
        .find_path(world, IVec3::ZERO, goal, &SearchOptions::default())
        .unwrap()
        .cost
}

#[test]
fn a_node_budget_gives_a_legal_partial_route() {
    let world = parse_movingai_3dmap(&data("Simple.3dmap")).unwrap();
    let file = parse_movingai_3dscen(&data("Simple.3dmap.3dscen")).unwrap();
    let (agent, costs) = (Agent::flier(1), MoveCosts::octile());
    let mut jps = JumpSearch::new(agent, costs).unwrap();
    let full = jps
        .find_path(
            &world,
            file.scenarios[2].start,
            file.scenarios[2].goal,
            &SearchOptions::default(),
        )
        .unwrap();
    assert!(full.stats.expanded > 2, "{}", full.stats.expanded);
    let scenario = file.scenarios[2];
    let options = SearchOptions::default().with_max_nodes(2);
    let result = jps
        .find_path(&world, scenario.start, scenario.goal, &options)
        .unwrap();
    assert_eq!(result.status, SearchStatus::Partial);
    assert_eq!(result.path.first(), Some(&scenario.start));
    let check = check_path(&world, &agent, &costs, &result.path);
    assert_eq!(check.first_broken, None);
    assert_eq!(check.cost, result.cost);
}

/// A free canonical route (a corner run, an edge run, a face run, in some order) costs the
/// estimate, which no route beats: it is taken without a search. One that would cut the
/// edge of a block is not: the search goes around.
#[test]
fn a_free_direct_route_needs_no_search_and_a_cut_corner_is_not_taken() {
    let (agent, costs) = (Agent::flier(2), MoveCosts::octile());
    let options = SearchOptions::default();
    let mut jps = JumpSearch::new(agent, costs).unwrap();
    let mut astar = Pathfinder::new(agent, costs).unwrap();
    let mut world =
        ChunkedWorld::with_bounds(Bounds::new(IVec3::splat(-9), IVec3::splat(9))).unwrap();
    // A wall with a gap at the bottom, only as tall as the body: the corner run first would
    // rise into the wall, the edge run first passes under it.
    for x in -9..9 {
        for y in -7..9 {
            world.set(IVec3::new(x, y, -5), Block::Solid).unwrap();
        }
    }
    let (start, goal) = (IVec3::new(-7, -9, -8), IVec3::new(1, -6, 6));
    let found = jps.find_path(&world, start, goal, &options).unwrap();
    let expected = astar.find_path(&world, start, goal, &options).unwrap();
    assert_eq!(found.status, SearchStatus::Found);
    assert_eq!(
        found.stats.expanded, 0,
        "the direct route needs no expansion"
    );
    assert_eq!(found.cost, expected.cost);
    assert_legal(&world, &agent, &costs, &found, start, goal, "direct");

    // A block at the corner the edge run would cut: every order of the runs is blocked.
    let mut world =
        ChunkedWorld::with_bounds(Bounds::new(IVec3::ZERO, IVec3::new(3, 2, 3))).unwrap();
    world.set(IVec3::new(1, 0, 0), Block::Solid).unwrap();
    world.set(IVec3::new(1, 1, 0), Block::Solid).unwrap();
    let (start, goal) = (IVec3::ZERO, IVec3::new(2, 0, 2));
    let found = jps.find_path(&world, start, goal, &options).unwrap();
    let expected = astar.find_path(&world, start, goal, &options).unwrap();
    assert_eq!(found.status, SearchStatus::Found);
    assert!(
        found.stats.expanded > 0,
        "the corner-cutting route is not taken"
    );
    assert_eq!(found.cost, expected.cost);
    assert!(found.cost > Some(2 * u64::from(costs.diagonal)));
    assert_legal(&world, &agent, &costs, &found, start, goal, "around");
}
