//! [`ChunkedWorld`]: the default block storage, 16x16x16 chunks of bitsets.

use ahash::AHashMap;
use glam::IVec3;

use crate::error::{Error, Result};
use crate::world::key::in_key_range;
use crate::world::versioned::{WorldId, WorldIdentity};
use crate::world::{AROUND, Bounds, ColumnBits, FENCE_TOP, FULL_BLOCK, TerrainFlags, VoxelWorld};

/// The side of a chunk, in cells.
pub const CHUNK_SIZE: i32 = 16;
const CHUNK_SHIFT: i32 = 4;
const CHUNK_MASK: i32 = CHUNK_SIZE - 1;
const WORDS: usize = (CHUNK_SIZE * CHUNK_SIZE * CHUNK_SIZE / 64) as usize;
/// Bounded worlds of at most this many chunks index them densely (one `u32` per chunk).
const MAX_DENSE_CHUNKS: u64 = 1 << 22;

/// What occupies a cell.
///
/// | block | text | passable | standable | what else |
/// |---|---|---|---|---|
/// | [`Block::Air`] | `.` | yes | no | |
/// | [`Block::Solid`] | `#` | no | yes | |
/// | [`Block::Water`] | `~` | yes | no | feet in it pay [`MoveCosts::water`](crate::MoveCosts::water) |
/// | [`Block::Lava`] | `L` | no | no | cells within one block pay [`MoveCosts::danger`](crate::MoveCosts::danger) |
/// | [`Block::SlowFloor`] | `=` | no | yes | standing on it pays [`MoveCosts::slow_floor`](crate::MoveCosts::slow_floor) |
/// | [`Block::Ladder`] | `H` | yes | yes | climbable straight up and down (see [`crate::moves`]) |
/// | [`Block::Floor`] | `1`-`9`, `a`-`f` (the top in sixteenths, hex) | no | yes | a floor lower than a full block: bottom slab (8), snow layers, ... |
/// | [`Block::Fence`] | `F` | no | no | 1.5 blocks tall: fences and walls; the cell above is blocked too |
/// | [`Block::Door`] | `D` | yes | no | a wooden door or fence gate the agent opens |
/// | [`Block::Barrier`] | `X` | no | no | harmless and impassable: iron doors, unloaded chunks |
/// | [`Block::Hazard`] | `!` | no | no | damaging (fire, magma, cactus, ...): cells within one block pay [`MoveCosts::danger`](crate::MoveCosts::danger) |
/// | [`Block::Cobweb`] | `W` | yes | no | slows whoever passes through it |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Block {
    /// Passable, not standable.
    #[default]
    Air,
    /// Standable, not passable.
    Solid,
    /// Passable like air, not standable; walking with the feet in it costs more.
    Water,
    /// Neither passable nor standable; the cells next to it cost more (danger).
    Lava,
    /// Standable, not passable, like [`Block::Solid`]; walking on top of it costs more
    /// (soul sand).
    SlowFloor,
    /// Passable and standable: the body may be in it, the agent may stand on it (holding on),
    /// and it may climb straight up and down through a column of ladders.
    Ladder,
    /// A floor lower than a full block (a bottom slab, snow of 3 or more layers, a bed...):
    /// standable, not passable. The value is the top of its collision box in sixteenths of a
    /// block, from 1 to 15; [`ChunkedWorld::set`] refuses other values.
    Floor(u8),
    /// A fence, wall or anything else whose collision box reaches 1.5 blocks: neither passable
    /// nor standable, and it blocks the cell above it as well.
    Fence,
    /// A wooden door or fence gate: passable (the agent opens it), not standable.
    Door,
    /// Neither passable nor standable, and harmless: iron doors, barriers, unloaded chunks.
    Barrier,
    /// A damaging block (fire, magma, cactus, sweet berry bush...): never entered or stood on,
    /// and the cells within one block of it pay the danger cost, as next to lava.
    Hazard,
    /// A cobweb: passable, not standable; passing through it is slow.
    Cobweb,
}

/// The per-cell kind codes of [`ChunkExtra::kinds`]; 0 means "Air or Solid, as the bits say".
const KIND_PLAIN: u8 = 0;
const KIND_WATER: u8 = 1;
const KIND_LAVA: u8 = 2;
const KIND_SLOW_FLOOR: u8 = 3;
const KIND_LADDER: u8 = 4;
const KIND_FENCE: u8 = 5;
const KIND_DOOR: u8 = 6;
const KIND_HAZARD: u8 = 7;
const KIND_COBWEB: u8 = 8;
/// [`Block::Floor`]`(top)` is `KIND_FLOOR + top`, for tops 1 to 15.
const KIND_FLOOR: u8 = 16;

/// [`VoxelWorld::floor_top`] of a cell of kind `kind`.
#[inline]
const fn floor_top_of_kind(kind: u8) -> u8 {
    match kind {
        KIND_FENCE => FENCE_TOP,
        KIND_FLOOR.. => kind - KIND_FLOOR,
        _ => FULL_BLOCK,
    }
}

/// Whether cells next to a block of kind `kind` are dangerous.
#[inline]
const fn is_dangerous_kind(kind: u8) -> bool {
    kind == KIND_LAVA || kind == KIND_HAZARD
}

impl Block {
    #[inline]
    const fn bits(self) -> (bool, bool) {
        match self {
            Block::Air | Block::Water | Block::Door | Block::Cobweb => (true, false),
            Block::Solid | Block::SlowFloor | Block::Floor(_) => (false, true),
            Block::Lava | Block::Fence | Block::Barrier | Block::Hazard => (false, false),
            Block::Ladder => (true, true),
        }
    }

    /// Whether the cells within one block of this one pay the danger cost ([`Block::Lava`]
    /// and [`Block::Hazard`]).
    #[inline]
    #[must_use]
    pub const fn is_dangerous(self) -> bool {
        is_dangerous_kind(self.kind_code())
    }

    /// [`Error::InvalidSetting`] for a [`Block::Floor`] whose top is not 1 to 15.
    fn check(self) -> Result<()> {
        match self {
            Block::Floor(top) if !matches!(top, 1..=15) => Err(Error::InvalidSetting(format!(
                "a floor's top must be 1 to 15 sixteenths of a block, found {top}"
            ))),
            _ => Ok(()),
        }
    }

    #[inline]
    const fn kind_code(self) -> u8 {
        match self {
            Block::Air | Block::Solid | Block::Barrier => KIND_PLAIN,
            Block::Water => KIND_WATER,
            Block::Lava => KIND_LAVA,
            Block::SlowFloor => KIND_SLOW_FLOOR,
            Block::Ladder => KIND_LADDER,
            Block::Floor(top) => KIND_FLOOR + top,
            Block::Fence => KIND_FENCE,
            Block::Door => KIND_DOOR,
            Block::Hazard => KIND_HAZARD,
            Block::Cobweb => KIND_COBWEB,
        }
    }

    #[inline]
    const fn from_parts(passable: bool, standable: bool, kind: u8) -> Self {
        match kind {
            KIND_WATER => Block::Water,
            KIND_LAVA => Block::Lava,
            KIND_SLOW_FLOOR => Block::SlowFloor,
            KIND_LADDER => Block::Ladder,
            KIND_FENCE => Block::Fence,
            KIND_DOOR => Block::Door,
            KIND_HAZARD => Block::Hazard,
            KIND_COBWEB => Block::Cobweb,
            KIND_FLOOR.. => Block::Floor(kind - KIND_FLOOR),
            _ => match (passable, standable) {
                (true, false) => Block::Air,
                (false, false) => Block::Barrier,
                _ => Block::Solid,
            },
        }
    }
}

const CELLS: usize = (CHUNK_SIZE * CHUNK_SIZE * CHUNK_SIZE) as usize;

/// Per-cell data of a chunk that holds a block other than air or solid, or lies next to
/// lava. Plain chunks have none, so they cost nothing extra.
#[derive(Clone)]
struct ChunkExtra {
    /// One kind code per cell, indexed like the bitsets.
    kinds: [u8; CELLS],
    /// Cells with lava in the 3x3x3 cube centred on them.
    danger: [u64; WORDS],
    /// Cells whose [`VoxelWorld::floor_top`] is not a full block (partial floors and fences),
    /// for [`ColumnBits::partial`].
    partial: [u64; WORDS],
}

/// One 16x16x16 chunk: a passable bit and a standable bit per cell.
#[derive(Clone)]
struct Chunk {
    passable: [u64; WORDS],
    standable: [u64; WORDS],
    extra: Option<Box<ChunkExtra>>,
}

impl Chunk {
    /// A chunk filled with a block of a plain kind (air, solid, barrier).
    const fn plain(block: Block) -> Chunk {
        let (passable, standable) = block.bits();
        Chunk {
            passable: [if passable { u64::MAX } else { 0 }; WORDS],
            standable: [if standable { u64::MAX } else { 0 }; WORDS],
            extra: None,
        }
    }

    #[inline]
    fn kind(&self, index: usize) -> u8 {
        self.extra.as_ref().map_or(KIND_PLAIN, |e| e.kinds[index])
    }
}

/// The index of a cell inside its chunk. y varies fastest, so the 16 cells of a column
/// inside a chunk are 16 adjacent bits of one word.
#[inline]
fn cell_index(p: IVec3) -> usize {
    (((p.x & CHUNK_MASK) << 8) | ((p.z & CHUNK_MASK) << 4) | (p.y & CHUNK_MASK)) as usize
}

/// The bit of a cell inside its chunk: (word, mask).
#[inline]
fn bit(p: IVec3) -> (usize, u64) {
    let index = cell_index(p);
    (index >> 6, 1u64 << (index & 63))
}

#[inline]
fn chunk_of(p: IVec3) -> IVec3 {
    IVec3::new(p.x >> CHUNK_SHIFT, p.y >> CHUNK_SHIFT, p.z >> CHUNK_SHIFT)
}

/// Chunk slots for a bounded world, indexed by chunk coordinates relative to `origin`.
#[derive(Clone)]
struct DenseSlots {
    origin: IVec3,
    dims: IVec3,
    slots: Vec<u32>,
}

impl DenseSlots {
    #[inline]
    fn index(&self, chunk: IVec3) -> usize {
        let r = chunk - self.origin;
        ((r.y * self.dims.z + r.z) * self.dims.x + r.x) as usize
    }
}

const NO_CHUNK: u32 = u32::MAX;

/// One cell's net change, as reported by [`ChunkedWorld::take_changes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BlockChange {
    /// The cell.
    pub pos: IVec3,
    /// The block before the first write since the last report.
    pub old: Block,
    /// The block now.
    pub new: Block,
}

/// What changed since the last [`ChunkedWorld::take_changes`]: the dirty cells and chunks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    /// Every cell whose block differs from what it was at the last report, in the order of
    /// their first write. A cell written and then restored is not listed.
    pub cells: Vec<BlockChange>,
    /// The chunks (chunk coordinates: cell coordinates divided by [`CHUNK_SIZE`], rounded
    /// down) holding at least one changed cell, sorted by `(x, y, z)`, without repeats.
    pub chunks: Vec<IVec3>,
}

impl Changes {
    /// Whether nothing changed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The changed cells' positions.
    pub fn positions(&self) -> impl Iterator<Item = IVec3> + '_ {
        self.cells.iter().map(|c| c.pos)
    }
}

/// The cells written since the last report, each with its block before the first write.
#[derive(Clone, Default)]
struct ChangeLog {
    first_old: AHashMap<IVec3, Block>,
    order: Vec<IVec3>,
}

/// A world stored as 16x16x16 chunks of bitsets: a passability check is a chunk look-up, a
/// shift and a mask.
///
/// Cells never written are [`Block::Air`]. A world may be unbounded (chunks appear where
/// cells are written) or bounded, in which case cells outside are neither passable nor
/// standable and writing there is an error.
///
/// Blocks other than air and solid (see [`Block`]) keep the passable and standable bitsets
/// exact; their kind is stored per cell only in the chunks that hold one (or lie next to
/// lava), and only [`VoxelWorld::terrain`] reads it.
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
    chunks: Vec<Chunk>,
    index: AHashMap<IVec3, u32>,
    bounds: Option<Bounds>,
    dense: Option<DenseSlots>,
    version: u64,
    identity: WorldIdentity,
    /// How many chunks carry per-cell kinds: while 0, [`VoxelWorld::terrain`] is plain
    /// without a look-up.
    special_chunks: usize,
    changes: Option<ChangeLog>,
    /// What chunks that hold no data read as (see [`ChunkedWorld::set_absent_block`]).
    absent: Block,
    /// Slots of all-air, all-solid or all-barrier chunks shared by many chunk positions
    /// (see [`ChunkedWorld::fill_chunk`]); written to only after a copy.
    shared: Vec<u32>,
}

impl std::fmt::Debug for ChunkedWorld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChunkedWorld")
            .field("bounds", &self.bounds)
            .field("chunks", &self.chunks.len())
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
        self.version
    }

    /// Which world this is: every world gets its own id when made, a clone a new one.
    #[must_use]
    pub fn world_id(&self) -> WorldId {
        self.identity.id()
    }

    /// The number of chunks that hold data.
    #[must_use]
    pub fn chunk_count(&self) -> usize {
        self.chunks.len()
    }

    /// Starts (`true`) or stops (`false`) recording which cells writes change. Starting
    /// begins with nothing recorded; stopping forgets what was recorded. Off for a new world,
    /// so that building a large world records nothing.
    ///
    /// ```
    /// use voxnav::IVec3;
    /// use voxnav::{Block, ChunkedWorld};
    ///
    /// let mut world = ChunkedWorld::new();
    /// world.track_changes(true);
    /// world.set(IVec3::new(1, 2, 3), Block::Solid)?;
    /// world.set(IVec3::new(40, 0, 0), Block::Water)?;
    /// world.set(IVec3::new(40, 0, 0), Block::Air)?; // restored: not a change
    /// let changes = world.take_changes();
    /// assert_eq!(changes.positions().collect::<Vec<_>>(), [IVec3::new(1, 2, 3)]);
    /// assert_eq!(changes.chunks, [IVec3::new(0, 0, 0)]);
    /// assert!(world.take_changes().is_empty());
    /// # Ok::<(), voxnav::Error>(())
    /// ```
    pub fn track_changes(&mut self, on: bool) {
        self.changes = on.then(ChangeLog::default);
    }

    /// Whether writes are being recorded (see [`ChunkedWorld::track_changes`]).
    #[must_use]
    pub fn is_tracking_changes(&self) -> bool {
        self.changes.is_some()
    }

    /// The net changes since tracking started or since the last call, and forgets them.
    /// Empty when tracking is off.
    pub fn take_changes(&mut self) -> Changes {
        let Some(log) = self.changes.as_mut() else {
            return Changes::default();
        };
        let order = std::mem::take(&mut log.order);
        let first_old = std::mem::take(&mut log.first_old);
        let mut cells = Vec::with_capacity(order.len());
        for pos in order {
            let old = first_old[&pos];
            let new = self.get(pos).unwrap_or_default();
            if old != new {
                cells.push(BlockChange { pos, old, new });
            }
        }
        let mut chunks: Vec<IVec3> = cells.iter().map(|c| chunk_of(c.pos)).collect();
        chunks.sort_unstable_by_key(|c| (c.x, c.y, c.z));
        chunks.dedup();
        Changes { cells, chunks }
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
        let chunk = if slot == NO_CHUNK {
            Chunk::plain(self.absent)
        } else {
            self.chunks[slot as usize].clone()
        };
        let slot = self.chunks.len() as u32;
        self.chunks.push(chunk);
        match &mut self.dense {
            Some(dense) => {
                let i = dense.index(chunk_pos);
                dense.slots[i] = slot;
            }
            None => {
                self.index.insert(chunk_pos, slot);
            }
        }
        slot
    }

    /// The per-cell data of chunk `slot`, allocated on first use.
    fn extra_mut(&mut self, slot: u32) -> &mut ChunkExtra {
        let chunk = &mut self.chunks[slot as usize];
        if chunk.extra.is_none() {
            self.special_chunks += 1;
        }
        chunk.extra.get_or_insert_with(|| {
            Box::new(ChunkExtra {
                kinds: [KIND_PLAIN; CELLS],
                danger: [0; WORDS],
                partial: [0; WORDS],
            })
        })
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
    /// [`Error::OutOfWorld`] when `p` is outside a bounded world, [`Error::InvalidSetting`] for
    /// a [`Block::Floor`] whose top is not 1 to 15 (nothing is written).
    pub fn set(&mut self, p: IVec3, block: Block) -> Result<Block> {
        block.check()?;
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
        let chunk = &mut self.chunks[slot as usize];
        let (passable, standable) = block.bits();
        set_bit(&mut chunk.passable[word], mask, passable);
        set_bit(&mut chunk.standable[word], mask, standable);
        self.version += 1;
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

    /// Recomputes the danger bit of every cell in the 3x3x3 cube centred on `p`.
    fn update_danger_around(&mut self, p: IVec3) {
        for dy in -1..=1 {
            for dz in -1..=1 {
                for dx in -1..=1 {
                    let q = p + IVec3::new(dx, dy, dz);
                    if !self.inside(q) {
                        continue;
                    }
                    let near = cube(q).any(|r| is_dangerous_kind(self.kind_at(r)));
                    let slot = self.chunk_slot(chunk_of(q));
                    let has_extra = slot != NO_CHUNK && self.chunks[slot as usize].extra.is_some();
                    if !near && !has_extra {
                        continue;
                    }
                    let slot = self.ensure_chunk(q);
                    let (word, mask) = bit(q);
                    set_bit(&mut self.extra_mut(slot).danger[word], mask, near);
                }
            }
        }
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
            let chunk = &mut self.chunks[slot as usize];
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
            self.version += 1;
        }
        Ok(())
    }
}

/// The 27 cells of the cube centred on `p`.
fn cube(p: IVec3) -> impl Iterator<Item = IVec3> {
    (-1..=1).flat_map(move |dy| {
        (-1..=1).flat_map(move |dz| (-1..=1).map(move |dx| p + IVec3::new(dx, dy, dz)))
    })
}

impl ChunkedWorld {
    /// [`VoxelWorld::columns_around`] with one look-up per chunk touched (the 9 columns span
    /// at most 2 x 2 chunks horizontally) when they lie inside the bounds; otherwise column by
    /// column.
    fn columns_around_bits(&self, x: i32, z: i32, y0: i32, count: u32) -> [ColumnBits; 9] {
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
                    bits.standable |= absent_standable & (run_mask << shift);
                } else {
                    let chunk = &self.chunks[slot as usize];
                    let index = cell_index(IVec3::new(x + dx, y, z + dz));
                    let (word, offset) = (index >> 6, index & 63);
                    bits.passable |= ((chunk.passable[word] >> offset) & run_mask) << shift;
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

    /// [`VoxelWorld::column`] from the chunk bitsets: one chunk look-up per 16 cells.
    fn column_bits(&self, x: i32, z: i32, y0: i32, count: u32) -> ColumnBits {
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

#[inline]
fn set_bit(word: &mut u64, mask: u64, on: bool) {
    if on {
        *word |= mask;
    } else {
        *word &= !mask;
    }
}

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
        // has its floor in the chunk below, so it takes the full look-up.
        let slot = self.chunk_slot(chunk_of(feet));
        let plain_chunk = slot == NO_CHUNK || self.chunks[slot as usize].extra.is_none();
        if plain_chunk && feet.y & CHUNK_MASK != 0 {
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

    #[inline]
    fn column(&self, x: i32, z: i32, y0: i32, count: u32) -> ColumnBits {
        self.column_bits(x, z, y0, count)
    }

    #[inline]
    fn columns_around(&self, x: i32, z: i32, y0: i32, count: u32) -> [ColumnBits; 9] {
        self.columns_around_bits(x, z, y0, count)
    }
}

/// Bulk writers for loaders (whole chunks at once), the answer for chunks without data, and
/// memory accounting.
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
    /// # Errors
    /// [`Error::InvalidSetting`] for a block with per-cell data (water, ladders, floors...):
    /// absent chunks store nothing, so only air, solid and barrier can be their answer.
    pub fn set_absent_block(&mut self, block: Block) -> Result<()> {
        if block.kind_code() != KIND_PLAIN {
            return Err(Error::InvalidSetting(format!(
                "absent chunks can read as air, solid or barrier, not {block:?}"
            )));
        }
        if block != self.absent {
            self.absent = block;
            self.version += 1;
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

    /// [`Error::OutOfWorld`] unless every cell of chunk `chunk` lies inside the world and in
    /// the searchable range.
    fn check_whole_chunk(&self, chunk: IVec3) -> Result<()> {
        let lo = chunk * CHUNK_SIZE;
        let hi = lo + IVec3::splat(CHUNK_MASK);
        for corner in [lo, hi] {
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
        self.special_chunks += usize::from(data.extra.is_some());
        if slot != NO_CHUNK && !self.shared.contains(&slot) {
            let old = std::mem::replace(&mut self.chunks[slot as usize], data);
            self.special_chunks -= usize::from(old.extra.is_some());
        } else {
            let slot = self.chunks.len() as u32;
            self.chunks.push(data);
            self.point_slot(chunk, slot);
        }
        self.version += 1;
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

    /// [`ChunkedWorld::fill_chunk`] without updating the danger margin (see
    /// [`ChunkedWorld::set_chunk_palette_deferred`]).
    pub(crate) fn fill_chunk_deferred(&mut self, chunk: IVec3, block: Block) -> Result<()> {
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
                    self.version += 1;
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
    fn shared_chunk(&mut self, block: Block) -> u32 {
        let (passable, standable) = block.bits();
        let found = self.shared.iter().copied().find(|&slot| {
            let chunk = &self.chunks[slot as usize];
            (chunk.passable[0] & 1 != 0, chunk.standable[0] & 1 != 0) == (passable, standable)
        });
        found.unwrap_or_else(|| {
            let slot = self.chunks.len() as u32;
            self.chunks.push(Chunk::plain(block));
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

    /// [`ChunkedWorld::set_chunk_palette`] without updating the danger margin: a loader
    /// writing many chunks calls [`ChunkedWorld::rebuild_danger_around`] once at the end. The
    /// caller has checked that every index lies inside the palette.
    pub(crate) fn set_chunk_palette_deferred(
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

    /// Recomputes the danger margin of every chunk within one chunk of `chunk`.
    fn rebuild_danger_near(&mut self, chunk: IVec3) {
        for offset in CHUNK_CUBE {
            let target = chunk + offset;
            if self.chunk_slot_checked(target) != NO_CHUNK {
                self.rebuild_danger_of(target, |_| true);
            }
        }
    }

    /// Computes the danger margin around freshly written chunks that hold dangerous blocks
    /// ([`Block::is_dangerous`]): every cell with one in the 3x3x3 cube around it. For a
    /// loader that wrote whole chunks with [`ChunkedWorld::set_chunk_palette_deferred`] and
    /// knows which of them hold lava or hazards; costs nothing for the others.
    #[cfg_attr(
        not(feature = "anvil"),
        allow(dead_code, reason = "only the Anvil loader writes chunks in bulk")
    )]
    pub(crate) fn rebuild_danger_around(&mut self, dangerous_chunks: &[IVec3]) {
        let mut targets: ahash::AHashSet<IVec3> = ahash::AHashSet::new();
        for &chunk in dangerous_chunks {
            for offset in CHUNK_CUBE {
                if self.chunk_slot_checked(chunk + offset) != NO_CHUNK {
                    targets.insert(chunk + offset);
                }
            }
        }
        let sources: ahash::AHashSet<IVec3> = dangerous_chunks.iter().copied().collect();
        for chunk in targets {
            self.rebuild_danger_of(chunk, |c| sources.contains(&c));
        }
    }

    /// Recomputes the danger bits of one chunk from the dangerous cells in it and in the
    /// one-cell shell around it, by dilating an 18 x 18 x 18 bit grid along each axis. Only
    /// the chunks for which `may_hold_danger` answers true are read.
    fn rebuild_danger_of(&mut self, chunk: IVec3, may_hold_danger: impl Fn(IVec3) -> bool) {
        // Bit y + 1 of hazard[x + 1][z + 1]: a dangerous cell at local (x, y, z), -1..=16.
        let mut hazard = [[0u32; 18]; 18];
        for offset in CHUNK_CUBE {
            if !may_hold_danger(chunk + offset) {
                continue;
            }
            let slot = self.chunk_slot_checked(chunk + offset);
            if slot == NO_CHUNK {
                continue;
            }
            let Some(extra) = self.chunks[slot as usize].extra.as_deref() else {
                continue;
            };
            let span = |d: i32| match d {
                -1 => 15..16,
                0 => 0..16,
                _ => 0..1,
            };
            for lx in span(offset.x) {
                for lz in span(offset.z) {
                    let gx = (lx + 1 + offset.x * CHUNK_SIZE) as usize;
                    let gz = (lz + 1 + offset.z * CHUNK_SIZE) as usize;
                    let base = ((lx << 8) | (lz << 4)) as usize;
                    for ly in span(offset.y) {
                        if is_dangerous_kind(extra.kinds[base + ly as usize]) {
                            hazard[gx][gz] |= 1 << (ly + 1 + offset.y * CHUNK_SIZE);
                        }
                    }
                }
            }
        }
        let mut along_y = [[0u32; 18]; 18];
        for (out, row) in along_y.iter_mut().zip(&hazard) {
            for (o, &h) in out.iter_mut().zip(row) {
                *o = h | (h << 1) | (h >> 1);
            }
        }
        let mut danger = [0u64; WORDS];
        let mut any = false;
        for x in 0..16 {
            for z in 0..16 {
                let mut column = 0u32;
                for row in &along_y[x..x + 3] {
                    column |= row[z] | row[z + 1] | row[z + 2];
                }
                let bits = u64::from((column >> 1) & 0xFFFF);
                any |= bits != 0;
                let base = (x << 8) | (z << 4);
                danger[base >> 6] |= bits << (base & 63);
            }
        }
        let slot = self.chunk_slot(chunk);
        if !any && self.chunks[slot as usize].extra.is_none() {
            return;
        }
        let slot = self.ensure_chunk(chunk * CHUNK_SIZE);
        self.extra_mut(slot).danger = danger;
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
        self.chunks.capacity() * std::mem::size_of::<Chunk>()
            + extras * std::mem::size_of::<ChunkExtra>()
            + self.dense.as_ref().map_or(0, |d| d.slots.capacity() * 4)
            + self.index.capacity() * (std::mem::size_of::<(IVec3, u32)>() + 1)
            + self.shared.capacity() * 4
    }
}

/// The 27 chunk offsets of the cube around a chunk.
const CHUNK_CUBE: [IVec3; 27] = {
    let mut out = [IVec3::ZERO; 27];
    let mut i = 0;
    while i < 27 {
        out[i] = IVec3::new(
            (i % 3) as i32 - 1,
            (i / 9) as i32 - 1,
            ((i / 3) % 3) as i32 - 1,
        );
        i += 1;
    }
    out
};

/// A chunk from a palette and indices in Minecraft's order (see
/// [`ChunkedWorld::set_chunk_palette`]); the indices are already checked.
fn build_chunk(palette: &[Block], indices: &[u16]) -> Chunk {
    // Per palette entry: passable bit, standable bit, partial-floor bit, kind code.
    let parts: Vec<(u16, u16, u16, u8)> = palette
        .iter()
        .map(|b| {
            let (p, s) = b.bits();
            let kind = b.kind_code();
            let partial = floor_top_of_kind(kind) != FULL_BLOCK;
            (u16::from(p), u16::from(s), u16::from(partial), kind)
        })
        .collect();
    let special = parts.iter().any(|&(_, _, _, kind)| kind != KIND_PLAIN);
    let mut chunk = Chunk::plain(Block::Barrier);
    let mut extra = special.then(|| {
        Box::new(ChunkExtra {
            kinds: [KIND_PLAIN; CELLS],
            danger: [0; WORDS],
            partial: [0; WORDS],
        })
    });
    for x in 0..16usize {
        for z in 0..16usize {
            let (mut passable, mut standable, mut partial) = (0u16, 0u16, 0u16);
            let base = (x << 8) | (z << 4);
            for y in 0..16usize {
                let (p, s, f, kind) = parts[usize::from(indices[(y << 8) | (z << 4) | x])];
                passable |= p << y;
                standable |= s << y;
                partial |= f << y;
                if let Some(extra) = extra.as_mut() {
                    extra.kinds[base | y] = kind;
                }
            }
            chunk.passable[base >> 6] |= u64::from(passable) << (base & 63);
            chunk.standable[base >> 6] |= u64::from(standable) << (base & 63);
            if let Some(extra) = extra.as_mut() {
                extra.partial[base >> 6] |= u64::from(partial) << (base & 63);
            }
        }
    }
    chunk.extra = extra;
    chunk
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut dangerous = Vec::new();
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
                        .set_chunk_palette_deferred(chunk, &palette, &indices)
                        .unwrap();
                    if indices
                        .iter()
                        .any(|&i| palette[usize::from(i)].is_dangerous())
                    {
                        dangerous.push(chunk);
                    }
                }
            }
        }
        by_chunks.rebuild_danger_around(&dangerous);
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
