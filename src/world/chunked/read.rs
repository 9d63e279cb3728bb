//! [`VoxelWorld`] for [`ChunkedWorld`]: the reads a search makes per move (passable,
//! standable, terrain, unloaded) and the bulk column reads, each a chunk look-up and a bit test.

use glam::IVec3;

use super::block::{
    KIND_COBWEB, KIND_DOOR, KIND_LADDER, KIND_PLAIN, KIND_SLOW_FLOOR, KIND_WATER, floor_top_of_kind,
};
use super::chunk::{
    CHUNK_MASK, CHUNK_SHIFT, CHUNK_SIZE, ChunkExtra, NO_CHUNK, bit, cell_index, chunk_of,
};
use super::{Block, ChunkedWorld};
use crate::world::versioned::WorldWatch;
use crate::world::{
    AROUND, Bounds, ColumnBits, MAX_BLOCK_HEIGHT, TerrainFlags, VoxelWorld, block_column,
};

/// The most chunks along any axis, less one, that [`VoxelWorld::is_plain_region`] reads
/// before it answers `false` unread: the neighbourhood of an expansion spans at most 2.
const MAX_PLAIN_REGION_CHUNKS: i32 = 3;

/// Whether the cells from `first` to `last` (inclusive, inside one chunk whose per-cell data
/// is `extra`) are all of a plain kind and none is near danger: then no terrain read that
/// looks at them finds anything. The 16 cells of a column inside a chunk are 16 adjacent
/// kinds and 16 adjacent bits of one word, so each column is one 16-byte load and a mask.
#[inline]
fn extra_is_plain(extra: &ChunkExtra, first: IVec3, last: IVec3) -> bool {
    let (from, len) = ((first.y & CHUNK_MASK) as u32, (last.y - first.y + 1) as u32);
    let cells = ((1u64 << len) - 1) << from;
    let bytes = (u128::MAX >> (128 - 8 * len)) << (8 * from);
    for x in first.x..=last.x {
        for z in first.z..=last.z {
            let base = cell_index(IVec3::new(x, 0, z));
            let mut column = [0u8; 16];
            column.copy_from_slice(&extra.kinds[base..base + 16]);
            if u128::from_le_bytes(column) & bytes != 0
                || (extra.danger[base >> 6] >> (base & 63)) & cells != 0
            {
                return false;
            }
        }
    }
    true
}

impl ChunkedWorld {
    /// [`VoxelWorld::columns_square`] with one look-up per chunk touched (a square of at most
    /// 16 columns on a side spans at most 2 x 2 chunks horizontally) when the columns lie
    /// inside the bounds; otherwise column by column.
    fn columns_square_bits(
        &self,
        x: i32,
        z: i32,
        y0: i32,
        count: u32,
        side: u32,
        out: &mut [ColumnBits],
    ) {
        let count = count.min(64);
        let n = (side as usize).saturating_mul(side as usize).min(out.len());
        let reach = side as i32 - 1;
        // Away from the ends of i32, so that x + reach, z + reach and y0 + count cannot overflow.
        let safe = (1..=CHUNK_SIZE as u32).contains(&side)
            && x <= i32::MAX - reach
            && z <= i32::MAX - reach
            && y0 <= i32::MAX - count as i32;
        let inside = safe
            && self.bounds.is_none_or(|b| {
                x >= b.min.x
                    && x + reach < b.max.x
                    && z >= b.min.z
                    && z + reach < b.max.z
                    && y0 >= b.min.y
                    && y0 + count as i32 <= b.max.y
            });
        if !inside {
            let side = side as usize;
            for (i, column) in out[..n].iter_mut().enumerate() {
                let (gx, gz) = ((i / side) as i32, (i % side) as i32);
                *column = match (x.checked_add(gx), z.checked_add(gz)) {
                    (Some(x), Some(z)) => self.column_bits(x, z, y0, count),
                    _ => ColumnBits::default(),
                };
            }
            return;
        }
        // The squares the wide walking rules read, with a side known at compile time.
        match side {
            3 if n == 9 => return self.fixed_square::<3>(x, z, y0, count, out),
            4 if n == 16 => return self.fixed_square::<4>(x, z, y0, count, out),
            5 if n == 25 => return self.fixed_square::<5>(x, z, y0, count, out),
            _ => {}
        }
        let (cx0, cz0) = (x >> CHUNK_SHIFT, z >> CHUNK_SHIFT);
        let spans_x = (x + reach) >> CHUNK_SHIFT != cx0;
        let spans_z = (z + reach) >> CHUNK_SHIFT != cz0;
        out[..n].fill(ColumnBits::default());
        let (absent_passable, absent_standable) = self.absent_masks();
        let (mut y, hi) = (y0, y0 + count as i32);
        while y < hi {
            let cy = y >> CHUNK_SHIFT;
            let end = ((cy + 1) << CHUNK_SHIFT).min(hi);
            let run = ((1u64 << (end - y)) - 1) << (y - y0);
            let shift = (y - y0) as u32;
            // Chunk by chunk, the columns of the square inside each.
            let side = reach as usize + 1;
            let split_x = ((cx0 + 1) << CHUNK_SHIFT) - x;
            let split_z = ((cz0 + 1) << CHUNK_SHIFT) - z;
            for ix in 0..=i32::from(spans_x) {
                let (gx0, gx1) = if ix == 0 {
                    (0, split_x.min(side as i32))
                } else {
                    (split_x, side as i32)
                };
                for iz in 0..=i32::from(spans_z) {
                    let (gz0, gz1) = if iz == 0 {
                        (0, split_z.min(side as i32))
                    } else {
                        (split_z, side as i32)
                    };
                    let slot = self.chunk_slot(IVec3::new(cx0 + ix, cy, cz0 + iz));
                    for gx in gx0..gx1 {
                        let row = gx as usize * side;
                        let columns = out[..n]
                            .iter_mut()
                            .skip(row + gz0 as usize)
                            .take((gz1 - gz0) as usize);
                        if slot == NO_CHUNK {
                            for bits in columns {
                                bits.passable |= absent_passable & run;
                                bits.standable |= absent_standable & run;
                            }
                            continue;
                        }
                        let chunk = &*self.chunks[slot as usize];
                        let first = cell_index(IVec3::new(x + gx, y, z + gz0));
                        for (k, bits) in columns.enumerate() {
                            // Along z, a column's cells lie 16 bits after the previous one's.
                            let index = first + 16 * k;
                            let (word, offset) = (index >> 6, index & 63);
                            bits.passable |= (chunk.passable[word] >> offset << shift) & run;
                            bits.standable |= (chunk.standable[word] >> offset << shift) & run;
                            if let Some(extra) = &chunk.extra {
                                bits.partial |= (extra.partial[word] >> offset << shift) & run;
                            }
                        }
                    }
                }
            }
            y = end;
        }
    }

    /// [`ChunkedWorld::columns_square_bits`] of a square `SIDE` columns on a side (at most
    /// 16) that lies inside the bounds and away from the ends of i32, into `out` (at least
    /// `SIDE * SIDE` long). A side known at compile time lets the loops over the columns
    /// unroll; the chunk of each column is one of the 2 x 2 chunks the square touches.
    #[inline]
    fn fixed_square<const SIDE: usize>(
        &self,
        x: i32,
        z: i32,
        y0: i32,
        count: u32,
        out: &mut [ColumnBits],
    ) {
        let (cx0, cz0) = (x >> CHUNK_SHIFT, z >> CHUNK_SHIFT);
        // The first column of the square in the next chunk along x and along z (1 ..= 16; in
        // i64, since the next chunk's first column lies past i32::MAX for the last chunk).
        let split = |c: i32, v: i32| (((i64::from(c) + 1) << CHUNK_SHIFT) - i64::from(v)) as i32;
        let (split_x, split_z) = (split(cx0, x), split(cz0, z));
        let (absent_passable, absent_standable) = self.absent_masks();
        let out = &mut out[..SIDE * SIDE];
        out.fill(ColumnBits::default());
        let (mut y, hi) = (y0, y0 + count as i32);
        while y < hi {
            let cy = y >> CHUNK_SHIFT;
            let end = ((cy + 1) << CHUNK_SHIFT).min(hi);
            let run = ((1u64 << (end - y)) - 1) << (y - y0);
            let shift = (y - y0) as u32;
            let mut chunks = [None; 4];
            for (i, chunk) in chunks.iter_mut().enumerate() {
                let (ix, iz) = ((i / 2) as i32, (i % 2) as i32);
                if (ix == 0 || split_x < SIDE as i32) && (iz == 0 || split_z < SIDE as i32) {
                    let slot = self.chunk_slot(IVec3::new(cx0 + ix, cy, cz0 + iz));
                    if slot != NO_CHUNK {
                        *chunk = Some(&*self.chunks[slot as usize]);
                    }
                }
            }
            for gx in 0..SIDE {
                let ix = usize::from(gx as i32 >= split_x);
                let cx = x + gx as i32;
                for gz in 0..SIDE {
                    let iz = usize::from(gz as i32 >= split_z);
                    let bits = &mut out[gx * SIDE + gz];
                    let Some(chunk) = chunks[ix * 2 + iz] else {
                        bits.passable |= absent_passable & run;
                        bits.standable |= absent_standable & run;
                        continue;
                    };
                    let index = cell_index(IVec3::new(cx, y, z + gz as i32));
                    let (word, offset) = (index >> 6, index & 63);
                    bits.passable |= (chunk.passable[word] >> offset << shift) & run;
                    bits.standable |= (chunk.standable[word] >> offset << shift) & run;
                    if let Some(extra) = &chunk.extra {
                        bits.partial |= (extra.partial[word] >> offset << shift) & run;
                    }
                }
            }
            y = end;
        }
    }

    /// [`VoxelWorld::terrain`] of `feet` in chunk `slot` of a world that holds special
    /// blocks, kept out of the inlined test that plain cells pay per move.
    fn special_terrain(&self, feet: IVec3, slot: u32) -> TerrainFlags {
        let extra = if slot == NO_CHUNK {
            None
        } else {
            self.chunks[slot as usize].extra.as_deref()
        };
        let index = cell_index(feet);
        let mut terrain = TerrainFlags::PLAIN;
        let floor_kind = if feet.y & CHUNK_MASK != 0 {
            // y varies fastest inside a chunk: the floor is the previous cell.
            extra.map_or(KIND_PLAIN, |e| e.kinds[index - 1])
        } else {
            self.kind_at(feet - IVec3::Y)
        };
        match floor_kind {
            KIND_SLOW_FLOOR => terrain = terrain | TerrainFlags::ON_SLOW_FLOOR,
            KIND_LADDER => terrain = terrain | TerrainFlags::ON_LADDER,
            _ => {}
        }
        let head_kind = if feet.y & CHUNK_MASK == CHUNK_MASK {
            self.kind_at(feet + IVec3::Y)
        } else {
            // The head is the next cell of the same chunk column.
            extra.map_or(KIND_PLAIN, |e| e.kinds[index + 1])
        };
        if head_kind == KIND_COBWEB {
            terrain = terrain | TerrainFlags::IN_COBWEB;
        }
        let Some(extra) = extra else {
            return terrain;
        };
        match extra.kinds[index] {
            KIND_WATER => terrain = terrain | TerrainFlags::IN_WATER,
            KIND_LADDER => terrain = terrain | TerrainFlags::IN_LADDER,
            KIND_DOOR => terrain = terrain | TerrainFlags::IN_DOOR,
            KIND_COBWEB => terrain = terrain | TerrainFlags::IN_COBWEB,
            _ => {}
        }
        if extra.danger[index >> 6] & (1u64 << (index & 63)) != 0 {
            terrain = terrain | TerrainFlags::NEAR_DANGER;
        }
        terrain
    }
}

impl VoxelWorld for ChunkedWorld {
    fn block(&self, p: IVec3) -> Option<Block> {
        self.get(p)
    }

    #[inline]
    fn is_passable(&self, p: IVec3) -> bool {
        if !self.inside(p) {
            return false;
        }
        let slot = self.chunk_slot(chunk_of(p));
        if slot == NO_CHUNK {
            return self.absent.bits().0;
        }
        let (word, mask) = bit(p);
        self.chunks[slot as usize].passable[word] & mask != 0
    }

    #[inline]
    fn is_standable(&self, p: IVec3) -> bool {
        if !self.inside(p) {
            return false;
        }
        let slot = self.chunk_slot(chunk_of(p));
        if slot == NO_CHUNK {
            return self.absent.bits().1;
        }
        let (word, mask) = bit(p);
        self.chunks[slot as usize].standable[word] & mask != 0
    }

    #[inline]
    fn terrain(&self, feet: IVec3) -> TerrainFlags {
        if self.special_chunks == 0 || !self.inside(feet) {
            return TerrainFlags::PLAIN;
        }
        // Where special blocks are few (lakes in a terrain), most cells still lie in plain
        // chunks: answer those here, without a call. A feet cell at the bottom of its chunk
        // has its floor in the chunk below, and one at the top its head in the chunk above
        // (a cobweb there slows the agent), so both take the full look-up.
        let slot = self.chunk_slot(chunk_of(feet));
        let plain_chunk = slot == NO_CHUNK || self.chunks[slot as usize].extra.is_none();
        let inner_layer = !matches!(feet.y & CHUNK_MASK, 0 | CHUNK_MASK);
        if plain_chunk && inner_layer {
            return TerrainFlags::PLAIN;
        }
        self.special_terrain(feet, slot)
    }

    #[inline]
    fn is_plain_region(&self, min: IVec3, max: IVec3) -> bool {
        if self.special_chunks == 0 {
            return true;
        }
        // The terrain of a feet cell reads its floor below and its head above too, and cells
        // outside the bounds read as plain: the chunks to ask are those of the region grown
        // by a cell up and down, clipped to the bounds.
        let (Some(low), Some(high)) = (min.y.checked_sub(1), max.y.checked_add(1)) else {
            return false;
        };
        let (mut lo, mut hi) = (
            IVec3::new(min.x, low, min.z),
            IVec3::new(max.x, high, max.z),
        );
        if let Some(bounds) = self.bounds {
            lo = lo.max(bounds.min);
            hi = hi.min(bounds.max - IVec3::ONE);
        }
        if lo.cmpgt(hi).any() {
            // Every cell lies outside the bounds (or none was asked for): nothing to read.
            return min.cmple(max).all();
        }
        let (clo, chi) = (chunk_of(lo), chunk_of(hi));
        // A few chunks answer a neighbourhood; a region of many is not worth the look-ups.
        if (chi - clo)
            .cmpgt(IVec3::splat(MAX_PLAIN_REGION_CHUNKS))
            .any()
        {
            return false;
        }
        for cy in clo.y..=chi.y {
            for cz in clo.z..=chi.z {
                for cx in clo.x..=chi.x {
                    let chunk = IVec3::new(cx, cy, cz);
                    let slot = self.chunk_slot(chunk);
                    if slot == NO_CHUNK {
                        continue;
                    }
                    if let Some(extra) = self.chunks[slot as usize].extra.as_deref() {
                        // The part of the region inside this chunk.
                        let first = lo.max(chunk * CHUNK_SIZE);
                        let last = hi.min(chunk * CHUNK_SIZE + IVec3::splat(CHUNK_MASK));
                        if !extra_is_plain(extra, first, last) {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    #[inline]
    fn floor_top(&self, p: IVec3) -> u8 {
        floor_top_of_kind(self.kind_at(p))
    }

    #[inline]
    fn bounds(&self) -> Option<Bounds> {
        self.bounds
    }

    fn watch(&self) -> Option<WorldWatch> {
        Some(self.live.watch())
    }

    fn is_unloaded(&self, p: IVec3) -> bool {
        if let Some(height) = self.column_height() {
            // Above the top or below the bottom is outside the world's height, not unloaded.
            return height.contains(&p.y) && !self.is_column_loaded(p.x >> 4, p.z >> 4);
        }
        if self.absent != Block::Barrier {
            return false;
        }
        match self.bounds {
            Some(bounds) if !bounds.contains(p) => {
                // Columns beyond the bounds are territory not loaded; above the top or below
                // the bottom is outside the world's height, not unloaded.
                !((bounds.min.x..bounds.max.x).contains(&p.x)
                    && (bounds.min.z..bounds.max.z).contains(&p.z))
            }
            _ => self.chunk_slot(chunk_of(p)) == NO_CHUNK,
        }
    }

    #[inline]
    fn column(&self, x: i32, z: i32, y0: i32, count: u32) -> ColumnBits {
        self.column_bits(x, z, y0, count)
    }

    #[inline]
    fn columns_around(&self, x: i32, z: i32, y0: i32, count: u32) -> [ColumnBits; 9] {
        self.columns_around_bits::<true>(x, z, y0, count)
    }

    #[inline]
    fn columns_square(
        &self,
        x: i32,
        z: i32,
        y0: i32,
        count: u32,
        side: u32,
        out: &mut [ColumnBits],
    ) {
        self.columns_square_bits(x, z, y0, count, side, out);
    }

    /// The passable bits of [`VoxelWorld::columns_around`] alone, packed.
    #[inline]
    fn passable_block(&self, x: i32, z: i32, y0: i32, count: u32) -> u64 {
        let count = count.min(MAX_BLOCK_HEIGHT);
        let columns = self.columns_around_bits::<false>(x, z, y0, count);
        let mut block = 0u64;
        for (column, &(dx, dz)) in columns.iter().zip(&AROUND) {
            block |= column.passable << (count * block_column(dx, dz));
        }
        block
    }
}

#[cfg(test)]
mod tests {
    use glam::IVec3;

    use crate::world::chunked::{Block, ChunkedWorld};
    use crate::world::{Bounds, ColumnBits, TerrainFlags, VoxelWorld};

    /// Worlds of mixed blocks: bounded at a negative offset (absent chunks air, solid or
    /// barrier), and unbounded with blocks at the ends of i32.
    fn worlds() -> Vec<ChunkedWorld> {
        let kinds = [
            Block::Air,
            Block::Air,
            Block::Solid,
            Block::Water,
            Block::Lava,
            Block::Floor(8),
            Block::Fence,
            Block::Door,
            Block::Ladder,
            Block::Cobweb,
            Block::SlowFloor,
            Block::Leaves,
        ];
        let mut next = crate::testing::xorshift(0x51A7_E5C0_FFEE_1234);
        let mut worlds = Vec::new();
        for absent in [Block::Air, Block::Solid, Block::Barrier] {
            let bounds = Bounds::new(IVec3::new(-40, -24, -40), IVec3::new(8, 24, 8));
            let mut world = ChunkedWorld::with_bounds(bounds).unwrap();
            world.set_absent_block(absent).unwrap();
            // Blocks below y = 0 only, so that the chunks above stay absent, and sparse
            // enough that whole chunks and columns stay plain.
            for _ in 0..3000 {
                let r = next();
                let p = IVec3::new(
                    (r % 48) as i32 - 40,
                    ((r >> 8) % 24) as i32 - 24,
                    ((r >> 16) % 48) as i32 - 40,
                );
                if (p.x >> 4, p.z >> 4) != (-3, -3) {
                    world
                        .set(p, kinds[(r >> 32) as usize % kinds.len()])
                        .unwrap();
                }
            }
            worlds.push(world);
        }
        let mut open = ChunkedWorld::new();
        for x in [i32::MIN, i32::MIN + 1, -1, 0, i32::MAX - 1, i32::MAX] {
            for z in [i32::MIN, -1, 0, i32::MAX] {
                open.set(IVec3::new(x, 0, z), Block::Water).unwrap();
                open.set(IVec3::new(x, 2, z), Block::Solid).unwrap();
            }
        }
        worlds.push(open);
        worlds
    }

    /// The bulk read of a square of columns is the columns read one by one: for every side
    /// from 1 to 6, at squares across chunk borders in x, y and z, at the bounds and outside
    /// them, and at the ends of i32; with the rest of the buffer left alone.
    #[test]
    fn square_reads_are_the_columns() {
        let mut compared = 0;
        let worlds = worlds();
        let (bounded, open) = worlds.split_at(3);
        let marker = ColumnBits {
            passable: 0xDEAD,
            standable: 0xBEEF,
            partial: 0xF00D,
        };
        let mut check = |world: &ChunkedWorld, x: i32, z: i32, y0: i32, count: u32, side: u32| {
            let mut out = [marker; 40];
            world.columns_square(x, z, y0, count, side, &mut out);
            let n = (side * side) as usize;
            for (i, column) in out.iter().enumerate() {
                if i >= n {
                    assert_eq!(*column, marker, "past the square");
                    continue;
                }
                let (gx, gz) = ((i / side as usize) as i32, (i % side as usize) as i32);
                let expected = match (x.checked_add(gx), z.checked_add(gz)) {
                    (Some(cx), Some(cz)) => world.column(cx, cz, y0, count),
                    _ => ColumnBits::default(),
                };
                assert_eq!(*column, expected, "{x} {z} {y0} {count} side {side} at {i}");
                compared += 1;
            }
        };
        for world in bounded {
            for x in [
                -44, -41, -40, -35, -34, -33, -32, -31, -20, -17, -16, 0, 3, 6, 9,
            ] {
                for z in [-42, -40, -33, -30, -18, -15, 2, 5] {
                    for y0 in [-26, -24, -17, -16, -9, -3, 0, 14, 20] {
                        for (count, side) in [(8, 4), (9, 5), (8, 3), (1, 1), (17, 2), (64, 6)] {
                            check(world, x, z, y0, count, side);
                        }
                    }
                }
            }
        }
        let ends = [i32::MIN, i32::MIN + 2, -3, 0, i32::MAX - 4, i32::MAX - 1];
        for x in ends {
            for z in ends {
                for y0 in [i32::MIN, -4, -1, i32::MAX - 7, i32::MAX] {
                    check(&open[0], x, z, y0, 8, 4);
                    check(&open[0], x, z, y0, 9, 5);
                }
            }
        }
        assert!(compared > 100_000, "only {compared} columns compared");
    }

    /// A region the world calls plain has plain terrain in every cell, and regions without
    /// special blocks near them are called plain: in chunks that hold special blocks, in
    /// absent chunks, at the bounds and beyond them, at the ends of i32.
    #[test]
    fn plain_regions_have_plain_terrain_everywhere() {
        let (mut plain, mut not) = (0, 0);
        let mut next = crate::testing::xorshift(0x0DDB_A11C_AFE0_0042);
        for world in &worlds() {
            let bounded = world.bounds().is_some();
            for _ in 0..4000 {
                let r = next();
                let (min, size) = if bounded {
                    let min = IVec3::new(
                        (r % 52) as i32 - 44,
                        ((r >> 8) % 56) as i32 - 30,
                        ((r >> 16) % 52) as i32 - 44,
                    );
                    (
                        min,
                        IVec3::new(
                            1 + (r >> 24) as i32 % 5,
                            1 + (r >> 28) as i32 % 9,
                            1 + (r >> 32) as i32 % 5,
                        ),
                    )
                } else {
                    let ends = [i32::MIN, i32::MIN + 3, -3, 0, i32::MAX - 4];
                    let pick = |s: u64| ends[(s % 5) as usize];
                    (
                        IVec3::new(pick(r), pick(r >> 8), pick(r >> 16)),
                        IVec3::splat(4),
                    )
                };
                let max = min + size - IVec3::ONE;
                if world.is_plain_region(min, max) {
                    plain += 1;
                    for x in min.x..=max.x {
                        for z in min.z..=max.z {
                            for y in min.y..=max.y {
                                let p = IVec3::new(x, y, z);
                                assert_eq!(
                                    world.terrain(p),
                                    TerrainFlags::PLAIN,
                                    "{p} in {min}..{max}"
                                );
                            }
                        }
                    }
                } else {
                    not += 1;
                }
            }
            // A region above every special block, in the absent chunks, is plain.
            if bounded {
                assert!(world.is_plain_region(IVec3::new(-40, 2, -40), IVec3::new(-30, 20, -30)));
            }
        }
        // Both answers were given often: the check is neither vacuous nor useless.
        assert!(plain > 1000 && not > 1000, "{plain} plain, {not} not");
    }
}
