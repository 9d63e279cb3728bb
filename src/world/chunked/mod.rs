//! [`ChunkedWorld`]: the default block storage, 16x16x16 chunks of bitsets.
//!
//! | file | holds |
//! |---|---|
//! | `mod.rs` | the world: cell reads and writes, bounds, what absent chunks read as |
//! | `read.rs` | [`VoxelWorld`](crate::world::VoxelWorld): the per-move and column reads |
//! | `block.rs` | [`Block`], the block kinds and their per-cell codes |
//! | `chunk.rs` | one chunk of bitsets and the cell addressing inside it |
//! | `columns.rs` | the bulk column readers |
//! | `bulk.rs` | bulk writers: columns, whole chunks, palettes |
//! | `danger.rs` | the danger margin around lava and hazards |
//! | `changes.rs` | the change log ([`Changes`]) |
//! | `load.rs` | worlds of chunk columns that load and unload ([`ChunkedWorld::with_height`]) |
//! | `snapshot.rs` | read-only snapshots for searches off the writer's thread ([`WorldSnapshot`]) |

mod block;
mod bulk;
mod changes;
mod chunk;
mod columns;
mod danger;
mod load;
mod read;
mod snapshot;

use std::sync::Arc;

use ahash::AHashMap;
use glam::IVec3;

use crate::error::{Error, Result};
use crate::world::key::in_key_range;
use crate::world::versioned::{LiveVersion, WorldId};
use crate::world::{Bounds, FULL_BLOCK};
pub use block::Block;
use block::{KIND_PLAIN, floor_top_of_kind};
use changes::ChangeLog;
pub(crate) use changes::ChangeSpan;
pub use changes::{BlockChange, Changes};
pub use chunk::CHUNK_SIZE;
use chunk::{
    Chunk, ChunkExtra, DenseSlots, MAX_DENSE_CHUNKS, NO_CHUNK, bit, cell_index, chunk_of, set_bit,
};
use load::LoadedColumns;
pub use snapshot::WorldSnapshot;

/// A world stored as 16x16x16 chunks of bitsets: a passability check is a chunk look-up, a
/// shift and a mask.
///
/// Cells never written are [`Block::Air`]. A world may be unbounded (chunks appear where
/// cells are written) or bounded, in which case cells outside are neither passable nor
/// standable and writing there is an error.
///
/// Blocks other than air and solid (see [`Block`]) keep the passable and standable bitsets
/// exact; their kind is stored per cell only in the chunks that hold one (or lie next to
/// lava), and only [`VoxelWorld::terrain`](crate::world::VoxelWorld::terrain) reads it.
///
/// With [`ChunkedWorld::track_changes`] on, the world records which cells its writes change,
/// for [`ChunkedWorld::take_changes`] to report (for replanning and for indices).
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::{Block, ChunkedWorld, VoxelWorld};
///
/// let mut world = ChunkedWorld::new();
/// world.set(IVec3::new(0, 0, 0), Block::Solid)?;
/// assert!(world.is_standable(IVec3::new(0, 0, 0)));
/// assert!(world.is_passable(IVec3::new(0, 1, 0)));
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Clone, Default)]
pub struct ChunkedWorld {
    /// The stored chunks, each behind an [`Arc`] so that a [`WorldSnapshot`] shares them; a
    /// write copies a chunk a snapshot still holds before changing it.
    chunks: Vec<Arc<Chunk>>,
    index: AHashMap<IVec3, u32>,
    bounds: Option<Bounds>,
    dense: Option<DenseSlots>,
    /// The world's identity and version, shared with the watches it hands out.
    live: LiveVersion,
    /// How many chunks carry per-cell kinds: while 0,
    /// [`VoxelWorld::terrain`](crate::world::VoxelWorld::terrain) is plain without a look-up.
    special_chunks: usize,
    changes: Option<ChangeLog>,
    /// What chunks that hold no data read as (see [`ChunkedWorld::set_absent_block`]).
    absent: Block,
    /// Slots of all-air, all-solid or all-barrier chunks shared by many chunk positions
    /// (see [`ChunkedWorld::fill_chunk`]); written to only after a copy.
    shared: Vec<u32>,
    /// Slots of chunks of unloaded columns, reused by the next chunk stored.
    free_chunks: Vec<u32>,
    /// The loaded columns of a world made of them ([`ChunkedWorld::with_height`]).
    loaded: Option<Box<LoadedColumns>>,
}

impl std::fmt::Debug for ChunkedWorld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChunkedWorld")
            .field("bounds", &self.bounds)
            .field("chunks", &self.chunk_count())
            .field("loaded_columns", &self.loaded_column_count())
            .finish_non_exhaustive()
    }
}

impl ChunkedWorld {
    /// An empty, unbounded world (all air).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty world limited to `bounds`.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the bounds are empty or reach outside the range of
    /// positions voxnav can search (x and z within `+-2^25`, y within `+-2^11`).
    pub fn with_bounds(bounds: Bounds) -> Result<Self> {
        if bounds.volume() == 0 {
            return Err(Error::InvalidSetting(format!(
                "world bounds {bounds:?} are empty"
            )));
        }
        if !in_key_range(bounds.min) || !in_key_range(bounds.max - IVec3::ONE) {
            return Err(Error::InvalidSetting(format!(
                "world bounds {bounds:?} reach outside the searchable range \
                 (x and z within +-33554432, y within +-2048)"
            )));
        }
        let origin = chunk_of(bounds.min);
        let dims = chunk_of(bounds.max - IVec3::ONE) - origin + IVec3::ONE;
        let count = dims.x as u64 * dims.y as u64 * dims.z as u64;
        let dense = (count <= MAX_DENSE_CHUNKS).then(|| DenseSlots {
            origin,
            dims,
            slots: vec![NO_CHUNK; count as usize],
        });
        Ok(Self {
            bounds: Some(bounds),
            dense,
            ..Self::default()
        })
    }

    /// An empty world from the origin to `size` (exclusive).
    ///
    /// # Errors
    /// As [`ChunkedWorld::with_bounds`].
    pub fn with_size(size: IVec3) -> Result<Self> {
        Self::with_bounds(Bounds::from_size(size))
    }

    /// The world's bounds, if it is finite.
    #[must_use]
    pub fn world_bounds(&self) -> Option<Bounds> {
        self.bounds
    }

    /// A counter that grows every time a write changes a cell: indices built from the world
    /// remember it to tell whether they are stale.
    #[must_use]
    pub fn version(&self) -> u64 {
        self.live.get()
    }

    /// Which world this is: every world gets its own id when made, a clone a new one.
    #[must_use]
    pub fn world_id(&self) -> WorldId {
        self.live.id()
    }

    /// The number of chunks that hold data.
    #[must_use]
    pub fn chunk_count(&self) -> usize {
        self.chunks.len() - self.free_chunks.len()
    }

    /// Stores `data` in a free slot, or a new one, and returns the slot.
    fn store_chunk(&mut self, data: Chunk) -> u32 {
        self.special_chunks += usize::from(data.extra.is_some());
        match self.free_chunks.pop() {
            Some(slot) => {
                self.chunks[slot as usize] = Arc::new(data);
                slot
            }
            None => {
                self.chunks.push(Arc::new(data));
                self.chunks.len() as u32 - 1
            }
        }
    }

    #[inline]
    fn chunk_slot(&self, chunk: IVec3) -> u32 {
        match &self.dense {
            Some(dense) => dense.slots[dense.index(chunk)],
            None => self.sparse_slot(chunk),
        }
    }

    /// [`ChunkedWorld::chunk_slot`] of an unbounded world, out of line so that the dense
    /// look-up of bounded worlds stays small enough to inline into every cell query.
    #[inline(never)]
    fn sparse_slot(&self, chunk: IVec3) -> u32 {
        self.index.get(&chunk).copied().unwrap_or(NO_CHUNK)
    }

    #[inline]
    fn inside(&self, p: IVec3) -> bool {
        self.bounds.is_none_or(|b| b.contains(p))
    }

    /// The slot of the chunk holding `p`, ready to be written: a chunk of the absent block
    /// is created when there is none, and a shared chunk is copied first.
    fn ensure_chunk(&mut self, p: IVec3) -> u32 {
        let chunk_pos = chunk_of(p);
        let slot = self.chunk_slot(chunk_pos);
        if slot != NO_CHUNK && !self.shared.contains(&slot) {
            return slot;
        }
        // A shared chunk is plain, so the copy counts no per-cell data.
        let chunk = if slot == NO_CHUNK {
            Chunk::plain(self.absent)
        } else {
            Chunk::clone(&self.chunks[slot as usize])
        };
        let slot = self.store_chunk(chunk);
        self.point_slot(chunk_pos, slot);
        slot
    }

    /// The per-cell data of chunk `slot`, allocated on first use.
    fn extra_mut(&mut self, slot: u32) -> &mut ChunkExtra {
        let chunk = Arc::make_mut(&mut self.chunks[slot as usize]);
        if chunk.extra.is_none() {
            self.special_chunks += 1;
        }
        chunk.extra.get_or_insert_with(ChunkExtra::boxed)
    }

    /// The kind code of cell `p` (plain outside the world or in plain chunks).
    #[inline]
    fn kind_at(&self, p: IVec3) -> u8 {
        if self.special_chunks == 0 || !self.inside(p) {
            return KIND_PLAIN;
        }
        let slot = self.chunk_slot(chunk_of(p));
        if slot == NO_CHUNK {
            return KIND_PLAIN;
        }
        self.chunks[slot as usize].kind(cell_index(p))
    }

    /// The block at `p`, or `None` outside a bounded world.
    #[must_use]
    pub fn get(&self, p: IVec3) -> Option<Block> {
        if !self.inside(p) {
            return None;
        }
        let slot = self.chunk_slot(chunk_of(p));
        if slot == NO_CHUNK {
            return Some(self.absent);
        }
        let chunk = &self.chunks[slot as usize];
        let (word, mask) = bit(p);
        Some(Block::from_parts(
            chunk.passable[word] & mask != 0,
            chunk.standable[word] & mask != 0,
            chunk.kind(cell_index(p)),
        ))
    }

    /// Writes `block` at `p` and returns the block that was there.
    ///
    /// # Errors
    /// [`Error::OutOfWorld`] when `p` is outside a bounded world, [`Error::ChunkNotLoaded`]
    /// when it lies in a column a world of chunk columns has not loaded
    /// ([`ChunkedWorld::with_height`]), [`Error::InvalidSetting`] for a [`Block::Floor`]
    /// whose top is not 1 to 15 (nothing is written).
    pub fn set(&mut self, p: IVec3, block: Block) -> Result<Block> {
        block.check()?;
        self.check_loaded(p)?;
        if !self.inside(p) {
            return Err(Error::OutOfWorld {
                pos: p,
                bounds: self.bounds.unwrap_or(Bounds::new(p, p)),
            });
        }
        if block == self.absent && self.chunk_slot(chunk_of(p)) == NO_CHUNK {
            return Ok(block);
        }
        let slot = self.ensure_chunk(p);
        let chunk = &self.chunks[slot as usize];
        let (word, mask) = bit(p);
        let index = cell_index(p);
        let old = Block::from_parts(
            chunk.passable[word] & mask != 0,
            chunk.standable[word] & mask != 0,
            chunk.kind(index),
        );
        if old == block {
            return Ok(old);
        }
        let code = block.kind_code();
        if code != KIND_PLAIN || chunk.extra.is_some() {
            let extra = self.extra_mut(slot);
            extra.kinds[index] = code;
            let partial = floor_top_of_kind(code) != FULL_BLOCK;
            set_bit(&mut extra.partial[word], mask, partial);
        }
        let chunk = Arc::make_mut(&mut self.chunks[slot as usize]);
        let (passable, standable) = block.bits();
        set_bit(&mut chunk.passable[word], mask, passable);
        set_bit(&mut chunk.standable[word], mask, standable);
        self.live.bump();
        if old.is_dangerous() || block.is_dangerous() {
            self.update_danger_around(p);
        }
        if let Some(log) = self.changes.as_mut()
            && !log.first_old.contains_key(&p)
        {
            log.first_old.insert(p, old);
            log.order.push(p);
        }
        Ok(old)
    }

    /// Writes `block` into every cell of the box from `min` to `max`, both inclusive.
    ///
    /// # Errors
    /// [`Error::OutOfWorld`] when any cell of the box is outside a bounded world (nothing is
    /// written then).
    pub fn fill(&mut self, min: IVec3, max: IVec3, block: Block) -> Result<()> {
        block.check()?;
        let (lo, hi) = (min.min(max), min.max(max));
        for corner in [lo, hi] {
            if !self.inside(corner) {
                return Err(Error::OutOfWorld {
                    pos: corner,
                    bounds: self.bounds.unwrap_or(Bounds::new(corner, corner)),
                });
            }
        }
        for y in lo.y..=hi.y {
            for z in lo.z..=hi.z {
                for x in lo.x..=hi.x {
                    self.set(IVec3::new(x, y, z), block)?;
                }
            }
        }
        Ok(())
    }
}

/// What chunks without data read as, the checked slot look-up and memory accounting.
impl ChunkedWorld {
    /// Sets what chunks that hold no data read as: [`Block::Air`] (the default: a sparse
    /// world of written blocks), [`Block::Solid`], or [`Block::Barrier`] (a loaded world
    /// whose missing chunks are unknown: neither passable nor standable). Absent chunks cost
    /// no memory whatever they read as; writing into one first fills it with this block.
    ///
    /// ```
    /// use voxnav::IVec3;
    /// use voxnav::{Block, ChunkedWorld, VoxelWorld};
    ///
    /// let mut world = ChunkedWorld::with_size(IVec3::new(64, 32, 64))?;
    /// world.set_absent_block(Block::Barrier)?;
    /// world.fill_chunk(IVec3::new(0, 0, 0), Block::Air)?; // a loaded chunk of air
    /// assert!(world.is_passable(IVec3::new(3, 3, 3)));
    /// assert!(!world.is_passable(IVec3::new(40, 3, 3))); // not loaded
    /// assert!(!world.is_standable(IVec3::new(40, 3, 3)));
    /// # Ok::<(), voxnav::Error>(())
    /// ```
    ///
    /// Set it before writing any cell: once a cell was written, changing what the rest of
    /// the world reads as is refused, since no change log could report it (every cell of
    /// every absent chunk would change: infinitely many in an unbounded world, billions in a
    /// loaded Minecraft one) and every graph and index of the world would have to be built
    /// again anyway. Make a new world instead. Setting it on a world without data starts the
    /// change log afresh (see [`ChunkedWorld::take_changes`]), so a graph compiled before
    /// is refused its next update rather than left describing the old answer.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] for a block with per-cell data (water, ladders, floors...):
    /// absent chunks store nothing, so only air, solid and barrier can be their answer; and
    /// for any other block than the current one once a cell was written.
    pub fn set_absent_block(&mut self, block: Block) -> Result<()> {
        if block.kind_code() != KIND_PLAIN {
            return Err(Error::InvalidSetting(format!(
                "absent chunks can read as air, solid or barrier, not {block:?}"
            )));
        }
        if block == self.absent {
            return Ok(());
        }
        if self.loaded.is_some() {
            return Err(Error::InvalidSetting(format!(
                "a world of chunk columns reads the columns it has not loaded as barrier, not \
                 {block:?}"
            )));
        }
        if !self.chunks.is_empty() {
            return Err(Error::InvalidSetting(format!(
                "cannot make absent chunks read as {block:?} instead of {:?} after cells were \
                 written: set the absent block first, on a new world",
                self.absent
            )));
        }
        self.absent = block;
        self.live.bump();
        let version = self.live.get();
        if let Some(log) = self.changes.as_mut() {
            log.since = version;
        }
        Ok(())
    }

    /// What chunks that hold no data read as (see [`ChunkedWorld::set_absent_block`]).
    /// Defaults to [`Block::Air`].
    #[must_use]
    pub fn absent_block(&self) -> Block {
        self.absent
    }

    /// The absent block's passable and standable bits as all-ones or all-zero masks.
    #[inline]
    fn absent_masks(&self) -> (u64, u64) {
        let (passable, standable) = self.absent.bits();
        (
            if passable { u64::MAX } else { 0 },
            if standable { u64::MAX } else { 0 },
        )
    }

    /// The slot of chunk `chunk`, or [`NO_CHUNK`] when it holds no data or lies outside the
    /// dense index.
    fn chunk_slot_checked(&self, chunk: IVec3) -> u32 {
        match &self.dense {
            Some(dense) => {
                let r = chunk - dense.origin;
                if r.cmplt(IVec3::ZERO).any() || r.cmpge(dense.dims).any() {
                    NO_CHUNK
                } else {
                    dense.slots[dense.index(chunk)]
                }
            }
            None => self.index.get(&chunk).copied().unwrap_or(NO_CHUNK),
        }
    }

    /// Points chunk position `chunk` at stored chunk `slot`.
    fn point_slot(&mut self, chunk: IVec3, slot: u32) {
        match &mut self.dense {
            Some(dense) => {
                let i = dense.index(chunk);
                dense.slots[i] = slot;
            }
            None => {
                self.index.insert(chunk, slot);
            }
        }
    }

    /// The heap bytes the world's storage holds: chunk bitsets, per-cell kinds and danger
    /// bits, and the chunk index.
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        let extras = self
            .chunks
            .iter()
            .filter(|chunk| chunk.extra.is_some())
            .count();
        self.chunks.capacity() * std::mem::size_of::<Arc<Chunk>>()
            + self.chunks.len() * std::mem::size_of::<Chunk>()
            + extras * std::mem::size_of::<ChunkExtra>()
            + self.dense.as_ref().map_or(0, |d| d.slots.capacity() * 4)
            + self.index.capacity() * (std::mem::size_of::<(IVec3, u32)>() + 1)
            + self.shared.capacity() * 4
            + self.free_chunks.capacity() * 4
            + self.loaded.as_ref().map_or(0, |loaded| {
                loaded.columns.capacity() * (std::mem::size_of::<(i32, i32)>() + 1)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::VoxelWorld;

    #[test]
    fn unbounded_world_is_air_until_written_and_remembers_writes_across_chunks() {
        let mut world = ChunkedWorld::new();
        let cells = [
            IVec3::new(0, 0, 0),
            IVec3::new(-1, -17, 33),
            IVec3::new(15, 16, -16),
        ];
        for &p in &cells {
            assert_eq!(world.get(p), Some(Block::Air));
            assert_eq!(world.set(p, Block::Solid).unwrap(), Block::Air);
        }
        for &p in &cells {
            assert_eq!(world.get(p), Some(Block::Solid));
            assert!(!world.is_passable(p));
            assert!(world.is_standable(p));
            assert!(world.is_passable(p + IVec3::X) || cells.contains(&(p + IVec3::X)));
        }
        let version = world.version();
        assert_eq!(world.set(cells[0], Block::Air).unwrap(), Block::Solid);
        assert_eq!(world.version(), version + 1);
        world.set(cells[0], Block::Air).unwrap();
        assert_eq!(
            world.version(),
            version + 1,
            "a write that changes nothing keeps the version"
        );
        assert!(world.is_passable(cells[0]));
    }

    #[test]
    fn bounded_world_outside_is_neither_passable_nor_standable() {
        let mut world = ChunkedWorld::with_size(IVec3::new(20, 5, 3)).unwrap();
        assert!(world.is_passable(IVec3::new(19, 4, 2)));
        for p in [
            IVec3::new(20, 0, 0),
            IVec3::new(0, -1, 0),
            IVec3::new(0, 0, 3),
        ] {
            assert!(!world.is_passable(p));
            assert!(!world.is_standable(p));
            assert_eq!(world.get(p), None);
            assert!(matches!(
                world.set(p, Block::Solid),
                Err(Error::OutOfWorld { .. })
            ));
        }
        world
            .fill(IVec3::ZERO, IVec3::new(19, 0, 2), Block::Solid)
            .unwrap();
        assert!(world.is_standable(IVec3::new(17, 0, 1)));
        assert!(
            world
                .fill(IVec3::ZERO, IVec3::new(20, 0, 0), Block::Solid)
                .is_err()
        );
    }

    #[test]
    fn bad_bounds_are_errors() {
        assert!(ChunkedWorld::with_size(IVec3::new(0, 4, 4)).is_err());
        assert!(ChunkedWorld::with_size(IVec3::new(4, 4096, 4)).is_err());
        // Too many chunks for a dense index still works, through the hash map.
        let mut huge = ChunkedWorld::with_size(IVec3::new(1 << 24, 2000, 1 << 24)).unwrap();
        huge.set(IVec3::new(1 << 23, 5, 77), Block::Solid).unwrap();
        assert!(huge.is_standable(IVec3::new(1 << 23, 5, 77)));
    }
}
