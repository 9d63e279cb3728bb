//! Goals: what each one accepts, and that its estimate never overestimates, checked against
//! an exhaustive Dijkstra on small worlds.

mod support;

use std::collections::HashMap;

use support::oracle::{all_feet, dijkstra_all};
use support::worlds::{hills, hills_with_kinds};
use voxnav::engine::{AnyOfGoal, AwayFromGoal, ColumnGoal, Heuristic, Pathfinder, neighbours};
use voxnav::{
    Agent, Block, BlockGoal, ChunkedWorld, Goal, IVec3, MoveCosts, RadiusGoal, SearchOptions,
    SearchStatus, VoxelWorld,
};

/// For every valid feet position of a few random worlds, with a few agents and costs:
/// the goal's estimate is at most the true cost to the nearest position that reaches the
/// goal (admissible), never drops by more than a move's cost along a move (consistent), and
/// the search finds exactly that cost. Returns how many estimates were above zero, so that
/// callers can check the test was not vacuous.
fn check_goal(make: &dyn Fn(&[IVec3]) -> Box<dyn Goal + Send + Sync>) -> usize {
    let mut informative = 0;
    for seed in 1..=3 {
        for (agent, costs) in [
            (Agent::default(), MoveCosts::default()),
            (Agent::default().with_diagonals(false), MoveCosts::default()),
            (
                Agent::default().with_max_drop(2),
                MoveCosts::default().with_descend(0).with_ascend(3),
            ),
        ] {
            let world = if seed == 2 {
                hills_with_kinds(seed, 8, 7)
            } else {
                hills(seed, 8, 7)
            };
            let feet = all_feet(&world, &agent);
            let goal = make(&feet);
            informative += check_goal_in(&world, &agent, &costs, &feet, &*goal);
        }
    }
    informative
}

/// [`check_goal`] for one world, agent and costs.
fn check_goal_in<W: VoxelWorld>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    feet: &[IVec3],
    goal: &dyn Goal,
) -> usize {
    let mut informative = 0;
    let estimator = Heuristic::default().estimator(agent, costs);
    let truth = costs_to_goal(world, agent, costs, feet, goal);
    let mut pathfinder = Pathfinder::new(*agent, *costs).expect("valid settings");
    let mut moves = Vec::new();
    for &start in feet {
        let h = goal.estimate(start, &estimator);
        if h > 0 {
            informative += 1;
        }
        if let Some(&cost) = truth.get(&start) {
            assert!(h <= cost, "h({start}) = {h} > {cost}");
        }
        neighbours(world, agent, costs, start, &mut moves);
        for step in &moves {
            let next = goal.estimate(step.feet, &estimator);
            assert!(h <= u64::from(step.cost) + next, "inconsistent at {start}");
        }
        let result = pathfinder
            .search(world, start, goal, &SearchOptions::default())
            .expect("valid query");
        match truth.get(&start) {
            Some(&cost) => {
                assert_eq!(result.status, SearchStatus::Found, "from {start}");
                assert_eq!(result.cost, Some(cost), "from {start}");
                let end = *result.path.last().expect("a route");
                assert!(goal.is_reached(end));
            }
            None => assert_eq!(result.status, SearchStatus::Unreachable),
        }
    }
    informative
}

/// The cheapest cost from each position to any position that reaches `goal`.
fn costs_to_goal<W: VoxelWorld>(
    world: &W,
    agent: &Agent,
    costs: &MoveCosts,
    feet: &[IVec3],
    goal: &dyn Goal,
) -> HashMap<IVec3, u64> {
    feet.iter()
        .filter_map(|&start| {
            dijkstra_all(world, agent, costs, start)
                .into_iter()
                .filter(|(p, _)| goal.is_reached(*p))
                .map(|(_, cost)| cost)
                .min()
                .map(|cost| (start, cost))
        })
        .collect()
}

#[test]
fn block_goal_estimates_are_admissible() {
    assert!(check_goal(&|feet| Box::new(BlockGoal(feet[feet.len() / 2]))) > 20);
}

#[test]
fn radius_goal_estimates_are_admissible() {
    let informative = check_goal(&|feet| {
        Box::new(RadiusGoal {
            center: feet[feet.len() / 3],
            radius: 2,
        })
    });
    assert!(informative > 20);
}

#[test]
fn column_goal_estimates_are_admissible() {
    let informative = check_goal(&|feet| {
        let p = feet[feet.len() - 1];
        Box::new(ColumnGoal { x: p.x, z: p.z })
    });
    assert!(informative > 20);
}

#[test]
fn any_of_goal_estimates_are_admissible() {
    let informative = check_goal(&|feet| {
        let goals: Vec<Box<dyn Goal + Send + Sync>> = vec![
            Box::new(BlockGoal(feet[feet.len() / 4])),
            Box::new(ColumnGoal {
                x: feet[feet.len() - 1].x,
                z: feet[feet.len() - 1].z,
            }),
            Box::new(RadiusGoal {
                center: IVec3::new(0, 1, 6),
                radius: 1,
            }),
        ];
        Box::new(AnyOfGoal::new(goals))
    });
    assert!(informative > 20);
}

#[test]
fn away_from_goal_estimates_are_admissible_in_3d_and_horizontally() {
    let informative = check_goal(&|feet| Box::new(AwayFromGoal::new(feet[feet.len() / 2], 5)));
    assert!(informative > 20);
    let informative =
        check_goal(&|feet| Box::new(AwayFromGoal::horizontal(feet[feet.len() / 2], 4)));
    assert!(informative > 20);
}

#[test]
fn away_from_goal_stays_admissible_down_a_staircase_of_drops() -> voxnav::Result<()> {
    // Each column one block east is 3 blocks lower: fleeing downhill costs a step and a
    // cheap 3-block fall per column, far less than 10 per block of distance.
    let mut world = ChunkedWorld::with_size(IVec3::new(6, 20, 2))?;
    for x in 0..6 {
        world.fill(
            IVec3::new(x, 0, 0),
            IVec3::new(x, 15 - 3 * x, 1),
            Block::Solid,
        )?;
    }
    let agent = Agent::default();
    let feet = all_feet(&world, &agent);
    let top = IVec3::new(0, 16, 0);
    assert!(feet.contains(&top));
    for costs in [MoveCosts::default(), MoveCosts::default().with_descend(0)] {
        let informative = check_goal_in(&world, &agent, &costs, &feet, &AwayFromGoal::new(top, 7));
        assert!(informative > 0 || costs.descend == 0);
    }
    Ok(())
}

#[test]
fn any_of_reaches_the_nearest_goal_and_names_it() -> voxnav::Result<()> {
    let world = hills(5, 12, 4);
    let agent = Agent::default();
    let start = all_feet(&world, &agent)[0];
    // The cheapest and the dearest other position the start reaches, by the oracle.
    let mut reached: Vec<(u64, [i32; 3])> =
        dijkstra_all(&world, &agent, &MoveCosts::default(), start)
            .into_iter()
            .filter(|&(p, _)| p != start)
            .map(|(p, cost)| (cost, p.to_array()))
            .collect();
    reached.sort_unstable();
    let near = IVec3::from_array(reached.first().expect("the start reaches something").1);
    let far = IVec3::from_array(reached.last().expect("the start reaches something").1);
    let goal = AnyOfGoal::new(vec![BlockGoal(far), BlockGoal(near)]);
    let mut pathfinder = Pathfinder::new(agent, MoveCosts::default())?;
    let result = pathfinder.search(&world, start, &goal, &SearchOptions::default())?;
    let to_near = pathfinder.find_path(&world, start, near, &SearchOptions::default())?;
    let to_far = pathfinder.find_path(&world, start, far, &SearchOptions::default())?;
    let near_cost = to_near.cost.expect("the near goal is reachable");
    assert!(to_far.cost.is_none_or(|far_cost| far_cost > near_cost));
    assert_eq!(result.cost, Some(near_cost));
    let end = *result.path.last().expect("found");
    assert_eq!(
        goal.which_reached(end),
        Some(1),
        "the near goal is the second"
    );
    assert_eq!(goal.which_reached(IVec3::new(-50, 0, 0)), None);
    Ok(())
}

#[test]
fn an_empty_any_of_is_never_reached() -> voxnav::Result<()> {
    let world = hills(3, 6, 6);
    let agent = Agent::default();
    let start = all_feet(&world, &agent)[0];
    let goal: AnyOfGoal<BlockGoal> = AnyOfGoal::new(Vec::new());
    let mut pathfinder = Pathfinder::new(agent, MoveCosts::default())?;
    let result = pathfinder.search(&world, start, &goal, &SearchOptions::default())?;
    assert_eq!(result.status, SearchStatus::Unreachable);
    Ok(())
}

#[test]
fn away_from_counts_distance_inclusively_and_horizontal_ignores_height() {
    let point = IVec3::new(0, 10, 0);
    let flee = AwayFromGoal::new(point, 5);
    assert!(flee.is_reached(IVec3::new(3, 14, 0)), "3-4-5 triangle");
    assert!(!flee.is_reached(IVec3::new(3, 13, 0)));
    let flat = AwayFromGoal::horizontal(point, 5);
    assert!(!flat.is_reached(IVec3::new(3, 40, 0)));
    assert!(flat.is_reached(IVec3::new(3, 0, 4)));
    let estimator = Heuristic::default().estimator(&Agent::default(), &MoveCosts::default());
    // 5 blocks still to go horizontally, at least 10 * sqrt 2 / 2 per block on diagonals.
    assert_eq!(flat.estimate(point, &estimator), 49);
    assert_eq!(flat.estimate(IVec3::new(5, 0, 0), &estimator), 0);
    // In 3D a fall costs only 2 per block, so the bound is 2 per block.
    assert_eq!(flee.estimate(point, &estimator), 9);
}
