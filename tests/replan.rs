//! Incremental replanning: D* Lite's and the replanner's routes cost exactly what a fresh A*
//! finds, through random block changes on random small worlds, and the replanner keeps its
//! route only when its learned bounds prove the route optimal.

mod support;

use glam::IVec3;
use support::oracle::{all_feet, dijkstra_cost, route_cost};
use support::rng::Rng;
use support::worlds::{floor_hills_and_blocks, random_block, random_cell};
use voxnav::engine::{DStarLite, Pathfinder, ReplanMethod};
use voxnav::world::is_valid_feet;
use voxnav::{
    Agent, Block, ChunkedWorld, MoveCosts, Replanner, SearchOptions, SearchResult, VoxelWorld,
    check_path,
};

const SIZE: IVec3 = IVec3::new(10, 6, 10);

fn fresh(world: &ChunkedWorld, from: IVec3, goal: IVec3) -> SearchResult {
    fresh_with(world, &Agent::default(), &MoveCosts::default(), from, goal)
}

fn fresh_with(
    world: &ChunkedWorld,
    agent: &Agent,
    costs: &MoveCosts,
    from: IVec3,
    goal: IVec3,
) -> SearchResult {
    let mut astar = Pathfinder::new(*agent, *costs).unwrap();
    astar
        .find_path(world, from, goal, &SearchOptions::default())
        .unwrap()
}

/// Random settings: every cost term is 0 about a third of the time, and in a third of the
/// settings ladder rungs are free both ways (zero-cost cycles); random agents.
fn random_settings(rng: &mut Rng) -> (Agent, MoveCosts) {
    let mut term = |default: u32| match rng.below(3) {
        0 => 0,
        1 => default,
        _ => 1 + rng.below(u64::from(default) * 2) as u32,
    };
    let mut costs = MoveCosts {
        straight: 1,
        diagonal: 1,
        ascend: term(10),
        descend: term(2),
        water: term(10),
        slow_floor: term(15),
        danger: term(40),
        climb: term(10),
        door: term(10),
        cobweb: term(30),
        jump: term(2),
        ..MoveCosts::default()
    };
    if rng.below(3) == 0 {
        costs = costs.with_ascend(0).with_descend(0).with_climb(0);
    }
    let straight = 1 + rng.below(12) as u32;
    let costs = costs
        .with_straight(straight)
        .with_diagonal(straight + rng.below(u64::from(straight) * 2) as u32);
    let agent = Agent::default()
        .with_height(1 + rng.below(3) as u32)
        .with_max_step_up(rng.below(3) as u32)
        .with_max_drop(rng.below(4) as u32)
        .with_diagonals(rng.below(2) == 0);
    (agent, costs)
}

fn assert_route(
    world: &ChunkedWorld,
    agent: &Agent,
    costs: &MoveCosts,
    result: &SearchResult,
    from: IVec3,
    goal: IVec3,
) {
    if let Some(cost) = result.cost {
        assert_eq!(result.path.first(), Some(&from));
        assert_eq!(result.path.last(), Some(&goal));
        let check = check_path(world, agent, costs, &result.path);
        assert_eq!(
            check.cost,
            Some(cost),
            "the route is legal and costs what it says"
        );
        assert_eq!(
            route_cost(world, agent, costs, &result.path),
            cost,
            "the independent rules agree"
        );
    }
}

/// What [`replan_rounds`] saw: replans compared with a fresh search, and how many of them
/// changed the route's cost.
#[derive(Default)]
struct Tally {
    compared: u32,
    changed_routes: u32,
    /// Replans the replanner answered by keeping the rest of its last route.
    kept: u32,
}

/// Plans on a random world from `seed`, then changes random cells `rounds` times and checks
/// after each change that D* Lite and the replanner answer what a fresh A* answers (the
/// replanner's bounds pile up a batch per change). `ladders` adds that many random ladder
/// columns (for zero-cost cycles when climbs are free).
fn replan_rounds(
    seed: u64,
    agent: &Agent,
    costs: &MoveCosts,
    rounds: u32,
    ladders: u32,
    tally: &mut Tally,
) {
    let mut rng = Rng::new(seed);
    // A floor, random hills one to three blocks high, and a sprinkling of every block kind.
    let mut world = floor_hills_and_blocks(&mut rng, SIZE, 12);
    for _ in 0..ladders {
        let (x, z) = (rng.coord(SIZE.x), rng.coord(SIZE.z));
        let (low, high) = (1 + rng.coord(2), 2 + rng.coord(4));
        world
            .fill(IVec3::new(x, low, z), IVec3::new(x, high, z), Block::Ladder)
            .unwrap();
    }
    let feet = all_feet(&world, agent);
    if feet.len() < 2 {
        return;
    }
    let start = rng.pick(&feet);
    let goal = rng.pick(&feet);
    let mut dstar = DStarLite::new(*agent, *costs).unwrap();
    let mut replanner = Replanner::new(*agent, *costs).unwrap();
    let first = dstar.plan(&world, start, goal).unwrap();
    let expected = fresh_with(&world, agent, costs, start, goal);
    assert_eq!(
        first.cost, expected.cost,
        "seed {seed} {agent:?} {costs:?}: first plan"
    );
    assert_eq!(
        first.cost,
        dijkstra_cost(&world, agent, costs, start, goal),
        "seed {seed}: first plan against the oracle"
    );
    assert_route(&world, agent, costs, &first, start, goal);
    let planned = replanner.plan(&world, start, goal).unwrap();
    assert_eq!(planned.cost, expected.cost, "seed {seed}: replanner's plan");
    assert_route(&world, agent, costs, &planned, start, goal);
    let mut position = start;
    let mut route = first.path;
    world.track_changes(true);
    for round in 0..rounds {
        if route.len() > 1 {
            position = route[rng.below(route.len() as u64 / 2 + 1) as usize];
        }
        let count = 1 + rng.below(6);
        let mut written = Vec::new();
        for _ in 0..count {
            let p = random_cell(&mut rng, SIZE);
            let block = random_block(&mut rng);
            written.push((p, world.set(p, block).unwrap()));
        }
        if !is_valid_feet(&world, position, agent.height)
            || !is_valid_feet(&world, goal, agent.height)
        {
            // Keep the agent and its goal standing: undo this round.
            for &(p, old) in written.iter().rev() {
                world.set(p, old).unwrap();
            }
        }
        // The change log covers the undo too; a list of cells must name every cell written
        // (an empty list for a world whose version moved is refused as missed changes).
        let changes = world.take_changes();
        let changed: Vec<IVec3> = written.iter().map(|&(p, _)| p).collect();
        // D* Lite reads which changes involved lava; the replanner assumes all did.
        let incremental = dstar.replan_changes(&world, position, &changes).unwrap();
        let chosen = replanner.replan(&world, position, &changed).unwrap();
        let expected = fresh_with(&world, agent, costs, position, goal);
        assert_eq!(
            incremental.cost, expected.cost,
            "seed {seed} round {round} {agent:?} {costs:?}: D* Lite after {changed:?}"
        );
        assert_eq!(
            chosen.result.cost, expected.cost,
            "seed {seed} round {round} {agent:?} {costs:?}: replanner"
        );
        assert_route(&world, agent, costs, &incremental, position, goal);
        assert_route(&world, agent, costs, &chosen.result, position, goal);
        if incremental.cost != first.cost {
            tally.changed_routes += 1;
        }
        if chosen.method == ReplanMethod::Kept {
            tally.kept += 1;
        }
        tally.compared += 1;
        // The agent follows the replanner's route half the time, D* Lite's otherwise (the
        // replanner keeps its route only when the agent stands on it).
        route = if round % 2 == 0 {
            chosen.result.path
        } else {
            incremental.path
        };
    }
}

#[test]
fn property_incremental_cost_equals_fresh_search_after_random_changes() {
    let mut tally = Tally::default();
    for seed in 0..300 {
        replan_rounds(
            seed,
            &Agent::default(),
            &MoveCosts::default(),
            6,
            0,
            &mut tally,
        );
    }
    assert!(
        tally.compared > 800,
        "only {} replans compared",
        tally.compared
    );
    assert!(
        tally.changed_routes > 100,
        "changes rarely mattered: {}",
        tally.changed_routes
    );
    assert!(tally.kept > 20, "only {} routes kept", tally.kept);
}

#[test]
fn property_incremental_cost_equals_fresh_search_with_zero_costs_and_other_agents() {
    let mut tally = Tally::default();
    let mut zero_cost_ladders = 0;
    for seed in 0..600 {
        let (agent, costs) = random_settings(&mut Rng::new(seed ^ 0x5EED));
        if costs.climb + costs.ascend.max(costs.descend) == 0 {
            zero_cost_ladders += 1;
        }
        replan_rounds(seed, &agent, &costs, 6, 4, &mut tally);
    }
    assert!(
        zero_cost_ladders > 150,
        "only {zero_cost_ladders} settings with free ladders"
    );
    assert!(
        tally.compared > 1500,
        "only {} replans compared",
        tally.compared
    );
    assert!(
        tally.changed_routes > 200,
        "changes rarely mattered: {}",
        tally.changed_routes
    );
    assert!(tally.kept > 20, "only {} routes kept", tally.kept);
}

/// The replanner keeps the rest of its route when its bounds prove it optimal: after a change
/// off the route that only makes moves dearer (a slow floor beside it), and after a floor
/// block beside it that makes a new position and new moves that do not shorten it; it
/// searches when a change touches the route itself. Every answer costs what a fresh A* finds.
#[test]
fn the_route_is_kept_when_the_bounds_prove_it_optimal() {
    let mut world = ChunkedWorld::with_size(IVec3::new(30, 4, 9)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(29, 0, 8), Block::Solid)
        .unwrap();
    world.track_changes(true);
    let (start, goal) = (IVec3::new(0, 1, 4), IVec3::new(29, 1, 4));
    let mut replanner = Replanner::new(Agent::default(), MoveCosts::default()).unwrap();
    let route = replanner.plan(&world, start, goal).unwrap();
    assert_eq!(route.cost, Some(290));
    assert!(route.path.iter().all(|p| p.z == 4), "{:?}", route.path);

    world.set(IVec3::new(12, 0, 3), Block::SlowFloor).unwrap();
    let changed: Vec<IVec3> = world.take_changes().positions().collect();
    let position = route.path[5];
    let kept = replanner.replan(&world, position, &changed).unwrap();
    assert_eq!(kept.method, ReplanMethod::Kept);
    assert_eq!(kept.result.stats.expanded, 0);
    assert_eq!(kept.result.path, route.path[5..]);
    assert_eq!(kept.result.cost, fresh_cost(&world, position, goal));

    // A floor block beside the route makes a new position and new moves, none of them a
    // shortcut: the bounds still prove the route optimal.
    world.set(IVec3::new(25, 1, 2), Block::Solid).unwrap();
    let changed: Vec<IVec3> = world.take_changes().positions().collect();
    let position = kept.result.path[1];
    let again = replanner.replan(&world, position, &changed).unwrap();
    assert_eq!(again.method, ReplanMethod::Kept);
    assert_eq!(again.result.cost, fresh_cost(&world, position, goal));

    // Lava beside the route: the route's moves past it now cost the danger term.
    world.set(IVec3::new(20, 1, 5), Block::Lava).unwrap();
    let changed: Vec<IVec3> = world.take_changes().positions().collect();
    let position = again.result.path[2];
    let searched = replanner.replan(&world, position, &changed).unwrap();
    assert_eq!(searched.method, ReplanMethod::Adapted);
    assert_eq!(searched.result.cost, fresh_cost(&world, position, goal));
    assert_route(
        &world,
        &Agent::default(),
        &MoveCosts::default(),
        &searched.result,
        position,
        goal,
    );
}

/// A wall in front of the goal forces a long detour: the replanner's search stays exact and
/// expands fewer positions than a fresh A*, and so do later calls along the new route.
#[test]
fn a_detour_near_the_goal_is_exact_and_cheaper_than_a_fresh_search() {
    let mut world = ChunkedWorld::with_size(IVec3::new(64, 5, 64)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(63, 0, 63), Block::Solid)
        .unwrap();
    world.track_changes(true);
    let (start, goal) = (IVec3::new(0, 1, 32), IVec3::new(63, 1, 32));
    let mut replanner = Replanner::new(Agent::default(), MoveCosts::default()).unwrap();
    let route = replanner.plan(&world, start, goal).unwrap();
    assert_eq!(route.cost, Some(630));

    // A wall two blocks high right in front of the goal, open only at its far ends.
    world
        .fill(IVec3::new(60, 1, 4), IVec3::new(60, 2, 60), Block::Solid)
        .unwrap();
    let changed: Vec<IVec3> = world.take_changes().positions().collect();
    let position = route.path[10];
    let replan = replanner.replan(&world, position, &changed).unwrap();
    assert_eq!(replan.method, ReplanMethod::Adapted);
    let first = fresh(&world, position, goal);
    assert_eq!(replan.result.cost, first.cost);
    assert!(
        replan.result.stats.expanded < first.stats.expanded,
        "{} expanded, a fresh A* {}",
        replan.result.stats.expanded,
        first.stats.expanded
    );

    for step in 1..8 {
        let position = replan.result.path[step];
        let again = replanner.replan(&world, position, &[]).unwrap();
        let expected = fresh(&world, position, goal);
        assert_eq!(again.result.cost, expected.cost);
        assert!(again.result.stats.expanded < expected.stats.expanded);
    }
}

fn fresh_cost(world: &ChunkedWorld, from: IVec3, goal: IVec3) -> Option<u64> {
    fresh(world, from, goal).cost
}

#[test]
fn replan_errors_name_the_bad_position_and_leave_the_plan_usable() {
    let mut world = ChunkedWorld::with_size(IVec3::new(8, 4, 3)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(7, 0, 2), Block::Solid)
        .unwrap();
    let mut dstar = DStarLite::new(Agent::default(), MoveCosts::default()).unwrap();
    assert!(matches!(
        dstar.replan(&world, IVec3::new(0, 1, 1), &[]),
        Err(voxnav::Error::InvalidSetting(_))
    ));
    let (start, goal) = (IVec3::new(0, 1, 1), IVec3::new(7, 1, 1));
    assert_eq!(dstar.plan(&world, start, goal).unwrap().cost, Some(70));
    assert!(matches!(
        dstar.replan(&world, IVec3::new(0, 3, 1), &[]),
        Err(voxnav::Error::InvalidStart { .. })
    ));
    world.set(IVec3::new(7, 2, 1), Block::Solid).unwrap();
    assert!(matches!(
        dstar.replan(&world, start, &[IVec3::new(7, 2, 1)]),
        Err(voxnav::Error::InvalidGoal { .. })
    ));
    world.set(IVec3::new(7, 2, 1), Block::Air).unwrap();
    assert!(world.is_passable(IVec3::new(7, 2, 1)));
    // Written and restored: the cell is listed, as every written cell must be.
    let again = dstar.replan(&world, start, &[IVec3::new(7, 2, 1)]).unwrap();
    assert_eq!(again.cost, Some(70));
    let unbounded = ChunkedWorld::new();
    assert!(dstar.plan(&unbounded, start, goal).is_err());
    // Issue 14: the error names what D* Lite needs, not a search budget it does not have.
    let unbounded_world = ChunkedWorld::new();
    let mut floor = unbounded_world;
    floor
        .fill(IVec3::new(0, 0, 0), IVec3::new(7, 0, 2), Block::Solid)
        .unwrap();
    let error = dstar.plan(&floor, start, goal).unwrap_err();
    assert!(matches!(error, voxnav::Error::NeedsBounds(_)), "{error}");
    assert!(!error.to_string().contains("max_nodes"), "{error}");
}

/// Issue 14: free ladder rungs (ascend, descend and climb all 0) made a zero-cost cycle, up
/// and down the ladder at x = 4; after the block at x = 6 turned to water, its two rungs kept
/// vouching for each other's old cost-to-goal and D* Lite answered unreachable.
#[test]
fn free_ladder_rungs_do_not_fool_the_repair() {
    // One row (z = 0): a floor, a ladder at x = 4 and a block at x = 6 to step over.
    let mut world = ChunkedWorld::with_size(IVec3::new(9, 5, 1)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(8, 0, 0), Block::Solid)
        .unwrap();
    world.set(IVec3::new(4, 1, 0), Block::Ladder).unwrap();
    world.set(IVec3::new(6, 1, 0), Block::Solid).unwrap();
    let agent = Agent::default()
        .with_height(1)
        .with_max_step_up(2)
        .with_max_drop(3)
        .with_diagonals(false);
    let costs = MoveCosts::default()
        .with_straight(6)
        .with_diagonal(18)
        .with_ascend(0)
        .with_descend(0)
        .with_climb(0);
    costs.validate().unwrap();
    let (start, goal) = (IVec3::new(3, 1, 0), IVec3::new(7, 1, 0));
    let mut dstar = DStarLite::new(agent, costs).unwrap();
    let mut replanner = Replanner::new(agent, costs).unwrap();
    assert_eq!(dstar.plan(&world, start, goal).unwrap().cost, Some(4 * 6));
    assert_eq!(
        replanner.plan(&world, start, goal).unwrap().cost,
        Some(4 * 6)
    );

    world.set(IVec3::new(6, 1, 0), Block::Water).unwrap();
    let changed = [IVec3::new(6, 1, 0)];
    // Four steps, the third into water.
    let expected = Some(4 * 6 + u64::from(costs.water));
    assert_eq!(
        fresh_with(&world, &agent, &costs, start, goal).cost,
        expected
    );
    let again = dstar.replan(&world, start, &changed).unwrap();
    assert_eq!(again.cost, expected);
    assert_route(&world, &agent, &costs, &again, start, goal);
    assert_eq!(
        replanner
            .replan(&world, start, &changed)
            .unwrap()
            .result
            .cost,
        expected
    );
}

/// Issue 14: changed cells at the ends of `i32` overflowed the neighbourhood arithmetic.
#[test]
fn changes_at_extreme_coordinates_are_ignored_without_overflow() {
    let mut world = ChunkedWorld::with_size(IVec3::new(8, 4, 3)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(7, 0, 2), Block::Solid)
        .unwrap();
    let (start, goal) = (IVec3::new(0, 1, 1), IVec3::new(7, 1, 1));
    let mut dstar = DStarLite::new(Agent::default(), MoveCosts::default()).unwrap();
    let mut replanner = Replanner::new(Agent::default(), MoveCosts::default()).unwrap();
    dstar.plan(&world, start, goal).unwrap();
    replanner.plan(&world, start, goal).unwrap();
    let extremes = [
        IVec3::MIN,
        IVec3::MAX,
        IVec3::new(i32::MIN, 1, 1),
        IVec3::new(1, i32::MAX, 1),
        IVec3::new(1, 1, i32::MIN),
        IVec3::new(i32::MAX, i32::MIN, i32::MAX),
    ];
    assert_eq!(
        dstar.replan(&world, start, &extremes).unwrap().cost,
        Some(70)
    );
    let replan = replanner.replan(&world, start, &extremes).unwrap();
    assert_eq!(replan.result.cost, Some(70));
}
