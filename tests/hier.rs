//! The hierarchy of cells (`voxnav::hier`): its routes cost what exhaustive Dijkstra says on
//! random worlds spanning several chunk columns at any offset (negative too), every step legal
//! under the tests' own restatement of the rules; local updates after random block changes
//! equal a fresh build; budgets, partial routes and bad input behave as for the graph's A*;
//! and every "unreachable" of the reachability answer is confirmed by exhaustive search.

mod support;

use support::Outcomes;
use support::oracle::{all_feet, assert_matches_dijkstra, route_cost};
use support::rng::Rng;
use support::worlds::{random_agent, random_block};
use voxnav::graph::{GraphSearch, NavGraph};
use voxnav::hier::{HierSearch, Hierarchy};
use voxnav::world::Bounds;
use voxnav::{Agent, Block, ChunkedWorld, IVec3, MoveCosts, SearchOptions, check_path};

/// A world 18 to 40 blocks across x and z (so it spans two or three chunk columns each way)
/// and 6 to 8 up, its lowest corner at a random offset between -40 and 8 in each axis (so
/// chunk borders fall anywhere, at negative coordinates too): a floor, random hills, walls
/// with gaps (so some places are cut off), and random blocks of every kind.
fn random_world(rng: &mut Rng) -> ChunkedWorld {
    let size = IVec3::new(18 + rng.coord(23), 6 + rng.coord(3), 18 + rng.coord(23));
    let min = IVec3::new(rng.coord(49) - 40, rng.coord(49) - 40, rng.coord(49) - 40);
    let mut world = ChunkedWorld::with_bounds(Bounds::new(min, min + size)).expect("small world");
    world
        .fill(
            min,
            min + IVec3::new(size.x - 1, 0, size.z - 1),
            Block::Solid,
        )
        .expect("inside");
    for x in 0..size.x {
        for z in 0..size.z {
            let height = rng.pick(&[0, 0, 0, 0, 1, 1, 2, 3]);
            for y in 1..=height {
                world
                    .set(min + IVec3::new(x, y, z), Block::Solid)
                    .expect("inside");
            }
        }
    }
    // Walls four high across the world, each with a gap or two, or none.
    for _ in 0..rng.below(4) {
        let along_x = rng.chance(50);
        let at = rng.coord(if along_x { size.z } else { size.x });
        let length = if along_x { size.x } else { size.z };
        let gaps = [rng.coord(length), rng.coord(length)];
        let open = rng.below(3) as usize;
        for i in 0..length {
            if gaps[..open].contains(&i) {
                continue;
            }
            let (x, z) = if along_x { (i, at) } else { (at, i) };
            world
                .fill(
                    min + IVec3::new(x, 1, z),
                    min + IVec3::new(x, 4.min(size.y - 1), z),
                    Block::Solid,
                )
                .expect("inside");
        }
    }
    for _ in 0..(size.x * size.z / 8) {
        let p = min + IVec3::new(rng.coord(size.x), rng.coord(size.y), rng.coord(size.z));
        world.set(p, random_block(rng)).expect("inside");
    }
    world
}

/// Costs drawn at random, the default ones half the time.
fn random_costs(rng: &mut Rng) -> MoveCosts {
    if rng.chance(50) {
        return MoveCosts::default();
    }
    MoveCosts {
        straight: 5 + rng.below(20) as u32,
        diagonal: 10 + rng.below(30) as u32,
        ascend: rng.below(30) as u32,
        descend: rng.below(10) as u32,
        ..MoveCosts::default()
    }
}

/// Every in-cell overlay edge of `hier`, sorted: a picture that does not depend on node ids
/// or on the order cells were derived in.
fn edges(hier: &Hierarchy, graph: &NavGraph) -> Vec<([i32; 3], [i32; 3], u32)> {
    let mut out: Vec<_> = hier
        .cell_edges(graph)
        .map(|(from, to, cost)| (from.to_array(), to.to_array(), cost))
        .collect();
    out.sort_unstable();
    out
}

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
            assert_eq!(
                edges(&hier, &graph),
                edges(&fresh, &graph),
                "round {round} edit {edit}"
            );
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
