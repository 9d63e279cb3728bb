//! Node and time budgets: a search that runs out returns the best partial route, a legal
//! prefix that ends closer to the goal.

mod support;

use std::time::Duration;

use support::oracle::route_cost;
use voxnav::engine::{ColumnGoal, Heuristic, Pathfinder};
use voxnav::{
    Agent, Block, BlockGoal, ChunkedWorld, Goal, IVec3, MoveCosts, RadiusGoal, SearchOptions,
    SearchStatus,
};

/// A flat 64 x 3 x 64 floor.
fn plain() -> ChunkedWorld {
    let mut world = ChunkedWorld::with_size(IVec3::new(64, 3, 64)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(63, 0, 63), Block::Solid)
        .unwrap();
    world
}

#[test]
fn node_budget_returns_a_legal_partial_prefix_closer_to_the_goal() {
    let world = plain();
    // A wall with no gap across most of the floor makes the search work.
    let mut world = world;
    world
        .fill(IVec3::new(30, 1, 0), IVec3::new(30, 2, 60), Block::Solid)
        .unwrap();
    let (agent, costs) = (Agent::default(), MoveCosts::default());
    let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
    let (start, goal) = (IVec3::new(2, 1, 2), IVec3::new(60, 1, 2));
    let full = pathfinder
        .find_path(&world, start, goal, &SearchOptions::default())
        .unwrap();
    assert_eq!(full.status, SearchStatus::Found);
    let estimator = Heuristic::default().estimator(&agent, &costs);
    for budget in [1, 10, 100, 1000] {
        let options = SearchOptions::default().with_max_nodes(budget);
        let partial = pathfinder.find_path(&world, start, goal, &options).unwrap();
        assert_eq!(partial.status, SearchStatus::Partial, "budget {budget}");
        assert_eq!(partial.stats.expanded, budget);
        assert_eq!(partial.path[0], start);
        let end = *partial.path.last().unwrap();
        assert!(
            BlockGoal(goal).estimate(end, &estimator) < BlockGoal(goal).estimate(start, &estimator),
            "budget {budget}: ended at {end}"
        );
        assert_eq!(
            partial.cost,
            Some(route_cost(&world, &agent, &costs, &partial.path))
        );
    }
    let generous = SearchOptions::default().with_max_nodes(full.stats.expanded + 1);
    let again = pathfinder
        .find_path(&world, start, goal, &generous)
        .unwrap();
    assert_eq!(
        (again.status, again.path, again.cost, again.stats.expanded),
        (full.status, full.path, full.cost, full.stats.expanded)
    );
}

#[test]
fn unbounded_world_searches_end_through_the_budget() {
    // An endless floor: the goal is on a pillar nobody can climb.
    let mut world = ChunkedWorld::new();
    world
        .fill(IVec3::new(-40, 0, -40), IVec3::new(40, 0, 40), Block::Solid)
        .unwrap();
    world
        .fill(IVec3::new(10, 1, 10), IVec3::new(10, 5, 10), Block::Solid)
        .unwrap();
    let mut pathfinder = Pathfinder::new(Agent::default(), MoveCosts::default()).unwrap();
    let options = SearchOptions::default().with_max_nodes(2_000);
    let result = pathfinder
        .find_path(&world, IVec3::new(0, 1, 0), IVec3::new(10, 6, 10), &options)
        .unwrap();
    assert_eq!(result.status, SearchStatus::Partial);
    assert_eq!(result.stats.expanded, 2_000);
    // The floor is finite, so without a budget the same query explores it all and gives up.
    let mut bounded = ChunkedWorld::with_bounds(voxnav::world::Bounds::new(
        IVec3::new(-40, 0, -40),
        IVec3::new(41, 8, 41),
    ))
    .unwrap();
    bounded
        .fill(IVec3::new(-40, 0, -40), IVec3::new(40, 0, 40), Block::Solid)
        .unwrap();
    bounded
        .fill(IVec3::new(10, 1, 10), IVec3::new(10, 5, 10), Block::Solid)
        .unwrap();
    let result = pathfinder
        .find_path(
            &bounded,
            IVec3::new(0, 1, 0),
            IVec3::new(10, 6, 10),
            &SearchOptions::default(),
        )
        .unwrap();
    assert_eq!(result.status, SearchStatus::Unreachable);
    assert_eq!(result.stats.expanded, 81 * 81 - 1);
}

#[test]
fn time_budget_ends_a_search_with_a_partial_route() {
    let mut world = ChunkedWorld::new();
    world
        .fill(
            IVec3::new(-300, 0, -300),
            IVec3::new(300, 0, 300),
            Block::Solid,
        )
        .unwrap();
    let mut pathfinder = Pathfinder::new(Agent::default(), MoveCosts::default()).unwrap();
    // The goal floats in the air: unreachable, so only the clock stops the search.
    let options = SearchOptions::default().with_max_time(Duration::from_millis(1));
    let result = pathfinder
        .search(
            &world,
            IVec3::new(0, 1, 0),
            &ColumnGoal { x: 1000, z: 1000 },
            &options,
        )
        .unwrap();
    assert_eq!(result.status, SearchStatus::Partial);
    assert!(result.stats.expanded > 0);
    assert!(result.stats.expanded < 601 * 601);
}

#[test]
fn radius_and_column_goals_stop_at_the_first_position_that_reaches_them() {
    let world = plain();
    let mut pathfinder = Pathfinder::new(Agent::default(), MoveCosts::default()).unwrap();
    let start = IVec3::new(5, 1, 5);
    let radius = RadiusGoal {
        center: IVec3::new(40, 1, 5),
        radius: 3,
    };
    let result = pathfinder
        .search(&world, start, &radius, &SearchOptions::default())
        .unwrap();
    assert_eq!(result.status, SearchStatus::Found);
    assert_eq!(*result.path.last().unwrap(), IVec3::new(37, 1, 5));
    assert_eq!(result.cost, Some(32 * 10));
    let column = ColumnGoal { x: 20, z: 25 };
    let result = pathfinder
        .search(&world, start, &column, &SearchOptions::default())
        .unwrap();
    assert_eq!(*result.path.last().unwrap(), IVec3::new(20, 1, 25));
    assert_eq!(result.cost, Some(15 * 14 + 5 * 10));
}

#[test]
fn start_equal_to_goal_is_found_with_a_one_position_route() {
    let world = plain();
    let mut pathfinder = Pathfinder::new(Agent::default(), MoveCosts::default()).unwrap();
    let p = IVec3::new(3, 1, 3);
    let result = pathfinder
        .find_path(&world, p, p, &SearchOptions::default())
        .unwrap();
    assert_eq!(
        (result.status, result.path, result.cost),
        (SearchStatus::Found, vec![p], Some(0))
    );
}
