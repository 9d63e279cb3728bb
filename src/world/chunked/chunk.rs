//! One 16x16x16 chunk of bitsets, the cell addressing inside it, and the dense chunk index of a
//! bounded world.

use glam::IVec3;

use super::block::{Block, KIND_PLAIN, floor_top_of_kind};
use crate::world::FULL_BLOCK;

/// The side of a chunk, in cells.
pub const CHUNK_SIZE: i32 = 16;
pub(super) const CHUNK_SHIFT: i32 = 4;
pub(super) const CHUNK_MASK: i32 = CHUNK_SIZE - 1;
pub(super) const WORDS: usize = (CHUNK_SIZE * CHUNK_SIZE * CHUNK_SIZE / 64) as usize;
/// Bounded worlds of at most this many chunks index them densely (one `u32` per chunk).
pub(super) const MAX_DENSE_CHUNKS: u64 = 1 << 22;

pub(super) const CELLS: usize = (CHUNK_SIZE * CHUNK_SIZE * CHUNK_SIZE) as usize;

/// Per-cell data of a chunk that holds a block other than air or solid, or lies next to
/// lava. Plain chunks have none, so they cost nothing extra.
#[derive(Clone)]
pub(super) struct ChunkExtra {
    /// One kind code per cell, indexed like the bitsets.
    pub(super) kinds: [u8; CELLS],
    /// Cells with lava in the 3x3x3 cube centred on them.
    pub(super) danger: [u64; WORDS],
    /// Cells whose [`VoxelWorld::floor_top`](crate::world::VoxelWorld::floor_top) is not a full block (partial floors and fences),
    /// for [`ColumnBits::partial`](crate::world::ColumnBits::partial).
    pub(super) partial: [u64; WORDS],
}

impl ChunkExtra {
    /// Per-cell data of a chunk of plain cells, none of them near danger.
    pub(super) fn boxed() -> Box<ChunkExtra> {
        Box::new(ChunkExtra {
            kinds: [KIND_PLAIN; CELLS],
            danger: [0; WORDS],
            partial: [0; WORDS],
        })
    }
}

/// One 16x16x16 chunk: a passable bit and a standable bit per cell.
#[derive(Clone)]
pub(super) struct Chunk {
    pub(super) passable: [u64; WORDS],
    pub(super) standable: [u64; WORDS],
    pub(super) extra: Option<Box<ChunkExtra>>,
}

impl Chunk {
    /// A chunk filled with a block of a plain kind (air, solid, barrier).
    pub(super) const fn plain(block: Block) -> Chunk {
        let (passable, standable) = block.bits();
        Chunk {
            passable: [if passable { u64::MAX } else { 0 }; WORDS],
            standable: [if standable { u64::MAX } else { 0 }; WORDS],
            extra: None,
        }
    }

    #[inline]
    pub(super) fn kind(&self, index: usize) -> u8 {
        self.extra.as_ref().map_or(KIND_PLAIN, |e| e.kinds[index])
    }
}

/// The index of a cell inside its chunk. y varies fastest, so the 16 cells of a column
/// inside a chunk are 16 adjacent bits of one word.
#[inline]
pub(super) fn cell_index(p: IVec3) -> usize {
    (((p.x & CHUNK_MASK) << 8) | ((p.z & CHUNK_MASK) << 4) | (p.y & CHUNK_MASK)) as usize
}

/// The bit of a cell inside its chunk: (word, mask).
#[inline]
pub(super) fn bit(p: IVec3) -> (usize, u64) {
    let index = cell_index(p);
    (index >> 6, 1u64 << (index & 63))
}

#[inline]
pub(super) fn chunk_of(p: IVec3) -> IVec3 {
    IVec3::new(p.x >> CHUNK_SHIFT, p.y >> CHUNK_SHIFT, p.z >> CHUNK_SHIFT)
}

/// Chunk slots for a bounded world, indexed by chunk coordinates relative to `origin`.
#[derive(Clone)]
pub(super) struct DenseSlots {
    pub(super) origin: IVec3,
    pub(super) dims: IVec3,
    pub(super) slots: Vec<u32>,
}

impl DenseSlots {
    #[inline]
    pub(super) fn index(&self, chunk: IVec3) -> usize {
        let r = chunk - self.origin;
        ((r.y * self.dims.z + r.z) * self.dims.x + r.x) as usize
    }
}

pub(super) const NO_CHUNK: u32 = u32::MAX;

#[inline]
pub(super) fn set_bit(word: &mut u64, mask: u64, on: bool) {
    if on {
        *word |= mask;
    } else {
        *word &= !mask;
    }
}

/// A chunk from a palette and indices in Minecraft's order (see
/// [`ChunkedWorld::set_chunk_palette`](super::ChunkedWorld::set_chunk_palette)); the indices are already checked.
pub(super) fn build_chunk(palette: &[Block], indices: &[u16]) -> Chunk {
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
    let mut extra = special.then(ChunkExtra::boxed);
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
