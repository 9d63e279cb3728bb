//! Regression tests for issue 26's stale structures, Debug output and error messages (items 3
//! to 5, 14 and 15), and issue 21 item 4: each fails without its fix. The wrong answers of the
//! chunk storage are in `tests/hardening_answers.rs`.

mod support;

use support::pathfinder;
use voxnav::engine::Pathfinder;
use voxnav::{Agent, Block, ChunkedWorld, IVec3, MoveCosts, SearchOptions, check_path};

/// A 70 x 40 x 3 room with a floor at y = 0 and, at z = 1, pillars `heights` tall every other
/// column from x = 2: each height `h` gives a step up and a drop of `h`, one move shape each.
fn pillar_room(heights: impl IntoIterator<Item = i32>) -> ChunkedWorld {
    let mut world = ChunkedWorld::with_size(IVec3::new(70, 40, 3)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(69, 0, 2), Block::Solid)
        .unwrap();
    for h in heights {
        world.set_column(2 * h, 1, 1..1 + h, Block::Solid).unwrap();
    }
    world
}

/// An agent that steps up and drops 32 blocks: 65 move shapes fit no graph.
fn tall_jumper() -> Agent {
    Agent::default().with_max_step_up(32).with_max_drop(32)
}

/// The cost a fresh search finds from `start` to `goal`.
fn fresh_cost(world: &ChunkedWorld, agent: Agent, start: IVec3, goal: IVec3) -> Option<u64> {
    Pathfinder::new(agent, MoveCosts::default())
        .unwrap()
        .find_path(world, start, goal, &SearchOptions::default())
        .unwrap()
        .cost
}

/// Item 3: a replan whose graph update fails (65 shapes with a 32-block step up and drop)
/// leaves nothing half updated: while the world still needs 65 shapes every replan is an
/// error, never a route; once it does not, the next replan equals a fresh plan and
/// `check_path` accepts it.
#[test]
fn a_failed_graph_update_never_answers_from_a_half_updated_graph() {
    let agent = tall_jumper();
    let costs = MoveCosts::default();
    let (start, goal) = (IVec3::new(0, 1, 0), IVec3::new(69, 1, 2));
    let mut world = pillar_room(1..=20);
    let mut replanner = voxnav::Replanner::new(agent, costs).unwrap();
    let mut dstar = voxnav::engine::DStarLite::new(agent, costs).unwrap();
    let planned = replanner.plan(&world, start, goal).unwrap();
    assert_eq!(planned.cost, fresh_cost(&world, agent, start, goal));
    dstar.plan(&world, start, goal).unwrap();
    let mut graph = voxnav::engine::NavGraph::compile(&world, &agent).unwrap();

    world.track_changes(true);
    for h in 21..=32 {
        world.set_column(2 * h, 1, 1..1 + h, Block::Solid).unwrap();
    }
    let changes = world.take_changes();
    let too_many =
        |result: Result<_, voxnav::Error>| matches!(result, Err(voxnav::Error::GraphTooLarge(_)));
    assert!(too_many(
        replanner
            .replan_changes(&world, start, &changes)
            .map(|_| ())
    ));
    assert!(too_many(
        dstar.replan_changes(&world, start, &changes).map(|_| ())
    ));
    assert!(too_many(graph.apply_changes(&world, &changes).map(|_| ())));
    // Asked again with nothing changed, they refuse again rather than answer.
    let none = world.take_changes();
    assert!(replanner.replan_changes(&world, start, &none).is_err());
    assert!(dstar.replan_changes(&world, start, &none).is_err());
    assert!(graph.is_broken());
    let mut search = voxnav::engine::GraphSearch::new(costs).unwrap();
    assert!(matches!(
        search.find_path(&graph, start, goal, &SearchOptions::default()),
        Err(voxnav::Error::GraphBroken(_))
    ));

    // The tallest pillars come down: the world fits a graph again.
    for h in 27..=32 {
        world.set_column(2 * h, 1, 1..1 + h, Block::Air).unwrap();
    }
    let changes = world.take_changes();
    let expected = fresh_cost(&world, agent, start, goal);
    assert!(expected.is_some());
    let replan = replanner.replan_changes(&world, start, &changes).unwrap();
    assert_eq!(replan.method, voxnav::engine::ReplanMethod::Planned);
    assert_eq!(replan.result.cost, expected);
    let check = check_path(&world, &agent, &costs, &replan.result.path);
    assert!(check.is_legal());
    assert_eq!(check.cost, expected);
    let replanned = dstar.replan_changes(&world, start, &changes).unwrap();
    assert_eq!(replanned.cost, expected);
    assert!(check_path(&world, &agent, &costs, &replanned.path).is_legal());
    // Later replans update the recompiled graph as usual.
    world.set(IVec3::new(30, 1, 0), Block::Solid).unwrap();
    let changes = world.take_changes();
    let expected = fresh_cost(&world, agent, start, goal);
    let replan = replanner.replan_changes(&world, start, &changes).unwrap();
    assert_eq!(replan.result.cost, expected);
    assert_eq!(
        dstar.replan_changes(&world, start, &changes).unwrap().cost,
        expected
    );
}

/// Asserts that `updated` has exactly the nodes and moves of a fresh compile of `world`.
fn assert_graph_equals_fresh(
    updated: &voxnav::engine::NavGraph,
    world: &ChunkedWorld,
    agent: &Agent,
) {
    let fresh = voxnav::engine::NavGraph::compile(world, agent).unwrap();
    assert_eq!(updated.node_count(), fresh.node_count(), "node count");
    let costs = MoveCosts::default();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for id in fresh.nodes() {
        let feet = fresh.feet(id);
        let other = updated
            .node(feet)
            .unwrap_or_else(|| panic!("{feet} missing"));
        fresh.moves(id, &costs, &mut a);
        updated.moves(other, &costs, &mut b);
        let key = |m: &voxnav::graph::GraphMove| (m.feet.to_array(), m.cost);
        let mut a: Vec<_> = a.iter().map(key).collect();
        let mut b: Vec<_> = b.iter().map(key).collect();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "moves of {feet}");
    }
}

/// A 40 x 24 x 40 world (three chunks a side, two high) with a floor and a few walls.
fn walled_room() -> ChunkedWorld {
    let mut world = ChunkedWorld::with_size(IVec3::new(40, 24, 40)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(39, 0, 39), Block::Solid)
        .unwrap();
    world
        .fill(IVec3::new(10, 1, 0), IVec3::new(10, 3, 30), Block::Solid)
        .unwrap();
    world
}

/// Item 4: once cells were written, `set_absent_block` is refused (it would change every
/// unwritten cell, which no change log can list), so the world reads as before and a graph
/// updated from the changes equals a fresh compile.
#[test]
fn set_absent_block_after_writes_is_refused_and_changes_stay_complete() {
    let agent = Agent::default();
    let mut world = walled_room();
    let mut graph = voxnav::engine::NavGraph::compile(&world, &agent).unwrap();
    world.track_changes(true);
    world.set(IVec3::new(20, 1, 20), Block::Solid).unwrap();
    let far = IVec3::new(35, 10, 35); // never written: its chunk holds no data
    assert_eq!(world.get(far), Some(Block::Air));
    let refused = world.set_absent_block(Block::Barrier);
    assert!(
        matches!(&refused, Err(voxnav::Error::InvalidSetting(message)) if message.contains("after cells were written")),
        "{refused:?}"
    );
    assert_eq!(world.get(far), Some(Block::Air));
    assert_eq!(world.absent_block(), Block::Air);
    let changes = world.take_changes();
    assert_eq!(changes.cells.len(), 1);
    graph.apply_changes(&world, &changes).unwrap();
    assert_graph_equals_fresh(&graph, &world, &agent);
}

/// Item 4: on a world without data the absent block may change, and a graph compiled before
/// is refused the changes (they cannot list the cells that changed) rather than kept wrong.
#[test]
fn set_absent_block_on_an_empty_world_restarts_the_change_log() {
    let agent = Agent::default();
    let mut world = ChunkedWorld::with_size(IVec3::new(20, 8, 20)).unwrap();
    world.set_absent_block(Block::Solid).unwrap();
    let mut graph = voxnav::engine::NavGraph::compile(&world, &agent).unwrap();
    assert_eq!(graph.node_count(), 0);
    world.track_changes(true);
    world.set_absent_block(Block::Air).unwrap();
    let changes = world.take_changes();
    assert!(changes.is_empty());
    assert!(matches!(
        graph.apply_changes(&world, &changes),
        Err(voxnav::Error::StaleGraph { .. })
    ));
}

/// Item 5: A* over a graph refuses once its world changed without it, and answers again,
/// as a fresh search does, once the changes are applied.
#[test]
fn graph_search_refuses_a_stale_graph() {
    let agent = Agent::default();
    let mut world = walled_room();
    let graph_before = voxnav::engine::NavGraph::compile(&world, &agent).unwrap();
    let mut graph = graph_before.clone();
    let (start, goal) = (IVec3::new(2, 1, 5), IVec3::new(30, 1, 5));
    let mut search = voxnav::engine::GraphSearch::new(MoveCosts::default()).unwrap();
    search
        .find_path(&graph, start, goal, &SearchOptions::default())
        .unwrap();
    world.track_changes(true);
    world
        .fill(IVec3::new(10, 1, 31), IVec3::new(10, 3, 39), Block::Solid)
        .unwrap();
    let stale = search.find_path(&graph, start, goal, &SearchOptions::default());
    assert!(
        matches!(stale, Err(voxnav::Error::StaleGraph { .. })),
        "{stale:?}"
    );
    assert!(
        stale
            .unwrap_err()
            .to_string()
            .contains("update it with every change since")
    );
    assert!(
        search
            .search(
                &graph,
                start,
                &voxnav::BlockGoal(goal),
                &SearchOptions::default()
            )
            .is_err()
    );
    // An empty change list cannot bring it up to date; the real changes do.
    assert!(matches!(
        graph.update(&world, std::iter::empty()),
        Err(voxnav::Error::StaleGraph { .. })
    ));
    let changes = world.take_changes();
    graph.apply_changes(&world, &changes).unwrap();
    let found = search
        .find_path(&graph, start, goal, &SearchOptions::default())
        .unwrap();
    assert_eq!(found.cost, fresh_cost(&world, agent, start, goal));
    assert_eq!(found.cost, None, "the wall now closes the room");
    // Changes that start after the graph's version miss some: refused.
    let mut old = graph_before;
    world.set(IVec3::new(5, 1, 5), Block::Solid).unwrap();
    let changes = world.take_changes();
    assert!(matches!(
        old.apply_changes(&world, &changes),
        Err(voxnav::Error::StaleGraph { .. })
    ));
}

/// Item 5: D* Lite replanning with an empty change list after the world changed, and both
/// replanners handed another world of the same bounds (a clone, then changed), refuse
/// instead of answering from a graph of the wrong world.
#[test]
fn replanners_refuse_missed_changes_and_other_worlds() {
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let mut world = walled_room();
    let (start, goal) = (IVec3::new(2, 1, 5), IVec3::new(30, 1, 5));
    let mut dstar = voxnav::engine::DStarLite::new(agent, costs).unwrap();
    let mut replanner = voxnav::Replanner::new(agent, costs).unwrap();
    dstar.plan(&world, start, goal).unwrap();
    replanner.plan(&world, start, goal).unwrap();

    let mut other = world.clone();
    other
        .fill(IVec3::new(10, 1, 31), IVec3::new(10, 3, 39), Block::Solid)
        .unwrap();
    assert!(matches!(
        replanner.replan(&other, start, &[]),
        Err(voxnav::Error::OtherWorld { .. })
    ));
    assert!(matches!(
        replanner.replan(&other, start, &[IVec3::new(10, 1, 35)]),
        Err(voxnav::Error::OtherWorld { .. })
    ));
    assert!(matches!(
        dstar.replan(&other, start, &[IVec3::new(10, 1, 35)]),
        Err(voxnav::Error::OtherWorld { .. })
    ));

    world
        .fill(IVec3::new(10, 1, 31), IVec3::new(10, 3, 39), Block::Solid)
        .unwrap();
    let missed = dstar.replan(&world, start, &[]);
    assert!(
        matches!(missed, Err(voxnav::Error::StaleGraph { .. })),
        "{missed:?}"
    );
    assert!(matches!(
        replanner.replan(&world, start, &[]),
        Err(voxnav::Error::StaleGraph { .. })
    ));
    // Given the changed cells, both answer as a fresh search does.
    let changed: Vec<IVec3> = (31..=39)
        .flat_map(|z| (1..=3).map(move |y| IVec3::new(10, y, z)))
        .collect();
    let expected = fresh_cost(&world, agent, start, goal);
    assert_eq!(
        dstar.replan(&world, start, &changed).unwrap().cost,
        expected
    );
    assert_eq!(
        replanner
            .replan(&world, start, &changed)
            .unwrap()
            .result
            .cost,
        expected
    );
}

/// Item 14: `{:?}` of the large structures is a short summary naming the counts, not their
/// arrays.
#[test]
fn debug_output_of_large_structures_is_a_summary() {
    use voxnav::engine::IndexedRouter;
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let mut world = ChunkedWorld::with_size(IVec3::new(64, 32, 64)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(63, 0, 63), Block::Solid)
        .unwrap();
    let graph = voxnav::engine::NavGraph::compile(&world, &agent).unwrap();
    let text = format!("{graph:?}");
    assert!(text.len() < 1024, "{}", text.len());
    assert!(
        text.contains(&format!("nodes: {}", graph.node_count())),
        "{text}"
    );
    assert_eq!(graph.node_count(), 64 * 64);

    let (start, goal) = (IVec3::new(0, 1, 0), IVec3::new(63, 1, 63));
    let mut search = voxnav::engine::GraphSearch::new(costs).unwrap();
    search
        .find_path(&graph, start, goal, &SearchOptions::default())
        .unwrap();
    let mut navigator = voxnav::engine::Navigator::new(agent, costs).unwrap();
    navigator.build_graph(&world).unwrap();
    navigator.build_index(&world).unwrap();
    navigator
        .find_path(&world, start, goal, &SearchOptions::default())
        .unwrap();
    let mut batch = voxnav::engine::BatchRouter::new(agent, costs).unwrap();
    batch.build_graph(&world).unwrap();
    batch.build_index(&world).unwrap();
    let index = voxnav::engine::ReachIndex::build(&world, &agent).unwrap();
    let mut dstar = voxnav::engine::DStarLite::new(agent, costs).unwrap();
    dstar.plan(&world, start, goal).unwrap();
    let mut replanner = voxnav::Replanner::new(agent, costs).unwrap();
    replanner.plan(&world, start, goal).unwrap();
    for text in [
        format!("{search:?}"),
        format!("{navigator:?}"),
        format!("{batch:?}"),
        format!("{index:?}"),
        format!("{dstar:?}"),
        format!("{replanner:?}"),
    ] {
        assert!(text.len() < 1024, "{} bytes: {text}", text.len());
    }
    assert!(format!("{index:?}").contains("feet: 4096"));
    assert!(format!("{navigator:?}").contains("nodes: 4096"));
}

/// A loaded world of 3 x 2 chunk columns, 32 tall, whose absent chunks are unloaded
/// territory: chunk columns (0, 0) and (1, 0) are loaded (a floor at y = 0, air above), the
/// rest not; a solid pillar at (5, 1..31, 5) reaches the top.
fn partly_loaded() -> ChunkedWorld {
    let mut world = ChunkedWorld::with_size(IVec3::new(48, 32, 32)).unwrap();
    world.set_absent_block(Block::Barrier).unwrap();
    for cx in 0..2 {
        for cy in 0..2 {
            world.fill_chunk(IVec3::new(cx, cy, 0), Block::Air).unwrap();
        }
        world
            .fill(
                IVec3::new(cx * 16, 0, 0),
                IVec3::new(cx * 16 + 15, 0, 15),
                Block::Solid,
            )
            .unwrap();
    }
    world
        .fill(IVec3::new(5, 0, 5), IVec3::new(5, 30, 5), Block::Solid)
        .unwrap();
    world
}

/// The reason of an `InvalidGoal`, and its message.
fn goal_reason(
    result: voxnav::Result<voxnav::SearchResult>,
) -> (voxnav::world::InvalidFeet, String) {
    match result {
        Err(error @ voxnav::Error::InvalidGoal { reason, .. }) => (reason, error.to_string()),
        other => panic!("expected an invalid goal, got {other:?}"),
    }
}

/// Item 15 (and issue 21 item 4's first half): a goal in an unloaded chunk, inside or outside
/// the bounds, names the chunk; a head above the world's top names the height range; through
/// `Pathfinder`, `GraphSearch` and a `Navigator` with a graph alike.
#[test]
fn errors_name_unloaded_chunks_and_the_world_height() {
    use voxnav::engine::IndexedRouter;
    use voxnav::world::InvalidFeet;
    let world = partly_loaded();
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let graph = voxnav::engine::NavGraph::compile(&world, &agent).unwrap();
    let mut search = voxnav::engine::GraphSearch::new(costs).unwrap();
    let mut navigator = voxnav::engine::Navigator::new(agent, costs).unwrap();
    navigator.build_graph(&world).unwrap();
    let start = IVec3::new(1, 1, 1);
    let options = SearchOptions::default();
    let cases = [
        // Inside the bounds, in chunk column (2, 0), never loaded.
        (
            IVec3::new(40, 1, 3),
            InvalidFeet::Unloaded {
                chunk_x: 2,
                chunk_z: 0,
            },
            "chunk (2, 0) is not loaded",
        ),
        // Inside the bounds, chunk column (1, 1).
        (
            IVec3::new(20, 1, 20),
            InvalidFeet::Unloaded {
                chunk_x: 1,
                chunk_z: 1,
            },
            "chunk (1, 1) is not loaded",
        ),
        // Beyond the bounds: unloaded territory too, at negative chunk coordinates.
        (
            IVec3::new(-3, 1, -20),
            InvalidFeet::Unloaded {
                chunk_x: -1,
                chunk_z: -2,
            },
            "chunk (-1, -2) is not loaded",
        ),
        // On top of the pillar: the head would be at y = 32, above the top.
        (
            IVec3::new(5, 31, 5),
            InvalidFeet::OutsideHeight {
                min_y: 0,
                max_y: 32,
            },
            "outside the world's height (y range 0..32)",
        ),
    ];
    for (goal, reason, words) in cases {
        let answers = [
            goal_reason(pathfinder().find_path(&world, start, goal, &options)),
            goal_reason(search.find_path(&graph, start, goal, &options)),
            goal_reason(navigator.find_path(&world, start, goal, &options)),
        ];
        for (i, (found, message)) in answers.into_iter().enumerate() {
            assert_eq!(found, reason, "engine {i}, goal {goal}");
            assert!(message.contains(words), "engine {i}: {message}");
        }
    }
    // A loaded goal still routes.
    let found = search
        .find_path(&graph, start, IVec3::new(30, 1, 10), &options)
        .unwrap();
    assert!(found.is_found());
}
