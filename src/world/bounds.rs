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

    /// The size along each axis (zero where `max <= min`).
    #[inline]
    #[must_use]
    pub fn size(&self) -> IVec3 {
        (self.max - self.min).max(IVec3::ZERO)
    }

    /// The number of cells inside, as `u64` (no overflow for any `i32` box).
    #[must_use]
    pub fn volume(&self) -> u64 {
        let s = self.size();
        s.x as u64 * s.y as u64 * s.z as u64
    }
}
