//! The bulk column readers of [`ChunkedWorld`]: [`VoxelWorld::column`](crate::VoxelWorld::column)
//! and [`VoxelWorld::columns_around`](crate::VoxelWorld::columns_around) from the chunk bitsets.

use glam::IVec3;

use super::ChunkedWorld;
use super::chunk::{CHUNK_SHIFT, NO_CHUNK, cell_index, chunk_of};
use crate::world::{AROUND, ColumnBits};

impl ChunkedWorld {
    /// [`VoxelWorld::columns_around`](crate::world::VoxelWorld::columns_around) with one look-up per chunk touched (the 9 columns span
    /// at most 2 x 2 chunks horizontally) when they lie inside the bounds; otherwise column by
    /// column. Without `FULL`, only the passable bits are read inside the bounds (the others
    /// stay clear), for [`VoxelWorld::passable_block`](crate::VoxelWorld::passable_block).
    pub(super) fn columns_around_bits<const FULL: bool>(
        &self,
        x: i32,
        z: i32,
        y0: i32,
        count: u32,
    ) -> [ColumnBits; 9] {
        let count = count.min(64) as i32;
        // Away from the ends of i32, so that x +- 1, z +- 1 and y0 + count cannot overflow.
        let safe =
            x > i32::MIN && x < i32::MAX && z > i32::MIN && z < i32::MAX && y0 <= i32::MAX - count;
        let inside = safe
            && self.bounds.is_none_or(|b| {
                x > b.min.x
                    && x + 1 < b.max.x
                    && z > b.min.z
                    && z + 1 < b.max.z
                    && y0 >= b.min.y
                    && y0 + count <= b.max.y
            });
        if !inside {
            // A column beyond the ends of i32 has no cells: neither passable nor standable.
            return std::array::from_fn(|i| {
                match (x.checked_add(AROUND[i].0), z.checked_add(AROUND[i].1)) {
                    (Some(x), Some(z)) => self.column_bits(x, z, y0, count as u32),
                    _ => ColumnBits::default(),
                }
            });
        }
        // Chunk columns: (x - 1) >> 4 and (z - 1) >> 4 are corner (0, 0) of a 2 x 2 block.
        let (cx0, cz0) = ((x - 1) >> CHUNK_SHIFT, (z - 1) >> CHUNK_SHIFT);
        let corner: [usize; 9] = std::array::from_fn(|i| {
            let ix = ((x + AROUND[i].0) >> CHUNK_SHIFT) - cx0;
            let iz = ((z + AROUND[i].1) >> CHUNK_SHIFT) - cz0;
            (ix * 2 + iz) as usize
        });
        let spans_x = (x + 1) >> CHUNK_SHIFT != cx0;
        let spans_z = (z + 1) >> CHUNK_SHIFT != cz0;
        let mut out = [ColumnBits::default(); 9];
        let (absent_passable, absent_standable) = self.absent_masks();
        let (mut y, hi) = (y0, y0 + count);
        while y < hi {
            let cy = y >> CHUNK_SHIFT;
            let end = ((cy + 1) << CHUNK_SHIFT).min(hi);
            let run_mask = (1u64 << (end - y)) - 1;
            let shift = (y - y0) as u32;
            let mut slots = [NO_CHUNK; 4];
            let any_special = self.special_chunks != 0;
            for (i, slot) in slots.iter_mut().enumerate() {
                let (ix, iz) = ((i / 2) as i32, (i % 2) as i32);
                if (ix == 0 || spans_x) && (iz == 0 || spans_z) {
                    *slot = self.chunk_slot(IVec3::new(cx0 + ix, cy, cz0 + iz));
                }
            }
            for ((bits, (dx, dz)), &c) in out.iter_mut().zip(AROUND).zip(&corner) {
                let slot = slots[c];
                if slot == NO_CHUNK {
                    bits.passable |= absent_passable & (run_mask << shift);
                    if FULL {
                        bits.standable |= absent_standable & (run_mask << shift);
                    }
                } else {
                    let chunk = &self.chunks[slot as usize];
                    let index = cell_index(IVec3::new(x + dx, y, z + dz));
                    let (word, offset) = (index >> 6, index & 63);
                    bits.passable |= ((chunk.passable[word] >> offset) & run_mask) << shift;
                    if !FULL {
                        continue;
                    }
                    bits.standable |= ((chunk.standable[word] >> offset) & run_mask) << shift;
                    if any_special && let Some(extra) = &chunk.extra {
                        bits.partial |= ((extra.partial[word] >> offset) & run_mask) << shift;
                    }
                }
            }
            y = end;
        }
        out
    }

    /// [`VoxelWorld::column`](crate::world::VoxelWorld::column) from the chunk bitsets: one chunk look-up per 16 cells.
    pub(super) fn column_bits(&self, x: i32, z: i32, y0: i32, count: u32) -> ColumnBits {
        let mut bits = ColumnBits::default();
        // In i64, so that a window reaching past i32::MAX ends there instead of overflowing.
        let (mut lo, mut hi) = (i64::from(y0), i64::from(y0) + i64::from(count.min(64)));
        hi = hi.min(i64::from(i32::MAX) + 1);
        if let Some(b) = self.bounds {
            if x < b.min.x || x >= b.max.x || z < b.min.z || z >= b.max.z {
                return bits;
            }
            lo = lo.max(i64::from(b.min.y));
            hi = hi.min(i64::from(b.max.y));
        }
        let (absent_passable, absent_standable) = self.absent_masks();
        let mut y = lo;
        while y < hi {
            let chunk_end = ((y >> CHUNK_SHIFT) + 1) << CHUNK_SHIFT;
            let end = chunk_end.min(hi);
            let run = (end - y) as u32;
            let run_mask = if run == 64 {
                u64::MAX
            } else {
                (1u64 << run) - 1
            };
            let shift = (y - i64::from(y0)) as u32;
            // lo <= y < hi <= i32::MAX + 1: y is an i32.
            let cell_y = y as i32;
            let slot = self.chunk_slot(chunk_of(IVec3::new(x, cell_y, z)));
            if slot == NO_CHUNK {
                bits.passable |= absent_passable & (run_mask << shift);
                bits.standable |= absent_standable & (run_mask << shift);
            } else {
                let chunk = &self.chunks[slot as usize];
                let index = cell_index(IVec3::new(x, cell_y, z));
                let (word, offset) = (index >> 6, index & 63);
                bits.passable |= ((chunk.passable[word] >> offset) & run_mask) << shift;
                bits.standable |= ((chunk.standable[word] >> offset) & run_mask) << shift;
                if let Some(extra) = &chunk.extra {
                    bits.partial |= ((extra.partial[word] >> offset) & run_mask) << shift;
                }
            }
            y = end;
        }
        bits
    }
}

#[cfg(test)]
mod tests {
    use glam::IVec3;

    use crate::testing::block_by_cells;
    use crate::world::VoxelWorld;
    use crate::world::chunked::{Block, ChunkedWorld};

    /// The passable-only read of `passable_block` is the cells' passability: in bounded
    /// worlds of mixed blocks whose absent chunks are air, solid or barrier, across chunk
    /// boundaries, at the bounds and outside them, and in an unbounded world at the ends of
    /// i32.
    #[test]
    fn passable_blocks_agree_with_cells() {
        let kinds = [
            Block::Air,
            Block::Solid,
            Block::Water,
            Block::Floor(8),
            Block::Fence,
            Block::Door,
            Block::Barrier,
        ];
        let mut next = crate::testing::xorshift(0x2545_F491_4F6C_DD1Du64);
        let mut compared = 0;
        for absent in [Block::Air, Block::Solid, Block::Barrier] {
            let size = IVec3::new(40, 40, 40);
            let mut world = ChunkedWorld::with_size(size).unwrap();
            world.set_absent_block(absent).unwrap();
            // Blocks in the lower chunks only, so that the upper ones stay absent.
            for _ in 0..6000 {
                let r = next();
                let p = IVec3::new((r % 40) as i32, (r >> 8) as i32 & 15, (r >> 16) as i32 & 31);
                world
                    .set(p, kinds[(r >> 32) as usize % kinds.len()])
                    .unwrap();
            }
            let probes = [-2, -1, 0, 1, 14, 15, 16, 17, 30, 31, 32, 33, 38, 39, 40, 41];
            for x in probes {
                for z in probes {
                    for y0 in [-3, -1, 0, 13, 14, 15, 16, 17, 18, 30, 31, 37, 39, 40] {
                        for count in [1, 3, 4, 7, 9] {
                            let block = world.passable_block(x, z, y0, count);
                            assert_eq!(block, block_by_cells(&world, x, z, y0, count));
                            compared += 1;
                        }
                    }
                }
            }
        }
        let mut open = ChunkedWorld::new();
        let ends = [i32::MIN, i32::MIN + 1, -1, 0, i32::MAX - 1, i32::MAX];
        for x in ends {
            for z in ends {
                for y in ends {
                    open.set(IVec3::new(x, y, z), Block::Solid).unwrap();
                }
            }
        }
        for x in ends {
            for z in ends {
                for y0 in ends.into_iter().chain([i32::MAX - 6, i32::MIN + 6]) {
                    let block = open.passable_block(x, z, y0, 7);
                    assert_eq!(block, block_by_cells(&open, x, z, y0, 7), "{x} {z} {y0}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 30_000);
    }
}
