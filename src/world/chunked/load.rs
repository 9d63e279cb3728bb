//! Worlds of loaded chunk columns: [`ChunkedWorld::with_height`] makes a world without x and z
//! bounds that grows and shrinks column by column ([`ChunkedWorld::insert_column`],
//! [`ChunkedWorld::remove_column`]), as a game server loads and unloads chunks.
//!
//! The chunk directory of such a world stays a flat array while the loaded area is small
//! enough ([`MAX_DENSE_CHUNKS`]): it covers a box of chunk columns around what was loaded,
//! padded so that a player walking on grows it only now and then (each growth copies the
//! directory of `u32` slots, never a chunk), and falls back to a hash map once the box would
//! be too large (players far apart).

use ahash::AHashSet;
use glam::IVec3;

use super::ChunkedWorld;
use super::block::{Block, KIND_PLAIN, is_dangerous_kind};
use super::chunk::{
    CELLS, CHUNK_SHIFT, CHUNK_SIZE, Chunk, DenseSlots, MAX_DENSE_CHUNKS, NO_CHUNK, build_chunk,
};
use crate::error::{Error, Result};
use crate::world::Bounds;
use crate::world::key::in_key_range;

/// The chunk columns a world made by [`ChunkedWorld::with_height`] holds, and its height.
#[derive(Debug, Clone)]
pub(super) struct LoadedColumns {
    /// The lowest chunk y (cell y divided by 16) and the number of chunks per column.
    pub(super) bottom: i32,
    pub(super) sections: i32,
    /// The loaded columns, as chunk coordinates `(x, z)`.
    pub(super) columns: AHashSet<(i32, i32)>,
}

impl ChunkedWorld {
    /// An empty world of chunk columns from `min_y` (inclusive) to `max_y` (exclusive), with
    /// no column loaded: every cell is unloaded (neither passable nor standable, and
    /// [`VoxelWorld::is_unloaded`](crate::VoxelWorld::is_unloaded)) until
    /// [`ChunkedWorld::insert_column`] loads its column. There are no x and z bounds to
    /// choose: columns load anywhere within the searchable range. Minecraft's overworld is
    /// `with_height(-64, 320)`, the nether and the end `with_height(0, 256)`.
    ///
    /// [`ChunkedWorld::world_bounds`] is the box of the columns loaded so far (it grows as
    /// columns load and does not shrink when they unload: columns inside it that are not
    /// loaded read as unloaded). Cell writes into a column that is not loaded are refused
    /// ([`Error::ChunkNotLoaded`]), so a column is either wholly loaded or not at all.
    ///
    /// ```
    /// use voxnav::IVec3;
    /// use voxnav::{Block, ChunkedWorld, VoxelWorld};
    ///
    /// let mut world = ChunkedWorld::with_height(0, 64)?;
    /// // Four sections from y = 0: a floor of solid, then air.
    /// let floor = [Block::Solid];
    /// let sections = [(&floor[..], &[0u16; 4096][..]), (&[][..], &[][..]), (&[][..], &[][..]), (&[][..], &[][..])];
    /// world.insert_column(-100_000, 7, sections)?;
    /// let feet = IVec3::new(-1_600_000 + 3, 16, 7 * 16 + 2);
    /// assert!(world.is_standable(feet - IVec3::Y) && world.is_passable(feet));
    /// assert!(world.is_unloaded(feet + IVec3::new(16, 0, 0)));
    /// world.remove_column(-100_000, 7);
    /// assert!(world.is_unloaded(feet) && !world.is_passable(feet));
    /// # Ok::<(), voxnav::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] unless `min_y < max_y`, both are multiples of 16 and both lie
    /// within the searchable range (y within `+-2048`).
    pub fn with_height(min_y: i32, max_y: i32) -> Result<Self> {
        let searchable = -2048..=2048;
        if min_y >= max_y
            || min_y % CHUNK_SIZE != 0
            || max_y % CHUNK_SIZE != 0
            || !searchable.contains(&min_y)
            || !searchable.contains(&max_y)
        {
            return Err(Error::InvalidSetting(format!(
                "a world of chunk columns spans y from a multiple of 16 to a larger one within \
                 -2048..=2048, not {min_y}..{max_y}"
            )));
        }
        let origin = IVec3::new(0, min_y, 0);
        Ok(Self {
            bounds: Some(Bounds::new(origin, IVec3::new(0, max_y, 0))),
            absent: Block::Barrier,
            loaded: Some(Box::new(LoadedColumns {
                bottom: min_y >> CHUNK_SHIFT,
                sections: (max_y - min_y) / CHUNK_SIZE,
                columns: AHashSet::new(),
            })),
            ..Self::default()
        })
    }

    /// Whether the world is made of loaded chunk columns ([`ChunkedWorld::with_height`]).
    #[must_use]
    pub fn loads_columns(&self) -> bool {
        self.loaded.is_some()
    }

    /// The cells' y range of a world made of chunk columns ([`ChunkedWorld::with_height`]),
    /// `None` for other worlds.
    #[must_use]
    pub fn column_height(&self) -> Option<std::ops::Range<i32>> {
        self.loaded.as_deref().map(|loaded| {
            let bottom = loaded.bottom << CHUNK_SHIFT;
            bottom..bottom + loaded.sections * CHUNK_SIZE
        })
    }

    /// Whether chunk column `(chunk_x, chunk_z)` is loaded: always true in a world that does
    /// not load columns ([`ChunkedWorld::loads_columns`]).
    #[must_use]
    pub fn is_column_loaded(&self, chunk_x: i32, chunk_z: i32) -> bool {
        self.loaded
            .as_ref()
            .is_none_or(|loaded| loaded.columns.contains(&(chunk_x, chunk_z)))
    }

    /// The loaded chunk columns, as chunk coordinates `(x, z)`, in no particular order (none
    /// for a world that does not load columns).
    pub fn loaded_columns(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        self.loaded
            .iter()
            .flat_map(|loaded| loaded.columns.iter().copied())
    }

    /// The number of loaded chunk columns.
    #[must_use]
    pub fn loaded_column_count(&self) -> usize {
        self.loaded
            .as_ref()
            .map_or(0, |loaded| loaded.columns.len())
    }

    /// [`Error::ChunkNotLoaded`] when `p` lies in a column a world of chunk columns has not
    /// loaded.
    pub(super) fn check_loaded(&self, p: IVec3) -> Result<()> {
        let (chunk_x, chunk_z) = (p.x >> CHUNK_SHIFT, p.z >> CHUNK_SHIFT);
        if self.is_column_loaded(chunk_x, chunk_z) {
            Ok(())
        } else {
            Err(Error::ChunkNotLoaded { chunk_x, chunk_z })
        }
    }

    /// Loads chunk column `(chunk_x, chunk_z)` (chunk coordinates: cell x and z divided by
    /// 16, rounded down), replacing it if it was loaded. `sections` are its 16 x 16 x 16
    /// sections from the world's lowest y up, each a palette and its 4096 indices in
    /// Minecraft's order (as [`ChunkedWorld::set_chunk_palette`]); an empty palette is a
    /// section of air, a palette of one block a section of that block (the indices are not
    /// read then, and may be empty). Sections missing at the top are air.
    ///
    /// Only the loaded column's chunks are written, plus the danger margin of the chunks next
    /// to it when lava or a hazard lies on either side of the seam; with
    /// [`ChunkedWorld::track_changes`] on, the load is reported as one column
    /// ([`Changes::loaded_columns`](super::Changes::loaded_columns)), not cell by cell.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] for a world not made by [`ChunkedWorld::with_height`], more
    /// sections than the world is tall, a section's indices that are not 4096 or lie past its
    /// palette, or a bad [`Block::Floor`]; [`Error::OutOfWorld`] for a column outside the
    /// searchable range (x and z within `+-2^25`). Nothing is written then.
    pub fn insert_column<'a>(
        &mut self,
        chunk_x: i32,
        chunk_z: i32,
        sections: impl IntoIterator<Item = (&'a [Block], &'a [u16])>,
    ) -> Result<()> {
        let Some(loaded) = self.loaded.as_deref() else {
            return Err(Error::InvalidSetting(
                "only a world made by ChunkedWorld::with_height loads chunk columns".to_owned(),
            ));
        };
        let (bottom, count) = (loaded.bottom, loaded.sections);
        let corner = IVec3::new(
            chunk_x << CHUNK_SHIFT,
            bottom << CHUNK_SHIFT,
            chunk_z << CHUNK_SHIFT,
        );
        let far = corner + IVec3::new(CHUNK_SIZE - 1, 0, CHUNK_SIZE - 1);
        if !in_key_range(IVec3::new(corner.x, 0, corner.z))
            || !in_key_range(IVec3::new(far.x, 0, far.z))
            || corner.x >> CHUNK_SHIFT != chunk_x
            || corner.z >> CHUNK_SHIFT != chunk_z
        {
            return Err(Error::OutOfWorld {
                pos: corner,
                bounds: self.bounds.unwrap_or(Bounds::new(corner, corner)),
            });
        }
        // One past the most the world holds, so that a caller's endless iterator is refused
        // rather than collected.
        let sections: Vec<(&[Block], &[u16])> =
            sections.into_iter().take(count as usize + 1).collect();
        if sections.len() > count as usize {
            return Err(Error::InvalidSetting(format!(
                "chunk column {chunk_x},{chunk_z} has {} sections, the world holds {count}",
                sections.len()
            )));
        }
        for (i, &(palette, indices)) in sections.iter().enumerate() {
            for block in palette {
                block.check()?;
            }
            if palette.len() > 1 {
                if indices.len() != CELLS {
                    return Err(Error::InvalidSetting(format!(
                        "section {i} of chunk column {chunk_x},{chunk_z} has {} indices, not {CELLS}",
                        indices.len()
                    )));
                }
                if let Some(&worst) = indices.iter().max()
                    && usize::from(worst) >= palette.len()
                {
                    return Err(Error::InvalidSetting(format!(
                        "section {i} of chunk column {chunk_x},{chunk_z}: index {worst} lies past \
                         its palette of {} blocks",
                        palette.len()
                    )));
                }
            }
        }
        let was_loaded = self.is_column_loaded(chunk_x, chunk_z);
        if was_loaded {
            self.drop_column(chunk_x, chunk_z);
        }
        self.cover_column(chunk_x, chunk_z);
        let mut dangerous = Vec::new();
        for i in 0..count {
            let chunk = IVec3::new(chunk_x, bottom + i, chunk_z);
            let (palette, indices) = sections.get(i as usize).copied().unwrap_or((&[], &[]));
            let slot = match palette {
                [] => self.shared_chunk(Block::Air),
                [block] if block.kind_code() == KIND_PLAIN => self.shared_chunk(*block),
                [block] => self.store_chunk(build_chunk(&[*block], &[0; CELLS])),
                _ => self.store_chunk(build_chunk(palette, indices)),
            };
            if palette.iter().any(|b| b.is_dangerous()) {
                dangerous.push(chunk);
            }
            self.point_slot(chunk, slot);
        }
        if let Some(loaded) = self.loaded.as_deref_mut() {
            loaded.columns.insert((chunk_x, chunk_z));
        }
        self.refresh_danger_of_column(chunk_x, chunk_z, &dangerous);
        self.note_column(chunk_x, chunk_z, was_loaded);
        self.live.bump();
        Ok(())
    }

    /// Unloads chunk column `(chunk_x, chunk_z)`: its cells read as unloaded again and its
    /// chunks' memory is reused by later loads. Returns whether it was loaded (unloading a
    /// column that is not is nothing, not an error). With [`ChunkedWorld::track_changes`] on,
    /// the unload is reported as one column
    /// ([`Changes::unloaded_columns`](super::Changes::unloaded_columns)).
    pub fn remove_column(&mut self, chunk_x: i32, chunk_z: i32) -> bool {
        if self.loaded.is_none() || !self.is_column_loaded(chunk_x, chunk_z) {
            return false;
        }
        let dangerous = self.drop_column(chunk_x, chunk_z);
        // Lava at the seam gave the neighbours' cells their margin; it is gone now.
        let mut targets = AHashSet::new();
        for chunk in dangerous {
            for dz in -1..=1 {
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        targets.insert(chunk + IVec3::new(dx, dy, dz));
                    }
                }
            }
        }
        for target in targets {
            if self.chunk_slot_checked(target) != NO_CHUNK {
                self.rebuild_danger_of(target, |_| true);
            }
        }
        self.note_column(chunk_x, chunk_z, true);
        self.live.bump();
        true
    }

    /// Forgets the chunks of a loaded column (their slots go to the free list) and returns
    /// those that held lava or a hazard.
    fn drop_column(&mut self, chunk_x: i32, chunk_z: i32) -> Vec<IVec3> {
        let Some(loaded) = self.loaded.as_deref_mut() else {
            return Vec::new();
        };
        loaded.columns.remove(&(chunk_x, chunk_z));
        let (bottom, count) = (loaded.bottom, loaded.sections);
        let mut dangerous = Vec::new();
        for i in 0..count {
            let chunk = IVec3::new(chunk_x, bottom + i, chunk_z);
            let slot = self.chunk_slot_checked(chunk);
            if slot == NO_CHUNK {
                continue;
            }
            match &self.dense {
                Some(_) => self.point_slot(chunk, NO_CHUNK),
                None => {
                    self.index.remove(&chunk);
                }
            }
            if self.shared.contains(&slot) {
                continue;
            }
            let old = std::mem::replace(
                &mut self.chunks[slot as usize],
                std::sync::Arc::new(Chunk::plain(Block::Air)),
            );
            if let Some(extra) = &old.extra {
                self.special_chunks -= 1;
                if extra.kinds.iter().any(|&kind| is_dangerous_kind(kind)) {
                    dangerous.push(chunk);
                }
            }
            self.free_chunks.push(slot);
        }
        dangerous
    }

    /// The danger margin after column `(chunk_x, chunk_z)` loaded with lava or hazards in
    /// the chunks `dangerous`: its own chunks take the margin of what lies around them (their
    /// own blocks and the neighbours' across the seam), and the loaded chunks around the
    /// dangerous ones take theirs.
    fn refresh_danger_of_column(&mut self, chunk_x: i32, chunk_z: i32, dangerous: &[IVec3]) {
        let Some(loaded) = self.loaded.as_deref() else {
            return;
        };
        let (bottom, count) = (loaded.bottom, loaded.sections);
        let mut targets: AHashSet<IVec3> = AHashSet::new();
        for chunk in dangerous {
            for dz in -1..=1 {
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        targets.insert(*chunk + IVec3::new(dx, dy, dz));
                    }
                }
            }
        }
        for i in 0..count {
            let chunk = IVec3::new(chunk_x, bottom + i, chunk_z);
            // Only a chunk with per-cell data around it can hold danger for this one.
            let near_special = (-1..=1).any(|dz| {
                (-1..=1).any(|dy| {
                    (-1..=1).any(|dx| {
                        let slot = self.chunk_slot_checked(chunk + IVec3::new(dx, dy, dz));
                        slot != NO_CHUNK && self.chunks[slot as usize].extra.is_some()
                    })
                })
            });
            if near_special {
                targets.insert(chunk);
            }
        }
        for target in targets {
            if self.chunk_slot_checked(target) != NO_CHUNK {
                self.rebuild_danger_of(target, |_| true);
            }
        }
    }

    /// Grows the bounds to take in column `(chunk_x, chunk_z)`, and the dense directory with
    /// them (or moves it to the hash map once too large).
    fn cover_column(&mut self, chunk_x: i32, chunk_z: i32) {
        let Some(bounds) = self.bounds else {
            return;
        };
        let lo = IVec3::new(chunk_x << CHUNK_SHIFT, bounds.min.y, chunk_z << CHUNK_SHIFT);
        let hi = IVec3::new(lo.x + CHUNK_SIZE, bounds.max.y, lo.z + CHUNK_SIZE);
        self.bounds = Some(if bounds.min.x == bounds.max.x {
            Bounds::new(lo, hi)
        } else {
            Bounds::new(bounds.min.min(lo), bounds.max.max(hi))
        });
        let (bottom, count) = match self.loaded.as_deref() {
            Some(loaded) => (loaded.bottom, loaded.sections),
            None => return,
        };
        let column = IVec3::new(chunk_x, bottom, chunk_z);
        let (old_lo, old_hi) = match &self.dense {
            Some(dense) => {
                let r = column - dense.origin;
                if r.x >= 0 && r.z >= 0 && r.x < dense.dims.x && r.z < dense.dims.z {
                    return;
                }
                (dense.origin, dense.origin + dense.dims - IVec3::ONE)
            }
            // Already moved to the hash map.
            None if !self.index.is_empty() => return,
            None => (column, column),
        };
        // Room for the loaded area to double before the next growth.
        let (lo, hi) = (old_lo.min(column), old_hi.max(column));
        let pad = ((hi - lo + IVec3::ONE) / 2).max(IVec3::splat(2)) * IVec3::new(1, 0, 1);
        let (lo, hi) = (lo - pad, hi + pad);
        let origin = IVec3::new(lo.x, bottom, lo.z);
        let dims = IVec3::new(hi.x - lo.x + 1, count, hi.z - lo.z + 1);
        let total = dims.x as u64 * dims.y as u64 * dims.z as u64;
        let old = self.dense.take();
        let mut grown = (total <= MAX_DENSE_CHUNKS).then(|| DenseSlots {
            origin,
            dims,
            slots: vec![NO_CHUNK; total as usize],
        });
        if let Some(old) = old {
            for (i, &slot) in old.slots.iter().enumerate() {
                if slot == NO_CHUNK {
                    continue;
                }
                let i = i as i32;
                let r = IVec3::new(
                    i % old.dims.x,
                    i / (old.dims.x * old.dims.z),
                    (i / old.dims.x) % old.dims.z,
                );
                let chunk = old.origin + r;
                match grown.as_mut() {
                    Some(dense) => {
                        let at = dense.index(chunk);
                        dense.slots[at] = slot;
                    }
                    None => {
                        self.index.insert(chunk, slot);
                    }
                }
            }
        }
        self.dense = grown;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::VoxelWorld;

    fn solid_floor_column() -> Vec<(&'static [Block], &'static [u16])> {
        vec![(&[Block::Solid][..], &[][..]), (&[][..], &[][..])]
    }

    /// The directory grows by copying slots as columns load further and further away, and
    /// moves to the hash map when the box would be too large, without losing a chunk.
    #[test]
    fn the_directory_grows_and_falls_back_to_the_hash_map() {
        let mut world = ChunkedWorld::with_height(0, 32).unwrap();
        let mut columns = Vec::new();
        for i in 0..40 {
            let c = (i * 7 - 100, 50 - i * 3);
            world.insert_column(c.0, c.1, solid_floor_column()).unwrap();
            columns.push(c);
        }
        assert!(world.dense.is_some());
        world
            .insert_column(1_000_000, -1_000_000, solid_floor_column())
            .unwrap();
        columns.push((1_000_000, -1_000_000));
        assert!(world.dense.is_none(), "a box of 2e12 chunks is a hash map");
        for &(cx, cz) in &columns {
            let p = IVec3::new(cx * 16 + 5, 15, cz * 16 + 9);
            assert!(
                world.is_standable(p) && world.is_passable(p + IVec3::Y),
                "{cx},{cz}"
            );
        }
        assert!(world.is_unloaded(IVec3::new(1_000_000 * 16 - 1, 15, 0)));
        assert_eq!(world.loaded_column_count(), columns.len());
    }
}
