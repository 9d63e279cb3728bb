//! Bulk writers of [`ChunkedWorld`]: whole columns for generators, whole chunks for loaders
//! (uniform chunks shared, palettes).

use glam::IVec3;

use super::ChunkedWorld;
use super::block::{Block, KIND_PLAIN};
use super::chunk::{
    CELLS, CHUNK_MASK, CHUNK_SHIFT, CHUNK_SIZE, Chunk, NO_CHUNK, bit, build_chunk, chunk_of,
    set_bit,
};
use crate::error::{Error, Result};
use crate::world::Bounds;
use crate::world::key::in_key_range;

impl ChunkedWorld {
    /// Writes `block` into the cells `(x, y, z)` for every `y` in `ys`: a fast bulk writer
    /// for generators that build worlds column by column (one chunk look-up per 16 cells).
    ///
    /// ```
    /// use voxnav::IVec3;
    /// use voxnav::{Block, ChunkedWorld, VoxelWorld};
    ///
    /// let mut world = ChunkedWorld::with_size(IVec3::new(4, 40, 4))?;
    /// world.set_column(2, 3, 0..35, Block::Solid)?;
    /// assert!(world.is_standable(IVec3::new(2, 34, 3)));
    /// assert!(world.is_passable(IVec3::new(2, 35, 3)));
    /// # Ok::<(), voxnav::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::OutOfWorld`] when any cell of the column range is outside a bounded world
    /// (nothing is written then). An empty range writes nothing.
    pub fn set_column(
        &mut self,
        x: i32,
        z: i32,
        ys: std::ops::Range<i32>,
        block: Block,
    ) -> Result<()> {
        block.check()?;
        if ys.is_empty() {
            return Ok(());
        }
        for corner in [IVec3::new(x, ys.start, z), IVec3::new(x, ys.end - 1, z)] {
            self.check_loaded(corner)?;
            if !self.inside(corner) || !in_key_range(corner) {
                return Err(Error::OutOfWorld {
                    pos: corner,
                    bounds: self.bounds.unwrap_or(Bounds::new(corner, corner)),
                });
            }
        }
        if block.kind_code() != KIND_PLAIN || self.special_chunks > 0 || self.changes.is_some() {
            // Per-cell kinds, the danger margin and the change log need cell-by-cell writes.
            for y in ys {
                self.set(IVec3::new(x, y, z), block)?;
            }
            return Ok(());
        }
        let (passable, standable) = block.bits();
        let mut changed = false;
        let mut y = ys.start;
        while y < ys.end {
            let chunk_pos = chunk_of(IVec3::new(x, y, z));
            let chunk_end = ((chunk_pos.y + 1) << CHUNK_SHIFT).min(ys.end);
            if block == self.absent && self.chunk_slot(chunk_pos) == NO_CHUNK {
                y = chunk_end;
                continue;
            }
            let slot = self.ensure_chunk(IVec3::new(x, y, z));
            let chunk = std::sync::Arc::make_mut(&mut self.chunks[slot as usize]);
            for cell_y in y..chunk_end {
                let (word, mask) = bit(IVec3::new(x, cell_y, z));
                let before = (chunk.passable[word], chunk.standable[word]);
                set_bit(&mut chunk.passable[word], mask, passable);
                set_bit(&mut chunk.standable[word], mask, standable);
                changed |= before != (chunk.passable[word], chunk.standable[word]);
            }
            y = chunk_end;
        }
        if changed {
            self.live.bump();
        }
        Ok(())
    }

    /// [`Error::OutOfWorld`] unless every cell of chunk `chunk` lies inside the world and in
    /// the searchable range.
    fn check_whole_chunk(&self, chunk: IVec3) -> Result<()> {
        let lo = chunk * CHUNK_SIZE;
        let hi = lo + IVec3::splat(CHUNK_MASK);
        for corner in [lo, hi] {
            self.check_loaded(corner)?;
            if !self.inside(corner) || !in_key_range(corner) {
                return Err(Error::OutOfWorld {
                    pos: corner,
                    bounds: self.bounds.unwrap_or(Bounds::new(corner, corner)),
                });
            }
        }
        Ok(())
    }

    /// Stores `data` as chunk `chunk`, replacing what was there.
    fn put_chunk(&mut self, chunk: IVec3, data: Chunk) {
        let slot = self.chunk_slot(chunk);
        if slot != NO_CHUNK && !self.shared.contains(&slot) {
            self.special_chunks += usize::from(data.extra.is_some());
            let old = std::mem::replace(&mut self.chunks[slot as usize], std::sync::Arc::new(data));
            self.special_chunks -= usize::from(old.extra.is_some());
        } else {
            let slot = self.store_chunk(data);
            self.point_slot(chunk, slot);
        }
        self.live.bump();
    }

    /// Fills chunk `chunk` (chunk coordinates: cell coordinates divided by [`CHUNK_SIZE`],
    /// rounded down) with `block`. A chunk that held no data and is filled with air, solid
    /// or barrier shares one stored chunk with every other such chunk, so a loaded world's
    /// empty sky costs a slot, not a kilobyte.
    ///
    /// # Errors
    /// [`Error::OutOfWorld`] when part of the chunk lies outside a bounded world or the
    /// searchable range, [`Error::InvalidSetting`] for a bad [`Block::Floor`] (nothing is
    /// written then).
    pub fn fill_chunk(&mut self, chunk: IVec3, block: Block) -> Result<()> {
        self.fill_chunk_deferred(chunk, block)?;
        self.rebuild_danger_near(chunk);
        Ok(())
    }

    /// [`ChunkedWorld::fill_chunk`] without updating the danger margin.
    fn fill_chunk_deferred(&mut self, chunk: IVec3, block: Block) -> Result<()> {
        block.check()?;
        self.check_whole_chunk(chunk)?;
        if self.changes.is_some() {
            let lo = chunk * CHUNK_SIZE;
            return self.fill(lo, lo + IVec3::splat(CHUNK_MASK), block);
        }
        let slot = self.chunk_slot(chunk);
        if block.kind_code() == KIND_PLAIN {
            if slot == NO_CHUNK || self.shared.contains(&slot) {
                let shared = self.shared_chunk(block);
                if slot != shared {
                    self.point_slot(chunk, shared);
                    self.live.bump();
                }
            } else {
                self.put_chunk(chunk, Chunk::plain(block));
            }
        } else {
            self.put_chunk(chunk, build_chunk(&[block], &[0; CELLS]));
        }
        Ok(())
    }

    /// The slot of the shared chunk filled with `block` (air, solid or barrier), created on
    /// first use.
    pub(super) fn shared_chunk(&mut self, block: Block) -> u32 {
        let (passable, standable) = block.bits();
        let found = self.shared.iter().copied().find(|&slot| {
            let chunk = &self.chunks[slot as usize];
            (chunk.passable[0] & 1 != 0, chunk.standable[0] & 1 != 0) == (passable, standable)
        });
        found.unwrap_or_else(|| {
            let slot = self.store_chunk(Chunk::plain(block));
            self.shared.push(slot);
            slot
        })
    }

    /// Writes a whole chunk from a palette: cell `(x, y, z)` of the chunk (0..16 each,
    /// relative to its lowest corner) is `palette[indices[(y * 16 + z) * 16 + x]]`, the
    /// order of Minecraft's sections and of the layered text format.
    ///
    /// ```
    /// use voxnav::IVec3;
    /// use voxnav::{Block, ChunkedWorld, VoxelWorld};
    ///
    /// let mut world = ChunkedWorld::new();
    /// let mut indices = [0u16; 4096];
    /// indices[..256].fill(1); // the bottom layer, y = 0
    /// world.set_chunk_palette(IVec3::new(0, 0, 0), &[Block::Air, Block::Solid], &indices)?;
    /// assert!(world.is_standable(IVec3::new(5, 0, 9)));
    /// assert!(world.is_passable(IVec3::new(5, 1, 9)));
    /// # Ok::<(), voxnav::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when `indices` does not hold 4096 entries, an index lies
    /// past the palette, or a [`Block::Floor`] is bad; [`Error::OutOfWorld`] as
    /// [`ChunkedWorld::fill_chunk`]. Nothing is written then.
    pub fn set_chunk_palette(
        &mut self,
        chunk: IVec3,
        palette: &[Block],
        indices: &[u16],
    ) -> Result<()> {
        if let Some(&worst) = indices.iter().max()
            && usize::from(worst) >= palette.len()
        {
            return Err(Error::InvalidSetting(format!(
                "index {worst} lies past the palette of {} blocks",
                palette.len()
            )));
        }
        self.set_chunk_palette_deferred(chunk, palette, indices)?;
        self.rebuild_danger_near(chunk);
        Ok(())
    }

    /// [`ChunkedWorld::set_chunk_palette`] without updating the danger margin. The caller
    /// has checked that every index lies inside the palette.
    fn set_chunk_palette_deferred(
        &mut self,
        chunk: IVec3,
        palette: &[Block],
        indices: &[u16],
    ) -> Result<()> {
        if indices.len() != CELLS {
            return Err(Error::InvalidSetting(format!(
                "a chunk has {CELLS} cells, found {} indices",
                indices.len()
            )));
        }
        for block in palette {
            block.check()?;
        }
        self.check_whole_chunk(chunk)?;
        if self.changes.is_some() {
            let lo = chunk * CHUNK_SIZE;
            for (i, &index) in indices.iter().enumerate() {
                let local = IVec3::new(
                    i as i32 & CHUNK_MASK,
                    i as i32 >> 8,
                    (i as i32 >> 4) & CHUNK_MASK,
                );
                self.set(lo + local, palette[usize::from(index)])?;
            }
            return Ok(());
        }
        self.put_chunk(chunk, build_chunk(palette, indices));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{ColumnBits, VoxelWorld};

    #[test]
    fn absent_chunks_answer_the_absent_block_and_writes_start_from_it() {
        let mut world = ChunkedWorld::with_size(IVec3::new(48, 32, 48)).unwrap();
        world.set_absent_block(Block::Barrier).unwrap();
        assert!(world.set_absent_block(Block::Water).is_err());
        let p = IVec3::new(20, 20, 20);
        assert_eq!(world.get(p), Some(Block::Barrier));
        assert!(!world.is_passable(p) && !world.is_standable(p));
        assert_eq!(world.column(20, 20, 0, 32), ColumnBits::default());
        assert_eq!(world.chunk_count(), 0);
        // A write into an absent chunk keeps the rest of it unloaded.
        world.set(p, Block::Air).unwrap();
        assert!(world.is_passable(p));
        assert_eq!(world.get(p + IVec3::X), Some(Block::Barrier));
        let around = world.columns_around(33, 33, 0, 32);
        assert!(around.iter().all(|c| *c == ColumnBits::default()));
    }

    #[test]
    fn shared_uniform_chunks_are_copied_before_a_write() {
        let mut world = ChunkedWorld::with_size(IVec3::new(64, 32, 64)).unwrap();
        world.set_absent_block(Block::Barrier).unwrap();
        for x in 0..4 {
            world.fill_chunk(IVec3::new(x, 0, 0), Block::Air).unwrap();
            world.fill_chunk(IVec3::new(x, 1, 0), Block::Solid).unwrap();
        }
        assert_eq!(world.chunk_count(), 2, "eight chunks, two stored");
        world.set(IVec3::new(17, 3, 4), Block::Solid).unwrap();
        assert_eq!(world.chunk_count(), 3);
        assert_eq!(world.get(IVec3::new(17, 3, 4)), Some(Block::Solid));
        assert_eq!(world.get(IVec3::new(1, 3, 4)), Some(Block::Air));
        assert_eq!(world.get(IVec3::new(33, 3, 4)), Some(Block::Air));
        assert_eq!(world.get(IVec3::new(33, 20, 4)), Some(Block::Solid));
        assert!(world.fill_chunk(IVec3::new(4, 0, 0), Block::Air).is_err());
    }

    /// The danger margin written chunk by chunk equals the one written cell by cell.
    #[test]
    fn whole_chunk_writes_agree_with_cell_writes() {
        let size = IVec3::new(48, 48, 48);
        let palette = [
            Block::Air,
            Block::Solid,
            Block::Lava,
            Block::Water,
            Block::Floor(8),
            Block::Hazard,
        ];
        let mut by_cells = ChunkedWorld::with_size(size).unwrap();
        let mut by_chunks = ChunkedWorld::with_size(size).unwrap();
        let mut rng = 0x2545_f491_4f6c_dd1d_u64;
        for cy in 0..3 {
            for cz in 0..3 {
                for cx in 0..3 {
                    let chunk = IVec3::new(cx, cy, cz);
                    let mut indices = [0u16; CELLS];
                    for (i, index) in indices.iter_mut().enumerate() {
                        rng ^= rng << 13;
                        rng ^= rng >> 7;
                        rng ^= rng << 17;
                        // Mostly air and solid, a little of everything else.
                        *index = match rng % 100 {
                            0 => 2,
                            1 => 3,
                            2 => 4,
                            3 if cx == 1 => 5,
                            n if n < 50 => 1,
                            _ => 0,
                        };
                        let local = IVec3::new(
                            i as i32 & CHUNK_MASK,
                            i as i32 >> 8,
                            (i as i32 >> 4) & CHUNK_MASK,
                        );
                        by_cells
                            .set(chunk * CHUNK_SIZE + local, palette[usize::from(*index)])
                            .unwrap();
                    }
                    by_chunks
                        .set_chunk_palette(chunk, &palette, &indices)
                        .unwrap();
                }
            }
        }
        for z in 0..48 {
            for x in 0..48 {
                assert_eq!(by_cells.column(x, z, 0, 48), by_chunks.column(x, z, 0, 48));
            }
        }
        for y in 0..48 {
            for z in 0..48 {
                for x in 0..48 {
                    let p = IVec3::new(x, y, z);
                    assert_eq!(by_cells.get(p), by_chunks.get(p), "{p}");
                    assert_eq!(by_cells.terrain(p), by_chunks.terrain(p), "{p}");
                }
            }
        }
        // The public writer keeps the margin right without a rebuild: clearing the lava of
        // one chunk clears the danger next to it.
        by_chunks
            .set_chunk_palette(IVec3::new(1, 1, 1), &[Block::Air], &[0; CELLS])
            .unwrap();
        let lo = IVec3::new(1, 1, 1) * CHUNK_SIZE;
        by_cells
            .fill(lo, lo + IVec3::splat(CHUNK_MASK), Block::Air)
            .unwrap();
        for y in 0..48 {
            for z in 0..48 {
                for x in 0..48 {
                    let p = IVec3::new(x, y, z);
                    assert_eq!(by_cells.terrain(p), by_chunks.terrain(p), "{p}");
                }
            }
        }
        assert!(
            by_chunks
                .set_chunk_palette(IVec3::ZERO, &[Block::Air], &[1; CELLS])
                .is_err()
        );
        assert!(by_chunks.heap_bytes() > 27 * 1024);
    }
}
