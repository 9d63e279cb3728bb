//! The danger margin: which cells lie within one block of lava or a hazard, kept up to date by
//! cell writes and rebuilt chunk by chunk after bulk writes.

use glam::IVec3;

use super::ChunkedWorld;
use super::block::is_dangerous_kind;
use super::chunk::{CHUNK_SIZE, NO_CHUNK, WORDS, bit, chunk_of, set_bit};

impl ChunkedWorld {
    /// Recomputes the danger bit of every cell in the 3x3x3 cube centred on `p`.
    pub(super) fn update_danger_around(&mut self, p: IVec3) {
        for dy in -1..=1 {
            for dz in -1..=1 {
                for dx in -1..=1 {
                    let q = p + IVec3::new(dx, dy, dz);
                    if !self.inside(q) || !self.is_column_loaded(q.x >> 4, q.z >> 4) {
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

    /// Recomputes the danger margin of every chunk within one chunk of `chunk`, absent ones
    /// included: lava next to a chunk that holds no data gives its cells the margin, as a
    /// write of the same lava cell by cell would (the chunk is stored then).
    pub(super) fn rebuild_danger_near(&mut self, chunk: IVec3) {
        for offset in CHUNK_CUBE {
            let target = chunk + offset;
            if self.chunk_in_world(target) {
                self.rebuild_danger_of(target, |_| true);
            }
        }
    }

    /// Whether chunk `chunk` holds a cell of the world (a bounded world's chunks are the ones
    /// its bounds touch; an unbounded world's, every chunk).
    fn chunk_in_world(&self, chunk: IVec3) -> bool {
        // The margin of an unloaded column is of no use, and writing it would store a chunk
        // there as if the column were loaded.
        self.is_column_loaded(chunk.x, chunk.z)
            && self.bounds.is_none_or(|bounds| {
                let lo = chunk * CHUNK_SIZE;
                let hi = lo + IVec3::splat(CHUNK_SIZE);
                lo.cmplt(bounds.max).all() && hi.cmpgt(bounds.min).all()
            })
    }

    /// Recomputes the danger bits of one chunk from the dangerous cells in it and in the
    /// one-cell shell around it, by dilating an 18 x 18 x 18 bit grid along each axis. Only
    /// the chunks for which `may_hold_danger` answers true are read.
    pub(super) fn rebuild_danger_of(
        &mut self,
        chunk: IVec3,
        may_hold_danger: impl Fn(IVec3) -> bool,
    ) {
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
        let slot = self.chunk_slot_checked(chunk);
        if !any && (slot == NO_CHUNK || self.chunks[slot as usize].extra.is_none()) {
            return;
        }
        let slot = self.ensure_chunk(chunk * CHUNK_SIZE);
        self.extra_mut(slot).danger = danger;
    }
}

/// The 27 cells of the cube centred on `p`.
fn cube(p: IVec3) -> impl Iterator<Item = IVec3> {
    (-1..=1).flat_map(move |dy| {
        (-1..=1).flat_map(move |dz| (-1..=1).map(move |dx| p + IVec3::new(dx, dy, dz)))
    })
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
