//! Regression tests for issue 26's wrong answers of the chunk storage (items 1 and 2: the
//! terrain at chunk borders, bulk writes next to absent chunks): each fails without its fix.
//! Stale structures, Debug output and error messages are in `tests/hardening_stale.rs`.

mod support;

use support::oracle::{CellWorld, dijkstra_cost, terrain_by_cells};
use support::pathfinder;
use support::rng::Rng;
use voxnav::world::Bounds;
use voxnav::{Agent, Block, ChunkedWorld, IVec3, MoveCosts, SearchOptions, VoxelWorld, check_path};

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
