//! Where a body fits, as bits: for each column `(x, z)` of the world, 64-bit words of "a body
//! `height` cells tall fits with its feet here", filled from the world the first time a
//! search reads them.
//!
//! Under the box rule a move `d` from `p` is legal exactly when the body fits at `p + s` for
//! every `s` made of some of `d`'s components (`s = 0` and `s = d` included): the box of the
//! move is the union of those bodies (a rise by one cell needs the body at `p.y` and at
//! `p.y + 1`, whose union is the `height + 1` cells the rule asks for). So the 27 "fits" bits
//! around a position decide every move from it, and every canonical replacement of a pair of
//! moves through it, whatever the body's height: the search needs nothing else of the world.
//!
//! A column's word `k` holds the cells `62 k - 1 ..= 62 k + 62`: windows of 62 cells with one
//! cell of overlap on either side, so that the three cells `y - 1 ..= y + 1` around any `y`
//! lie in the one word of `y` (`k = y.div_euclid(62)`).
//!
//! Words are kept per search (a stamp says which search filled a word): the world may change
//! between searches. In a bounded world of at most [`MAX_DENSE_WORDS`] words they live in an
//! array over the bounds, elsewhere in a hash map.

use ahash::AHashMap;
use glam::IVec3;

use crate::moves::agent::{Agent, Movement};
use crate::search::core::zeroed_records;
use crate::world::key::{KEY_MAX, KEY_MIN, in_key_range};
use crate::world::{TerrainFlags, VoxelWorld};
use lines::{RowBlock, blocks};

mod lines;

/// Cells per word that are not overlap.
const WINDOW: i32 = 62;

/// The most words the array of a bounded world may take (with their stamps, 12 bytes each:
/// 48 MiB). A 512 x 256 x 512 world needs 1.3 million.
pub(super) const MAX_DENSE_WORDS: u64 = 1 << 22;

/// The most row blocks (520 bytes each) along x, and along z, of a world whose straight jumps
/// scan by word (see [`lines`]): 34 MiB each way. A 512 x 256 x 512 world needs 20 480.
const MAX_ROW_BLOCKS: usize = 1 << 16;

/// The bit of the neighbour `v` (each component `-1..=1`) in a neighbourhood mask:
/// `3 * column + (v.y + 1)`, columns numbered `3 * (v.x + 1) + (v.z + 1)`.
#[inline]
pub(super) const fn around_bit(v: IVec3) -> u32 {
    1 << (3 * (3 * (v.x + 1) + (v.z + 1)) + (v.y + 1))
}

/// Every bit of a neighbourhood mask.
pub(super) const ALL_AROUND: u32 = (1 << 27) - 1;

/// The word of `y` and the place of `y - 1` in it.
#[inline]
fn window(y: i32) -> (i32, u32) {
    let k = y.div_euclid(WINDOW);
    (k, (y - WINDOW * k) as u32)
}

/// A word of the array and the stamp of the search that filled it (side by side: one cache
/// line read for both). A tuple of plain integers, so that a fresh array of them is zeroed
/// memory whose pages the system maps as a search first reaches them
/// ([`zeroed_records`]): a new search's first query on a large world does not write them
/// all (16 bytes per word).
type Slot = (u64, u32);

/// The "fits" words of one search.
#[derive(Debug, Clone, Default)]
pub(super) struct Fits {
    height: u32,
    swim: bool,
    /// The current search's stamp (never 0).
    stamp: u32,
    /// The lowest column and word of the array, and its size in columns along x and z and in
    /// words along y (all zero without an array).
    low: IVec3,
    size: IVec3,
    /// Whether cells outside the array fit nowhere (a bounded world with an array).
    bounded: bool,
    /// The array: each word with the stamp of the search that filled it.
    slots: Vec<Slot>,
    /// Words outside the array, by column and word: emptied per search. (In the array, the
    /// slots of a word `k` and a column `(x, z)` lie at `((k, x), z)` in row-major order: the
    /// three columns along z around a position are side by side.)
    map: AHashMap<(i32, i32, i32), u64>,
    /// The row blocks of the array along x (by window, z, block) and along z (by window, x,
    /// block), and how many blocks a row has along x (`.x`) and along z (`.z`): see
    /// [`lines`].
    x_rows: Vec<RowBlock>,
    z_rows: Vec<RowBlock>,
    row_blocks: IVec3,
    /// Whether the row blocks exist (a bounded world with an array, of at most
    /// [`MAX_ROW_BLOCKS`] blocks each way).
    rays: bool,
}

impl Fits {
    /// Starts a search of `agent` in `world`: forgets every word, keeping the memory.
    /// Lines along x and z (see [`lines`]) are read only when `lines` is set and the world
    /// allows them: their row blocks take memory.
    pub(super) fn start<W: VoxelWorld + ?Sized>(&mut self, world: &W, agent: &Agent, lines: bool) {
        self.height = agent.height;
        self.swim = agent.movement == Movement::Swim;
        self.map.clear();
        if self.stamp == u32::MAX {
            self.slots.fill(Slot::default());
            self.x_rows.fill(RowBlock::default());
            self.z_rows.fill(RowBlock::default());
            self.stamp = 0;
        }
        self.stamp += 1;
        let array = world.bounds().filter(|b| !b.is_empty()).and_then(|b| {
            let (low_k, _) = window(b.min.y);
            let (high_k, _) = window(b.max.y - 1);
            let low = IVec3::new(b.min.x, low_k, b.min.z);
            let size = IVec3::new(b.size().x, high_k - low_k + 1, b.size().z);
            let words = size.x as u64 * size.y as u64 * size.z as u64;
            (words <= MAX_DENSE_WORDS).then_some((low, size, words as usize))
        });
        match array {
            Some((low, size, words)) => {
                if (low, size) != (self.low, self.size) || !self.bounded {
                    // Another world: its words carry this array's stamps, so they are dropped.
                    self.slots = zeroed_records((0, 0), words);
                    (self.low, self.size) = (low, size);
                    (self.x_rows, self.z_rows) = (Vec::new(), Vec::new());
                }
                let (along_x, along_z) = (blocks(size.x), blocks(size.z));
                let layers = size.y as usize;
                let (x_rows, z_rows) = (
                    layers * size.z as usize * along_x,
                    layers * size.x as usize * along_z,
                );
                // A world thin along x or z would need far more blocks than words.
                self.rays = lines && x_rows.max(z_rows) <= MAX_ROW_BLOCKS;
                if self.rays && self.x_rows.is_empty() {
                    self.x_rows = vec![RowBlock::default(); x_rows];
                    self.z_rows = vec![RowBlock::default(); z_rows];
                    self.row_blocks = IVec3::new(along_x as i32, 0, along_z as i32);
                }
                self.bounded = true;
            }
            None => {
                self.bounded = false;
                self.rays = false;
                (self.low, self.size) = (IVec3::ZERO, IVec3::ZERO);
            }
        }
    }

    /// The word `k` of the column `(x, z)`.
    #[inline]
    fn word<W: VoxelWorld + ?Sized>(&mut self, world: &W, x: i32, z: i32, k: i32) -> u64 {
        let r = IVec3::new(x, k, z) - self.low;
        if self.bounded {
            if r.cmplt(IVec3::ZERO).any() || r.cmpge(self.size).any() {
                // Outside the bounds nothing is passable.
                return 0;
            }
            let index = ((r.y * self.size.x + r.x) * self.size.z + r.z) as usize;
            return self.slot(world, index, x, z, k);
        }
        if let Some(&word) = self.map.get(&(x, z, k)) {
            return word;
        }
        let word = self.fill(world, x, z, k);
        self.map.insert((x, z, k), word);
        word
    }

    /// The word of the array's slot `index`, the word `k` of the column `(x, z)`.
    #[inline]
    fn slot<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        index: usize,
        x: i32,
        z: i32,
        k: i32,
    ) -> u64 {
        let slot = self.slots[index];
        if slot.1 == self.stamp {
            return slot.0;
        }
        let word = self.fill(world, x, z, k);
        self.slots[index] = (word, self.stamp);
        word
    }

    /// Reads the word `k` of the column `(x, z)` from the world. Cells outside the key range
    /// fit nowhere (the search never enters them).
    #[cold]
    #[inline(never)]
    fn fill<W: VoxelWorld + ?Sized>(&self, world: &W, x: i32, z: i32, k: i32) -> u64 {
        let first = i64::from(WINDOW) * i64::from(k) - 1;
        let (key_low, key_high) = (i64::from(KEY_MIN.y), i64::from(KEY_MAX.y));
        if !in_key_range(IVec3::new(x, 0, z)) || first + 63 < key_low || first > key_high {
            return 0;
        }
        // Within the key range, so every cell read below exists.
        let y0 = first as i32;
        let mut low = self.allowed(world, x, z, y0, 64);
        let mut high = if self.height > 1 {
            self.allowed(world, x, z, y0 + 64, self.height - 1)
        } else {
            0
        };
        let mut fits = low;
        for _ in 1..self.height {
            low = low >> 1 | high << 63;
            high >>= 1;
            fits &= low;
        }
        let top = i64::from(self.height) - 1;
        if first < key_low || first + 63 + top > key_high {
            // Feet outside the key range, or a body reaching past it, do not fit.
            for bit in 0..64 {
                let y = first + bit;
                if y < key_low || y + top > key_high {
                    fits &= !(1 << bit);
                }
            }
        }
        fits
    }

    /// The cells of the column `(x, z)` from `y0`, `count` of them, where the body may be.
    fn allowed<W: VoxelWorld + ?Sized>(
        &self,
        world: &W,
        x: i32,
        z: i32,
        y0: i32,
        count: u32,
    ) -> u64 {
        let passable = world.column(x, z, y0, count).passable & (u64::MAX >> (64 - count));
        if !self.swim {
            return passable;
        }
        let mut water = 0u64;
        let mut rest = passable;
        while rest != 0 {
            let bit = rest.trailing_zeros();
            rest &= rest - 1;
            if world
                .terrain(IVec3::new(x, y0 + bit as i32, z))
                .contains(TerrainFlags::IN_WATER)
            {
                water |= 1 << bit;
            }
        }
        water
    }

    /// Fills every word of the array from the world now (for [`Fits::around_filled`]):
    /// false when the world has no array (unbounded, or of more than [`MAX_DENSE_WORDS`]
    /// words).
    pub(super) fn fill_all<W: VoxelWorld + ?Sized>(&mut self, world: &W) -> bool {
        if !self.bounded {
            return false;
        }
        let (low, size) = (self.low, self.size);
        for k in 0..size.y {
            for x in 0..size.x {
                for z in 0..size.z {
                    let index = ((k * size.x + x) * size.z + z) as usize;
                    self.slot(world, index, low.x + x, low.z + z, low.y + k);
                }
            }
        }
        true
    }

    /// Reads the words of the column `(x, z)` of the array from the world again (after a
    /// change in it), for [`Fits::around_filled`]; nothing for a column outside the array.
    pub(super) fn refill_column<W: VoxelWorld + ?Sized>(&mut self, world: &W, x: i32, z: i32) {
        let (low, size) = (self.low, self.size);
        let (rx, rz) = (x - low.x, z - low.z);
        if !self.bounded || rx < 0 || rz < 0 || rx >= size.x || rz >= size.z {
            return;
        }
        for k in 0..size.y {
            let index = ((k * size.x + rx) * size.z + rz) as usize;
            let word = self.fill(world, x, z, low.y + k);
            self.slots[index] = (word, self.stamp);
        }
    }

    /// The bytes the words take.
    pub(super) fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    /// [`Fits::around`] from the array as [`Fits::fill_all`] left it, whatever search has
    /// started since: for words that stay valid as long as the world does not change.
    #[inline]
    pub(super) fn around_filled(&self, centre: IVec3) -> u32 {
        let (k, at) = window(centre.y);
        let r = IVec3::new(centre.x - 1, k, centre.z - 1) - self.low;
        let size = self.size;
        let mut bits = 0u32;
        if r.x >= 0 && r.y >= 0 && r.z >= 0 && r.x + 2 < size.x && r.y < size.y && r.z + 2 < size.z
        {
            // Three rows of three slots side by side along z.
            let first = ((r.y * size.x + r.x) * size.z + r.z) as usize;
            for i in 0..3 {
                let row = first + i * size.z as usize;
                if let Some(&[low, mid, high]) = self.slots.get(row..row + 3) {
                    for (j, slot) in [low, mid, high].into_iter().enumerate() {
                        bits |= ((slot.0 >> at) as u32 & 7) << (3 * (3 * i + j));
                    }
                }
            }
            return bits;
        }
        // At the array's edge: columns outside it fit nowhere.
        for i in 0..3 {
            for j in 0..3 {
                let c = r + IVec3::new(i, 0, j);
                if c.cmpge(IVec3::ZERO).all() && c.cmplt(size).all() {
                    let index = ((c.y * size.x + c.x) * size.z + c.z) as usize;
                    let word = self.slots.get(index).map_or(0, |slot| slot.0);
                    bits |= ((word >> at) as u32 & 7) << (3 * (3 * i + j));
                }
            }
        }
        bits
    }

    /// Whether the body fits with its feet at `p`.
    #[inline]
    pub(super) fn fits<W: VoxelWorld + ?Sized>(&mut self, world: &W, p: IVec3) -> bool {
        let (k, at) = window(p.y);
        self.word(world, p.x, p.z, k) >> (at + 1) & 1 != 0
    }

    /// The "fits" bits of the 27 positions around `c` (see [`around_bit`]).
    #[inline]
    pub(super) fn around<W: VoxelWorld + ?Sized>(&mut self, world: &W, centre: IVec3) -> u32 {
        let (k, at) = window(centre.y);
        let r = IVec3::new(centre.x - 1, k, centre.z - 1) - self.low;
        let size = self.size;
        if self.bounded
            && r.x >= 0
            && r.y >= 0
            && r.z >= 0
            && r.x + 2 < size.x
            && r.y < size.y
            && r.z + 2 < size.z
        {
            // The 9 columns inside the array: three rows of three slots side by side along z.
            let first = ((r.y * size.x + r.x) * size.z + r.z) as usize;
            let stamp = self.stamp;
            let mut bits = 0u32;
            for i in 0..3 {
                let row = first + i * size.z as usize;
                let words = match self.slots.get(row..row + 3) {
                    Some(&[low, mid, high])
                        if low.1 == stamp && mid.1 == stamp && high.1 == stamp =>
                    {
                        [low.0, mid.0, high.0]
                    }
                    _ => std::array::from_fn(|j| {
                        let column = (centre.x - 1 + i as i32, centre.z - 1 + j as i32);
                        self.slot(world, row + j, column.0, column.1, k)
                    }),
                };
                for (j, word) in words.into_iter().enumerate() {
                    bits |= ((word >> at) as u32 & 7) << (3 * (3 * i + j));
                }
            }
            return bits;
        }
        let mut bits = 0u32;
        let mut column = 0;
        for dx in -1..=1 {
            for dz in -1..=1 {
                let word = self.word(world, centre.x + dx, centre.z + dz, k);
                bits |= ((word >> at) as u32 & 7) << (3 * column);
                column += 1;
            }
        }
        bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::fly::body_allowed;
    use crate::world::{Block, Bounds, ChunkedWorld};

    /// The bits read through the array (a bounded world) and through the map (an unbounded
    /// one) say what the rules say cell by cell, for fliers and swimmers one to three cells
    /// tall, around word edges (multiples of 62), chunk borders and negative coordinates.
    #[test]
    fn fits_bits_match_the_rules_cell_by_cell() {
        let mut next = crate::testing::xorshift(0x5851_F42D_4C95_7F2D);
        let (min, size) = (IVec3::new(-21, -70, 9), IVec3::new(12, 140, 11));
        let mut bounded = ChunkedWorld::with_bounds(Bounds::new(min, min + size)).unwrap();
        let mut unbounded = ChunkedWorld::new();
        for x in min.x..min.x + size.x {
            for y in min.y..min.y + size.y {
                for z in min.z..min.z + size.z {
                    let block = match next() % 10 {
                        0..=2 => Block::Solid,
                        3..=6 => Block::Water,
                        _ => continue,
                    };
                    let p = IVec3::new(x, y, z);
                    bounded.set(p, block).unwrap();
                    unbounded.set(p, block).unwrap();
                }
            }
        }
        let mut fits = Fits::default();
        for height in 1..=3 {
            for agent in [Agent::flier(height), Agent::swimmer(height)] {
                for world in [&bounded, &unbounded] {
                    fits.start(world, &agent, true);
                    for x in min.x - 2..min.x + size.x + 2 {
                        for y in min.y - 3..min.y + size.y + 3 {
                            for z in min.z - 2..min.z + size.z + 2 {
                                let p = IVec3::new(x, y, z);
                                let expected = body_allowed(world, &agent, p);
                                assert_eq!(fits.fits(world, p), expected, "{agent:?} {p}");
                                let around = fits.around(world, p);
                                // A different neighbour at each position, all 27 in turn.
                                let v = IVec3::new(x, y, z).rem_euclid(IVec3::splat(3)) - 1;
                                let bit = around & around_bit(v) != 0;
                                assert_eq!(bit, body_allowed(world, &agent, p + v), "{p} {v}");
                            }
                        }
                    }
                }
            }
        }
    }
}
