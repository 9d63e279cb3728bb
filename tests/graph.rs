//! The compiled walk graph: it holds exactly the neighbour generator's moves, local updates
//! after random block changes give the same graph as a fresh compile, and A* over it finds the
//! same costs as `Pathfinder` and an exhaustive Dijkstra, along legal routes.

mod support;

use std::collections::BTreeMap;

use support::Outcomes;
use support::oracle::{all_feet, assert_matches_dijkstra, dijkstra_cost, route_cost};
use support::pictures::{PictureMove, graph_picture};
use support::rng::Rng;
use support::worlds::{Priced, random_agent, random_solids, small_world_size};
use voxnav::engine::{Pathfinder, neighbours};
use voxnav::graph::{GraphSearch, NavGraph};
use voxnav::world::{InvalidFeet, is_valid_feet};
use voxnav::{
    Agent, Block, ChunkedWorld, Error, IVec3, MoveCosts, SearchOptions, SearchResult, SearchStatus,
    VoxelWorld,
};

/// Every node of `graph` by feet position, with its moves (target, direction, cost) sorted:
/// the moves-out half of the shared [`graph_picture`], which also checks every lookup.
type Picture = BTreeMap<[i32; 3], Vec<PictureMove>>;

fn picture(graph: &NavGraph, costs: &MoveCosts) -> Picture {
    graph_picture(graph, costs)
        .into_iter()
        .map(|(feet, [out, _])| (feet, out))
        .collect()
}

/// The same picture straight from the world and the neighbour generator.
fn generator_picture<W: VoxelWorld>(world: &W, agent: &Agent, costs: &MoveCosts) -> Picture {
    let mut out = Picture::new();
    let mut moves = Vec::new();
    for feet in all_feet(world, agent) {
        neighbours(world, agent, costs, feet, &mut moves);
        let mut list: Vec<_> = moves
            .iter()
            .map(|m| (m.feet.to_array(), m.direction.to_array(), m.cost))
            .collect();
        list.sort_unstable();
        out.insert(feet.to_array(), list);
    }
    out
}

fn random_costs(rng: &mut Rng) -> MoveCosts {
    if rng.chance(50) {
        MoveCosts::default()
    } else {
        MoveCosts::default()
            .with_ascend(rng.below(30) as u32)
            .with_descend(rng.below(30) as u32)
            .with_water(rng.below(30) as u32)
            .with_danger(rng.below(60) as u32)
            .with_climb(rng.below(20) as u32)
            .with_jump(rng.below(20) as u32)
            .with_door(rng.below(20) as u32)
            .with_cobweb(rng.below(40) as u32)
    }
}

/// Every block kind but air and solid.
const KINDS: [Block; 12] = [
    Block::Water,
    Block::Lava,
    Block::SlowFloor,
    Block::Ladder,
    Block::Floor(2),
    Block::Floor(8),
    Block::Floor(14),
    Block::Fence,
    Block::Door,
    Block::Barrier,
    Block::Hazard,
    Block::Cobweb,
];

fn random_block(rng: &mut Rng) -> Block {
    // Mostly air and solid, every other kind often enough to meet the others.
    match rng.below(10) {
        0..=3 => Block::Air,
        4..=6 => Block::Solid,
        _ => KINDS[rng.below(KINDS.len() as u64) as usize],
    }
}

/// A random small world with every block kind.
fn random_world_with_kinds(rng: &mut Rng) -> ChunkedWorld {
    let size = IVec3::new(
        3 + rng.below(6) as i32,
        3 + rng.below(5) as i32,
        3 + rng.below(6) as i32,
    );
    random_world_with_kinds_of_size(rng, size)
}

/// A random world of `size`: a mostly solid floor, random solids above it, and up to a dozen
/// cells of any other kind.
fn random_world_with_kinds_of_size(rng: &mut Rng, size: IVec3) -> ChunkedWorld {
    let density = 10 + rng.below(30);
    let mut world = random_solids(rng, size, 90, density);
    for _ in 0..rng.below(12) {
        let p = IVec3::new(
            rng.below(size.x as u64) as i32,
            rng.below(size.y as u64) as i32,
            rng.below(size.z as u64) as i32,
        );
        world.set(p, random_block(rng)).unwrap();
    }
    world
}

#[test]
fn graph_holds_exactly_the_generators_moves_on_random_worlds() {
    let mut rng = Rng::new(0x6EA9_0001);
    for _ in 0..300 {
        let world = random_world_with_kinds(&mut rng);
        let agent = random_agent(&mut rng);
        let costs = random_costs(&mut rng);
        let graph = NavGraph::compile(&world, &agent).unwrap();
        assert_eq!(graph.node_count(), all_feet(&world, &agent).len());
        assert_eq!(
            picture(&graph, &costs),
            generator_picture(&world, &agent, &costs)
        );
    }
}

#[test]
fn incoming_moves_are_the_outgoing_moves_seen_from_the_other_end() {
    let mut rng = Rng::new(0x6EA9_0002);
    let costs = MoveCosts::default();
    for _ in 0..100 {
        let world = random_world_with_kinds(&mut rng);
        let agent = random_agent(&mut rng);
        let graph = NavGraph::compile(&world, &agent).unwrap();
        let mut forward = Vec::new();
        let mut backward = Vec::new();
        let mut moves = Vec::new();
        for id in graph.nodes() {
            graph.moves(id, &costs, &mut moves);
            forward.extend(
                moves
                    .iter()
                    .map(|m| (id, m.node, m.direction, m.kind, m.cost)),
            );
            graph.incoming(id, &costs, &mut moves);
            backward.extend(
                moves
                    .iter()
                    .map(|m| (m.node, id, m.direction, m.kind, m.cost)),
            );
        }
        forward.sort_unstable_by_key(|e| (e.0, e.1, e.4));
        backward.sort_unstable_by_key(|e| (e.0, e.1, e.4));
        assert_eq!(forward, backward);
    }
}

#[test]
fn local_updates_equal_a_fresh_compile_after_every_random_block_change() {
    let mut rng = Rng::new(0x6EA9_0003);
    let mut checked = 0;
    for _ in 0..40 {
        let mut world = random_world_with_kinds(&mut rng);
        let agent = random_agent(&mut rng);
        let costs = random_costs(&mut rng);
        let size = world.world_bounds().unwrap().size();
        let mut graph = NavGraph::compile(&world, &agent).unwrap();
        world.track_changes(true);
        for _ in 0..12 {
            // One to three cells at a time, sometimes a cell written back to what it was.
            let mut expected_removed = Vec::new();
            for _ in 0..=rng.below(3) {
                let p = IVec3::new(
                    rng.below(size.x as u64) as i32,
                    rng.below(size.y as u64) as i32,
                    rng.below(size.z as u64) as i32,
                );
                world.set(p, random_block(&mut rng)).unwrap();
            }
            let before: Vec<(u32, IVec3)> = graph.nodes().map(|id| (id, graph.feet(id))).collect();
            let changes = world.take_changes();
            let update = graph.apply_changes(&world, &changes).unwrap();
            let fresh = NavGraph::compile(&world, &agent).unwrap();
            assert_eq!(picture(&graph, &costs), picture(&fresh, &costs));
            assert_eq!(graph.node_count(), fresh.node_count());
            // Ids of surviving nodes are stable; removed ids are exactly the lost positions.
            for &(id, feet) in &before {
                if is_valid_feet(&world, feet, agent.height) {
                    assert_eq!(graph.node(feet), Some(id));
                } else {
                    expected_removed.push(id);
                }
            }
            // Each removed node's feet position comes with it.
            assert_eq!(update.removed.len(), update.removed_feet.len());
            for (id, feet) in update.removed.iter().zip(&update.removed_feet) {
                assert!(before.contains(&(*id, *feet)), "{id} at {feet}");
            }
            let mut removed = update.removed.clone();
            removed.sort_unstable();
            assert_eq!(removed, expected_removed);
            for &id in &update.added {
                assert!(graph.is_live(id));
                assert!(update.changed.contains(&id));
            }
            checked += 1;
        }
    }
    assert!(checked >= 400);
}

/// Charges 7 for entering a feet position with a solid cell east of it, at feet height
/// (moss on the wall): an extra cost that block changes switch on and off, read within one
/// block of the feet as local updates require.
fn moss(world: &ChunkedWorld, feet: IVec3) -> u32 {
    let east = feet + IVec3::X;
    if world.is_standable(east) && !world.is_passable(east) {
        7
    } else {
        0
    }
}

#[test]
fn local_updates_follow_extra_costs_that_block_changes_switch() {
    let mut rng = Rng::new(0x6EA9_0004);
    let mut charged = 0;
    for round in 0..30 {
        // The first world is a bare floor: its graph holds no extra cost until an update
        // adds the first one.
        let world = if round == 0 {
            let mut world = ChunkedWorld::with_size(IVec3::new(6, 4, 5)).unwrap();
            world
                .fill(IVec3::ZERO, IVec3::new(5, 0, 4), Block::Solid)
                .unwrap();
            world
        } else {
            random_world_with_kinds(&mut rng)
        };
        let mut moss = Priced::new(world, moss);
        let agent = random_agent(&mut rng);
        let costs = random_costs(&mut rng);
        let size = moss.world.world_bounds().unwrap().size();
        let mut graph = NavGraph::compile(&moss, &agent).unwrap();
        moss.world.track_changes(true);
        for _ in 0..10 {
            let p = IVec3::new(
                rng.below(size.x as u64) as i32,
                rng.below(size.y as u64) as i32,
                rng.below(size.z as u64) as i32,
            );
            let block = if rng.chance(50) {
                Block::Solid
            } else {
                Block::Air
            };
            moss.world.set(p, block).unwrap();
            let changes = moss.world.take_changes();
            graph.apply_changes(&moss, &changes).unwrap();
            let fresh = NavGraph::compile(&moss, &agent).unwrap();
            let updated = picture(&graph, &costs);
            assert_eq!(updated, picture(&fresh, &costs));
            assert_eq!(updated, generator_picture(&moss, &agent, &costs));
            charged += graph
                .nodes()
                .filter(|&id| moss.extra_cost(graph.feet(id)) > 0)
                .count();
        }
    }
    assert!(charged > 100, "too few charged feet positions: {charged}");
}

#[test]
fn a_changed_move_is_reported_on_its_source() {
    let mut rng = Rng::new(0x6EA9_0004);
    let costs = MoveCosts::default();
    for _ in 0..60 {
        let mut world = random_world_with_kinds(&mut rng);
        let agent = random_agent(&mut rng);
        let size = world.world_bounds().unwrap().size();
        let mut graph = NavGraph::compile(&world, &agent).unwrap();
        world.track_changes(true);
        for _ in 0..8 {
            let old = picture(&graph, &costs);
            let p = IVec3::new(
                rng.below(size.x as u64) as i32,
                rng.below(size.y as u64) as i32,
                rng.below(size.z as u64) as i32,
            );
            world.set(p, random_block(&mut rng)).unwrap();
            let changes = world.take_changes();
            let update = graph.apply_changes(&world, &changes).unwrap();
            let new = picture(&graph, &costs);
            for (feet, moves) in &new {
                if old.get(feet).is_some_and(|before| before != moves) {
                    let id = graph.node(IVec3::from_array(*feet)).unwrap();
                    assert!(update.changed.contains(&id), "{feet:?} changed unreported");
                }
            }
        }
    }
}

/// The graph A*'s answers to 4 random queries on each of 300 random worlds drawn by
/// `make_world` with random agents and costs, each checked against `Pathfinder`'s cost and
/// then handed to `check`.
fn graph_answers_to_random_queries(
    seed: u64,
    make_world: impl Fn(&mut Rng) -> ChunkedWorld,
    mut check: impl FnMut(&ChunkedWorld, &Agent, &MoveCosts, (IVec3, IVec3), &SearchResult),
) {
    let mut rng = Rng::new(seed);
    for _ in 0..300 {
        let world = make_world(&mut rng);
        let agent = random_agent(&mut rng);
        let costs = random_costs(&mut rng);
        let positions = all_feet(&world, &agent);
        if positions.len() < 2 {
            continue;
        }
        let graph = NavGraph::compile(&world, &agent).unwrap();
        let mut search = GraphSearch::new(costs).unwrap();
        let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
        for _ in 0..4 {
            let start = rng.pick(&positions);
            let goal = rng.pick(&positions);
            let options = SearchOptions::default();
            let result = search.find_path(&graph, start, goal, &options).unwrap();
            let reference = pathfinder.find_path(&world, start, goal, &options).unwrap();
            assert_eq!(result.cost, reference.cost, "{start} -> {goal}");
            check(&world, &agent, &costs, (start, goal), &result);
        }
    }
}

#[test]
fn graph_astar_costs_equal_pathfinder_and_exhaustive_dijkstra_along_legal_routes() {
    let mut outcomes = Outcomes::default();
    let sized_world = |rng: &mut Rng| {
        let size = small_world_size(rng);
        random_world_with_kinds_of_size(rng, size)
    };
    graph_answers_to_random_queries(
        0x6EA9_0005,
        sized_world,
        |world, agent, costs, query, result| {
            let context = format!("{agent:?}, {costs:?}, {query:?}");
            outcomes.record(assert_matches_dijkstra(
                world, agent, costs, query, result, &context,
            ));
        },
    );
    outcomes.assert_both_seen(300, 20);
}

#[test]
fn graph_astar_matches_pathfinder_on_worlds_with_every_block_kind() {
    let mut moves = Vec::new();
    graph_answers_to_random_queries(
        0x6EA9_0006,
        random_world_with_kinds,
        |world, agent, costs, _, result| {
            // Each step is one of the generator's moves, and the steps add up to the cost.
            let mut total = 0u64;
            for step in result.path.windows(2) {
                neighbours(world, agent, costs, step[0], &mut moves);
                let taken = moves
                    .iter()
                    .find(|m| m.feet == step[1])
                    .expect("a legal move");
                total += u64::from(taken.cost);
            }
            if result.is_found() {
                assert_eq!(Some(total), result.cost);
            }
        },
    );
}

#[test]
fn budgets_give_the_same_partial_routes_as_pathfinder() {
    let mut rng = Rng::new(0x6EA9_0007);
    for _ in 0..100 {
        let world = random_solids(&mut rng, IVec3::new(12, 5, 12), 90, 20);
        let agent = Agent::default();
        let costs = MoveCosts::default();
        let positions = all_feet(&world, &agent);
        if positions.len() < 2 {
            continue;
        }
        let graph = NavGraph::compile(&world, &agent).unwrap();
        let mut search = GraphSearch::new(costs).unwrap();
        let start = positions[rng.below(positions.len() as u64) as usize];
        let goal = positions[rng.below(positions.len() as u64) as usize];
        let budget = 1 + rng.below(20);
        let options = SearchOptions::default().with_max_nodes(budget);
        let result = search.find_path(&graph, start, goal, &options).unwrap();
        assert!(result.stats.expanded <= budget);
        if result.status == SearchStatus::Partial {
            assert_eq!(result.path.first(), Some(&start));
            assert_eq!(
                Some(route_cost(&world, &agent, &costs, &result.path)),
                result.cost
            );
        }
    }
}

#[test]
fn bad_input_is_a_typed_error() {
    let mut world = ChunkedWorld::with_size(IVec3::new(4, 3, 4)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(3, 0, 3), Block::Solid)
        .unwrap();
    let graph = NavGraph::compile(&world, &Agent::default()).unwrap();
    let mut search = GraphSearch::new(MoveCosts::default()).unwrap();
    let options = SearchOptions::default();
    let good = IVec3::new(0, 1, 0);
    // The head of a feet position at y = 2 would be at y = 3, above the top (issue 26 item 15).
    assert!(matches!(
        search.find_path(&graph, IVec3::new(0, 2, 0), good, &options),
        Err(Error::InvalidStart {
            reason: InvalidFeet::OutsideHeight { min_y: 0, max_y: 3 },
            ..
        })
    ));
    assert!(matches!(
        search.find_path(&graph, IVec3::new(0, 0, 0), good, &options),
        Err(Error::InvalidStart {
            reason: InvalidFeet::NotInGraph,
            ..
        })
    ));
    assert!(matches!(
        search.find_path(&graph, good, IVec3::new(9, 1, 0), &options),
        Err(Error::InvalidGoal {
            reason: InvalidFeet::OutOfWorld,
            ..
        })
    ));
    assert!(matches!(
        search.find_path(
            &graph,
            good,
            good,
            &SearchOptions::default().with_max_nodes(0)
        ),
        Err(Error::ZeroBudget)
    ));
    assert!(matches!(
        NavGraph::compile(&ChunkedWorld::new(), &Agent::default()),
        Err(Error::GraphNeedsBounds)
    ));
    let huge = ChunkedWorld::with_size(IVec3::new(70_000, 4, 70_000)).unwrap();
    assert!(matches!(
        NavGraph::compile(&huge, &Agent::default()),
        Err(Error::GraphTooLarge(_))
    ));
    // Another world is refused: by its height when it differs (a graph follows a world's x
    // and z growing, never its height), else by its identity.
    let mut graph = graph;
    let taller = ChunkedWorld::with_size(IVec3::new(5, 7, 4)).unwrap();
    assert!(matches!(
        graph.update(&taller, [IVec3::ZERO]),
        Err(Error::InvalidSetting(_))
    ));
    let other = ChunkedWorld::with_size(IVec3::new(5, 3, 4)).unwrap();
    assert!(matches!(
        graph.update(&other, [IVec3::ZERO]),
        Err(Error::OtherWorld { .. })
    ));
    assert!(world.is_standable(IVec3::ZERO));
}

#[test]
fn octile_costs_at_scale_stay_exact() {
    // A long open floor with octile costs: the radix heap must order keys of ~10^7.
    let mut world = ChunkedWorld::with_size(IVec3::new(64, 3, 64)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(63, 0, 63), Block::Solid)
        .unwrap();
    world
        .fill(IVec3::new(20, 1, 0), IVec3::new(20, 2, 50), Block::Solid)
        .unwrap();
    let agent = Agent::default().with_max_step_up(0);
    let graph = NavGraph::compile(&world, &agent).unwrap();
    let costs = MoveCosts::octile();
    let mut search = GraphSearch::new(costs).unwrap();
    let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
    let options = SearchOptions::default();
    for (start, goal) in [
        (IVec3::new(0, 1, 0), IVec3::new(63, 1, 0)),
        (IVec3::new(5, 1, 30), IVec3::new(40, 1, 10)),
        (IVec3::new(63, 1, 63), IVec3::new(0, 1, 1)),
    ] {
        let mine = search.find_path(&graph, start, goal, &options).unwrap();
        let theirs = pathfinder.find_path(&world, start, goal, &options).unwrap();
        assert!(mine.is_found());
        assert_eq!(mine.cost, theirs.cost);
        assert_eq!(
            mine.cost,
            dijkstra_cost(&world, &agent, &costs, start, goal),
            "{start} -> {goal}"
        );
    }
}

/// A graph numbers the first 6 terrains other than plain it meets in a table and keeps any
/// later one by node: on a world with many kinds of cells (far more than 6 combinations of
/// terrain flags), every node's terrain and every move's price equal the generator's, after
/// the compile and after each of many local updates (which drop and re-derive what is kept
/// by node), and equal a fresh compile's.
#[test]
fn terrains_beyond_the_graphs_table_are_kept_by_node_through_updates() {
    let mut rng = Rng::new(0x6EA9_0021);
    let size = IVec3::new(20, 6, 20);
    let mut world = random_solids(&mut rng, size, 95, 8);
    for _ in 0..400 {
        let p = IVec3::new(
            rng.below(size.x as u64) as i32,
            1 + rng.below(3) as i32,
            rng.below(size.z as u64) as i32,
        );
        world
            .set(p, KINDS[rng.below(KINDS.len() as u64) as usize])
            .unwrap();
    }
    let agent = Agent::default();
    let mut graph = NavGraph::compile(&world, &agent).unwrap();
    let terrains: std::collections::HashSet<_> =
        graph.nodes().map(|id| graph.terrain(id)).collect();
    assert!(terrains.len() > 7, "only {} terrains", terrains.len());
    world.track_changes(true);
    for round in 0..60 {
        let costs = random_costs(&mut rng);
        let fresh = NavGraph::compile(&world, &agent).unwrap();
        assert_eq!(
            picture(&graph, &costs),
            generator_picture(&world, &agent, &costs)
        );
        for id in graph.nodes() {
            let feet = graph.feet(id);
            let other = fresh.node(feet).unwrap();
            assert_eq!(
                graph.terrain(id),
                fresh.terrain(other),
                "{feet}, round {round}"
            );
        }
        for _ in 0..=rng.below(4) {
            let p = IVec3::new(
                rng.below(size.x as u64) as i32,
                1 + rng.below(4) as i32,
                rng.below(size.z as u64) as i32,
            );
            world.set(p, random_block(&mut rng)).unwrap();
        }
        let changes = world.take_changes();
        graph.apply_changes(&world, &changes).unwrap();
    }
}
