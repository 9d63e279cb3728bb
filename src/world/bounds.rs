//! [`Bounds`]: the finite extent of a world.

use glam::IVec3;

/// An axis-aligned box of cells, `min` inclusive, `max` exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bounds {
    /// The lowest corner (inclusive).
    pub min: IVec3,
    /// The highest corner (exclusive).
    pub max: IVec3,
}

impl Bounds {
    /// Bounds from `min` (inclusive) to `max` (exclusive).
    #[must_use]
    pub const fn new(min: IVec3, max: IVec3) -> Self {
        Self { min, max }
    }

    /// Bounds from the origin to `size` (exclusive).
    #[must_use]
    pub const fn from_size(size: IVec3) -> Self {
        Self {
            min: IVec3::ZERO,
            max: size,
        }
    }

    /// Whether `p` lies inside.
    #[inline]
    #[must_use]
    pub fn contains(&self, p: IVec3) -> bool {
        p.cmpge(self.min).all() && p.cmplt(self.max).all()
    }

    /// The size along each axis: zero where `max <= min`, and `i32::MAX` where the box is
    /// wider than that (it can be up to `2^32 - 1` cells wide; [`Bounds::volume`] counts
    /// those exactly).
    #[inline]
    #[must_use]
    pub fn size(&self) -> IVec3 {
        let s = self.wide_size();
        IVec3::new(
            s[0].min(i32::MAX as u64) as i32,
            s[1].min(i32::MAX as u64) as i32,
            s[2].min(i32::MAX as u64) as i32,
        )
    }

    /// Whether the box holds no cell (`max <= min` along some axis).
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.max.cmple(self.min).any()
    }

    /// The number of cells inside. Exact for every box up to `u64::MAX` cells (every box
    /// narrower than 2^21 along one axis, for one); larger boxes saturate at `u64::MAX`.
    #[must_use]
    pub fn volume(&self) -> u64 {
        let [x, y, z] = self.wide_size().map(u128::from);
        u64::try_from(x * y * z).unwrap_or(u64::MAX)
    }

    /// The size along each axis, exact: the differences are taken in 64 bits.
    fn wide_size(&self) -> [u64; 3] {
        let (min, max) = (self.min.as_i64vec3(), self.max.as_i64vec3());
        let d = (max - min).max(glam::I64Vec3::ZERO);
        [d.x as u64, d.y as u64, d.z as u64]
    }
}
