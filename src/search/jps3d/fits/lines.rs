//! Rays of "fits" bits: 64 positions in a line along one axis from one call, for the straight
//! jumps that scan by word (see `face.rs`). Along y a ray is cut from two column words. Along
//! x and z it is cut from *row blocks*: the 64 rows along x (or z) of 64 columns side by side
//! and one window of column words, built the first time a search reads one by transposing the
//! 64 x 64 bit matrix of those column words (a row costs about 30 instructions that way, a
//! cell read one by one about 8).
//!
//! Rays exist only where the words live in the array (a bounded world of at most
//! [`super::MAX_DENSE_WORDS`] words and [`super::MAX_ROW_BLOCKS`] row blocks each way): there a
//! straight jump always ends at the bounds.

use glam::IVec3;

use super::{Fits, window};
use crate::world::VoxelWorld;

/// The rows of one row block and the stamp of the search that built it.
#[derive(Debug, Clone, Copy)]
pub(super) struct RowBlock {
    stamp: u32,
    /// Row `b` holds the cells whose place in the window's column word is `b`, bit `j` the
    /// `j`-th column of the block.
    rows: [u64; 64],
}

impl Default for RowBlock {
    fn default() -> Self {
        Self {
            stamp: 0,
            rows: [0; 64],
        }
    }
}

/// Transposes the 64 x 64 bit matrix `a` in place: bit `c` of `a[r]` trades places with
/// bit `r` of `a[c]` (quadrants swapped, then their quadrants, down to single bits).
pub(super) fn transpose(a: &mut [u64; 64]) {
    let mut half = 32;
    let mut mask: u64 = 0x0000_0000_FFFF_FFFF;
    while half != 0 {
        let mut k = 0;
        while k < 64 {
            let t = ((a[k] >> half) ^ a[k + half]) & mask;
            a[k] ^= t << half;
            a[k + half] ^= t;
            k = (k + half + 1) & !half;
        }
        half >>= 1;
        mask ^= mask << half;
    }
}

/// The blocks along an axis of `cells` cells.
pub(super) fn blocks(cells: i32) -> usize {
    (cells as usize).div_ceil(64)
}

impl Fits {
    /// Whether rays can be read (the words live in the array).
    #[inline]
    pub(in crate::search::jps3d) fn has_rays(&self) -> bool {
        self.rays
    }

    /// The "fits" bits of the positions `at + i * step` (`step` one cell along `axis`, up
    /// when `forward`) from `at` to the end of `at`'s row block (along y, of its word's own
    /// cells) that way, bit `i`, and how many they are (1 to 64): the same count for every
    /// position with the same coordinate along the axis. Positions outside the bounds fit
    /// nowhere. Only when [`Fits::has_rays`], and for positions within a cell of the key
    /// range (reached positions and their neighbours).
    #[inline]
    pub(in crate::search::jps3d) fn part<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        at: IVec3,
        axis: usize,
        forward: bool,
    ) -> (u64, u32) {
        let (low, size) = (self.low, self.size);
        let (k, place_y) = window(at.y);
        let rk = k - low.y;
        let (x, z) = (at.x - low.x, at.z - low.z);
        // The cells along the axis from the start of the part's block (or word), bit 0 first,
        // and `at`'s place among them.
        let (cells, place, width) = if axis == 1 {
            let inside = x >= 0 && z >= 0 && x < size.x && z < size.z;
            // A word's own cells are its bits 1 ..= 62.
            let word = if inside {
                self.word(world, at.x, at.z, k) >> 1
            } else {
                0
            };
            (word, place_y, 62)
        } else {
            let (across, across_size, along) = if axis == 0 {
                (z, size.z, x)
            } else {
                (x, size.x, z)
            };
            let (block, place) = (along.div_euclid(64), along.rem_euclid(64) as u32);
            let inside = across >= 0 && across < across_size && rk >= 0 && rk < size.y;
            let row = (place_y + 1) as usize;
            let word = if inside {
                self.row(world, axis, across, rk, block, row)
            } else {
                0
            };
            (word, place, 64)
        };
        if forward {
            let count = width - place;
            (cells >> place & (u64::MAX >> (64 - count)), count)
        } else {
            (cells.reverse_bits() >> (63 - place), place + 1)
        }
    }

    /// Row `row` of the row block `block` along `axis` (0 or 2) at the place `across` (z or
    /// x, from the array's low corner) and window `rk` (from the array's lowest); 0 outside.
    #[inline]
    fn row<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        axis: usize,
        across: i32,
        rk: i32,
        block: i32,
        row: usize,
    ) -> u64 {
        let (count, across_size) = if axis == 0 {
            (self.row_blocks.x, self.size.z)
        } else {
            (self.row_blocks.z, self.size.x)
        };
        if block < 0 || block >= count {
            return 0;
        }
        let index = ((rk * across_size + across) * count) as usize + block as usize;
        let blocks = if axis == 0 {
            &self.x_rows
        } else {
            &self.z_rows
        };
        if blocks[index].stamp == self.stamp {
            return blocks[index].rows[row];
        }
        self.build_block(world, axis, across, rk, block, index)[row]
    }

    /// Builds a row block from its 64 column words.
    #[cold]
    #[inline(never)]
    fn build_block<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        axis: usize,
        across: i32,
        rk: i32,
        block: i32,
        index: usize,
    ) -> [u64; 64] {
        let size = self.size;
        let k = rk + self.low.y;
        let mut words = [0u64; 64];
        for (j, word) in words.iter_mut().enumerate() {
            let along = 64 * block + j as i32;
            let (rx, rz) = if axis == 0 {
                (along, across)
            } else {
                (across, along)
            };
            if rx >= size.x || rz >= size.z {
                break;
            }
            let slot = ((rk * size.x + rx) * size.z + rz) as usize;
            *word = self.slot(world, slot, self.low.x + rx, self.low.z + rz, k);
        }
        transpose(&mut words);
        let built = RowBlock {
            stamp: self.stamp,
            rows: words,
        };
        if axis == 0 {
            self.x_rows[index] = built;
        } else {
            self.z_rows[index] = built;
        }
        words
    }
}
