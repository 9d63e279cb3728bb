//! Exact 64-bit keys for positions.
//!
//! x and z take 26 bits each, y takes 12: every position with x and z in `-2^25 .. 2^25`
//! and y in `-2^11 .. 2^11` has its own key. That covers a Minecraft world (x and z within
//! 30 million, y within -64 .. 320). Positions outside that range are not searched.

use glam::IVec3;

const XZ_BITS: u32 = 26;
const Y_BITS: u32 = 12;
const XZ_HALF: i32 = 1 << (XZ_BITS - 1);
const Y_HALF: i32 = 1 << (Y_BITS - 1);
const XZ_MASK: u64 = (1 << XZ_BITS) - 1;
const Y_MASK: u64 = (1 << Y_BITS) - 1;

/// The lowest corner of the key range (inclusive).
pub const KEY_MIN: IVec3 = IVec3::new(-XZ_HALF, -Y_HALF, -XZ_HALF);
/// The highest corner of the key range (inclusive).
pub const KEY_MAX: IVec3 = IVec3::new(XZ_HALF - 1, Y_HALF - 1, XZ_HALF - 1);

/// Whether `p` can be packed into a key without loss.
#[inline]
#[must_use]
pub fn in_key_range(p: IVec3) -> bool {
    (-XZ_HALF..XZ_HALF).contains(&p.x)
        && (-XZ_HALF..XZ_HALF).contains(&p.z)
        && (-Y_HALF..Y_HALF).contains(&p.y)
}

/// Packs `p` into a key. Only meaningful when [`in_key_range`] holds.
#[inline]
#[must_use]
pub fn pack(p: IVec3) -> u64 {
    let x = (p.x + XZ_HALF) as u64 & XZ_MASK;
    let z = (p.z + XZ_HALF) as u64 & XZ_MASK;
    let y = (p.y + Y_HALF) as u64 & Y_MASK;
    (x << (XZ_BITS + Y_BITS)) | (z << Y_BITS) | y
}

/// Unpacks a key made by [`pack`].
#[inline]
#[must_use]
pub fn unpack(key: u64) -> IVec3 {
    let x = ((key >> (XZ_BITS + Y_BITS)) & XZ_MASK) as i32 - XZ_HALF;
    let z = ((key >> Y_BITS) & XZ_MASK) as i32 - XZ_HALF;
    let y = (key & Y_MASK) as i32 - Y_HALF;
    IVec3::new(x, y, z)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_at_the_corners_of_the_range() {
        for p in [
            IVec3::ZERO,
            IVec3::new(-XZ_HALF, -Y_HALF, -XZ_HALF),
            IVec3::new(XZ_HALF - 1, Y_HALF - 1, XZ_HALF - 1),
            IVec3::new(-30_000_000, -64, 29_999_999),
            IVec3::new(5, -1, -7),
        ] {
            assert!(in_key_range(p));
            assert_eq!(unpack(pack(p)), p);
        }
        assert!(!in_key_range(IVec3::new(XZ_HALF, 0, 0)));
        assert!(!in_key_range(IVec3::new(0, -Y_HALF - 1, 0)));
    }
}
