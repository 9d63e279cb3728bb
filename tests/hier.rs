//! The hierarchy of cells (`voxnav::hier`): its routes cost what exhaustive Dijkstra says on
//! random worlds spanning several chunk columns at any offset (negative too), every step legal
//! under the tests' own restatement of the rules; local updates after random block changes
//! equal a fresh build; budgets, partial routes and bad input behave as for the graph's A*;
//! and every "unreachable" of the reachability answer is confirmed by exhaustive search.
//! The inexact abstraction (`Abstraction`) is tested in `tests/hier_hpa.rs`.

mod support;

use support::Outcomes;
use support::fuzz_engines::hier_edges as edges;
use support::hier_worlds::{random_costs, random_world, rooms};
use support::oracle::{all_feet, assert_matches_dijkstra, route_cost};
use support::rng::Rng;
use support::worlds::{random_agent, random_block};
use voxnav::graph::{GraphSearch, NavGraph};
use voxnav::hier::{HierSearch, Hierarchy, Reach};
use voxnav::{
    Agent, Block, ChunkedWorld, Error, IVec3, MoveCosts, SearchOptions, SearchStatus, check_path,
};

/// Checks one hierarchy answer against exhaustive Dijkstra and the path check; returns
/// whether a route was found.
fn check_answer(
    world: &ChunkedWorld,
    agent: &Agent,
    costs: &MoveCosts,
    query: (IVec3, IVec3),
    result: &voxnav::SearchResult,
    context: &str,
) -> bool {
    let found = assert_matches_dijkstra(world, agent, costs, query, result, context);
    if found {
        let checked = check_path(world, agent, costs, &result.path);
        assert!(checked.is_legal(), "{context}: {checked:?}");
        assert_eq!(checked.cost, result.cost, "{context}");
    }
    found
}

#[test]
fn routes_cost_what_exhaustive_dijkstra_says_across_chunk_borders_at_any_offset() {
    let mut rng = Rng::new(0x41e2);
    let mut outcomes = Outcomes::default();
    let mut crossing = 0;
    for round in 0..24 {
        let world = random_world(&mut rng);
        let agent = random_agent(&mut rng);
        let costs = random_costs(&mut rng);
        let graph = NavGraph::compile(&world, &agent).expect("compiles");
        let hier = Hierarchy::build(&graph, &costs).expect("builds");
        let mut search = HierSearch::new();
        let feet = all_feet(&world, &agent);
        if feet.len() < 2 {
            continue;
        }
        for query in 0..12 {
            let (start, goal) = (rng.pick(&feet), rng.pick(&feet));
            let context = format!("round {round} query {query}: {start} -> {goal}, {agent:?}");
            let result = search
                .find_path(&hier, &graph, start, goal, &SearchOptions::default())
                .expect("valid query");
            let found = check_answer(&world, &agent, &costs, (start, goal), &result, &context);
            outcomes.record(found);
            if found && start.x.div_euclid(16) != goal.x.div_euclid(16) {
                crossing += 1;
            }
        }
    }
    outcomes.assert_both_seen(40, 10);
    assert!(
        crossing > 40,
        "only {crossing} routes crossed a chunk border"
    );
}

#[test]
fn routes_cost_what_the_graph_astar_finds_on_hills() {
    let mut rng = Rng::new(7);
    let world = support::worlds::hills_with_kinds(11, 70, 54);
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let graph = NavGraph::compile(&world, &agent).expect("compiles");
    let hier = Hierarchy::build(&graph, &costs).expect("builds");
    assert!(hier.cell_count() >= 20, "{} cells", hier.cell_count());
    let mut search = HierSearch::new();
    let mut plain = GraphSearch::new(costs).expect("costs");
    let feet = all_feet(&world, &agent);
    let mut found = 0;
    for _ in 0..60 {
        let (start, goal) = (rng.pick(&feet), rng.pick(&feet));
        let options = SearchOptions::default();
        let ours = search
            .find_path(&hier, &graph, start, goal, &options)
            .expect("valid query");
        let theirs = plain
            .find_path(&graph, start, goal, &options)
            .expect("valid query");
        assert_eq!(ours.status, theirs.status, "{start} -> {goal}");
        assert_eq!(ours.cost, theirs.cost, "{start} -> {goal}");
        if ours.is_found() {
            found += 1;
            assert_eq!(
                Some(route_cost(&world, &agent, &costs, &ours.path)),
                ours.cost
            );
        }
    }
    assert!(found > 30, "{found} found");
}

#[test]
fn updates_after_random_block_changes_equal_a_fresh_build() {
    let mut rng = Rng::new(0x5eed);
    let mut outcomes = Outcomes::default();
    for round in 0..6 {
        let mut world = random_world(&mut rng);
        let agent = random_agent(&mut rng);
        let costs = random_costs(&mut rng);
        let mut graph = NavGraph::compile(&world, &agent).expect("compiles");
        let mut hier = Hierarchy::build(&graph, &costs).expect("builds");
        let bounds = world.world_bounds().expect("bounded");
        let size = bounds.size();
        world.track_changes(true);
        let mut search = HierSearch::new();
        for edit in 0..40 {
            for _ in 0..=rng.below(3) {
                let p = bounds.min
                    + IVec3::new(rng.coord(size.x), rng.coord(size.y), rng.coord(size.z));
                let block = if rng.chance(40) {
                    Block::Air
                } else {
                    random_block(&mut rng)
                };
                world.set(p, block).expect("inside");
            }
            let changes = world.take_changes();
            let update = graph.apply_changes(&world, &changes).expect("updates");
            hier.update(&graph, &update).expect("updates");
            let fresh = Hierarchy::build(&graph, &costs).expect("builds");
            let (ours, theirs) = (edges(&hier, &graph), edges(&fresh, &graph));
            if let Some(first) = ours.iter().zip(&theirs).position(|(a, b)| a != b) {
                panic!(
                    "round {round} edit {edit}: edge {first} is {:?} after the update, {:?} in \
                     a fresh build",
                    ours[first], theirs[first]
                );
            }
            assert_eq!(ours.len(), theirs.len(), "round {round} edit {edit}");
            assert_eq!(hier.portal_count(), fresh.portal_count());
            if edit % 8 == 7 {
                let feet = all_feet(&world, &agent);
                for _ in 0..4 {
                    if feet.len() < 2 {
                        break;
                    }
                    let (start, goal) = (rng.pick(&feet), rng.pick(&feet));
                    let result = search
                        .find_path(&hier, &graph, start, goal, &SearchOptions::default())
                        .expect("valid query");
                    let context = format!("round {round} edit {edit}: {start} -> {goal}");
                    outcomes.record(check_answer(
                        &world,
                        &agent,
                        &costs,
                        (start, goal),
                        &result,
                        &context,
                    ));
                }
            }
        }
    }
    outcomes.assert_both_seen(5, 1);
}

#[test]
fn budgets_give_legal_partial_routes_toward_the_goal() {
    let world = rooms();
    let (agent, costs) = (Agent::default(), MoveCosts::default());
    let graph = NavGraph::compile(&world, &agent).expect("compiles");
    let hier = Hierarchy::build(&graph, &costs).expect("builds");
    let mut search = HierSearch::new();
    let (start, goal) = (IVec3::new(2, 1, 18), IVec3::new(30, 1, 18));
    let full = search
        .find_path(&hier, &graph, start, goal, &SearchOptions::default())
        .expect("valid query");
    assert_eq!(full.status, SearchStatus::Found);
    assert_eq!(
        full.cost,
        support::oracle::dijkstra_cost(&world, &agent, &costs, start, goal)
    );
    let estimate = |feet: IVec3| {
        voxnav::search::heuristic::Heuristic::default()
            .estimator(&agent, &costs)
            .between(feet, goal)
    };
    let mut partial_seen = 0;
    for budget in [1, 2, 5, 20, 60, 120, 400, 5_000] {
        let options = SearchOptions::default().with_max_nodes(budget);
        let result = search
            .find_path(&hier, &graph, start, goal, &options)
            .expect("valid query");
        assert!(result.stats.expanded <= budget.max(full.stats.expanded));
        match result.status {
            SearchStatus::Partial => {
                partial_seen += 1;
                assert_eq!(result.path.first(), Some(&start), "budget {budget}");
                assert_eq!(
                    Some(route_cost(&world, &agent, &costs, &result.path)),
                    result.cost,
                    "budget {budget}"
                );
                let end = *result.path.last().expect("a route");
                assert!(estimate(end) <= estimate(start), "budget {budget}");
            }
            SearchStatus::Found => assert_eq!(result.cost, full.cost, "budget {budget}"),
            SearchStatus::Unreachable => panic!("budget {budget}: the goal is reachable"),
        }
    }
    assert!(partial_seen >= 3, "{partial_seen} partial answers");
    // The start's and goal's own cells are searched before any budget applies; a budget
    // below that returns the start alone.
    let tiny = search
        .find_path(
            &hier,
            &graph,
            start,
            goal,
            &SearchOptions::default().with_max_nodes(1),
        )
        .expect("valid query");
    assert_eq!(tiny.status, SearchStatus::Partial);
}

#[test]
fn unreachable_goals_bad_input_and_stale_hierarchies_are_answered_as_for_astar() {
    let mut world = rooms();
    let (agent, costs) = (Agent::default(), MoveCosts::default());
    let mut graph = NavGraph::compile(&world, &agent).expect("compiles");
    let mut hier = Hierarchy::build(&graph, &costs).expect("builds");
    let mut search = HierSearch::new();
    let options = SearchOptions::default();
    let (start, boxed) = (IVec3::new(2, 1, 18), IVec3::new(37, 1, 11));
    let result = search
        .find_path(&hier, &graph, start, boxed, &options)
        .expect("valid query");
    assert_eq!(result.status, SearchStatus::Unreachable);
    assert!(result.path.is_empty());
    assert_eq!(result.cost, None);

    let zero = SearchOptions::default().with_max_nodes(0);
    assert!(matches!(
        search.find_path(&hier, &graph, start, boxed, &zero),
        Err(Error::ZeroBudget)
    ));
    let zero_time = SearchOptions::default().with_max_time(std::time::Duration::ZERO);
    assert!(matches!(
        search.find_path(&hier, &graph, start, boxed, &zero_time),
        Err(Error::ZeroTimeBudget)
    ));
    let in_wall = IVec3::new(19, 3, 10);
    assert!(matches!(
        search.find_path(&hier, &graph, in_wall, boxed, &options),
        Err(Error::InvalidStart { pos, .. }) if pos == in_wall
    ));
    assert!(matches!(
        search.find_path(&hier, &graph, start, in_wall, &options),
        Err(Error::InvalidGoal { pos, .. }) if pos == in_wall
    ));

    // Open the box: the graph follows, the hierarchy refuses until it follows too.
    world.track_changes(true);
    world
        .fill(IVec3::new(35, 1, 11), IVec3::new(35, 2, 11), Block::Air)
        .expect("inside");
    let changes = world.take_changes();
    let update = graph.apply_changes(&world, &changes).expect("updates");
    assert!(matches!(
        search.find_path(&hier, &graph, start, boxed, &options),
        Err(Error::StaleGraph { .. })
    ));
    hier.update(&graph, &update).expect("updates");
    let result = search
        .find_path(&hier, &graph, start, boxed, &options)
        .expect("valid query");
    assert_eq!(
        result.cost,
        support::oracle::dijkstra_cost(&world, &agent, &costs, start, boxed)
    );
    assert!(result.is_found());
}

#[test]
fn weighted_heuristics_stay_within_their_weight_of_the_optimum() {
    let mut rng = Rng::new(0x3e1);
    let weight = 1.5;
    let options = SearchOptions::default().with_heuristic(
        voxnav::search::heuristic::Heuristic::default()
            .with_weight(weight)
            .expect("a valid weight"),
    );
    let mut above = 0;
    for _ in 0..8 {
        let world = random_world(&mut rng);
        let (agent, costs) = (Agent::default(), MoveCosts::default());
        let graph = NavGraph::compile(&world, &agent).expect("compiles");
        let hier = Hierarchy::build(&graph, &costs).expect("builds");
        let mut search = HierSearch::new();
        let feet = all_feet(&world, &agent);
        for _ in 0..10 {
            let (start, goal) = (rng.pick(&feet), rng.pick(&feet));
            let result = search
                .find_path(&hier, &graph, start, goal, &options)
                .expect("valid query");
            let best = support::oracle::dijkstra_cost(&world, &agent, &costs, start, goal);
            assert_eq!(result.cost.is_some(), best.is_some(), "{start} -> {goal}");
            if let (Some(cost), Some(best)) = (result.cost, best) {
                assert!(cost as f64 <= best as f64 * weight, "{start} -> {goal}");
                assert_eq!(route_cost(&world, &agent, &costs, &result.path), cost);
                above += usize::from(cost > best);
            }
        }
    }
    // Not a requirement, but a weight that never changed an answer would test nothing here.
    println!("{above} routes above the optimum");
}

#[test]
fn every_unreachable_answer_is_confirmed_by_exhaustive_search_after_random_edits() {
    let mut rng = Rng::new(0x7eac);
    let (mut unreachable, mut truly_unreachable, mut reachable) = (0, 0, 0);
    for round in 0..6 {
        let mut world = random_world(&mut rng);
        let agent = random_agent(&mut rng);
        let costs = MoveCosts::default();
        let mut graph = NavGraph::compile(&world, &agent).expect("compiles");
        let mut hier = Hierarchy::build(&graph, &costs).expect("builds");
        let bounds = world.world_bounds().expect("bounded");
        let size = bounds.size();
        world.track_changes(true);
        let mut search = HierSearch::new();
        for edit in 0..12 {
            for _ in 0..=rng.below(4) {
                let p = bounds.min
                    + IVec3::new(rng.coord(size.x), rng.coord(size.y), rng.coord(size.z));
                let block = if rng.chance(30) {
                    Block::Air
                } else {
                    Block::Solid
                };
                world.set(p, block).expect("inside");
            }
            let changes = world.take_changes();
            let update = graph.apply_changes(&world, &changes).expect("updates");
            hier.update(&graph, &update).expect("updates");
            let feet = all_feet(&world, &agent);
            if feet.len() < 2 {
                continue;
            }
            // Labels left stale by the update never say "unreachable".
            let stale = !hier.components_current();
            for _ in 0..6 {
                let (start, goal) = (rng.pick(&feet), rng.pick(&feet));
                let answer = search
                    .reachability(&hier, &graph, start, goal)
                    .expect("valid query");
                let best = support::oracle::dijkstra_cost(&world, &agent, &costs, start, goal);
                let context = format!("round {round} edit {edit}: {start} -> {goal}");
                if stale {
                    assert_ne!(answer, Reach::Unreachable, "{context}");
                }
                truly_unreachable += usize::from(best.is_none());
                match answer {
                    Reach::Unreachable => {
                        assert_eq!(best, None, "{context}");
                        unreachable += 1;
                    }
                    Reach::Reachable => {
                        assert!(best.is_some(), "{context}");
                        reachable += 1;
                    }
                    Reach::Maybe => {}
                }
            }
            hier.refresh_components(&graph);
            assert!(hier.components_current());
            for _ in 0..6 {
                let (start, goal) = (rng.pick(&feet), rng.pick(&feet));
                let answer = search
                    .reachability(&hier, &graph, start, goal)
                    .expect("valid query");
                let best = support::oracle::dijkstra_cost(&world, &agent, &costs, start, goal);
                truly_unreachable += usize::from(best.is_none());
                if answer == Reach::Unreachable {
                    assert_eq!(best, None, "round {round} edit {edit}: {start} -> {goal}");
                    unreachable += 1;
                }
            }
        }
    }
    println!("{unreachable} of {truly_unreachable} unreachable pairs answered without search");
    assert!(unreachable > 20, "{unreachable} unreachable answers");
    assert!(reachable > 5, "{reachable} answers found inside one cell");
}

#[test]
fn costs_too_large_for_sixteen_bits_stay_exact() {
    // Octile costs at scale 100 000: every route across a cell costs far more than 65 535, so
    // the cells keep 32-bit tables.
    let mut rng = Rng::new(0x0c71);
    let costs = MoveCosts::octile();
    let mut found = 0;
    for round in 0..6 {
        let world = random_world(&mut rng);
        let agent = Agent::default();
        let graph = NavGraph::compile(&world, &agent).expect("compiles");
        let hier = Hierarchy::build(&graph, &costs).expect("builds");
        assert!(
            hier.cell_edges(&graph).any(|(_, _, cost)| cost > 65_535),
            "round {round}: no wide cost"
        );
        let mut search = HierSearch::new();
        let feet = all_feet(&world, &agent);
        for query in 0..6 {
            let (start, goal) = (rng.pick(&feet), rng.pick(&feet));
            let result = search
                .find_path(&hier, &graph, start, goal, &SearchOptions::default())
                .expect("valid query");
            let context = format!("round {round} query {query}: {start} -> {goal}");
            found += usize::from(check_answer(
                &world,
                &agent,
                &costs,
                (start, goal),
                &result,
                &context,
            ));
        }
    }
    assert!(found > 10, "{found} found");
}

#[test]
fn debug_output_is_a_summary() {
    let world = rooms();
    let graph = NavGraph::compile(&world, &Agent::default()).expect("compiles");
    let hier = Hierarchy::build(&graph, &MoveCosts::default()).expect("builds");
    let text = format!("{hier:?}");
    assert!(
        text.starts_with("Hierarchy { cells: 6, portals: "),
        "{text}"
    );
    assert!(text.len() < 200, "{text}");
    let mut search = HierSearch::new();
    search
        .find_path(
            &hier,
            &graph,
            IVec3::new(2, 1, 18),
            IVec3::new(30, 1, 18),
            &SearchOptions::default(),
        )
        .expect("valid query");
    assert!(format!("{search:?}").len() < 100);
}
