//! A* over the compiled walk graph, for the parts of its layout a search relies on: the two
//! record layouts (8 bytes while every cost fits 32 bits, 16 bytes beyond) give the same routes
//! as `Pathfinder`, costs just below and past 2^32 stay exact, one search reused on graphs whose move shapes are numbered differently
//! prices each by its own, and a column's home slot keeps its chain and its ids through
//! updates that empty and refill it, a block goal searched by node id answers as the same goal asked,
//! and goals of every kind answer as `Pathfinder`'s in a graph far from the origin.

mod support;

use support::oracle::{dijkstra_cost, route_cost};
use support::rng::Rng;
use support::worlds::{
    Priced, floor_hills_and_blocks, hills, hills_with_real_blocks, world_from_layers,
};
use voxnav::engine::{Estimator, Heuristic, HeuristicKind, Pathfinder};
use voxnav::graph::{GraphSearch, NavGraph};
use voxnav::{
    Agent, Block, BlockGoal, ChunkedWorld, Goal, IVec3, MoveCosts, SearchOptions, SearchStatus,
    VoxelWorld,
};

/// A [`BlockGoal`] that does not say so ([`Goal::block_target`] stays `None`), so a graph
/// search asks it like any other goal.
struct Undeclared(BlockGoal);

impl Goal for Undeclared {
    fn is_reached(&self, feet: IVec3) -> bool {
        self.0.is_reached(feet)
    }
    fn estimate(&self, feet: IVec3, estimator: &Estimator) -> u64 {
        self.0.estimate(feet, estimator)
    }
    fn exact_target(&self) -> Option<IVec3> {
        self.0.exact_target()
    }
}

/// Surface feet positions of `world`, one per column, in a fixed order.
fn surface(world: &impl VoxelWorld, agent: &Agent, size: IVec3) -> Vec<IVec3> {
    let mut feet = Vec::new();
    for z in 0..size.z {
        for x in 0..size.x {
            if let Some(y) = (1..size.y)
                .rev()
                .find(|&y| voxnav::world::is_valid_feet(world, IVec3::new(x, y, z), agent.height))
            {
                feet.push(IVec3::new(x, y, z));
            }
        }
    }
    feet
}

#[test]
fn narrow_and_wide_records_give_the_pathfinders_costs_and_legal_routes() {
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let size = IVec3::new(20, 9, 20);
    // An extra of 10 keeps every cost far below 2^32 (8-byte records); 2^30 per muddy cell
    // takes a route of a few cells past it (16-byte records).
    for (seed, extra) in [(1, 10), (2, 1 << 30), (3, 0), (4, 1 << 30)] {
        // Mud: `extra` for entering every feet position whose `x + z` is a multiple of 3, or a
        // swamp so deep that a route's cost leaves 32 bits.
        let world = Priced::new(hills(seed, size.x, size.z), |_, feet: IVec3| {
            if (feet.x + feet.z) % 3 == 0 { extra } else { 0 }
        });
        let graph = NavGraph::compile(&world, &agent).unwrap();
        let mut search = GraphSearch::new(costs).unwrap();
        let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
        let feet = surface(&world, &agent, size);
        let mut wide_costs = 0;
        for i in 0..40 {
            let start = feet[(i * 37) % feet.len()];
            let goal = feet[(i * 101 + 7) % feet.len()];
            for options in [
                SearchOptions::default(),
                SearchOptions::default().with_max_nodes(25),
            ] {
                let mine = search.find_path(&graph, start, goal, &options).unwrap();
                let theirs = pathfinder.find_path(&world, start, goal, &options).unwrap();
                assert_eq!(
                    mine.status, theirs.status,
                    "{start} -> {goal}, extra {extra}"
                );
                assert_eq!(mine.cost, theirs.cost, "{start} -> {goal}, extra {extra}");
                if mine.status != SearchStatus::Unreachable {
                    assert_eq!(mine.path.first(), Some(&start));
                    assert_eq!(
                        Some(route_cost(&world, &agent, &costs, &mine.path)),
                        mine.cost,
                        "{start} -> {goal}: the route's moves add up to its cost"
                    );
                }
                if mine.cost.is_some_and(|c| c >= 1 << 32) {
                    wide_costs += 1;
                }
            }
        }
        if extra == 1 << 30 {
            assert!(wide_costs > 0, "seed {seed}: no cost left 32 bits");
        }
    }
}

#[test]
fn a_block_goal_searched_by_node_id_answers_as_the_goal_asked_position_by_position() {
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let size = IVec3::new(24, 9, 24);
    let world = hills(11, size.x, size.z);
    let graph = NavGraph::compile(&world, &agent).unwrap();
    let mut by_id = GraphSearch::new(costs).unwrap();
    let mut asked = GraphSearch::new(costs).unwrap();
    let feet = surface(&world, &agent, size);
    let heuristics = [
        Heuristic::default(),
        Heuristic::default().with_weight(1.5).unwrap(),
        Heuristic::new(HeuristicKind::Zero),
    ];
    let mut compared = 0;
    for i in 0..60 {
        let start = feet[(i * 53) % feet.len()];
        let goal = feet[(i * 97 + 11) % feet.len()];
        for heuristic in heuristics {
            for budget in [None, Some(30)] {
                let mut options = SearchOptions::default().with_heuristic(heuristic);
                if let Some(budget) = budget {
                    options = options.with_max_nodes(budget);
                }
                let fast = by_id
                    .search(&graph, start, &BlockGoal(goal), &options)
                    .unwrap();
                let slow = asked
                    .search(&graph, start, &Undeclared(BlockGoal(goal)), &options)
                    .unwrap();
                assert_eq!(fast.status, slow.status, "{start} -> {goal}");
                assert_eq!(fast.cost, slow.cost, "{start} -> {goal}");
                assert_eq!(
                    fast.stats.expanded, slow.stats.expanded,
                    "{start} -> {goal}"
                );
                assert_eq!(fast.path.last(), slow.path.last(), "{start} -> {goal}");
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 360);
    // An invalid goal is reported the same way by both.
    let air = IVec3::new(3, size.y - 1, 3);
    let options = SearchOptions::default();
    let fast = by_id.search(&graph, feet[0], &BlockGoal(air), &options);
    let slow = asked.search(&graph, feet[0], &Undeclared(BlockGoal(air)), &options);
    assert_eq!(fast.unwrap_err().to_string(), slow.unwrap_err().to_string());
}

#[test]
fn one_search_prices_each_graph_by_its_own_shape_codes() {
    let agent = Agent::default();
    let costs = MoveCosts::default();
    // Both graphs have two move shapes, a one-block drop and a one-block step up, which
    // their compiles meet in opposite orders, so the same code means a different move.
    let down = world_from_layers(&[&["##"], &["#."], &[".."], &[".."]]);
    let up = world_from_layers(&[&["##"], &[".#"], &[".."], &[".."]]);
    let (down_graph, up_graph) = (
        NavGraph::compile(&down, &agent).unwrap(),
        NavGraph::compile(&up, &agent).unwrap(),
    );
    let options = SearchOptions::default();
    let mut shared = GraphSearch::new(costs).unwrap();
    for _ in 0..3 {
        for (world, graph, start, goal) in [
            (&down, &down_graph, IVec3::new(0, 2, 0), IVec3::new(1, 1, 0)),
            (&up, &up_graph, IVec3::new(0, 1, 0), IVec3::new(1, 2, 0)),
            (&down, &down_graph, IVec3::new(1, 1, 0), IVec3::new(0, 2, 0)),
        ] {
            let mine = shared.find_path(graph, start, goal, &options).unwrap();
            let fresh = GraphSearch::new(costs)
                .unwrap()
                .find_path(graph, start, goal, &options)
                .unwrap();
            assert_eq!(mine.cost, fresh.cost, "{start} -> {goal}");
            assert_eq!(
                mine.cost,
                Some(route_cost(world, &agent, &costs, &mine.path)),
                "{start} -> {goal}"
            );
        }
    }
}

/// Every node's feet position, by id.
fn ids(graph: &NavGraph) -> Vec<(u32, IVec3)> {
    graph.nodes().map(|id| (id, graph.feet(id))).collect()
}

#[test]
fn a_columns_home_slot_keeps_its_chain_and_ids_when_emptied_and_refilled() {
    let agent = Agent::default();
    // Column (1, 0) has three feet positions, at y = 1, 4 and 7 (floors at 0, 3 and 6);
    // the others have one each, on the ground.
    let mut world = ChunkedWorld::with_size(IVec3::new(3, 10, 1)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(2, 0, 0), Block::Solid)
        .unwrap();
    world.set(IVec3::new(1, 3, 0), Block::Solid).unwrap();
    world.set(IVec3::new(1, 6, 0), Block::Solid).unwrap();
    let mut graph = NavGraph::compile(&world, &agent).unwrap();
    let feet = [1, 4, 7].map(|y| IVec3::new(1, y, 0));
    let before: Vec<u32> = feet.iter().map(|&f| graph.node(f).unwrap()).collect();

    // Dig out the top floor: the top node goes; the other two keep their ids.
    world.set(IVec3::new(1, 6, 0), Block::Air).unwrap();
    let update = graph.update(&world, [IVec3::new(1, 6, 0)]).unwrap();
    assert_eq!(update.removed, vec![before[2]]);
    assert_eq!(graph.node(feet[0]), Some(before[0]));
    assert_eq!(graph.node(feet[1]), Some(before[1]));
    assert_eq!(graph.node(feet[2]), None);

    // Remove the middle floor and put the top one back in one update: the new node gets an
    // id no node removed by this update had.
    world.set(IVec3::new(1, 3, 0), Block::Air).unwrap();
    world.set(IVec3::new(1, 6, 0), Block::Solid).unwrap();
    let update = graph
        .update(&world, [IVec3::new(1, 3, 0), IVec3::new(1, 6, 0)])
        .unwrap();
    assert_eq!(update.removed, vec![before[1]]);
    assert_eq!(update.added.len(), 1);
    assert!(!update.removed.contains(&update.added[0]));
    assert_eq!(graph.node(feet[0]), Some(before[0]));
    assert_eq!(graph.node(feet[1]), None);
    assert_eq!(graph.node(feet[2]), Some(update.added[0]));

    // And back to the start, then empty the column: every step equals a fresh compile.
    for (cell, block) in [
        (IVec3::new(1, 3, 0), Block::Solid),
        (IVec3::new(1, 0, 0), Block::Air),
        (IVec3::new(1, 3, 0), Block::Air),
        (IVec3::new(1, 6, 0), Block::Air),
        (IVec3::new(1, 0, 0), Block::Solid),
    ] {
        let kept = ids(&graph);
        world.set(cell, block).unwrap();
        let update = graph.update(&world, [cell]).unwrap();
        for (id, position) in kept {
            if !update.removed.contains(&id) {
                assert_eq!(graph.node(position), Some(id), "{position} kept its id");
            }
        }
        for &id in &update.added {
            assert!(!update.removed.contains(&id));
        }
        let fresh = NavGraph::compile(&world, &agent).unwrap();
        let mut mine: Vec<IVec3> = ids(&graph).into_iter().map(|(_, f)| f).collect();
        let mut theirs: Vec<IVec3> = ids(&fresh).into_iter().map(|(_, f)| f).collect();
        mine.sort_unstable_by_key(IVec3::to_array);
        theirs.sort_unstable_by_key(IVec3::to_array);
        assert_eq!(mine, theirs, "after setting {cell} to {block:?}");
        assert_eq!(graph.node_count(), fresh.node_count());
        for &f in &mine {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let costs = MoveCosts::default();
            graph.moves(graph.node(f).unwrap(), &costs, &mut a);
            fresh.moves(fresh.node(f).unwrap(), &costs, &mut b);
            let key = |m: &voxnav::graph::GraphMove| (m.feet.to_array(), m.cost);
            let (mut a, mut b): (Vec<_>, Vec<_>) =
                (a.iter().map(key).collect(), b.iter().map(key).collect());
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "moves of {f}");
        }
    }
}

/// The search skips the moves a node's parent dominates (a single step from the parent to
/// the same node, no dearer than the two through the node); that must never change a cost.
/// Worlds thick with obstacles, partial floors (slabs: jumps and non-uniform rises), ladders,
/// water, doors and cobwebs, under costs where diagonals are dear (a diagonal dearer than
/// two straight steps dominates nothing) or cheap, climbs and jumps priced apart, and
/// budgets that stop the search early: the graph search gives Pathfinder's status and cost,
/// and exhaustive Dijkstra's cost when it finds a route.
#[test]
fn skipping_parent_dominated_moves_keeps_every_cost() {
    let agent = Agent::default();
    let cost_sets = [
        MoveCosts::default(),
        MoveCosts {
            jump: 7,
            ascend: 3,
            descend: 9,
            climb: 2,
            ..MoveCosts::default()
        },
        MoveCosts {
            diagonal: 25,
            ascend: 1,
            descend: 0,
            ..MoveCosts::default()
        },
        MoveCosts {
            straight: 7,
            diagonal: 8,
            jump: 20,
            climb: 40,
            water: 1,
            ..MoveCosts::default()
        },
    ];
    let mut rng = Rng::new(0x9e37);
    let mut worlds = Vec::new();
    for seed in 0..3 {
        worlds.push(hills_with_real_blocks(seed, 16, 16));
        let size = IVec3::new(14, 7, 14);
        worlds.push(floor_hills_and_blocks(&mut rng, size, 500));
    }
    let mut found = 0;
    for (w, world) in worlds.iter().enumerate() {
        let graph = NavGraph::compile(world, &agent).unwrap();
        let feet: Vec<IVec3> = graph.nodes().map(|id| graph.feet(id)).collect();
        for costs in cost_sets {
            let mut search = GraphSearch::new(costs).unwrap();
            let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
            for i in 0..12 {
                let start = feet[rng.index(feet.len())];
                let goal = feet[rng.index(feet.len())];
                let context = format!("world {w}, {costs:?}, query {i}: {start} -> {goal}");
                for options in [
                    SearchOptions::default(),
                    SearchOptions::default().with_max_nodes(30),
                ] {
                    let mine = search.find_path(&graph, start, goal, &options).unwrap();
                    let theirs = pathfinder.find_path(world, start, goal, &options).unwrap();
                    assert_eq!(mine.status, theirs.status, "{context}");
                    assert_eq!(mine.cost, theirs.cost, "{context}");
                    if mine.status == SearchStatus::Unreachable {
                        continue;
                    }
                    assert_eq!(
                        Some(route_cost(world, &agent, &costs, &mine.path)),
                        mine.cost,
                        "{context}"
                    );
                    if mine.status == SearchStatus::Found {
                        found += 1;
                        assert_eq!(
                            mine.cost,
                            dijkstra_cost(world, &agent, &costs, start, goal),
                            "{context}"
                        );
                    }
                }
            }
        }
    }
    assert!(found > 100, "only {found} routes found");
}

#[test]
fn costs_just_inside_and_past_32_bits_stay_exact() {
    // A corridor of 24 feet positions: 23 walks of 10 plus the toll each. The search takes
    // 8-byte records while 24 moves at the dearest price (a diagonal walk of 14 plus the
    // toll) stay below 2^32, which the first toll just meets with a route of 0.96 * 2^32;
    // the second toll takes the route past 2^32 (16-byte records).
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let mut world = ChunkedWorld::with_size(IVec3::new(24, 4, 1)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(23, 0, 0), Block::Solid)
        .unwrap();
    let narrow_toll = (u32::MAX - 1) / 24 - 14;
    for toll in [narrow_toll, narrow_toll + 8, ((1u64 << 32) / 23) as u32] {
        // A toll for entering every feet position.
        let world = Priced::new(world.clone(), |_, _| toll);
        let graph = NavGraph::compile(&world, &agent).unwrap();
        assert_eq!(graph.node_count(), 24);
        let (start, goal) = (IVec3::new(0, 1, 0), IVec3::new(23, 1, 0));
        let mut search = GraphSearch::new(costs).unwrap();
        let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
        let options = SearchOptions::default();
        let mine = search.find_path(&graph, start, goal, &options).unwrap();
        let theirs = pathfinder.find_path(&world, start, goal, &options).unwrap();
        let expected = 23 * (10 + u64::from(toll));
        assert_eq!(mine.cost, Some(expected), "toll {toll}");
        assert_eq!(mine.cost, theirs.cost, "toll {toll}");
        assert_eq!(mine.path.len(), 24);
    }
}

/// A graph search runs in the graph's own coordinates (relative to its lowest corner) and asks
/// goals about world positions: in a world at negative coordinates across chunk borders, every
/// kind of goal gets the route cost `Pathfinder` finds, and a block goal searched by node id
/// answers as the same goal asked position by position, expansions included.
#[test]
fn goals_of_every_kind_answer_alike_in_a_graph_far_from_the_origin() {
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let size = IVec3::new(22, 9, 22);
    let source = hills(29, size.x, size.z);
    let offset = IVec3::new(-37, -21, -7);
    let mut world =
        ChunkedWorld::with_bounds(voxnav::world::Bounds::new(offset, offset + size)).unwrap();
    for x in 0..size.x {
        for y in 0..size.y {
            for z in 0..size.z {
                let p = IVec3::new(x, y, z);
                if let Some(block) = source.block(p) {
                    world.set(p + offset, block).unwrap();
                }
            }
        }
    }
    let graph = NavGraph::compile(&world, &agent).unwrap();
    let mut search = GraphSearch::new(costs).unwrap();
    let mut asked = GraphSearch::new(costs).unwrap();
    let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
    let feet: Vec<IVec3> = surface(&source, &agent, size)
        .into_iter()
        .map(|p| p + offset)
        .collect();
    let options = SearchOptions::default();
    let mut compared = 0;
    for i in 0..40 {
        let start = feet[(i * 41) % feet.len()];
        let goal = feet[(i * 89 + 5) % feet.len()];
        let by_id = search
            .search(&graph, start, &BlockGoal(goal), &options)
            .unwrap();
        let by_feet = asked
            .search(&graph, start, &Undeclared(BlockGoal(goal)), &options)
            .unwrap();
        assert_eq!(by_id.cost, by_feet.cost, "{start} -> {goal}");
        assert_eq!(
            by_id.stats.expanded, by_feet.stats.expanded,
            "{start} -> {goal}"
        );
        let goals: [&dyn Goal; 4] = [
            &BlockGoal(goal),
            &voxnav::RadiusGoal {
                center: goal,
                radius: 3,
            },
            &voxnav::engine::ColumnGoal {
                x: goal.x,
                z: goal.z,
            },
            &voxnav::engine::AwayFromGoal::horizontal(start, 6),
        ];
        for kind in goals {
            let graphed = search.search(&graph, start, kind, &options).unwrap();
            let walked = pathfinder.search(&world, start, kind, &options).unwrap();
            assert_eq!(graphed.status, walked.status, "{start} -> {goal}");
            assert_eq!(graphed.cost, walked.cost, "{start} -> {goal}");
            if let Some(&end) = graphed.path.last() {
                assert!(kind.is_reached(end), "{start} -> {goal}: ends at {end}");
                assert_eq!(graphed.path[0], start);
            }
            compared += 1;
        }
    }
    assert_eq!(compared, 160);
}
