//! Property test: on many random small worlds, A* finds the same cost as an exhaustive
//! Dijkstra over an independent statement of the walking rules, every returned route is legal
//! step by step, and "unreachable" agrees.

mod support;

use support::Outcomes;
use support::oracle::{all_feet, assert_generator_matches_rules, assert_matches_dijkstra};
use support::rng::Rng;
use support::worlds::{
    hills_with_kinds, hills_with_real_blocks, random_agent, random_solids, small_world_size,
};
use voxnav::engine::{GraphSearch, NavGraph, Pathfinder};
use voxnav::world::FULL_BLOCK;
use voxnav::{IVec3, MoveCosts, SearchOptions, VoxelWorld};

/// How many random worlds the property test covers.
const WORLDS: u64 = 600;
const PAIRS_PER_WORLD: usize = 4;

#[test]
fn astar_cost_equals_exhaustive_dijkstra_on_random_worlds() {
    let mut rng = Rng::new(0x5EED_0001);
    let mut outcomes = Outcomes::default();
    for world_index in 0..WORLDS {
        let size = small_world_size(&mut rng);
        let density = 15 + rng.below(30);
        let world = random_solids(&mut rng, size, 90, density);
        let agent = random_agent(&mut rng);
        let costs = match rng.below(3) {
            0 => MoveCosts::default(),
            1 => MoveCosts::default()
                .with_ascend(rng.below(30) as u32)
                .with_descend(rng.below(30) as u32),
            // Any side and diagonal costs, a diagonal cheaper than a side step included.
            _ => MoveCosts::default()
                .with_straight(1 + rng.below(20) as u32)
                .with_diagonal(1 + rng.below(30) as u32)
                .with_ascend(rng.below(30) as u32)
                .with_descend(rng.below(30) as u32),
        };
        let positions = all_feet(&world, &agent);
        if positions.len() < 2 {
            continue;
        }
        let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
        for _ in 0..PAIRS_PER_WORLD {
            let (start, goal) = (rng.pick(&positions), rng.pick(&positions));
            let result = pathfinder
                .find_path(&world, start, goal, &SearchOptions::default())
                .unwrap();
            let context = format!("world {world_index}, {agent:?}, {costs:?}, {start} -> {goal}");
            outcomes.record(assert_matches_dijkstra(
                &world,
                &agent,
                &costs,
                (start, goal),
                &result,
                &context,
            ));
        }
    }
    outcomes.assert_both_seen(500, 100);
}

#[test]
fn neighbour_generator_matches_the_independent_rules_everywhere() {
    let mut rng = Rng::new(0x5EED_0002);
    let mut moves = Vec::new();
    let mut checked = 0;
    for _ in 0..200 {
        let density = 20 + rng.below(30);
        let world = random_solids(&mut rng, IVec3::new(6, 6, 6), 90, density);
        let agent = random_agent(&mut rng);
        let costs = MoveCosts::default();
        for feet in all_feet(&world, &agent) {
            assert_generator_matches_rules(
                &world,
                &agent,
                &costs,
                feet,
                &mut moves,
                &format!("{agent:?}"),
            );
            checked += 1;
        }
    }
    assert!(checked > 5_000, "only {checked} positions checked");
}

#[test]
fn neighbour_generator_matches_the_independent_rules_with_every_block_kind() {
    // Ladders, water, lava and slow floors: rules 4 and 5 of the `voxnav::moves` docs.
    let mut rng = Rng::new(0x5EED_0003);
    let mut moves = Vec::new();
    let (mut checked, mut climbs, mut terrain_priced) = (0, 0, 0);
    for seed in 0..120 {
        let world = hills_with_kinds(seed, 9, 8);
        let agent = random_agent(&mut rng);
        let costs = MoveCosts::default()
            .with_water(rng.below(40) as u32)
            .with_slow_floor(rng.below(40) as u32)
            .with_danger(rng.below(40) as u32)
            .with_climb(rng.below(20) as u32);
        for feet in all_feet(&world, &agent) {
            let context = format!("seed {seed}, {agent:?}, {costs:?}");
            assert_generator_matches_rules(&world, &agent, &costs, feet, &mut moves, &context);
            climbs += moves
                .iter()
                .filter(|m| m.feet.x == feet.x && m.feet.z == feet.z)
                .count();
            terrain_priced += moves
                .iter()
                .filter(|m| !world.terrain(m.feet).is_plain())
                .count();
            checked += 1;
        }
    }
    assert!(
        checked > 5_000 && climbs > 100 && terrain_priced > 500,
        "{checked} positions, {climbs} climbs, {terrain_priced} moves with terrain terms"
    );
}

/// Random costs for the real-block worlds: every term of `MoveCosts` drawn, jumps included.
fn real_block_costs(rng: &mut Rng) -> MoveCosts {
    MoveCosts::default()
        .with_ascend(rng.below(30) as u32)
        .with_descend(rng.below(30) as u32)
        .with_water(rng.below(40) as u32)
        .with_danger(rng.below(40) as u32)
        .with_door(rng.below(40) as u32)
        .with_cobweb(rng.below(40) as u32)
        .with_jump(rng.below(20) as u32)
}

/// Whether the floor under `feet` is lower than a full block.
fn on_partial_floor<W: VoxelWorld>(world: &W, feet: IVec3) -> bool {
    world.floor_top(feet - IVec3::Y) != FULL_BLOCK
}

#[test]
fn astar_cost_equals_exhaustive_dijkstra_on_worlds_with_real_blocks() {
    // Slabs, snow, fences, doors, barriers, hazards, cobwebs, shallow and deep water, ladders:
    // rules 5 to 7 of the `voxnav::moves` docs. The compiled walk graph, built from the same
    // generator, must agree too (jumps included).
    let mut rng = Rng::new(0x5EED_0004);
    let (mut outcomes, mut partial_routes) = (Outcomes::default(), 0);
    for seed in 0..250 {
        let world = hills_with_real_blocks(seed, 8, 7);
        let agent = random_agent(&mut rng);
        let costs = real_block_costs(&mut rng);
        let positions = all_feet(&world, &agent);
        if positions.len() < 2 {
            continue;
        }
        let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
        let graph = NavGraph::compile(&world, &agent).unwrap();
        let mut graph_search = GraphSearch::new(costs).unwrap();
        for _ in 0..PAIRS_PER_WORLD {
            let start = rng.pick(&positions);
            let goal = rng.pick(&positions);
            let result = pathfinder
                .find_path(&world, start, goal, &SearchOptions::default())
                .unwrap();
            let context = format!("seed {seed}, {agent:?}, {costs:?}, {start} -> {goal}");
            let on_graph = graph_search
                .find_path(&graph, start, goal, &SearchOptions::default())
                .unwrap();
            assert_eq!(on_graph.cost, result.cost, "graph: {context}");
            let found =
                assert_matches_dijkstra(&world, &agent, &costs, (start, goal), &result, &context);
            outcomes.record(found);
            if found && result.path.iter().any(|&p| on_partial_floor(&world, p)) {
                partial_routes += 1;
            }
        }
    }
    outcomes.assert_both_seen(500, 200);
    assert!(
        partial_routes > 150,
        "{partial_routes} routes over partial floors"
    );
}

#[test]
fn neighbour_generator_matches_the_independent_rules_with_real_blocks() {
    let mut rng = Rng::new(0x5EED_0005);
    let mut moves = Vec::new();
    let (mut checked, mut from_partial, mut onto_partial) = (0, 0, 0);
    for seed in 0..120 {
        let world = hills_with_real_blocks(seed, 9, 8);
        let agent = random_agent(&mut rng);
        let costs = real_block_costs(&mut rng).with_jump(7);
        for feet in all_feet(&world, &agent) {
            let context = format!("seed {seed}, {agent:?}, {costs:?}");
            assert_generator_matches_rules(&world, &agent, &costs, feet, &mut moves, &context);
            checked += 1;
            if on_partial_floor(&world, feet) {
                from_partial += moves.len();
            }
            onto_partial += moves
                .iter()
                .filter(|m| on_partial_floor(&world, m.feet))
                .count();
        }
    }
    assert!(
        checked > 7_000 && from_partial > 1_500 && onto_partial > 1_500,
        "{checked} positions, {from_partial} moves from partial floors, {onto_partial} onto them"
    );
}
