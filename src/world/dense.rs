//! [`DenseWorld`]: a bounded world of free and blocked cells, one bit per cell, stored as
//! layers of 64-cell column words so that a run of up to 64 cells of a column is one or two
//! word reads, and the words of neighbouring columns along `z` lie side by side.
//!
//! The storage for maps given as a list of blocked cells, such as the Moving AI 3D benchmark
//! ([`crate::world::formats::movingai3d`]): a blocked cell is solid (standable, not
//! passable), a free cell is air. Memory: one bit per cell, rounded up to whole 64-cell words
//! per column (a 512 x 256 x 512 world takes 8 MiB; a world 1 cell tall takes 64 bits per
//! column all the same), at most [`MAX_DENSE_BYTES`].

use glam::IVec3;

use crate::error::{Error, Result};
use crate::world::{AROUND, Bounds, ColumnBits, MAX_BLOCK_HEIGHT, VoxelWorld, block_column};

/// The most bytes a [`DenseWorld`]'s cells may take: 512 MiB, enough for the largest world
/// the examples build (2048 x 1024 x 2048, the flying sets' largest) and for a world 1 625
/// cells on every side.
///
/// The cap is on bytes, not cells, because a column is stored in whole 64-cell words: a
/// world 1 cell tall costs 64 bits per cell, so a cap on cells let the 21-byte map header
/// `voxel 46340 1 46340` (2^31 cells) ask for 16 GiB. A new world starts all free, so every
/// byte is written once: the cap also bounds the time a header alone can cost.
pub const MAX_DENSE_BYTES: u64 = 512 << 20;

/// A bounded world of free (air) and blocked (solid) cells from the origin to `size`
/// (exclusive), one bit per cell.
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::world::DenseWorld;
/// use voxnav::VoxelWorld;
///
/// let mut world = DenseWorld::new(IVec3::new(4, 3, 4))?;
/// world.set_blocked(IVec3::new(1, 2, 3), true)?;
/// assert!(!world.is_passable(IVec3::new(1, 2, 3)));
/// assert!(world.is_passable(IVec3::new(1, 1, 3)));
/// assert!(!world.is_passable(IVec3::new(4, 0, 0))); // outside
/// assert_eq!(world.free_cells(), 4 * 3 * 4 - 1);
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct DenseWorld {
    size: IVec3,
    /// Words per column: `ceil(size.y / 64)`.
    words: usize,
    /// Words per layer of 64 cells in height: `size.x * size.z`.
    layer: usize,
    /// Bit `y % 64` of word `(y / 64) * layer + x * size.z + z` is set when the cell is free.
    free: Vec<u64>,
    /// The word offset of each column of [`AROUND`] from the centre column.
    around: [isize; 9],
    /// How many columns along `x` and along `z` have a neighbour on both sides:
    /// `size - 2`, or 0.
    inner: (u32, u32),
}

impl std::fmt::Debug for DenseWorld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DenseWorld")
            .field("size", &self.size)
            .field("free_cells", &self.free_cells())
            .finish_non_exhaustive()
    }
}

impl DenseWorld {
    /// A world of `size` cells, all free.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when a side is not positive or the world would take more
    /// than [`MAX_DENSE_BYTES`] bytes (checked before anything is allocated).
    pub fn new(size: IVec3) -> Result<Self> {
        Self::check_size(size)?;
        let words = (size.y as usize).div_ceil(64);
        let layer = size.x as usize * size.z as usize;
        let mut free = vec![u64::MAX; layer * words];
        // Bits above the top of each column stay clear: outside the world nothing is free.
        let rest = size.y as usize % 64;
        if rest != 0 {
            free[(words - 1) * layer..].fill((1u64 << rest) - 1);
        }
        let around = AROUND.map(|(dx, dz)| dx as isize * size.z as isize + dz as isize);
        Ok(Self {
            size,
            words,
            layer,
            free,
            around,
            inner: ((size.x - 2).max(0) as u32, (size.z - 2).max(0) as u32),
        })
    }

    /// Checks a size for [`DenseWorld::new`] without allocating.
    ///
    /// # Errors
    /// As [`DenseWorld::new`].
    pub fn check_size(size: IVec3) -> Result<()> {
        if size.min_element() <= 0 {
            return Err(Error::InvalidSetting(format!(
                "a dense world needs positive sides, not {} x {} x {}",
                size.x, size.y, size.z
            )));
        }
        let bytes = Self::bytes_for(size);
        if bytes > MAX_DENSE_BYTES {
            return Err(Error::InvalidSetting(format!(
                "a dense world of {} x {} x {} cells is larger than allowed: it would take \
                 {bytes} bytes ({} words of 64 cells per column), more than the \
                 {MAX_DENSE_BYTES} allowed",
                size.x,
                size.y,
                size.z,
                (size.y as u64).div_ceil(64)
            )));
        }
        Ok(())
    }

    /// The bytes the cells of a world of `size` (positive sides) take: one 8-byte word per
    /// column per 64 cells of height, started.
    fn bytes_for(size: IVec3) -> u64 {
        // Saturating: sides up to i32::MAX overflow u64, and any such size is refused.
        let columns = size.x as u64 * size.z as u64;
        columns
            .saturating_mul((size.y as u64).div_ceil(64))
            .saturating_mul(8)
    }

    /// The size along each axis.
    #[must_use]
    pub fn size(&self) -> IVec3 {
        self.size
    }

    /// The number of free cells.
    #[must_use]
    pub fn free_cells(&self) -> u64 {
        self.free.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    #[inline]
    fn inside(&self, p: IVec3) -> bool {
        p.cmpge(IVec3::ZERO).all() && p.cmplt(self.size).all()
    }

    /// The first word of the column at `x`, `z` (inside the world); its word `w` is
    /// `w * layer` further.
    #[inline]
    fn column_start(&self, x: i32, z: i32) -> usize {
        x as usize * self.size.z as usize + z as usize
    }

    /// The word holding the cell `p` (inside the world).
    #[inline]
    fn word_of(&self, p: IVec3) -> usize {
        self.column_start(p.x, p.z) + (p.y as usize >> 6) * self.layer
    }

    /// Marks the cell `p` blocked (`true`) or free (`false`).
    ///
    /// # Errors
    /// [`Error::OutOfWorld`] when `p` is outside the world.
    pub fn set_blocked(&mut self, p: IVec3, blocked: bool) -> Result<()> {
        if !self.inside(p) {
            return Err(Error::OutOfWorld {
                pos: p,
                bounds: Bounds::from_size(self.size),
            });
        }
        let word = self.word_of(p);
        let mask = 1u64 << (p.y & 63);
        if blocked {
            self.free[word] &= !mask;
        } else {
            self.free[word] |= mask;
        }
        Ok(())
    }

    /// Whether the cell `p` is blocked; cells outside the world are.
    #[inline]
    #[must_use]
    pub fn is_blocked(&self, p: IVec3) -> bool {
        !self.is_passable(p)
    }

    /// Free bits of cells `lo .. hi` (`0 <= lo < hi <= size.y`, `hi - lo <= 64`) of the column
    /// starting at word `start`, bit 0 for cell `lo`.
    #[inline]
    fn run(&self, start: usize, lo: i32, hi: i32) -> u64 {
        let (word, offset) = (start + (lo as usize >> 6) * self.layer, lo as u32 & 63);
        let mut bits = self.free[word] >> offset;
        if offset != 0 && (lo as usize >> 6) + 1 < self.words {
            bits |= self.free[word + self.layer] << (64 - offset);
        }
        let count = (hi - lo) as u32;
        if count < 64 {
            bits &= (1u64 << count) - 1;
        }
        bits
    }

    /// [`VoxelWorld::column`], clipped to the world.
    #[inline]
    fn column_bits(&self, x: i32, z: i32, y0: i32, count: u32) -> ColumnBits {
        let count = count.min(64) as i32;
        if x < 0 || z < 0 || x >= self.size.x || z >= self.size.z {
            return ColumnBits::default();
        }
        let (lo, hi) = (y0.max(0), y0.saturating_add(count).min(self.size.y));
        if lo >= hi {
            return ColumnBits::default();
        }
        let free = self.run(self.column_start(x, z), lo, hi) << (lo - y0);
        let inside = low_bits((hi - lo) as u32) << (lo - y0);
        whole_cells(free, inside & !free)
    }
}

impl DenseWorld {
    /// [`VoxelWorld::columns_around`] near the edges of the world: column by column, each
    /// clipped.
    #[cold]
    #[inline(never)]
    fn columns_around_clipped(&self, x: i32, z: i32, y0: i32, count: u32) -> [ColumnBits; 9] {
        std::array::from_fn(|i| {
            match (x.checked_add(AROUND[i].0), z.checked_add(AROUND[i].1)) {
                (Some(x), Some(z)) => self.column_bits(x, z, y0, count),
                // A column beyond the ends of i32 lies outside the world.
                _ => ColumnBits::default(),
            }
        })
    }

    /// [`VoxelWorld::passable_block`] near the edges of the world: column by column, each
    /// clipped.
    #[cold]
    #[inline(never)]
    fn passable_block_clipped(&self, x: i32, z: i32, y0: i32, count: u32) -> u64 {
        let columns = self.columns_around_clipped(x, z, y0, count);
        let mut block = 0u64;
        for (column, &(dx, dz)) in columns.iter().zip(&AROUND) {
            block |= column.passable << (count * block_column(dx, dz));
        }
        block
    }

    /// The words before, at and after `centre`: the columns `z - 1`, `z` and `z + 1` of a
    /// row. Inside the world (see `around_inside`) they always exist.
    #[inline]
    fn three_words(&self, centre: usize) -> Option<[u64; 3]> {
        let start = centre.wrapping_sub(1);
        let words = self.free.get(start..start.wrapping_add(3))?;
        words.try_into().ok()
    }

    /// Whether the 3 x 3 columns centred on `x`, `z` and the run of `count` (at most 64)
    /// cells from `y0` lie inside the world.
    #[inline]
    fn around_inside(&self, x: i32, z: i32, y0: i32, count: i32) -> bool {
        // Unsigned, so that one comparison bounds each side: `x - 1` wraps to a huge value
        // below 1, and a negative `y0` reads as one above every height.
        let (inner_x, inner_z) = self.inner;
        ((x.wrapping_sub(1) as u32) < inner_x)
            & ((z.wrapping_sub(1) as u32) < inner_z)
            & (u64::from(y0 as u32) + u64::from(count as u32) <= u64::from(self.size.y as u32))
    }
}

/// Column bits of cells that are each wholly free or wholly blocked: every other bit
/// [`ColumnBits`] has (such as partial floors) stays clear.
#[inline]
#[allow(
    clippy::needless_update,
    reason = "the update keeps every bit a dense world never sets clear, whichever ColumnBits has"
)]
fn whole_cells(passable: u64, standable: u64) -> ColumnBits {
    ColumnBits {
        passable,
        standable,
        ..ColumnBits::default()
    }
}

#[inline]
fn low_bits(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

impl VoxelWorld for DenseWorld {
    #[inline]
    fn is_passable(&self, p: IVec3) -> bool {
        self.inside(p) && self.free[self.word_of(p)] & (1u64 << (p.y & 63)) != 0
    }

    #[inline]
    fn is_standable(&self, p: IVec3) -> bool {
        self.inside(p) && !self.is_passable(p)
    }

    #[inline]
    fn bounds(&self) -> Option<Bounds> {
        Some(Bounds::from_size(self.size))
    }

    #[inline]
    fn column(&self, x: i32, z: i32, y0: i32, count: u32) -> ColumnBits {
        self.column_bits(x, z, y0, count)
    }

    /// Nine runs read at fixed strides when the 3 x 3 columns and the run lie inside the
    /// world; otherwise column by column.
    #[expect(
        clippy::inline_always,
        reason = "once per flier expansion; inlined, the search keeps only the passable bits"
    )]
    #[inline(always)]
    fn columns_around(&self, x: i32, z: i32, y0: i32, count: u32) -> [ColumnBits; 9] {
        let count = count.min(64) as i32;
        if !self.around_inside(x, z, y0, count) {
            return self.columns_around_clipped(x, z, y0, count as u32);
        }
        let all = low_bits(count as u32);
        // The run's words and shift are the same in every column; a second word is read only
        // when the run crosses into it (a flier's run of 3 cells almost never does).
        let (first, offset) = (y0 as usize >> 6, y0 as u32 & 63);
        let centre = self.column_start(x, z) + first * self.layer;
        let mut out = [ColumnBits::default(); 9];
        if offset + count as u32 > 64 && first + 1 < self.words {
            for (bits, &step) in out.iter_mut().zip(&self.around) {
                let word = centre.wrapping_add_signed(step);
                let next = self.free[word + self.layer];
                let free = (self.free[word] >> offset | next << (64 - offset)) & all;
                *bits = whole_cells(free, all & !free);
            }
        } else {
            for (bits, &step) in out.iter_mut().zip(&self.around) {
                let free = self.free[centre.wrapping_add_signed(step)] >> offset & all;
                *bits = whole_cells(free, all & !free);
            }
        }
        out
    }

    /// The free bits of nine runs read at fixed strides, packed as they are read, when the
    /// 3 x 3 columns and the run lie inside the world; otherwise column by column.
    #[expect(
        clippy::inline_always,
        reason = "once per flier expansion, in the search loop"
    )]
    #[inline(always)]
    fn passable_block(&self, x: i32, z: i32, y0: i32, count: u32) -> u64 {
        let count = count.min(MAX_BLOCK_HEIGHT);
        if !self.around_inside(x, z, y0, count as i32) {
            return self.passable_block_clipped(x, z, y0, count);
        }
        let all = low_bits(count);
        // As in `columns_around`: one word per column unless the run crosses into the next.
        let (first, offset) = (y0 as usize >> 6, y0 as u32 & 63);
        let centre = self.column_start(x, z) + first * self.layer;
        let next_layer = (offset + count > 64).then_some(self.layer);
        let row_step = self.size.z as usize;
        let mut block = 0u64;
        // The three columns of a row (along `z`) are three consecutive words.
        for (dx, row) in [centre.wrapping_sub(row_step), centre, centre + row_step]
            .into_iter()
            .enumerate()
        {
            let Some(words) = self.three_words(row) else {
                return self.passable_block_clipped(x, z, y0, count);
            };
            let mut free = words.map(|word| word >> offset);
            if let Some(layer) = next_layer {
                let Some(above) = self.three_words(row + layer) else {
                    return self.passable_block_clipped(x, z, y0, count);
                };
                for (bits, word) in free.iter_mut().zip(above) {
                    *bits |= word << (64 - offset);
                }
            }
            for (dz, bits) in free.into_iter().enumerate() {
                block |= (bits & all) << ((3 * dx + dz) as u32 * count);
            }
        }
        block
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::block_by_cells;

    #[test]
    fn columns_agree_with_cells_across_word_boundaries_and_edges() {
        let size = IVec3::new(4, 150, 3);
        let mut world = DenseWorld::new(size).unwrap();
        let mut state = 99u64;
        for x in 0..size.x {
            for y in 0..size.y {
                for z in 0..size.z {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1);
                    if state >> 62 == 0 {
                        world.set_blocked(IVec3::new(x, y, z), true).unwrap();
                    }
                }
            }
        }
        for (x, z) in [(1, 1), (0, 0), (3, 2), (2, 1)] {
            for y0 in [-3, 0, 1, 60, 63, 64, 100, 130, 149, 200] {
                for count in [1, 3, 7, 64] {
                    let around = world.columns_around(x, z, y0, count);
                    for (i, (dx, dz)) in AROUND.iter().enumerate() {
                        for bit in 0..count {
                            let p = IVec3::new(x + dx, y0 + bit as i32, z + dz);
                            assert_eq!(
                                around[i].passable >> bit & 1 == 1,
                                world.is_passable(p),
                                "{p}"
                            );
                            assert_eq!(
                                around[i].standable >> bit & 1 == 1,
                                world.is_standable(p),
                                "{p}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// A world that answers only cell by cell, so that it reads its blocks through the
    /// trait's default [`VoxelWorld::passable_block`].
    struct CellByCell<'a>(&'a DenseWorld);

    impl VoxelWorld for CellByCell<'_> {
        fn is_passable(&self, p: IVec3) -> bool {
            self.0.is_passable(p)
        }

        fn is_standable(&self, p: IVec3) -> bool {
            self.0.is_standable(p)
        }
    }

    /// `passable_block` of a dense world is the default one and the cells' passability, at
    /// every corner and edge of the world, across word boundaries, outside the world on every
    /// side and at the ends of i32; the block's layout is that of `block_column`.
    #[test]
    fn passable_blocks_agree_with_the_default_and_with_cells() {
        let mut state = 0x5851_F42D_4C95_7F2Du64;
        let mut blocked_cells = 0;
        for size in [
            IVec3::new(4, 150, 3),
            IVec3::new(1, 5, 7),
            IVec3::new(6, 64, 6),
        ] {
            let mut world = DenseWorld::new(size).unwrap();
            for x in 0..size.x {
                for y in 0..size.y {
                    for z in 0..size.z {
                        state = state
                            .wrapping_mul(6_364_136_223_846_793_005)
                            .wrapping_add(1_442_695_040_888_963_407);
                        if state >> 62 == 0 {
                            world.set_blocked(IVec3::new(x, y, z), true).unwrap();
                            blocked_cells += 1;
                        }
                    }
                }
            }
            let near = |n: i32| [-2, -1, 0, 1, 2, n - 3, n - 2, n - 1, n, n + 1];
            let ends = [i32::MIN, i32::MIN + 1, i32::MAX - 1, i32::MAX];
            let xs = near(size.x).into_iter().chain(ends);
            for x in xs {
                let zs = near(size.z).into_iter().chain(ends);
                for z in zs {
                    let ys = [
                        -8, -3, -1, 0, 1, 58, 61, 62, 63, 64, 100, 143, 147, 149, 200,
                    ];
                    for y0 in ys.into_iter().chain(ends) {
                        for count in 1..=MAX_BLOCK_HEIGHT + 1 {
                            let block = world.passable_block(x, z, y0, count);
                            let by_default = CellByCell(&world).passable_block(x, z, y0, count);
                            assert_eq!(block, by_default, "{x} {z} {y0} {count}");
                            let by_cells = block_by_cells(&world, x, z, y0, count);
                            assert_eq!(block, by_cells, "{x} {z} {y0} {count}");
                        }
                    }
                }
            }
        }
        assert!(blocked_cells > 1000);
    }

    #[test]
    fn huge_sizes_fail_before_allocating() {
        assert!(DenseWorld::new(IVec3::new(1 << 20, 1 << 20, 1 << 20)).is_err());
        assert!(DenseWorld::new(IVec3::new(5, 0, 5)).is_err());
        assert!(DenseWorld::new(IVec3::new(i32::MAX, i32::MAX, i32::MAX)).is_err());
        assert_eq!(
            DenseWorld::bytes_for(IVec3::new(i32::MAX, i32::MAX, i32::MAX)),
            u64::MAX
        );
    }

    /// The cap counts the words a world takes, not its cells (issue 26 item 6): a world one
    /// cell tall takes a whole word per column, so 2^31 cells of it would be 16 GiB.
    #[test]
    fn the_cap_counts_bytes_not_cells() {
        assert_eq!(DenseWorld::bytes_for(IVec3::new(512, 256, 512)), 8 << 20);
        assert_eq!(DenseWorld::bytes_for(IVec3::new(10, 1, 10)), 800);
        assert_eq!(DenseWorld::bytes_for(IVec3::new(10, 65, 10)), 1600);
        let flat = IVec3::new(46_340, 1, 46_340);
        assert!(Bounds::from_size(flat).volume() <= 1 << 31);
        let err = DenseWorld::check_size(flat).unwrap_err().to_string();
        assert!(
            err.contains("17179164800") && err.contains("bytes"),
            "{err}"
        );
        // The largest world the examples build fits exactly.
        assert_eq!(
            DenseWorld::bytes_for(IVec3::new(2048, 1024, 2048)),
            MAX_DENSE_BYTES
        );
        assert!(DenseWorld::check_size(IVec3::new(2048, 1024, 2048)).is_ok());
        assert!(DenseWorld::check_size(IVec3::new(2048, 1025, 2048)).is_err());
    }
}
