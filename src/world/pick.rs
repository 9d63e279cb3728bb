//! Picking query positions: [`surface_feet`] and [`pick_pairs`] on any surface, and
//! [`ground_feet`] and [`pick_ground_pairs`] on ground worth standing on
//! ([`is_natural_ground`]), for benchmarks, examples and crowds on any world (procedural
//! terrain and loaded Minecraft saves alike).
//!
//! ## Ground worth standing on
//!
//! A route between two random surface positions of a real world is a fair test only if an
//! NPC could be standing at both: [`is_natural_ground`] refuses
//!
//! - positions **under water**: the feet cell is water (a lake or sea floor, or a wade);
//!   the highest valid feet position of a sea column is its floor, which no walker stands on
//!   by choice;
//! - positions **on roofs of unloaded chunks**: unloaded cells are
//!   [`Block::Barrier`], neither passable nor standable, so no valid
//!   feet position stands on one and no column of an unloaded chunk has a surface at all.
//!
//! - positions **on tree crowns**: the floor under the feet is [`Block::Leaves`],
//!   as worlds that store block kinds report it ([`VoxelWorld::block`]); loaded Minecraft
//!   saves give every kind of leaves that kind.

use std::ops::RangeInclusive;

use glam::IVec3;

use crate::moves::agent::Agent;
use crate::world::chunked::Block;
use crate::world::key::{KEY_MAX, KEY_MIN};
use crate::world::{TerrainFlags, VoxelWorld, is_valid_feet};

/// The y range scanned by [`surface_feet`] in a world without bounds: Minecraft's build
/// limits, `-64 ..= 319`.
pub const UNBOUNDED_SCAN: RangeInclusive<i32> = -64..=319;

/// How many random tries [`pick_pairs`] makes per pair asked for before it gives up.
const TRIES_PER_PAIR: usize = 400;

/// The most pairs [`pick_pairs`] returns, whatever count is asked for: 2^20 pairs take 24 MiB,
/// more than any benchmark or crowd needs, and a larger count (up to `usize::MAX`) would only
/// fill memory.
pub const MAX_PAIRS: usize = 1 << 20;

/// The highest valid feet position of column `(x, z)` for `agent`, if any.
///
/// Scans the column from the top of the world's bounds down (for a world without bounds,
/// from y = 319 down to -64, see [`UNBOUNDED_SCAN`]). The highest position may be a tree
/// top or a cave floor under an opening; it is always a valid feet position (see
/// [`is_valid_feet`]; for an agent wider than a block, one where its box fits and stands,
/// [`Agent::is_valid_position`], with `(x, z)` the corner column of its box).
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::{Agent, Block, ChunkedWorld};
/// use voxnav::world::pick::surface_feet;
///
/// let mut world = ChunkedWorld::with_size(IVec3::new(4, 8, 4))?;
/// world.fill(IVec3::ZERO, IVec3::new(3, 2, 3), Block::Solid)?;
/// assert_eq!(surface_feet(&world, &Agent::default(), 1, 1), Some(IVec3::new(1, 3, 1)));
/// assert_eq!(surface_feet(&world, &Agent::default(), 9, 1), None);
/// # Ok::<(), voxnav::Error>(())
/// ```
pub fn surface_feet<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    x: i32,
    z: i32,
) -> Option<IVec3> {
    // Valid feet positions lie in the key range: no column outside it has one.
    if !(KEY_MIN.x..=KEY_MAX.x).contains(&x) || !(KEY_MIN.z..=KEY_MAX.z).contains(&z) {
        return None;
    }
    let (low, high) = match world.bounds() {
        Some(bounds) => {
            let inside = (bounds.min.x..bounds.max.x).contains(&x)
                && (bounds.min.z..bounds.max.z).contains(&z);
            if !inside {
                return None;
            }
            // The floor must be inside too, so the lowest feet is one above the bottom.
            (
                bounds.min.y.saturating_add(1),
                bounds.max.y.saturating_sub(1),
            )
        }
        None => (*UNBOUNDED_SCAN.start(), *UNBOUNDED_SCAN.end()),
    };
    // Valid feet positions lie in the key range: scanning beyond it would find none.
    let (low, high) = (low.max(KEY_MIN.y), high.min(KEY_MAX.y));
    (low..=high)
        .rev()
        .map(|y| IVec3::new(x, y, z))
        // A wider body stands where any floor under its box holds it up, which the corner
        // column alone does not tell.
        .find(|&feet| {
            if agent.width > 1 {
                agent.is_valid_position(world, feet)
            } else {
                is_valid_feet(world, feet, agent.height)
            }
        })
}

/// `count` deterministic `(start, goal)` pairs of surface feet positions (see
/// [`surface_feet`]) whose horizontal Euclidean distance `sqrt(dx^2 + dz^2)` lies in
/// `distance`, in blocks.
///
/// The same world, agent, seed, count and range give the same pairs on every machine (only
/// exact arithmetic picks them). Pairs are not checked for reachability: that is the
/// search's job. Columns are drawn inside the world's bounds; a world without bounds draws
/// them from `-512 ..= 511` on x and z.
///
/// Returns fewer than `count` pairs only when the world offers too few: after
/// `400 * count` failed tries it stops, so it never loops forever (an empty or reversed
/// `distance` range gives no pairs). At most [`MAX_PAIRS`] pairs are returned. Any range of
/// distances is accepted: offsets that would leave the `i32` range are simply not drawn.
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::{Agent, Block, ChunkedWorld};
/// use voxnav::world::pick::pick_pairs;
///
/// let mut world = ChunkedWorld::with_size(IVec3::new(64, 8, 64))?;
/// world.fill(IVec3::ZERO, IVec3::new(63, 0, 63), Block::Solid)?;
/// let pairs = pick_pairs(&world, &Agent::default(), 9, 5, 10.0..=20.0);
/// assert_eq!(pairs.len(), 5);
/// for (start, goal) in pairs {
///     let d = ((start.x - goal.x).pow(2) as f32 + (start.z - goal.z).pow(2) as f32).sqrt();
///     assert!((10.0..=20.0).contains(&d));
/// }
/// # Ok::<(), voxnav::Error>(())
/// ```
pub fn pick_pairs<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    seed: u64,
    count: usize,
    distance: RangeInclusive<f32>,
) -> Vec<(IVec3, IVec3)> {
    pick_pairs_by(world, seed, count, distance, |x, z| {
        surface_feet(world, agent, x, z)
    })
}

/// Whether the valid feet position `feet` is ground worth standing on (see the
/// [module docs](self)): its feet cell is not water and it does not stand on leaves.
#[inline]
#[must_use]
pub fn is_natural_ground<W: VoxelWorld + ?Sized>(world: &W, feet: IVec3) -> bool {
    !world.terrain(feet).contains(TerrainFlags::IN_WATER)
        && world.block(feet - IVec3::Y) != Some(Block::Leaves)
}

/// The highest valid feet position of column `(x, z)` for `agent` ([`surface_feet`]) when
/// it is natural ground ([`is_natural_ground`]); `None` for a column whose surface is under
/// water, or that has none.
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::{Agent, Block, ChunkedWorld};
/// use voxnav::world::pick::{ground_feet, surface_feet};
///
/// let mut world = ChunkedWorld::with_size(IVec3::new(4, 8, 4))?;
/// world.fill(IVec3::ZERO, IVec3::new(3, 0, 3), Block::Solid)?;
/// world.fill(IVec3::new(2, 1, 0), IVec3::new(3, 3, 3), Block::Water)?; // a lake 3 deep
/// let agent = Agent::default();
/// assert_eq!(ground_feet(&world, &agent, 0, 0), Some(IVec3::new(0, 1, 0)));
/// assert_eq!(surface_feet(&world, &agent, 2, 0), Some(IVec3::new(2, 1, 0))); // its floor
/// assert_eq!(ground_feet(&world, &agent, 2, 0), None);
/// # Ok::<(), voxnav::Error>(())
/// ```
pub fn ground_feet<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    x: i32,
    z: i32,
) -> Option<IVec3> {
    surface_feet(world, agent, x, z).filter(|&feet| is_natural_ground(world, feet))
}

/// As [`pick_pairs`], but both ends of every pair are natural ground ([`ground_feet`]):
/// never under water, never on a roof of an unloaded chunk. The same world, agent, seed,
/// count and range give the same pairs on every machine.
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::{Agent, Block, ChunkedWorld, VoxelWorld};
/// use voxnav::world::TerrainFlags;
/// use voxnav::world::pick::pick_ground_pairs;
///
/// let mut world = ChunkedWorld::with_size(IVec3::new(32, 8, 32))?;
/// world.fill(IVec3::ZERO, IVec3::new(31, 0, 31), Block::Solid)?;
/// world.fill(IVec3::new(0, 1, 0), IVec3::new(15, 3, 31), Block::Water)?; // half is a lake
/// let pairs = pick_ground_pairs(&world, &Agent::default(), 3, 10, 2.0..=12.0);
/// assert_eq!(pairs.len(), 10);
/// for (start, goal) in pairs {
///     assert!(start.x >= 16 && goal.x >= 16);
/// }
/// # Ok::<(), voxnav::Error>(())
/// ```
pub fn pick_ground_pairs<W: VoxelWorld + ?Sized>(
    world: &W,
    agent: &Agent,
    seed: u64,
    count: usize,
    distance: RangeInclusive<f32>,
) -> Vec<(IVec3, IVec3)> {
    pick_pairs_by(world, seed, count, distance, |x, z| {
        ground_feet(world, agent, x, z)
    })
}

/// The pair drawing of [`pick_pairs`], with `feet_of` choosing the position of a column.
fn pick_pairs_by<W: VoxelWorld + ?Sized>(
    world: &W,
    seed: u64,
    count: usize,
    distance: RangeInclusive<f32>,
    feet_of: impl Fn(i32, i32) -> Option<IVec3>,
) -> Vec<(IVec3, IVec3)> {
    let count = count.min(MAX_PAIRS);
    let mut pairs = Vec::with_capacity(count);
    let (near, far) = (*distance.start(), *distance.end());
    if !(near <= far && far >= 0.0 && far.is_finite()) {
        return pairs;
    }
    let (min, max) = match world.bounds() {
        Some(bounds) => (bounds.min, bounds.max),
        None => (IVec3::splat(-512), IVec3::splat(512)),
    };
    // Differences in 64 bits: bounds may span the whole i32 range.
    let side = |lo: i32, hi: i32| (i64::from(hi) - i64::from(lo)).max(0) as u64;
    let (width, depth) = (side(min.x, max.x), side(min.z, max.z));
    if width == 0 || depth == 0 {
        return pairs;
    }
    let mut rng = SplitMix64::new(seed);
    let mut tries = count.saturating_mul(TRIES_PER_PAIR);
    while pairs.len() < count && tries > 0 {
        tries -= 1;
        // Below the side, so inside the bounds and inside i32.
        let x = (i64::from(min.x) + rng.below(width) as i64) as i32;
        let z = (i64::from(min.z) + rng.below(depth) as i64) as i32;
        let Some((dx, dz)) = random_offset(&mut rng, near.max(0.0), far) else {
            continue;
        };
        let (Some(goal_x), Some(goal_z)) = (x.checked_add(dx), z.checked_add(dz)) else {
            continue;
        };
        let Some(start) = feet_of(x, z) else {
            continue;
        };
        let Some(goal) = feet_of(goal_x, goal_z) else {
            continue;
        };
        pairs.push((start, goal));
    }
    pairs
}

/// A horizontal offset whose length lies in `near..=far`: a uniform length and a uniform
/// direction, drawn without trigonometry (whose last bits differ between platforms).
fn random_offset(rng: &mut SplitMix64, near: f32, far: f32) -> Option<(i32, i32)> {
    let length = near + (far - near) * rng.next_f32();
    // A point in the unit disc by rejection gives a uniform direction.
    let (u, v) = (2.0 * rng.next_f32() - 1.0, 2.0 * rng.next_f32() - 1.0);
    let norm = (u * u + v * v).sqrt();
    if !(0.01..=1.0).contains(&norm) {
        return None;
    }
    let (dx, dz) = (
        (u / norm * length).round() as i32,
        (v / norm * length).round() as i32,
    );
    // Squared in 64 bits (a far range gives offsets near i32::MAX); below 2^31 the `f32`
    // conversion rounds exactly as it did from i32, so the pairs drawn do not change.
    let squared = u64::from(dx.unsigned_abs()).pow(2) + u64::from(dz.unsigned_abs()).pow(2);
    let rounded = (squared as f32).sqrt();
    (near..=far).contains(&rounded).then_some((dx, dz))
}

/// A small, fast, deterministic random number generator (`SplitMix64` by Steele, Lea and Flood).
///
/// The same seed gives the same numbers on every machine: it uses only integer arithmetic,
/// and [`SplitMix64::next_f32`] converts exactly. Not for cryptography.
///
/// ```
/// use voxnav::world::pick::SplitMix64;
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// let f = a.next_f32();
/// assert!((0.0..1.0).contains(&f));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator starting from `seed` (any value, zero included).
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.state)
    }

    /// A number in `0..n`, without modulo bias worth mentioning (Lemire's multiply-shift).
    /// Returns 0 when `n` is 0.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A number in `[0, 1)` with 24 random bits (every value is exact in `f32`).
    #[inline]
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (1.0 / (1u32 << 24) as f32)
    }
}

/// The `SplitMix64` finaliser: a good 64-bit hash of `z`.
#[inline]
pub(crate) const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod rng_tests {
    use super::*;

    #[test]
    fn known_first_outputs_for_seed_zero() {
        // The reference SplitMix64 sequence for seed 0.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = SplitMix64::new(99);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let v = rng.below(7);
            assert!(v < 7);
            seen[v as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(rng.below(0), 0);
    }
}
