//! Incremental replanning: D* Lite's routes cost exactly what a fresh A* finds, through random
//! block changes on random small worlds, and the replanner falls back to A* when a repair is
//! too big.

mod support;

use glam::IVec3;
use support::oracle::{all_feet, dijkstra_cost, route_cost};
use support::rng::Rng;
use support::worlds::{floor_hills_and_blocks, random_block, random_cell};
use voxnav::{
    Agent, Block, ChunkedWorld, DStarLite, MoveCosts, Pathfinder, ReplanMethod, Replanner,
    SearchOptions, SearchResult, VoxelWorld, check_path, is_valid_feet,
};

const SIZE: IVec3 = IVec3::new(10, 6, 10);

fn fresh(world: &ChunkedWorld, from: IVec3, goal: IVec3) -> SearchResult {
    let mut astar = Pathfinder::new(Agent::default(), MoveCosts::default()).unwrap();
    astar
        .find_path(world, from, goal, &SearchOptions::default())
        .unwrap()
}

fn assert_route(world: &ChunkedWorld, result: &SearchResult, from: IVec3, goal: IVec3) {
    if let Some(cost) = result.cost {
        assert_eq!(result.path.first(), Some(&from));
        assert_eq!(result.path.last(), Some(&goal));
        let check = check_path(
            world,
            &Agent::default(),
            &MoveCosts::default(),
            &result.path,
        );
        assert_eq!(
            check.cost,
            Some(cost),
            "the route is legal and costs what it says"
        );
        assert_eq!(
            route_cost(
                world,
                &Agent::default(),
                &MoveCosts::default(),
                &result.path
            ),
            cost,
            "the independent rules agree"
        );
    }
}

#[test]
fn property_incremental_cost_equals_fresh_search_after_random_changes() {
    let mut compared = 0;
    let mut changed_routes = 0;
    for seed in 0..300 {
        let mut rng = Rng::new(seed);
        // A floor, random hills one to three blocks high, and a sprinkling of every block kind.
        let mut world = floor_hills_and_blocks(&mut rng, SIZE, 12);
        let feet = all_feet(&world, &Agent::default());
        if feet.len() < 2 {
            continue;
        }
        let start = rng.pick(&feet);
        let goal = rng.pick(&feet);
        let mut dstar = DStarLite::new(Agent::default(), MoveCosts::default()).unwrap();
        let mut replanner = Replanner::new(Agent::default(), MoveCosts::default()).unwrap();
        let first = dstar.plan(&world, start, goal).unwrap();
        let expected = fresh(&world, start, goal);
        assert_eq!(first.cost, expected.cost, "seed {seed}: first plan");
        assert_eq!(
            first.cost,
            dijkstra_cost(
                &world,
                &Agent::default(),
                &MoveCosts::default(),
                start,
                goal
            ),
            "seed {seed}: first plan against the oracle"
        );
        assert_route(&world, &first, start, goal);
        replanner.plan(&world, start, goal).unwrap();
        let mut position = start;
        let mut route = first.path;
        world.track_changes(true);
        for round in 0..4 {
            if route.len() > 1 {
                position = route[rng.below(route.len() as u64 / 2 + 1) as usize];
            }
            let count = 1 + rng.below(6);
            for _ in 0..count {
                let p = random_cell(&mut rng, SIZE);
                let block = random_block(&mut rng);
                world.set(p, block).unwrap();
            }
            let mut changes = world.take_changes();
            if !is_valid_feet(&world, position, 2) || !is_valid_feet(&world, goal, 2) {
                // Keep the agent and its goal standing: undo this round.
                for change in changes.cells.iter().rev() {
                    world.set(change.pos, change.old).unwrap();
                }
                world.take_changes();
                changes.cells.clear();
            }
            let changed: Vec<IVec3> = changes.positions().collect();
            // D* Lite reads which changes involved lava; the replanner assumes all did.
            let incremental = dstar.replan_changes(&world, position, &changes).unwrap();
            let chosen = replanner.replan(&world, position, &changed).unwrap();
            let expected = fresh(&world, position, goal);
            assert_eq!(
                incremental.cost, expected.cost,
                "seed {seed} round {round}: D* Lite after {changed:?}"
            );
            assert_eq!(
                chosen.result.cost, expected.cost,
                "seed {seed} round {round}"
            );
            assert_route(&world, &incremental, position, goal);
            assert_route(&world, &chosen.result, position, goal);
            if incremental.cost != first.cost {
                changed_routes += 1;
            }
            compared += 1;
            route = incremental.path;
        }
    }
    assert!(compared > 800, "only {compared} replans compared");
    assert!(
        changed_routes > 100,
        "changes rarely mattered: {changed_routes}"
    );
}

#[test]
fn a_big_repair_near_the_goal_falls_back_to_a_fresh_search_and_stays_exact() {
    let mut world = ChunkedWorld::with_size(IVec3::new(64, 5, 64)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(63, 0, 63), Block::Solid)
        .unwrap();
    world.track_changes(true);
    let (start, goal) = (IVec3::new(0, 1, 32), IVec3::new(63, 1, 32));
    let mut replanner = Replanner::new(Agent::default(), MoveCosts::default())
        .unwrap()
        .with_budget_factor(0.01)
        .unwrap();
    let route = replanner.plan(&world, start, goal).unwrap();
    assert_eq!(route.cost, Some(630));
    assert_eq!(replanner.repair_budget(), 256);

    // A wall two blocks high right in front of the goal, open only at its far ends.
    world
        .fill(IVec3::new(60, 1, 4), IVec3::new(60, 2, 60), Block::Solid)
        .unwrap();
    let changed: Vec<IVec3> = world.take_changes().positions().collect();
    let position = route.path[10];
    let replan = replanner.replan(&world, position, &changed).unwrap();
    assert_eq!(replan.method, ReplanMethod::Fresh);
    assert_eq!(replan.repair_expansions, 256);
    assert!(replanner.has_pending_repair());
    assert_eq!(replan.result.cost, fresh_cost(&world, position, goal));

    // With no new changes, later calls finish the pending repair and answer from it.
    let mut methods = Vec::new();
    for step in [11, 12, 13, 14, 15, 16, 17, 18] {
        let position = replan.result.path[step - 10];
        let again = replanner.replan(&world, position, &[]).unwrap();
        assert_eq!(again.result.cost, fresh_cost(&world, position, goal));
        methods.push(again.method);
    }
    assert_eq!(
        methods.last(),
        Some(&ReplanMethod::Incremental),
        "{methods:?}"
    );
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
    let again = dstar.replan(&world, start, &[]).unwrap();
    assert_eq!(again.cost, Some(70));
    let unbounded = ChunkedWorld::new();
    assert!(dstar.plan(&unbounded, start, goal).is_err());
}
