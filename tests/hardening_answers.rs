//! Regression tests for issue 26's wrong answers, stale structures, Debug output and error
//! messages (items 1 to 5, 14 and 15), and issue 21 item 4: each fails without its fix.

mod support;

use support::oracle::{CellWorld, dijkstra_cost, terrain_by_cells};
use support::rng::Rng;
use voxnav::engine::Pathfinder;
use voxnav::world::Bounds;
use voxnav::{Agent, Block, ChunkedWorld, IVec3, MoveCosts, SearchOptions, VoxelWorld, check_path};

fn pathfinder() -> Pathfinder {
    Pathfinder::new(Agent::default(), MoveCosts::default()).unwrap()
}

/// Item 1: feet on the top layer of a chunk without special blocks (y = 15 mod 16) with a
/// cobweb at the head, in the chunk above, pay the cobweb; the route through it costs 50, not
/// 20.
#[test]
fn cobweb_at_the_head_in_the_chunk_above_a_plain_chunk_is_paid() {
    for base in [0, -32, 64] {
        let mut world = ChunkedWorld::with_bounds(Bounds::new(
            IVec3::new(-3, base, -3),
            IVec3::new(4, base + 32, 4),
        ))
        .unwrap();
        let floor = base + 14;
        world
            .fill(
                IVec3::new(-3, floor, -3),
                IVec3::new(3, floor, 3),
                Block::Solid,
            )
            .unwrap();
        let web = IVec3::new(1, floor + 2, 0);
        world.set(web, Block::Cobweb).unwrap();
        let feet = web - IVec3::Y;
        assert_eq!(feet.y.rem_euclid(16), 15);
        assert!(
            world
                .terrain(feet)
                .contains(voxnav::world::TerrainFlags::IN_COBWEB)
        );
        let costs = MoveCosts::default();
        let found = pathfinder()
            .find_path(
                &world,
                IVec3::new(0, floor + 1, 0),
                IVec3::new(2, floor + 1, 0),
                &SearchOptions::default(),
            )
            .unwrap();
        // Around the cobweb (2 diagonals, 28) is cheaper than through it (50); with the
        // cobweb dropped, straight through (20) would win.
        assert_eq!(found.cost, Some(u64::from(2 * costs.diagonal)));
        assert!(!found.path.contains(&feet), "the cobweb is walked around");
        // Boxed in, the only way is through it: 2 straight steps and the cobweb.
        for z in [-1, 1] {
            world
                .fill(
                    IVec3::new(0, floor + 1, z),
                    IVec3::new(2, floor + 4, z),
                    Block::Solid,
                )
                .unwrap();
        }
        let found = pathfinder()
            .find_path(
                &world,
                IVec3::new(0, floor + 1, 0),
                IVec3::new(2, floor + 1, 0),
                &SearchOptions::default(),
            )
            .unwrap();
        assert_eq!(
            found.cost,
            Some(u64::from(2 * costs.straight + costs.cobweb)),
            "base {base}"
        );
    }
}

/// Item 1: `terrain` equals the cell-by-cell reading everywhere in worlds at any offset
/// (negative too) whose special blocks sit on and across chunk borders in all three axes.
#[test]
fn terrain_equals_the_cell_by_cell_reading_across_chunk_borders() {
    let kinds = [
        Block::Cobweb,
        Block::Water,
        Block::Ladder,
        Block::Door,
        Block::SlowFloor,
        Block::Lava,
        Block::Hazard,
        Block::Solid,
    ];
    let mut rng = Rng::new(26_01);
    for round in 0..64 {
        let min = IVec3::new(rng.coord(64) - 40, rng.coord(64) - 40, rng.coord(64) - 40);
        let size = IVec3::new(10 + rng.coord(30), 10 + rng.coord(30), 10 + rng.coord(30));
        let mut world = ChunkedWorld::with_bounds(Bounds::new(min, min + size)).unwrap();
        // Most blocks near the chunk borders inside the world, where the shortcuts are.
        // Few of them, so that many chunks stay plain next to chunks that are not.
        for _ in 0..=rng.below(8) {
            let mut p = min + IVec3::new(rng.coord(size.x), rng.coord(size.y), rng.coord(size.z));
            if rng.below(3) != 0 {
                let border =
                    |v: i32, rng: &mut Rng| v.div_euclid(16) * 16 + [-1, 0, 15, 16][rng.index(4)];
                p.y = border(p.y, &mut rng).clamp(min.y, min.y + size.y - 1);
            }
            world.set(p, rng.pick(&kinds)).unwrap();
        }
        for y in min.y - 1..=min.y + size.y {
            for z in min.z - 1..=min.z + size.z {
                for x in min.x - 1..=min.x + size.x {
                    let p = IVec3::new(x, y, z);
                    assert_eq!(
                        world.terrain(p),
                        terrain_by_cells(&world, p),
                        "round {round}, {p}"
                    );
                }
            }
        }
    }
}

/// Item 1: A* on the storage costs what Dijkstra over the cell-by-cell reading costs, on the
/// world of the issue (a cobweb at the head across a chunk top).
#[test]
fn astar_on_chunks_equals_dijkstra_on_cells_at_a_chunk_top() {
    let mut world =
        ChunkedWorld::with_bounds(Bounds::new(IVec3::new(0, 0, 0), IVec3::new(5, 20, 3))).unwrap();
    world
        .fill(IVec3::new(0, 14, 0), IVec3::new(4, 14, 2), Block::Solid)
        .unwrap();
    world
        .fill(IVec3::new(0, 15, 0), IVec3::new(4, 16, 0), Block::Solid)
        .unwrap();
    world
        .fill(IVec3::new(0, 15, 2), IVec3::new(4, 16, 2), Block::Solid)
        .unwrap();
    world.set(IVec3::new(2, 16, 1), Block::Cobweb).unwrap();
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let (start, goal) = (IVec3::new(0, 15, 1), IVec3::new(4, 15, 1));
    let expected = dijkstra_cost(&CellWorld(&world), &agent, &costs, start, goal);
    assert_eq!(expected, Some(u64::from(4 * costs.straight + costs.cobweb)));
    let found = pathfinder()
        .find_path(&world, start, goal, &SearchOptions::default())
        .unwrap();
    assert_eq!(found.cost, expected);
    assert_eq!(
        check_path(&world, &agent, &costs, &found.path).cost,
        expected
    );
}

/// Every reading of `VoxelWorld` and `ChunkedWorld::get` agrees between `bulk` and `by_cells`
/// over every cell of the box `lo ..= hi`.
fn assert_same_reading(
    bulk: &ChunkedWorld,
    by_cells: &ChunkedWorld,
    lo: IVec3,
    hi: IVec3,
    what: &str,
) {
    for y in lo.y..=hi.y {
        for z in lo.z..=hi.z {
            for x in lo.x..=hi.x {
                let p = IVec3::new(x, y, z);
                assert_eq!(bulk.get(p), by_cells.get(p), "{what}: block at {p}");
                assert_eq!(bulk.is_passable(p), by_cells.is_passable(p), "{what}: {p}");
                assert_eq!(
                    bulk.is_standable(p),
                    by_cells.is_standable(p),
                    "{what}: {p}"
                );
                assert_eq!(
                    bulk.terrain(p),
                    by_cells.terrain(p),
                    "{what}: terrain at {p}"
                );
                assert_eq!(
                    bulk.terrain(p),
                    terrain_by_cells(by_cells, p),
                    "{what}: {p}"
                );
                assert_eq!(bulk.floor_top(p), by_cells.floor_top(p), "{what}: {p}");
                assert_eq!(bulk.extra_cost(p), by_cells.extra_cost(p), "{what}: {p}");
            }
        }
        for z in lo.z..=hi.z {
            for x in lo.x..=hi.x {
                let count = (hi.y - y + 1).min(64) as u32;
                assert_eq!(
                    bulk.columns_around(x, z, y, count),
                    by_cells.columns_around(x, z, y, count),
                    "{what}: columns around {x}, {z} from {y}"
                );
            }
        }
    }
}

/// The worlds item 2's tests write into: bounded at a negative offset and unbounded, each
/// with every block absent chunks can read as.
fn bulk_test_worlds() -> Vec<(ChunkedWorld, IVec3, IVec3)> {
    let mut worlds = Vec::new();
    for absent in [Block::Air, Block::Solid, Block::Barrier] {
        for bounded in [true, false] {
            let (lo, hi) = (IVec3::splat(-32), IVec3::splat(31));
            let mut world = if bounded {
                ChunkedWorld::with_bounds(Bounds::new(lo + IVec3::new(4, 0, 9), hi + IVec3::ONE))
                    .unwrap()
            } else {
                ChunkedWorld::new()
            };
            world.set_absent_block(absent).unwrap();
            worlds.push((world, lo - IVec3::ONE, hi + IVec3::ONE));
        }
    }
    worlds
}

/// A block for item 2's writers: lava and hazards often, everything else sometimes.
fn bulk_block(rng: &mut Rng) -> Block {
    rng.pick(&[
        Block::Lava,
        Block::Lava,
        Block::Hazard,
        Block::Air,
        Block::Solid,
        Block::Water,
        Block::Cobweb,
        Block::Floor(8),
        Block::Barrier,
    ])
}

/// A chunk of the test worlds (chunk coordinates -2 ..= 1 in each axis).
fn bulk_chunk(rng: &mut Rng) -> IVec3 {
    IVec3::new(rng.coord(4) - 2, rng.coord(4) - 2, rng.coord(4) - 2)
}

/// Item 2: `set_chunk_palette` leaves the world exactly as writing the same cells one by one
/// does, lava next to absent chunks included.
#[test]
fn set_chunk_palette_equals_cell_writes() {
    let mut rng = Rng::new(26_02);
    for (mut bulk, lo, hi) in bulk_test_worlds() {
        let mut by_cells = bulk.clone();
        for _ in 0..6 {
            let chunk = bulk_chunk(&mut rng);
            let palette = [Block::Air, bulk_block(&mut rng), bulk_block(&mut rng)];
            // Sparse: a few cells of the palette's second and third blocks, on the faces most.
            let mut indices = vec![0u16; 4096];
            for _ in 0..12 {
                let mut local = IVec3::new(rng.coord(16), rng.coord(16), rng.coord(16));
                let axis = rng.index(3);
                local[axis] = rng.pick(&[0, 15]);
                indices[((local.y * 16 + local.z) * 16 + local.x) as usize] =
                    1 + rng.below(2) as u16;
            }
            let written = bulk.set_chunk_palette(chunk, &palette, &indices);
            if written.is_err() {
                continue; // the chunk reaches outside the bounded world
            }
            for (i, &index) in indices.iter().enumerate() {
                let i = i as i32;
                let local = IVec3::new(i & 15, i >> 8, (i >> 4) & 15);
                by_cells
                    .set(chunk * 16 + local, palette[usize::from(index)])
                    .unwrap();
            }
        }
        assert_same_reading(&bulk, &by_cells, lo, hi, "set_chunk_palette");
    }
}

/// Item 2: `fill_chunk` leaves the world exactly as writing the same cells one by one does.
#[test]
fn fill_chunk_equals_cell_writes() {
    let mut rng = Rng::new(26_03);
    for (mut bulk, lo, hi) in bulk_test_worlds() {
        let mut by_cells = bulk.clone();
        for _ in 0..6 {
            let chunk = bulk_chunk(&mut rng);
            let block = bulk_block(&mut rng);
            if bulk.fill_chunk(chunk, block).is_err() {
                continue; // the chunk reaches outside the bounded world
            }
            by_cells
                .fill(chunk * 16, chunk * 16 + IVec3::splat(15), block)
                .unwrap();
        }
        assert_same_reading(&bulk, &by_cells, lo, hi, "fill_chunk");
    }
}

/// Item 2: `set_column` and `fill` leave the world exactly as writing the same cells one by
/// one does.
#[test]
fn set_column_and_fill_equal_cell_writes() {
    let mut rng = Rng::new(26_04);
    for (mut bulk, lo, hi) in bulk_test_worlds() {
        let mut by_cells = bulk.clone();
        for round in 0..16 {
            let block = bulk_block(&mut rng);
            let a = IVec3::new(rng.coord(64) - 32, rng.coord(64) - 32, rng.coord(64) - 32);
            if round % 2 == 0 {
                let ys = a.y..a.y + rng.coord(40);
                if bulk.set_column(a.x, a.z, ys.clone(), block).is_err() {
                    continue;
                }
                for y in ys {
                    by_cells.set(IVec3::new(a.x, y, a.z), block).unwrap();
                }
            } else {
                let b = (a + IVec3::new(rng.coord(5), rng.coord(5), rng.coord(5)))
                    .min(IVec3::splat(31));
                if bulk.fill(a, b, block).is_err() {
                    continue;
                }
                for y in a.y..=b.y {
                    for z in a.z..=b.z {
                        for x in a.x..=b.x {
                            by_cells.set(IVec3::new(x, y, z), block).unwrap();
                        }
                    }
                }
            }
        }
        assert_same_reading(&bulk, &by_cells, lo, hi, "set_column and fill");
    }
}

/// Item 2, the case: lava written by `fill_chunk` next to a chunk that holds no data
/// and reads as air gives that chunk's cells the danger cost.
#[test]
fn bulk_lava_next_to_an_absent_chunk_keeps_its_margin() {
    let mut world = ChunkedWorld::with_size(IVec3::new(48, 32, 16)).unwrap();
    world.fill_chunk(IVec3::new(1, 0, 0), Block::Lava).unwrap();
    let beside = IVec3::new(15, 5, 5);
    assert!(
        world
            .terrain(beside)
            .contains(voxnav::world::TerrainFlags::NEAR_DANGER)
    );
    assert!(
        world
            .terrain(IVec3::new(32, 16, 0))
            .contains(voxnav::world::TerrainFlags::NEAR_DANGER)
    );
    let mut palette_world = ChunkedWorld::with_size(IVec3::new(48, 32, 16)).unwrap();
    let mut indices = vec![0u16; 4096];
    indices[0] = 1; // local (0, 0, 0) of chunk (1, 0, 0): cell (16, 0, 0)
    palette_world
        .set_chunk_palette(IVec3::new(1, 0, 0), &[Block::Air, Block::Lava], &indices)
        .unwrap();
    assert!(
        palette_world
            .terrain(IVec3::new(15, 1, 1))
            .contains(voxnav::world::TerrainFlags::NEAR_DANGER)
    );
}

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
