//! World and cost builders shared by the hierarchy tests (`tests/hier.rs`, `tests/hier_hpa.rs`).

use voxnav::world::Bounds;
use voxnav::{Block, ChunkedWorld, IVec3, MoveCosts};

use super::rng::Rng;
use super::worlds::random_block;

/// A world 18 to 40 blocks across x and z (so it spans two or three chunk columns each way)
/// and 6 to 8 up, its lowest corner at a random offset between -40 and 8 in each axis (so
/// chunk borders fall anywhere, at negative coordinates too): a floor, random hills, walls
/// with gaps (so some places are cut off), and random blocks of every kind.
pub fn random_world(rng: &mut Rng) -> ChunkedWorld {
    random_world_across(rng, 18, 23)
}

/// [`random_world`] `least` to `least + spread - 1` blocks across x and z.
pub fn random_world_across(rng: &mut Rng, least: i32, spread: i32) -> ChunkedWorld {
    let size = IVec3::new(
        least + rng.coord(spread),
        6 + rng.coord(3),
        least + rng.coord(spread),
    );
    let min = IVec3::new(rng.coord(49) - 40, rng.coord(49) - 40, rng.coord(49) - 40);
    random_world_at(rng, min, size)
}

/// The world of [`random_world`] with its lowest corner at `min` and of `size` (at least 1
/// across and 4 up, room for the hills).
pub fn random_world_at(rng: &mut Rng, min: IVec3, size: IVec3) -> ChunkedWorld {
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
pub fn random_costs(rng: &mut Rng) -> MoveCosts {
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

/// Two rooms of floor (x 0..=17 and 22..=39, both spanning chunk borders at x = 16 and 32)
/// joined by a corridor at z = 1, and a sealed box at x 36..=38, z 10..=12.
pub fn rooms() -> ChunkedWorld {
    let mut world = ChunkedWorld::with_size(IVec3::new(40, 5, 20)).expect("small world");
    world
        .fill(IVec3::ZERO, IVec3::new(39, 0, 19), Block::Solid)
        .expect("inside");
    world
        .fill(IVec3::new(18, 1, 0), IVec3::new(21, 4, 19), Block::Solid)
        .expect("inside");
    world
        .fill(IVec3::new(18, 1, 1), IVec3::new(21, 2, 1), Block::Air)
        .expect("inside");
    world
        .fill(IVec3::new(35, 1, 9), IVec3::new(39, 4, 13), Block::Solid)
        .expect("inside");
    world
        .fill(IVec3::new(36, 1, 10), IVec3::new(38, 2, 12), Block::Air)
        .expect("inside");
    world
}
