//! [`VoxelWorld`] for [`ChunkedWorld`]: the reads a search makes per move (passable,
//! standable, terrain, unloaded) and the bulk column reads, each a chunk look-up and a bit test.

use glam::IVec3;

use super::block::{
    KIND_COBWEB, KIND_DOOR, KIND_LADDER, KIND_PLAIN, KIND_SLOW_FLOOR, KIND_WATER, floor_top_of_kind,
};
use super::chunk::{CHUNK_MASK, NO_CHUNK, bit, cell_index, chunk_of};
use super::{Block, ChunkedWorld};
use crate::world::versioned::WorldWatch;
use crate::world::{
    AROUND, Bounds, ColumnBits, MAX_BLOCK_HEIGHT, TerrainFlags, VoxelWorld, block_column,
};

impl ChunkedWorld {
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
