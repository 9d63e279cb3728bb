//! Helpers shared by the unit tests of several modules.

use glam::IVec3;

use crate::world::{AROUND, Block, MAX_BLOCK_HEIGHT, VoxelWorld, block_column};

/// A xorshift generator of 64-bit numbers from `seed` (not 0): fixed sequences for the
/// randomised unit tests.
pub(crate) fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// The block mix of the random worlds (the same as `random_block` in `tests/support/worlds.rs`,
/// which unit tests cannot reach), from any number `pick`: mostly air and solid, with water,
/// lava, slow floors and ladders.
pub(crate) fn random_block(pick: u64) -> Block {
    match pick % 16 {
        0..=5 => Block::Air,
        6..=10 => Block::Solid,
        11 => Block::Water,
        12 => Block::Lava,
        13 => Block::SlowFloor,
        _ => Block::Ladder,
    }
}

/// [`VoxelWorld::passable_block`] read cell by cell through [`VoxelWorld::is_passable`]: the
/// oracle the overrides are checked against. Cells beyond the ends of i32 are not passable.
pub(crate) fn block_by_cells<W: VoxelWorld + ?Sized>(
    world: &W,
    x: i32,
    z: i32,
    y0: i32,
    count: u32,
) -> u64 {
    let count = count.min(MAX_BLOCK_HEIGHT);
    let mut block = 0u64;
    for (dx, dz) in AROUND {
        for i in 0..count {
            let cell = (
                x.checked_add(dx),
                y0.checked_add(i as i32),
                z.checked_add(dz),
            );
            let passable = match cell {
                (Some(cx), Some(cy), Some(cz)) => world.is_passable(IVec3::new(cx, cy, cz)),
                _ => false,
            };
            block |= u64::from(passable) << (count * block_column(dx, dz) + i);
        }
    }
    block
}
